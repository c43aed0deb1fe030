"""The fleet dashboard's HTTP API (docs/fleet.md): the list of instances, one instance's snapshot, the diff of two,
and what happens when an instance dies."""

from __future__ import annotations

import signal

import pytest
from fleet_support import fleet_instances, running_fleet, start_fleet, start_instance, wait_live
from redis_support import RedisServer
from support import error_code, http, request_http, store_root, unique_key, wait_for

STORE = "app/memory"


@pytest.fixture(scope="module")
def redis():
    with RedisServer(password="fleet-pw") as server:
        yield server


@pytest.fixture(scope="module")
def fleet(redis):
    with running_fleet(redis, ("shop-1",), ("shop-2",)) as servers:
        yield servers


def test_the_fleet_lists_every_instance_with_its_presence(fleet):
    one, _, dashboard = fleet
    listed = fleet_instances(dashboard)
    shop = listed["shop-1"]
    assert shop["state"] == "live"
    assert shop["pid"] == one.pid
    assert shop["readOnly"] is False
    assert shop["name"] == "keyscope demo"
    for field in ("host", "version", "startedAt", "lastSeen", "seq", "rate"):
        assert field in shop, field
    assert http(dashboard, "GET", "/api/fleet").json()["fleet"] == "e2e"


def test_every_endpoint_needs_the_token(fleet):
    _, _, dashboard = fleet
    for path in ("/api/fleet", "/api/snapshot?instance=shop-1", "/api/fleet/diff?a=shop-1&b=shop-2"):
        assert http(dashboard, "GET", path, token=None).status == 401, path


def test_one_instances_snapshot_is_its_state(fleet):
    one, _, dashboard = fleet
    key = unique_key("fleet_snapshot")
    assert request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": 42}).status == 200

    def mirrored():
        snapshot = http(dashboard, "GET", "/api/snapshot?instance=shop-1").json()
        return snapshot if store_root(snapshot, STORE).get(key) == 42 else None

    snapshot = wait_for(mirrored, "the write in shop-1's snapshot on the dashboard")
    assert snapshot["type"] == "snapshot" and snapshot["instance"] == "shop-1"
    missing = http(dashboard, "GET", "/api/snapshot")
    assert missing.status == 400 and missing.json()["error"]["code"] == "bad_request"
    unknown = http(dashboard, "GET", "/api/snapshot?instance=shop-9")
    assert unknown.status == 404 and unknown.json()["error"]["code"] == "unknown_instance"
    assert "shop-1" in unknown.json()["error"]["message"]


def test_the_diff_names_each_differing_path(fleet):
    one, two, dashboard = fleet
    key = unique_key("fleet_diff")
    request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": {"a": 1, "same": True}})
    request_http(two, {"type": "write", "store": STORE, "op": "set", "path": key, "value": {"a": 2, "same": True}})

    def differs():
        diff = http(dashboard, "GET", f"/api/fleet/diff?a=shop-1&b=shop-2").json()
        paths = {item["path"]: item for item in diff["stores"].get(STORE, [])}
        return diff if f"{key}.a" in paths else None

    diff = wait_for(differs, "the diff to show the differing key")
    items = {item["path"]: item for item in diff["stores"][STORE]}
    assert items[f"{key}.a"]["a"] == 1 and items[f"{key}.a"]["b"] == 2
    assert f"{key}.same" not in items and key not in items
    assert diff["a"] == "shop-1" and diff["b"] == "shop-2"
    assert http(dashboard, "GET", "/api/fleet/diff?a=shop-1").status == 400
    assert http(dashboard, "GET", "/api/fleet/diff?a=shop-1&b=nope").json()["error"]["code"] == "unknown_instance"


def test_a_killed_instance_is_gone_within_10_s_and_its_state_stays_readable(redis):
    victim = start_instance(redis, "victim", fleet="e2e-kill")
    dashboard = start_fleet(redis, fleet="e2e-kill")
    try:
        wait_live(dashboard, "victim")
        key = unique_key("last_words")
        request_http(victim, {"type": "write", "store": STORE, "op": "set", "path": key, "value": "bye"})
        wait_for(
            lambda: store_root(http(dashboard, "GET", "/api/snapshot?instance=victim").json(), STORE).get(key),
            "the last write mirrored")
        victim.process.send_signal(signal.SIGKILL)
        # Gone after 6 s of silence (FleetKeys.goneAfter); the wait is a guard, not a measurement.
        wait_for(lambda: fleet_instances(dashboard)["victim"]["state"] == "gone", "victim gone", timeout=30)
        snapshot = http(dashboard, "GET", "/api/snapshot?instance=victim")
        assert snapshot.status == 200
        assert store_root(snapshot.json(), STORE)[key] == "bye"
    finally:
        dashboard.stop()
        victim.stop()


def test_a_stopped_instance_is_gone_at_once(redis):
    leaving = start_instance(redis, "leaving", fleet="e2e-stop")
    dashboard = start_fleet(redis, fleet="e2e-stop")
    try:
        wait_live(dashboard, "leaving")
        leaving.stop()
        wait_for(lambda: fleet_instances(dashboard)["leaving"]["state"] == "gone", "leaving gone", timeout=5)
    finally:
        dashboard.stop()


def test_a_request_over_http_reaches_one_instance_or_all(fleet):
    one, two, dashboard = fleet
    key = unique_key("fleet_http_request")
    write = {"id": "h", "type": "write", "store": STORE, "op": "set", "path": key, "value": 9}
    answered = http(dashboard, "POST", "/api/request?instance=shop-1", body=write)
    assert answered.status == 200, answered.describe()
    assert answered.json()["ok"] is True and answered.json()["id"] == "h"
    assert store_root(http(one, "GET", "/api/snapshot").json(), STORE)[key] == 9
    refused = http(dashboard, "POST", "/api/request?instance=shop-2",
                   body={"id": 2, "type": "write", "store": STORE, "op": "set", "path": "a..b", "value": 1})
    assert refused.status == 400 and refused.json()["error"]["code"] == "bad_path"
    everywhere = http(dashboard, "POST", "/api/request?instance=*", body={**write, "value": 10})
    assert everywhere.status == 200, everywhere.describe()
    answers = everywhere.json()["result"]["instances"]
    assert answers["shop-1"]["ok"] is True and answers["shop-2"]["ok"] is True
    assert store_root(http(two, "GET", "/api/snapshot").json(), STORE)[key] == 10
    assert error_code(http(dashboard, "POST", "/api/request?instance=shop-9", body=write)) == "unknown_instance"
    assert error_code(http(dashboard, "POST", "/api/request", body=write)) == "bad_request"

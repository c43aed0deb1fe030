"""A fleet of five real instances (four `keyscope serve --demo`, one of them read-only, and KeyscopeHostProbe, a
service embedding the inspector with a FleetMember) behind one `keyscope fleet`: presence, the merged view, the
protocol's requests and errors carried to an instance, broadcast tunable edits with each instance's answer, and the
diff (docs/fleet.md)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
from fleet_support import FLEET, fleet_instances, start_fleet, start_instance, wait_live
from redis_support import RedisServer
from support import StreamClient, http, recv_json, store_root, unique_key, wait_for, ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
from loadsupport import Probe  # noqa: E402  (the embedding host of the load tests, not copied)

DEMOS = ["shop-1", "shop-2", "shop-3", "shop-4"]
READ_ONLY = "shop-4"
PROBE = "probe-1"
STORE = "app/memory"


@pytest.fixture(scope="module")
def fleet():
    with RedisServer() as redis:
        servers = [start_instance(redis, name, *(["--read-only"] if name == READ_ONLY else [])) for name in DEMOS]
        state = tempfile.mkdtemp(prefix="keyscope-probe-")
        probe = Probe(["--state", state, "--port", "0", "--redis", redis.url, "--fleet", FLEET, "--instance", PROBE])
        dashboard = start_fleet(redis)
        try:
            probe.wait_for(lambda p: p.port, "the probe's inspector")
            wait_live(dashboard, *DEMOS, PROBE, timeout=30)
            yield dict(zip(DEMOS, servers)), probe, dashboard
        finally:
            dashboard.stop()
            probe.kill()
            for server in servers:
                server.stop()


def test_all_five_are_listed_live_with_who_they_are(fleet):
    demos, probe, dashboard = fleet
    listed = fleet_instances(dashboard)
    assert set(listed) == {*DEMOS, PROBE}
    assert listed[PROBE]["pid"] == probe.pid and listed[PROBE]["name"] == "keyscope host probe"
    assert listed[READ_ONLY]["readOnly"] is True
    assert all(listed[name]["pid"] == demos[name].pid for name in DEMOS)


def test_the_merged_stream_carries_every_instance(fleet):
    _, _, dashboard = fleet
    with ws_connect(dashboard, query="instance=*") as ws:
        assert recv_json(ws)["type"] == "hello"
        seen: set[str] = set()
        while seen != {*DEMOS, PROBE}:
            message = recv_json(ws, 15)
            if message["type"] == "changes":
                seen.update(entry["instance"] for entry in message["entries"])


def test_requests_through_the_fleet_are_validated_and_applied_by_the_instance(fleet):
    demos, _, dashboard = fleet
    client = StreamClient.open(dashboard, query="instance=shop-1")
    try:
        key = unique_key("fleet_txn")
        done = client.request({"type": "transaction", "store": STORE, "ops": [
            {"op": "set", "path": f"{key}.a", "value": 1}, {"op": "set", "path": f"{key}.b", "value": [1, 2]}]})
        assert done["ok"] is True, done
        seq = done["result"]["seq"]
        wait_for(lambda: client.read(5) and client.last_seq >= seq, "the transaction's entry")
        entry = next(e for e in client.entries if e["seq"] == seq)
        assert entry["txn"] and len(entry["patches"]) == 2
        assert store_root(http(demos["shop-1"], "GET", "/api/snapshot").json(), STORE)[key] == {"a": 1, "b": [1, 2]}
        reverted = client.request({"type": "revert", "seq": seq})
        assert reverted["ok"] is True, reverted
        conflict = client.request({"type": "revert", "seq": seq})
        assert conflict["error"]["code"] == "conflict"
        for request, code in [
            ({"type": "nope"}, "unknown_type"),
            ({"type": "write", "store": "app/nope", "op": "set", "path": "a", "value": 1}, "unknown_store"),
            ({"type": "write", "store": STORE, "op": "set", "path": "a..b", "value": 1}, "bad_path"),
            ({"type": "write", "store": STORE, "op": "set", "path": "cart.total.x", "value": 1}, "type_mismatch"),
            ({"type": "write", "store": STORE, "op": "insert", "path": f"{key}[9]", "value": 1}, "type_mismatch"),
        ]:
            reply = client.request(request)
            assert reply["ok"] is False and reply["error"]["code"] == code, (request, reply)
        resynced = client.request({"type": "resync"})
        assert resynced["ok"] is True
        assert client.snapshots[-1]["instance"] == "shop-1"
        client.ws.send("{not json")
        bad = client.wait_reply(None)
        assert bad["error"]["code"] == "bad_json"
    finally:
        client.close()


def test_a_tunable_edit_to_every_instance_shows_each_answer(fleet):
    demos, _, dashboard = fleet
    value = unique_key("fleet-note")
    with ws_connect(dashboard, query="instance=*") as ws:
        recv_json(ws)
        ws.send('{"id": "t", "type": "tune", "instance": "*", "key": "fleet_note", "text": "%s"}' % value)
        reply = wait_for(lambda: _reply(ws, "t"), "the broadcast's reply", timeout=15)
    answers = reply["result"]["instances"]
    assert set(answers) == {*DEMOS, PROBE}
    assert answers[READ_ONLY]["error"]["code"] == "read_only"
    for name in DEMOS:
        if name != READ_ONLY:
            assert answers[name]["ok"] is True, answers[name]
            assert http(demos[name], "GET", "/tune").json()["fleet_note"] == value
    assert http(demos[READ_ONLY], "GET", "/tune").json().get("fleet_note") != value
    assert "ok" in answers[PROBE]


def _reply(ws, request_id):
    message = recv_json(ws, 10)
    return message if message["type"] == "reply" and message["id"] == request_id else None


def test_the_diff_of_a_demo_and_the_probe_lists_the_stores_on_one_side(fleet):
    _, _, dashboard = fleet
    diff = http(dashboard, "GET", f"/api/fleet/diff?a=shop-1&b={PROBE}").json()
    assert STORE in diff["onlyIn"]["a"]
    # The probe's stores are its file stores: each is only in B, or compared with the demo's file of the same name
    # (each process keeps its files in its own folder).
    probe_stores = {store["id"] for store in http(dashboard, "GET", f"/api/snapshot?instance={PROBE}").json()["stores"]}
    assert probe_stores and all(store.startswith("app/file:") for store in probe_stores), probe_stores
    assert probe_stores == set(diff["onlyIn"]["b"]) | set(diff["pairs"].values()), diff
    for a_id, b_id in diff["pairs"].items():
        assert a_id.rsplit("/", 1)[1] == b_id.rsplit("/", 1)[1], diff["pairs"]

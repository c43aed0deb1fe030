"""Each instance's feature panels through the fleet dashboard (docs/fleet.md "Feature panels through the fleet"):
tunables, preferences and watches, carried to the instance that `?instance=ID` names, and `keyscope tune
--instance` on top of them; secrets never cross Redis."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from cli_child import BackgroundCLI, cli_env, run_cli
from fleet_support import running_fleet
from redis_support import RedisServer
from support import error_code, http, unique_key, wait_for


@pytest.fixture(scope="module")
def fleet():
    with RedisServer() as redis, running_fleet(
        redis, ("shop-1",), ("shop-2", "--read-only"), ("shop-3", "--reveal-secrets")
    ) as servers:
        yield servers


def cli(dashboard, *args: str):
    return run_cli(list(args), cli_env(dashboard.home))


def test_the_tunables_panel_of_an_instance_is_its_own(fleet):
    one, _, _, dashboard = fleet
    carried = http(dashboard, "GET", "/api/tunables?instance=shop-1")
    assert carried.status == 200, carried.body
    own = http(one, "GET", "/api/tunables").json()
    panel = carried.json()
    assert panel["defaults"] == own["defaults"] and panel["schema"] == own["schema"]
    assert panel["store"] == own["store"]


def test_a_tunable_set_through_the_fleet_lands_on_that_instance_only(fleet):
    one, two, _, dashboard = fleet
    key = unique_key("fleet_tune")
    text = "Hello, world/2"
    put = http(dashboard, "PUT", f"/tune/{key}/{quote(text, safe='')}?instance=shop-1")
    assert put.status == 200, put.body
    assert put.json()["value"] == text and isinstance(put.json()["seq"], int)
    assert http(one, "GET", "/tune").json()[key] == text
    assert key not in http(two, "GET", "/tune").json()
    assert http(dashboard, "GET", "/tune?instance=shop-1").json()[key] == text
    removed = http(dashboard, "DELETE", f"/tune/{key}?instance=shop-1")
    assert removed.status == 200, removed.body
    assert key not in http(one, "GET", "/tune").json()


def test_a_read_only_instance_refuses_carried_writes_and_serves_reads(fleet):
    _, two, _, dashboard = fleet
    refused = http(dashboard, "PUT", "/tune/toolbar_height/64?instance=shop-2")
    assert refused.status == 403 and error_code(refused) == "read_only", refused.body
    assert http(dashboard, "GET", "/tune?instance=shop-2").json() == http(two, "GET", "/tune").json()


def test_carried_requests_name_one_known_instance(fleet):
    _, _, _, dashboard = fleet
    missing = http(dashboard, "GET", "/tune")
    assert missing.status == 400 and "?instance=ID" in missing.json()["error"]["message"]
    unknown = http(dashboard, "GET", "/api/tunables?instance=shop-9")
    assert unknown.status == 404 and error_code(unknown) == "unknown_instance"
    every = http(dashboard, "GET", "/tune?instance=*")
    assert every.status == 400 and "POST /api/request?instance=*" in every.json()["error"]["message"]
    nothing = http(dashboard, "GET", "/api/tunables/nothing?instance=shop-1")
    assert nothing.status == 404 and error_code(nothing) == "not_found"
    assert http(dashboard, "GET", "/tune?instance=shop-1", token=None).status == 401


def test_preferences_and_watches_are_carried_unless_secrets_are_revealed(fleet):
    one, _, three, dashboard = fleet
    preferences = http(dashboard, "GET", "/api/preferences?instance=shop-1")
    assert preferences.status == 200, preferences.body
    assert preferences.json()["items"] == http(one, "GET", "/api/preferences").json()["items"]
    watches = http(dashboard, "GET", "/api/watches?instance=shop-1")
    assert watches.status == 200 and watches.json() == http(one, "GET", "/api/watches").json()
    # shop-3 shows its secrets to its own inspector: none of its preferences go through Redis.
    revealed = http(dashboard, "GET", "/api/preferences?instance=shop-3")
    assert revealed.status == 403 and "revealed secrets" in revealed.json()["error"]["message"], revealed.body
    assert http(three, "GET", "/api/preferences").json()["reveal"] is True


def test_a_secrets_new_value_is_never_sent_through_the_fleet(fleet):
    one, _, _, dashboard = fleet
    secret_store = next(
        store["id"] for store in http(one, "GET", "/api/snapshot").json()["stores"]
        if store["id"].startswith("app/secrets:"))
    write = {"type": "write", "store": secret_store, "op": "set", "path": "token", "value": "s3cr3t-new"}
    refused = request_http_fleet(dashboard, "shop-1", write)
    assert refused.status == 403 and "never cross Redis" in refused.json()["error"]["message"], refused.body
    service = secret_store.split("secrets:", 1)[1]
    put = http(dashboard, "PUT", f"/api/preferences/secrets/{quote(service, safe='')}/token?instance=shop-1",
               body={"value": "s3cr3t-new"})
    assert put.status == 403 and "never cross Redis" in put.json()["error"]["message"], put.body


def request_http_fleet(dashboard, instance: str, payload: dict):
    return http(dashboard, "POST", f"/api/request?instance={instance}", body=payload)


def test_tune_commands_take_an_instance(fleet, tmp_path):
    one, two, _, dashboard = fleet
    key = unique_key("cli_tune")
    set_one = cli(dashboard, "tune", "set", key, "7", "--instance", "shop-1")
    assert set_one.returncode == 0, set_one.stderr
    assert set_one.stdout.startswith(f"{key} = 7 (seq ")
    got = cli(dashboard, "tune", "get", key, "--instance", "shop-1")
    assert got.returncode == 0 and got.stdout.strip() == "7", got.stderr
    pulled = tmp_path / "pulled.json"
    pull = cli(dashboard, "tune", "pull", str(pulled), "--instance", "shop-1")
    assert pull.returncode == 0, pull.stderr
    assert json.loads(pulled.read_text()) == http(one, "GET", "/tune").json()
    assert key not in http(two, "GET", "/tune").json()


def test_tune_set_on_every_instance_prints_each_answer(fleet):
    one, _, three, dashboard = fleet
    key = unique_key("cli_tune_all")
    result = cli(dashboard, "tune", "set", key, "12", "--instance", "*")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"shop-1: {key} = 12" in "\n".join(lines), lines
    assert any(line.startswith("shop-2: error read_only") for line in lines), lines
    assert any(line.startswith(f"shop-3: {key} = 12") for line in lines), lines
    assert http(one, "GET", "/tune").json()[key] == 12
    assert http(three, "GET", "/tune").json()[key] == 12
    get_all = cli(dashboard, "tune", "get", "--instance", "*")
    assert get_all.returncode != 0 and "reaches one instance" in get_all.stderr


def test_tune_instance_needs_a_fleet_dashboard(fleet):
    one, _, _, _ = fleet
    result = run_cli(["tune", "get", "--instance", "shop-1", "--port", str(one.port)], cli_env(one.home))
    assert result.returncode != 0 and "is not a fleet dashboard" in result.stderr


def test_tune_watch_pushes_to_one_instance(fleet, tmp_path):
    one, _, _, dashboard = fleet
    key = unique_key("cli_watch")
    values = dict(http(one, "GET", "/tune").json())
    values[key] = 3
    target = tmp_path / "live-constants.json"
    target.write_text(json.dumps(values))
    watch = BackgroundCLI(["tune", "watch", str(target), "--instance", "shop-1"], cli_env(dashboard.home))
    try:
        wait_for(lambda: http(one, "GET", "/tune").json().get(key) == 3, "the watched file on shop-1")
        values.pop(key)
        target.write_text(json.dumps(values))
        wait_for(lambda: key not in http(one, "GET", "/tune").json(), "the key removed on shop-1")
    finally:
        status = watch.interrupt()
    assert status == 0, watch.stderr

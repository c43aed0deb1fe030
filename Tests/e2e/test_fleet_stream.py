"""The fleet dashboard's WebSocket (docs/fleet.md): one instance's protocol through `/ws?instance=ID`, every
instance merged through `/ws?instance=*`."""

from __future__ import annotations

import pytest
from fleet_support import start_fleet, start_instance
from redis_support import RedisServer
from support import StreamClient, recv_json, unique_key, wait_for, ws_connect


@pytest.fixture(scope="module")
def fleet():
    with RedisServer(password="fleet-pw") as redis:
        one = start_instance(redis, "shop-1")
        two = start_instance(redis, "shop-2", "--read-only")
        dashboard = start_fleet(redis)
        try:
            yield redis, one, two, dashboard
        finally:
            for server in (dashboard, one, two):
                server.stop()


def open_instance(dashboard, instance: str) -> StreamClient:
    client = wait_for(lambda: _try_open(dashboard, instance), f"{instance}'s stream on the fleet dashboard", 15)
    return client


def _try_open(dashboard, instance):
    try:
        return StreamClient.open(dashboard, query=f"instance={instance}")
    except Exception:
        return None


def test_one_instances_stream_is_its_protocol_with_its_seqs(fleet):
    _, one, _, dashboard = fleet
    client = open_instance(dashboard, "shop-1")
    try:
        assert client.hello["instance"] == "shop-1"
        assert client.hello["readOnly"] is False
        assert any(store["id"] == "app/memory" for store in client.snapshots[0]["stores"])
        # The demo changes on its own: entries come in the instance's seqs, checked contiguous by StreamClient.
        wait_for(lambda: client.read(5) and len(client.entries) >= 20, "20 entries of shop-1")
        key = unique_key("fleet_write")
        reply = client.request({"type": "write", "store": "app/memory", "op": "set", "path": key, "value": 7})
        assert reply["ok"] is True, reply
        seq = reply["result"]["seq"]
        wait_for(lambda: client.read(5) and client.last_seq >= seq, "the write's entry through the fleet")
        written = next(entry for entry in client.entries if entry["seq"] == seq)
        assert written["patches"][0]["path"] == key
    finally:
        client.close()


def test_a_read_only_instance_refuses_writes_from_the_fleet(fleet):
    _, _, two, dashboard = fleet
    client = open_instance(dashboard, "shop-2")
    try:
        assert client.hello["readOnly"] is True
        reply = client.request({"type": "write", "store": "app/memory", "op": "set", "path": "x", "value": 1})
        assert reply["ok"] is False
        assert reply["error"]["code"] == "read_only"
    finally:
        client.close()


def test_an_unknown_instance_is_refused_at_the_upgrade(fleet):
    _, _, _, dashboard = fleet
    with pytest.raises(Exception) as refused:
        ws_connect(dashboard, query="instance=shop-9")
    assert "404" in str(refused.value)


def test_all_instances_merge_with_their_ids(fleet):
    _, _, _, dashboard = fleet
    open_instance(dashboard, "shop-2").close()  # both are known by now
    with ws_connect(dashboard, query="instance=*") as ws:
        hello = recv_json(ws)
        assert hello["type"] == "hello" and hello["instance"] == "*"
        listed = recv_json(ws)
        assert listed["type"] == "fleet"
        assert {item["id"] for item in listed["instances"]} >= {"shop-1", "shop-2"}
        seen: dict[str, list[int]] = {}
        while set(seen) < {"shop-1", "shop-2"}:
            message = recv_json(ws, 10)
            if message["type"] != "changes":
                continue
            for entry in message["entries"]:
                seen.setdefault(entry["instance"], []).append(entry["seq"])
        for instance, seqs in seen.items():
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"{instance}'s seqs not in order: {seqs}"

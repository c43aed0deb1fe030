"""Faults of a fleet (docs/fleet.md "Fleet limits, security and faults"): Redis restarting empty under running
instances and a running dashboard, and a fleet client that never reads."""

from __future__ import annotations

import signal
import socket
import time

from fleet_support import fleet_instances, running_fleet
from redis_support import RedisServer
from support import StreamClient, http, handshake_bytes, request_http, store_root, unique_key, wait_for

STORE = "app/memory"


def test_after_redis_restarts_empty_clients_get_a_gap_and_a_fresh_snapshot():
    with RedisServer() as redis, running_fleet(redis, ("shop-1",)) as (one, dashboard):
        client = StreamClient.open(dashboard, query="instance=shop-1")
        wait_for(lambda: client.read(5) and len(client.entries) >= 5, "entries before the restart")
        redis.kill()
        key = unique_key("while_redis_was_down")
        assert request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": 1}).status == 200
        redis.restart(keep_data=False)
        # StreamClient checks that every entry follows the last (nothing twice, nothing lost unannounced).
        wait_for(lambda: client.read(5) and client.gaps, "a gap after the restart", timeout=30)
        wait_for(lambda: client.read(5) and not client.awaiting_snapshot, "the snapshot after the gap")
        assert store_root(client.snapshots[-1], STORE)[key] == 1
        after = unique_key("after_restart")
        reply = client.request({"type": "write", "store": STORE, "op": "set", "path": after, "value": 2})
        assert reply["ok"] is True, reply
        wait_for(lambda: client.read(5) and client.last_seq >= reply["result"]["seq"], "a write after the restart")
        assert fleet_instances(dashboard)["shop-1"]["state"] == "live"
        client.close()


def test_a_fleet_client_that_never_reads_slows_nobody():
    with RedisServer() as redis, running_fleet(redis, ("shop-1",), rate=2000) as (one, dashboard):
        # A WebSocket client that upgrades, then never reads a byte.
        stuck = socket.create_connection(("127.0.0.1", dashboard.port))
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stuck.sendall(handshake_bytes(dashboard, path=f"/ws?token={dashboard.token}&instance=shop-1"))
        reader = StreamClient.open(dashboard, query="instance=shop-1")
        began = time.monotonic()
        while time.monotonic() - began < 8:
            reader.read(5)
        assert len(reader.entries) > 2000, len(reader.entries)
        assert http(dashboard, "GET", "/api/health").status == 200
        reader.close()
        stuck.close()


def test_a_request_to_an_instance_that_stopped_answering_is_unavailable_and_never_applied():
    with RedisServer() as redis, running_fleet(redis, ("shop-1",)) as (one, dashboard):
        client = StreamClient.open(dashboard, query="instance=shop-1")
        key = unique_key("never_applied")
        one.process.send_signal(signal.SIGSTOP)  # alive, still listed live for a few seconds, answering nothing
        try:
            reply = client.request(
                {"type": "write", "store": STORE, "op": "set", "path": key, "value": 1}, timeout=20)
        finally:
            one.process.send_signal(signal.SIGCONT)
        assert reply["ok"] is False and reply["error"]["code"] == "unavailable", reply
        # Resumed, the instance finds the request past its deadline and drops it.
        wait_for(lambda: fleet_instances(dashboard)["shop-1"]["state"] == "live", "shop-1 live again", 20)
        marker = unique_key("after_resume")
        assert request_http(one, {"type": "write", "store": STORE, "op": "set", "path": marker, "value": 1}).status == 200
        snapshot = http(one, "GET", "/api/snapshot").json()
        assert marker in store_root(snapshot, STORE) and key not in store_root(snapshot, STORE)
        client.close()


def test_a_read_only_fleet_dashboard_refuses_writes_itself():
    with RedisServer() as redis, running_fleet(redis, ("shop-1",), dashboard_args=("--read-only",)) as (one, dashboard):
        client = StreamClient.open(dashboard, query="instance=shop-1")
        assert client.hello["readOnly"] is True
        reply = client.request({"type": "write", "store": STORE, "op": "set", "path": "x", "value": 1})
        assert reply["error"]["code"] == "read_only"
        assert "x" not in store_root(http(one, "GET", "/api/snapshot").json(), STORE)
        assert client.request({"type": "resync"})["ok"] is True
        client.close()

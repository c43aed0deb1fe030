"""Backend storage on Redis when Redis fails (docs/fleet.md "Failure modes"): down when an instance starts, stopped
and started with its data, restarted empty, while real `keyscope serve --demo --redis …` instances write. Nothing is
wiped, nothing stale is pushed over newer data, and the instances end converged."""

from __future__ import annotations

import random
import threading

import pytest

from redis_backend_support import (PASSWORD, STORE, assert_a_new_instance_loads_it, snapshot_entry, start_instance,
                                   wait_converged)
from redis_support import RedisServer
from support import KeyscopeServer, http, request_http, store_root, unique_key, wait_for


@pytest.fixture
def redis():
    with RedisServer(password=PASSWORD) as server:
        yield server


def test_a_demo_started_while_redis_is_down_takes_the_fleets_settings_when_it_returns():
    """The demo writes default flags and banner into an empty backend store when Redis is down at its start; when
    Redis returns they must not replace the fleet's settings (docs/fleet.md "The conflict rule")."""
    with RedisServer(password=PASSWORD, persistent=True) as redis:
        one = start_instance(redis, "shop-1")
        two = None
        try:
            banner = unique_key("fleet-banner")
            for payload in ({"type": "write", "store": STORE, "op": "set", "path": "banner", "value": banner},
                            {"type": "write", "store": STORE, "op": "set", "path": "flags.e2eMarker", "value": True}):
                assert request_http(one, payload).status == 200
            wait_for(lambda: snapshot_entry(one)["backend"]["pending"] == 0, "shop-1 pushed the fleet's settings")
            redis.stop()  # saves its data: it comes back with it
            two = start_instance(redis, "shop-2")
            assert snapshot_entry(two)["backend"]["state"] == "connecting"
            defaults = snapshot_entry(two)["root"]
            assert "e2eMarker" not in defaults["flags"] and defaults["banner"] != banner
            redis.start()
            wait_for(lambda: (e := snapshot_entry(two)["backend"])["state"] == "connected" and e["pending"] == 0,
                     "shop-2 synced", timeout=20)
            # The fleet's flags object (with its marker) is what both hold; the demo's own flag flips since keep it.
            wait_for(lambda: snapshot_entry(two)["root"].get("flags") == snapshot_entry(one)["root"].get("flags")
                     and snapshot_entry(two)["root"].get("banner") == snapshot_entry(one)["root"].get("banner"),
                     "both instances hold the same settings", timeout=20)
            for server in (one, two):
                assert snapshot_entry(server)["root"]["flags"]["e2eMarker"] is True
        finally:
            one.stop()
            if two is not None:
                two.stop()


def test_redis_restarted_empty_wipes_nothing_and_sync_resumes(redis):
    one = start_instance(redis, "shop-1")
    two = start_instance(redis, "shop-2")
    try:
        before = unique_key("before")
        request_http(one, {"type": "write", "store": STORE, "op": "set", "path": before, "value": "kept"})
        wait_for(lambda: store_root(http(two, "GET", "/api/snapshot").json(), STORE).get(before) == "kept",
                 "synced before the restart")
        redis.restart(keep_data=False)
        # Both instances keep their data, reconnect by themselves, and sync again.
        after = unique_key("after")
        wait_for(lambda: snapshot_entry(two)["backend"]["state"] == "connected", "shop-2 reconnected", timeout=20)
        request_http(two, {"type": "write", "store": STORE, "op": "set", "path": after, "value": 2})
        wait_for(lambda: store_root(http(one, "GET", "/api/snapshot").json(), STORE).get(after) == 2,
                 "shop-2's write reached shop-1 after the restart", timeout=20)
        for server in (one, two):
            assert store_root(http(server, "GET", "/api/snapshot").json(), STORE).get(before) == "kept"
        # And the refilled document is what a new instance loads.
        three = start_instance(redis, "shop-3")
        try:
            wait_for(lambda: snapshot_entry(three)["root"].get(before) == "kept"
                     and snapshot_entry(three)["root"].get(after) == 2, "a new instance loads both keys")
        finally:
            three.stop()
    finally:
        one.stop()
        two.stop()


def test_redis_stopped_and_restarted_with_and_without_its_data_under_writes_ends_converged():
    """Three instances write all along, each its own key and all of them the same shared keys, while Redis is
    stopped (each instance's snapshot then shows it disconnected, its writes pending) and started with its data, then
    restarted empty. Once writes stop every instance holds the same document, the one a new instance loads, and each
    instance's own key holds the last value it wrote: nothing lost (docs/fleet.md's known losses are removals, and
    these writers remove nothing)."""
    with RedisServer(password=PASSWORD, persistent=True) as redis:
        servers = [start_instance(redis, f"shop-{n}") for n in range(1, 4)]
        own = [unique_key(f"own{n}") for n in range(len(servers))]
        shared = [unique_key("shared") for _ in range(3)]
        last: dict[int, int] = {}  # writer → the last value it wrote to its own key
        failures: list[str] = []
        stop = threading.Event()

        def writer(index: int) -> None:
            chooser = random.Random(index)
            count = 0
            while not stop.is_set():
                count += 1
                if count % 2:
                    payload = {"type": "write", "store": STORE, "op": "set", "path": own[index], "value": count}
                else:
                    payload = {"type": "write", "store": STORE, "op": "set", "path": f"{chooser.choice(shared)}.v",
                               "value": f"{index}-{count}"}
                reply = request_http(servers[index], payload)
                if reply.status != 200:  # writes never wait on Redis, and never fail for it
                    failures.append(reply.describe())
                    return
                if count % 2:
                    last[index] = count
                stop.wait(0.005)

        def backends() -> list[dict]:
            return [snapshot_entry(server)["backend"] for server in servers]

        def all_down() -> list[dict] | None:
            entries = backends()
            return entries if all(e["state"] == "disconnected" and e["pending"] > 0 for e in entries) else None

        def writes_went_on(since: dict[int, int]) -> bool:
            return all(last.get(index, 0) >= since.get(index, 0) + 10 for index in range(len(servers)))

        threads = [threading.Thread(target=writer, args=(index,)) for index in range(len(servers))]
        try:
            for thread in threads:
                thread.start()
            wait_for(lambda: all(key in snapshot_entry(servers[0])["root"] for key in own), "writes flowing")
            redis.stop()  # saves its data: it comes back with it
            down = wait_for(all_down, "every instance shows Redis gone and its writes pending", timeout=20)
            assert all(entry["redis"] == redis.shown_url for entry in down), down
            mark = dict(last)
            wait_for(lambda: writes_went_on(mark), "writes go on while Redis is down")
            redis.start()
            wait_for(lambda: all(e["state"] == "connected" for e in backends()), "reconnected with the data",
                     timeout=20)
            redis.restart(keep_data=False)
            wait_for(lambda: all(e["state"] == "connected" for e in backends()), "reconnected to the empty Redis",
                     timeout=20)
            mark = dict(last)
            wait_for(lambda: writes_went_on(mark), "writes go on after the restarts")
        finally:
            stop.set()
            for thread in threads:
                thread.join(30)
        try:
            assert not failures, failures
            root = wait_converged(servers, own + shared, "the instances converged",
                                  settled=lambda e: e["backend"]["state"] == "connected" and e["backend"]["pending"] == 0)
            assert {own[index]: root.get(own[index]) for index in last} == {own[i]: v for i, v in last.items()}
            assert all(key in root for key in shared), root
            assert_a_new_instance_loads_it(redis, servers[0], "shop-fresh")
        finally:
            for server in servers:
                server.stop()

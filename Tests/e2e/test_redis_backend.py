"""Backend storage on Redis (docs/fleet.md): real `keyscope serve --demo --redis …` processes share the demo's backend
store `app/backend:shop` through a real redis-server the test starts itself; the secret mirrors
(`app/secrets:<service>`) never go through it."""

from __future__ import annotations

import json

import pytest

from redis_support import RedisServer
from support import KeyscopeServer, StreamClient, http, request_http, store_root, unique_key, wait_for

STORE = "app/backend:shop"
SECRETS_STORE = "app/secrets:com.keyscope.demo.api"
PASSWORD = "e2e-secret-pw"


@pytest.fixture
def redis():
    with RedisServer(password=PASSWORD) as server:
        yield server


def start_instance(redis: RedisServer, instance: str, fleet: str = "e2e") -> KeyscopeServer:
    server = KeyscopeServer(["--redis", redis.url, "--fleet", fleet, "--instance", instance, "--rate", "5"])
    server.wait_store(STORE)
    return server


def snapshot_entry(server: KeyscopeServer) -> dict:
    snapshot = http(server, "GET", "/api/snapshot").json()
    return next(store for store in snapshot["stores"] if store["id"] == STORE)


def test_a_write_on_one_instance_appears_on_the_other(redis):
    one = start_instance(redis, "shop-1")
    two = start_instance(redis, "shop-2")
    try:
        stream = StreamClient.open(two)
        key = unique_key("flag")
        reply = request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": {"on": True}})
        assert reply.status == 200, reply.describe()
        wait_for(lambda: store_root(http(two, "GET", "/api/snapshot").json(), STORE).get(key) == {"on": True},
                 f"{key} on shop-2")
        # On shop-2 the change is an ordinary log entry that names where it came from.
        entry = None
        while entry is None:  # stream.read fails after its timeout: the guard
            stream.read(timeout=10)
            entry = next((e for e in stream.entries if e.get("store") == STORE
                          and any(p["path"] == key for p in e.get("patches", []))), None)
        assert entry["origin"] == "shop-1"
        assert entry["patches"] == [{"op": "set", "path": key, "new": {"on": True}}]
        stream.close()
        # The other way round, and a removal.
        request_http(two, {"type": "write", "store": STORE, "op": "remove", "path": key})
        wait_for(lambda: key not in store_root(http(one, "GET", "/api/snapshot").json(), STORE), f"{key} gone on one")
        # A third instance started now loads the same document.
        three = start_instance(redis, "shop-3")
        try:
            wait_for(lambda: snapshot_entry(three)["root"] == snapshot_entry(one)["root"] == snapshot_entry(two)["root"],
                     "three instances equal")
        finally:
            three.stop()
    finally:
        one.stop()
        two.stop()


def test_snapshot_shows_the_backend_and_never_the_password(redis):
    one = start_instance(redis, "shop-1")
    try:
        # Connected, with nothing left to push (the demo's own changes reach Redis within milliseconds).
        backend = wait_for(lambda: (e := snapshot_entry(one)["backend"])["state"] == "connected"
                           and e["pending"] == 0 and e, "connected backend with nothing pending")
        assert backend == {"redis": redis.shown_url, "state": "connected", "pending": 0}
        # Other stores have no backend member.
        others = [s for s in http(one, "GET", "/api/snapshot").json()["stores"] if s["id"] != STORE]
        assert others and all("backend" not in s for s in others)
        one.stop()
        for text in (one.stdout_text(), one.stderr_text()):
            assert PASSWORD not in text
        assert redis.shown_url in one.stderr_text()
    finally:
        one.stop()


def test_instances_of_other_fleets_do_not_share(redis):
    one = start_instance(redis, "a", fleet="red")
    two = start_instance(redis, "b", fleet="blue")
    try:
        key = unique_key("only_red")
        request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": 1})
        third = start_instance(redis, "c", fleet="red")
        try:
            wait_for(lambda: store_root(http(third, "GET", "/api/snapshot").json(), STORE).get(key) == 1,
                     "the red fleet's key on its new instance")
            assert key not in store_root(http(two, "GET", "/api/snapshot").json(), STORE)
        finally:
            third.stop()
    finally:
        one.stop()
        two.stop()


def test_a_bad_redis_url_is_refused_without_showing_the_password():
    import subprocess

    from support import keyscope_binary

    result = subprocess.run(
        [str(keyscope_binary()), "serve", "--demo", "--port", "0", "--redis", "http://user:pw-xyz@host:1"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "redis://" in result.stderr
    assert "pw-xyz" not in result.stderr + result.stdout


def redis_text(redis, key: str) -> str:
    """Everything a key holds, as text (strings, hashes, lists and streams)."""
    kind = redis.call("TYPE", key)
    reply = {
        "string": lambda: redis.call("GET", key),
        "hash": lambda: redis.call("HGETALL", key),
        "list": lambda: redis.call("LRANGE", key, "0", "-1"),
        "stream": lambda: redis.call("XRANGE", key, "-", "+"),
    }.get(kind, lambda: "")()
    return json.dumps(reply, default=str)


def test_the_secret_mirrors_are_never_synced_through_redis(redis):
    one = start_instance(redis, "shop-1")
    two = start_instance(redis, "shop-2")
    try:
        # A length no demo token has, so that its placeholder tells this secret apart.
        secret = unique_key("e2e-rotated-token").ljust(97, "x")
        placeholder = f"\u2022\u2022\u2022\u2022 ({len(secret)})"
        reply = http(one, "PUT", "/api/preferences/secrets/com.keyscope.demo.api/token", body={"value": secret})
        assert reply.status == 200, reply.describe()
        stores = {s["id"]: s for s in http(one, "GET", "/api/snapshot").json()["stores"]}
        assert stores[SECRETS_STORE]["root"]["token"] == placeholder
        assert "backend" not in stores[SECRETS_STORE]
        assert not any(store_id.startswith("app/backend:secrets") for store_id in stores)
        # Meanwhile the backend store syncs as ever: a write on one reaches two.
        key = unique_key("after_secret")
        request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": True})
        wait_for(lambda: store_root(http(two, "GET", "/api/snapshot").json(), STORE).get(key) is True, f"{key} on two")
        # Redis holds the backend store's document and what the instances publish to the fleet (docs/fleet.md
        # "Redis layout"): the secret in clear nowhere; the backend document has no mirror, not even redacted.
        keys = redis.call("KEYS", "*")
        assert keys and all(k.startswith(("e2e:backend:shop:", "e2e:instance")) for k in keys), keys
        for redis_key in keys:
            assert secret not in redis_text(redis, redis_key), redis_key
        fields = redis.call("HGETALL", "e2e:backend:shop:v1:doc")
        assert key in fields
        assert not any(secret in text or "\u2022" in text or "token" in text for text in fields), fields
        # Each instance keeps its own secret store: two's mirror never heard of one's new token.
        assert store_root(http(two, "GET", "/api/snapshot").json(), SECRETS_STORE)["token"] != placeholder
    finally:
        one.stop()
        two.stop()


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


def test_concurrent_writes_and_a_kill_9_converge(redis):
    """Four instances write the same few keys at once; one is killed with SIGKILL in the middle of it. Once writes
    stop, the three left and a new instance hold equal documents."""
    import random
    import signal
    import threading

    servers = [start_instance(redis, f"shop-{n}") for n in range(1, 5)]
    keys = [unique_key("k") for _ in range(4)]
    stop = threading.Event()

    def writer(server: KeyscopeServer, seed: int) -> None:
        chooser = random.Random(seed)
        while not stop.is_set():
            key = chooser.choice(keys)
            payload = ({"type": "write", "store": STORE, "op": "remove", "path": key} if chooser.random() < 0.2 else
                       {"type": "write", "store": STORE, "op": "set", "path": f"{key}.v", "value": chooser.random()})
            try:
                request_http(server, payload)
            except OSError:
                return  # the killed instance
    threads = [threading.Thread(target=writer, args=(server, n)) for n, server in enumerate(servers)]
    try:
        for thread in threads:
            thread.start()
        wait_for(lambda: all(snapshot_entry(s)["root"].keys() & set(keys) for s in servers[1:]), "writes flowing")
        servers[0].interrupt(signal.SIGKILL)
        wait_for(lambda: not servers[0].alive(), "shop-1 killed")
        stop.wait(1.0)
        stop.set()
        for thread in threads:
            thread.join(30)
        survivors = servers[1:]
        seen: list[dict] = []

        def converged() -> bool:
            seen[:] = [snapshot_entry(s)["root"] for s in survivors]
            return len({repr(sorted(root.items())) for root in seen}) == 1

        try:
            wait_for(converged, "the surviving instances converged", timeout=20)
        except AssertionError as error:
            shown = {key: [root.get(key) for root in seen] for key in keys}
            raise AssertionError(f"{error}; each survivor's value of each key: {shown}") from None
        fresh = start_instance(redis, "shop-5")
        try:
            wait_for(lambda: snapshot_entry(fresh)["root"] == snapshot_entry(survivors[0])["root"],
                     "a new instance loads the same document", timeout=20)
        finally:
            fresh.stop()
    finally:
        stop.set()
        for server in servers:
            server.stop()

"""Backend storage on Redis (docs/fleet.md): real `keyscope serve --demo --redis …` processes share the demo's backend
store `app/backend:shop` through a real redis-server the test starts itself; the secret mirrors
(`app/secrets:<service>`) never go through it. Redis's own faults: test_redis_backend_faults.py."""

from __future__ import annotations

import json

import pytest

from redis_backend_support import (PASSWORD, STORE, assert_a_new_instance_loads_it, snapshot_entry, start_instance,
                                   wait_converged)
from redis_support import RedisServer
from support import KeyscopeServer, StreamClient, http, request_http, store_root, unique_key, wait_for

SECRETS_STORE = "app/secrets:com.keyscope.demo.api"


@pytest.fixture
def redis():
    with RedisServer(password=PASSWORD) as server:
        yield server


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
    # The URL from KEYSCOPE_REDIS_URL, with the password, and nothing on the command line.
    one = start_instance(redis, "shop-1", url="", env={"KEYSCOPE_REDIS_URL": redis.url})
    wrong = f"redis://:wrong-pw-4711@127.0.0.1:{redis.port}"
    refused = start_instance(redis, "shop-refused", url=wrong)
    try:
        # Connected, with nothing left to push (the demo's own changes reach Redis within milliseconds).
        backend = wait_for(lambda: (e := snapshot_entry(one)["backend"])["state"] == "connected"
                           and e["pending"] == 0 and e, "connected backend with nothing pending")
        assert backend == {"redis": redis.shown_url, "state": "connected", "pending": 0}
        # Other stores have no backend member.
        snapshot_text = http(one, "GET", "/api/snapshot").body.decode()
        others = [s for s in json.loads(snapshot_text)["stores"] if s["id"] != STORE]
        assert others and all("backend" not in s for s in others)
        # The refused login: never connected, its writes pending, and the log says what to check.
        request_http(refused, {"type": "write", "store": STORE, "op": "set", "path": "refused", "value": 1})
        entry = snapshot_entry(refused)["backend"]
        assert entry["redis"] == redis.shown_url and entry["state"] == "connecting" and entry["pending"] >= 1, entry
        backend_refusals = lambda: [line for line in refused.stderr_text().splitlines()  # noqa: E731
                                    if "keyscope.redis" in line and "check the credentials" in line]
        wait_for(backend_refusals, "the refused login logged")
        refused_text = http(refused, "GET", "/api/snapshot").body.decode()
        # Redis holds what the instance published to the fleet: no password there either.
        redis_texts = [redis_text(redis, key) for key in redis.call("KEYS", "*")]
        one.stop()
        refused.stop()
        texts = [one.stdout_text(), one.stderr_text(), refused.stdout_text(), refused.stderr_text(), snapshot_text,
                 refused_text, *redis_texts]
        for text in texts:
            assert PASSWORD not in text and "wrong-pw-4711" not in text
        assert redis.shown_url in one.stderr_text()
        # Logged once, not at each retry; and Redis did answer (refusing), so the store did not wait for it.
        assert len(backend_refusals()) == 1, refused.stderr_text()
        assert "did not answer in time" not in refused.stderr_text()
    finally:
        one.stop()
        refused.stop()


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
        wait_converged(survivors, keys, "the surviving instances converged")
        assert_a_new_instance_loads_it(redis, survivors[0], "shop-5")
    finally:
        stop.set()
        for server in servers:
            server.stop()

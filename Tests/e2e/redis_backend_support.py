"""The demo's backend store on Redis, as the backend e2e tests use it (docs/fleet.md "Backend storage"): real
`keyscope serve --demo --redis …` instances sharing `app/backend:shop` through a `RedisServer` of the test's own."""

from __future__ import annotations

from collections.abc import Callable

from redis_support import RedisServer

from support import KeyscopeServer, http, wait_for

STORE = "app/backend:shop"
PASSWORD = "e2e-secret-pw"


def start_instance(redis: RedisServer, instance: str, fleet: str = "e2e", url: str | None = None,
                   env: dict[str, str] | None = None) -> KeyscopeServer:
    """`serve --demo --redis URL --fleet FLEET --instance ID` (the server's URL unless `url` is given; `url=""`
    leaves `--redis` out, for a URL given in `env`), once its backend store is open."""
    redis_args = [] if url == "" else ["--redis", url or redis.url]
    server = KeyscopeServer([*redis_args, "--fleet", fleet, "--instance", instance, "--rate", "5"], env=env)
    server.wait_store(STORE)
    return server


def snapshot_entry(server: KeyscopeServer, store_id: str = STORE) -> dict:
    """The store's entry in `GET /api/snapshot`: its `root`, and `backend` for a store synced through Redis."""
    snapshot = http(server, "GET", "/api/snapshot").json()
    return next(store for store in snapshot["stores"] if store["id"] == store_id)


def wait_converged(servers: list[KeyscopeServer], keys: list[str], what: str,
                   settled: Callable[[dict], bool] = lambda entry: True) -> dict:
    """Waits until every one of `servers` holds the same document (and each entry is `settled`), and returns it; a
    miss shows each instance's value of each of `keys`."""
    seen: list[dict] = []

    def converged() -> bool:
        entries = [snapshot_entry(server) for server in servers]
        seen[:] = [entry["root"] for entry in entries]
        return all(settled(entry) for entry in entries) and all(root == seen[0] for root in seen)

    try:
        wait_for(converged, what, timeout=20)
    except AssertionError as error:
        shown = {key: [root.get(key) for root in seen] for key in keys}
        raise AssertionError(f"{error}; each instance's value of each key: {shown}") from None
    return seen[0]


def assert_a_new_instance_loads_it(redis: RedisServer, like: KeyscopeServer, instance: str) -> None:
    """A new instance, started now, loads the document `like` holds."""
    fresh = start_instance(redis, instance)
    try:
        wait_for(lambda: snapshot_entry(fresh)["root"] == snapshot_entry(like)["root"],
                 "a new instance loads the same document", timeout=20)
    finally:
        fresh.stop()

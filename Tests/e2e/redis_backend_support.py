"""The demo's backend store on Redis, as the backend e2e tests use it (docs/fleet.md "Backend storage"): real
`keyscope serve --demo --redis …` instances sharing `app/backend:shop` through a `RedisServer` of the test's own."""

from __future__ import annotations

from redis_support import RedisServer

from support import KeyscopeServer, http

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

"""A fleet on one machine for the e2e tests: a real `redis-server`, instances (`keyscope serve --demo --redis …
--fleet … --instance …`) and a fleet dashboard (`keyscope fleet`)."""

from __future__ import annotations

import contextlib

import pytest
from redis_support import RedisServer

from support import KeyscopeServer, LoopbackAddress, http, wait_for

FLEET = "e2e"


def start_instance(redis, instance: str, *extra: str, fleet: str = FLEET, rate: int = 20) -> KeyscopeServer:
    return KeyscopeServer(["--redis", redis.url, "--fleet", fleet, "--instance", instance, "--rate", str(rate), *extra])


def start_fleet(redis, *extra: str, fleet: str = FLEET) -> KeyscopeServer:
    return KeyscopeServer(["--redis", redis.url, "--fleet", fleet, *extra], command=("fleet",), ready_store=None)


def fleet_instances(dashboard: KeyscopeServer) -> dict[str, dict]:
    response = http(dashboard, "GET", "/api/fleet")
    assert response.status == 200, response.describe()
    return {item["id"]: item for item in response.json()["instances"]}


def wait_live(dashboard: KeyscopeServer, *ids: str, timeout: float = 15) -> dict[str, dict]:
    """Waits until every id is listed `live` (and its state has been read, so its snapshot can be served)."""

    def ready():
        listed = fleet_instances(dashboard)
        if not all(listed.get(i, {}).get("state") == "live" for i in ids):
            return None
        for i in ids:
            if http(dashboard, "GET", f"/api/snapshot?instance={i}").status != 200:
                return None
        return listed

    return wait_for(ready, f"{', '.join(ids)} live on the fleet dashboard", timeout=timeout)


@contextlib.contextmanager
def running_fleet(redis, *instances: tuple[str, ...], rate: int = 20, dashboard_args: tuple[str, ...] = ()):
    """Instances (each `(id, *extra serve args)`, at `rate` changes/s) and a fleet dashboard (with `dashboard_args`) on
    `redis`, every instance live on it; yields the instances' servers and the dashboard, and stops them all."""
    servers = [start_instance(redis, name, *extra, rate=rate) for name, *extra in instances]
    dashboard = start_fleet(redis, *dashboard_args)
    try:
        wait_live(dashboard, *(name for name, *_ in instances))
        yield (*servers, dashboard)
    finally:
        for server in (dashboard, *servers):
            server.stop()


class FleetInstanceAddress(LoopbackAddress):
    """One instance as the fleet dashboard serves it: the dashboard's port and token, every request and WebSocket
    with `instance=ID`, and the instance's own pid (which its hello names), so that tests written for one server run
    through the fleet unchanged."""

    def __init__(self, dashboard: KeyscopeServer, instance: KeyscopeServer, instance_id: str) -> None:
        super().__init__(dashboard.port, dashboard.token)
        self.pid = instance.pid
        self.home = instance.home
        self.config_home = instance.config_home
        self.instance_id = instance_id

    @property
    def query(self) -> str:
        return f"instance={self.instance_id}"


@pytest.fixture(scope="module", name="fleet_of_one")
def fleet_of_one_fixture():
    """A fleet of one instance, `shop-1`, and its dashboard, for a module (import it to use it)."""
    with RedisServer() as redis, running_fleet(redis, ("shop-1",)) as servers:
        yield servers


@pytest.fixture(name="server")
def instance_server_fixture(fleet_of_one):
    """`shop-1` through the dashboard of `fleet_of_one`, as the `server` of tests written for one server."""
    instance, dashboard = fleet_of_one
    return FleetInstanceAddress(dashboard, instance, "shop-1")

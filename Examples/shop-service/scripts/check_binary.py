#!/usr/bin/env python3
"""The built `shop-service` binary as a user runs it: a debug build serves the inspector, a release build does not.

Usage: check_binary.py debug|release PATH/TO/shop-service

Starts the binary on two free loopback ports (the API's and the inspector's), with its data and the server record
in a temporary folder, and waits until `GET /health` answers. Then:

- debug: the inspector listens on its port and is this service's (its server record has the port, and
  `GET /api/snapshot` with its token lists the cart store a `POST /cart/items` just made);
- release: nothing listens on the inspector's port, no server record is written, and the output says so.

In both, SIGTERM stops the service gracefully: it exits 0, both ports are closed, and the debug build removed its
server record. Exits 0 when all that holds, 1 with the reason otherwise (the service is stopped in every case).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


class CheckFailed(Exception):
    pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def http(method: str, url: str, body: dict | None = None, token: str | None = None) -> object:
    request = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def wait_for_health(service: subprocess.Popen, api: int) -> None:
    deadline = time.monotonic() + 60  # a guard against hanging, not a timing claim
    while True:
        try:
            if http("GET", f"http://127.0.0.1:{api}/health") == {"ok": True}:
                return
        except OSError:
            pass
        if service.poll() is not None or time.monotonic() > deadline:
            raise CheckFailed(f"the service did not answer GET /health on port {api}")
        time.sleep(0.1)


def check_debug(api: int, inspector: int, records: Path) -> None:
    if not listening(inspector):
        raise CheckFailed(f"a debug build should listen on the inspector port {inspector}")
    record = records / f"{inspector}.json"
    if not record.is_file():
        raise CheckFailed(f"no server record at {record}: the keyscope CLI could not find the inspector")
    token = json.loads(record.read_text())["token"]
    http("POST", f"http://127.0.0.1:{api}/cart/items", {"id": "oolong"})
    snapshot = http("GET", f"http://127.0.0.1:{inspector}/api/snapshot", token=token)
    stores = {store["id"]: store for store in snapshot["stores"]}
    cart = stores.get("scenario:cart-guest/memory")
    if cart is None or cart["root"]["cart"]["items"] != [{"id": "oolong", "quantity": 1}]:
        raise CheckFailed(f"the inspector's snapshot lacks the cart the API made: {sorted(stores)}")


def check_release(inspector: int, records: Path) -> None:
    if listening(inspector):
        raise CheckFailed(f"a release build listens on the inspector port {inspector}")
    if records.exists() and any(records.iterdir()):
        raise CheckFailed(f"a release build wrote a server record: {sorted(records.iterdir())}")


def check_stopped(status: int, api: int, inspector: int, records: Path) -> None:
    """After SIGTERM, the graceful shutdown: status 0, no open port, no server record left."""
    if status != 0:
        raise CheckFailed(f"SIGTERM should stop the service with status 0, got {status}")
    if listening(api) or listening(inspector):
        raise CheckFailed("a port is still open after the service stopped")
    if (records / f"{inspector}.json").exists():
        raise CheckFailed("the server record is still there after the service stopped")


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[1] not in ("debug", "release"):
        print("usage: check_binary.py debug|release PATH/TO/shop-service", file=sys.stderr)
        return 2
    mode, binary = sys.argv[1], sys.argv[2]
    api, inspector = free_port(), free_port()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "keyscope"
        records = home / "servers"
        environment = {**os.environ, "KEYSCOPE_HOME": str(home)}
        environment.pop("KEYSCOPE_REDIS_URL", None)
        command = [binary, "--port", str(api), "--inspector-port", str(inspector), "--data", f"{folder}/data"]
        service = subprocess.Popen(
            command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        output = None
        try:
            wait_for_health(service, api)
            if mode == "debug":
                check_debug(api, inspector, records)
            else:
                check_release(inspector, records)
            service.terminate()  # SIGTERM
            output = service.communicate(timeout=30)[0]
            check_stopped(service.returncode, api, inspector, records)
            if ("release build: no inspector" in output) != (mode == "release"):
                raise CheckFailed("only a release build says 'release build: no inspector'")
        except (CheckFailed, OSError, KeyError, TypeError, ValueError) as failure:
            if output is None:
                if service.poll() is None:
                    service.kill()
                output = service.communicate(timeout=30)[0]
            print(f"check_binary: {mode}: {failure}\n--- the service's output:\n{output}", file=sys.stderr)
            return 1
    what = "and its inspector on" if mode == "debug" else "and opened no inspector port"
    print(f"check_binary: the {mode} build served the API on {api} {what} {inspector}; SIGTERM stopped it (status 0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

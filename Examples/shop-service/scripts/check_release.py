#!/usr/bin/env python3
"""A release build of the example service opens no inspector port.

Usage: check_release.py PATH/TO/release/shop-service

Starts the binary on two free loopback ports (the API's and the inspector's), waits until `GET /health` answers,
then checks that nothing listens on the inspector's port and that the output says there is no inspector. Exits 0
when that holds, 1 with the reason otherwise. The service is stopped with SIGTERM in every case.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def main() -> int:
    binary = sys.argv[1]
    api, inspector = free_port(), free_port()
    with tempfile.TemporaryDirectory() as data:
        service = subprocess.Popen(
            [binary, "--port", str(api), "--inspector-port", str(inspector), "--data", data],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{api}/health", timeout=2) as response:
                        if json.load(response) == {"ok": True}:
                            break
                except OSError:
                    pass
                if service.poll() is not None or time.monotonic() > deadline:
                    print(f"check_release: the service did not answer on port {api}", file=sys.stderr)
                    return 1
                time.sleep(0.1)
            if listening(inspector):
                print(f"check_release: a release build listens on the inspector port {inspector}", file=sys.stderr)
                return 1
        finally:
            service.terminate()
            output, _ = service.communicate(timeout=30)
    if "Keyscope dashboard" in output or "no inspector" not in output:
        print(f"check_release: the output should say there is no inspector:\n{output}", file=sys.stderr)
        return 1
    print(f"check_release: release build served the API on {api} and opened no inspector port ({inspector})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

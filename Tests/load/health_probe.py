"""A well-behaved client that only asks `GET /api/health`, on a fresh connection every 50 ms, in a process of its
own: so that the test's other threads (the normal client parsing snapshots, the sampler) never hold its Python and
the times are the server's answers, not the GIL's. What the hostile tests hold to the issue's 50 ms.

    python health_probe.py PORT TOKEN PERIOD     probes until SIGTERM, then prints {"times": [...], "failures": [...]}

In a test:

    with HealthProbe(server) as probe:
        ...                                      # the attack
    probe.times                                  # seconds, one per answer
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))  # support.py: `http`

from support import LoopbackAddress, http  # noqa: E402

PERIOD = 0.05


def percentile(values: list[float], fraction: float) -> float:
    """The value that `fraction` of `values` do not pass (nearest rank); nan when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


class HealthProbe:
    """health_probe.py as a process for the length of a `with` block: its answers' times and failures."""

    def __init__(self, server: LoopbackAddress, period: float = PERIOD) -> None:
        self.server = server
        self.period = period
        self.times: list[float] = []
        self.failures: list[str] = []
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "HealthProbe":
        self.process = subprocess.Popen(
            [sys.executable, __file__, str(self.server.port), self.server.token, str(self.period)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert self.process.stdout.readline().strip() == "ready", "the health probe did not start"
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        out, err = self.process.communicate(timeout=60)
        assert self.process.returncode == 0 and out.strip(), f"the health probe failed: {err[-2000:]}"
        result = json.loads(out.strip().splitlines()[-1])
        self.times, self.failures = result["times"], result["failures"]

    def summary(self) -> dict[str, float]:
        return {
            "count": len(self.times), "p50": percentile(self.times, 0.5), "p95": percentile(self.times, 0.95),
            "max": max(self.times, default=float("nan")),
        }


stopping = False


def on_term(*_) -> None:
    global stopping
    stopping = True


def main() -> None:
    port, token, period = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    signal.signal(signal.SIGTERM, on_term)
    server = LoopbackAddress(port, token)
    times: list[float] = []
    failures: list[str] = []
    print("ready", flush=True)
    while not stopping:
        began = time.monotonic()
        try:
            response = http(server, "GET", "/api/health", timeout=10)
            if response.status != 200:
                failures.append(f"status {response.status}: {response.body[:200]!r}")
        except Exception as error:  # noqa: BLE001 - any failure is a finding, kept with its kind
            failures.append(f"{type(error).__name__}: {error}"[:300])
        times.append(time.monotonic() - began)
        time.sleep(max(0.0, period - (time.monotonic() - began)))
    print(json.dumps({"times": times, "failures": failures}), flush=True)


if __name__ == "__main__":
    main()

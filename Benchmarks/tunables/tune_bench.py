"""How fast tunables move, against a release `keyscope serve --demo`: a `PUT /tune` round trip, and the time from a
saved file to the value on the server with `keyscope tune watch` (the issue's bound is 100 ms).

Run by `make bench` (after the browser bench); alone: `make bench-tunables`. Prints one table and writes its figures to
tunables.json in the results folder (Benchmarks/bench_results.py); nothing is asserted.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_results import Results  # noqa: E402
from support import KeyscopeServer, http, keyscope_binary  # noqa: E402

ROUNDS = 200
SAVES = 40


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def put_round_trips(server) -> list[float]:
    times = []
    for i in range(ROUNDS):
        height = 24 + 4 * (i % 20)
        began = time.perf_counter()
        response = http(server, "PUT", f"/tune/toolbar_height/{height}")
        times.append(time.perf_counter() - began)
        assert response.status == 200, response.describe()
    return times


def watch_latencies(server, directory: Path) -> list[float]:
    """Saves the file by rename (as editors do) and polls GET /tune every 2 ms until the server has the value."""
    target = directory / "live-constants.json"
    values = http(server, "GET", "/tune").json()
    target.write_text(json.dumps(values, indent=2, sort_keys=True) + "\n")
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    watcher = subprocess.Popen([str(keyscope_binary()), "tune", "watch", str(target)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    latencies = []
    try:
        time.sleep(0.5)  # the push at start
        for i in range(SAVES):
            values["welcome_text"] = f"save {i}"
            temporary = target.with_name("edit.tmp")
            temporary.write_text(json.dumps(values, indent=2, sort_keys=True) + "\n")
            began = time.perf_counter()
            os.replace(temporary, target)
            while http(server, "GET", "/tune").json()["welcome_text"] != f"save {i}":
                if time.perf_counter() - began > 5:
                    raise AssertionError(f"save {i} did not reach the server within 5 s")
                time.sleep(0.002)
            latencies.append(time.perf_counter() - began)
    finally:
        watcher.terminate()
        watcher.wait(timeout=10)
    return latencies


def main() -> None:
    results = Results("tunables", "Tunables (release keyscope serve --demo, loopback)", "make bench-tunables")
    server = KeyscopeServer(["--rate", "20"])
    try:
        with tempfile.TemporaryDirectory(prefix="keyscope-tune-bench-") as directory:
            puts = put_round_trips(server)
            saves = watch_latencies(server, Path(directory))
    finally:
        server.stop()
    put_p50, put_p99 = statistics.median(puts), percentile(puts, 0.99)
    save_p50, save_p95, save_max = statistics.median(saves), percentile(saves, 0.95), max(saves)
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"  # noqa: E731
    print("\nTunables (release keyscope serve --demo, loopback)")
    print(f"  PUT /tune round trip ({ROUNDS}×)          p50 {ms(put_p50)}  p99 {ms(put_p99)}")
    print(f"  tune watch: save → value on server ({SAVES}×) p50 {ms(save_p50)}"
          f"  p95 {ms(save_p95)}  max {ms(save_max)}  (bound: 100 ms)")
    why = "nothing else serves these tunables"
    results.add(f"PUT /tune round trip, p50 ({ROUNDS}×)", put_p50 * 1000, "ms", no_peer=why)
    results.add(f"PUT /tune round trip, p99 ({ROUNDS}×)", put_p99 * 1000, "ms", no_peer=why)
    results.add(f"tune watch: save → value on server, p50 ({SAVES}×)", save_p50 * 1000, "ms", no_peer=why)
    results.add(f"tune watch: save → value on server, max ({SAVES}×)", save_max * 1000, "ms", no_peer=why)
    results.write()


if __name__ == "__main__":
    main()

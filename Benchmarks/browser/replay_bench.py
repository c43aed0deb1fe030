#!/usr/bin/env python3
"""Time travel in headless Chromium against a real `keyscope serve --demo` (docs/recording.md "Time travel in the
dashboard"): a generated recording of 1,000,000 events is uploaded to the Replay tab, and the run reports

- how long the dashboard takes to read it (from the upload to the replay bar, and the worker's own reading time),
  what its index and snapshots take, and the page's JS heap;
- how long a jump to a random seq takes, from the scrubber's input to the first frame drawn at that seq (p50, p99
  and max over `--jumps` jumps), beside the worker's own time for each (the frames it replays).

The recording is realistic: a few stores (a cart with items, a session, settings, a file store, a checkout scenario
registered and removed again and again), set/insert/remove/merge patches, transactions of several patches, and a
subscription list now and then: Benchmarks/recording/kslog_gen.py, generated once per size into the cache folder
that the CLI's replay bench (recording_bench.py) shares, so both read the same file.

    make bench-recording   (also run by make bench; EVENTS=… changes the size, as for recording_bench.py)
    KEYSCOPE_BIN=.build/release/keyscope .venv-e2e/bin/python Benchmarks/browser/replay_bench.py --help

Only a server or browser that cannot start, or a recording the dashboard refuses, fails the run. The figures also go
to time-travel.json in the results folder (Benchmarks/bench_results.py).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "Tests" / "e2e"), str(REPO / "Tests" / "e2e" / "browser"),
                str(REPO / "Benchmarks" / "recording"), str(REPO / "Benchmarks")]
sys.dont_write_bytecode = True

import kslog_gen  # noqa: E402
import page_probes as probes  # noqa: E402
from bench_results import Results  # noqa: E402
from bench_table import Table  # noqa: E402
from dashboard import by_testid, wait_connected  # noqa: E402
from headless import WINDOW_SIZE, dashboard_url, start_chromium  # noqa: E402
from support import KeyscopeServer  # noqa: E402

MEASURING_FLAGS = ("--enable-precise-memory-info", "--js-flags=--expose-gc")
LOAD_TIMEOUT = 600.0
JUMP_TIMEOUT_MS = 20_000
# Why time travel's figures stand alone in the summary table.
NO_PEER = "no other dashboard replays a .kslog"

# The replay's state as the page shows it (window.keyscopeStats().replay), or null.
READ_REPLAY = "return window.keyscopeStats ? window.keyscopeStats().replay : null;"
# Moves the scrubber to arguments[0] and calls back once a frame was drawn with the replay at that seq:
# [ms from the input to that frame, the worker's own ms for the jump] (null on timeout).
JUMP = f"""
const [target, done] = [arguments[0], arguments[arguments.length - 1]];
const scrubber = document.querySelector('[data-testid="replay-scrubber"]');
const started = performance.now();
scrubber.value = String(target);
scrubber.dispatchEvent(new Event('input', {{bubbles: true}}));
function check() {{
  const replay = window.keyscopeStats().replay;
  if (replay && replay.seq === target && replay.drawnSeq === target) {{
    return done([performance.now() - started, replay.seekMs]);
  }}
  if (performance.now() - started > {JUMP_TIMEOUT_MS}) return done(null);
  requestAnimationFrame(check);
}}
requestAnimationFrame(check);
"""


# MARK: - The run


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=int(os.environ.get("EVENTS", 1_000_000)),
                        help="events in the recording ($EVENTS, as recording_bench.py reads it; else 1000000)")
    parser.add_argument("--jumps", type=int, default=30, help="random jumps to time (30)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the jumps' targets (7)")
    parser.add_argument("--cache", default=str(kslog_gen.DEFAULT_CACHE),
                        help="where generated recordings are kept")
    parser.add_argument(
        "--public", metavar="DIR", help="serve the dashboard from DIR (default: the checkout's Public/)"
    )
    options = parser.parse_args()
    serve_args = ["--public", str(Path(options.public).resolve())] if options.public else []

    binary = os.environ.get("KEYSCOPE_BIN", str(REPO / ".build" / "release" / "keyscope"))
    os.environ["KEYSCOPE_BIN"] = binary
    path = kslog_gen.recording_file(options.events, Path(options.cache))
    size = path.stat().st_size
    print(f"replay bench: {binary}, headless Chromium {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]}, {path}", file=sys.stderr)
    table = Table()
    results = Results("time-travel", f"Time travel in headless Chromium ({options.events:,}-event recording, "
                      f"{size / 2**20:.0f} MiB)", "make bench-recording")
    table.add("recording", f"{options.events:,} events, {size / 2**20:.0f} MiB")
    server = KeyscopeServer(["--rate", "5", *serve_args])
    driver = None
    try:
        driver = start_chromium(MEASURING_FLAGS)
        driver.get(dashboard_url(server))
        wait_connected(driver, timeout=60)
        if driver.execute_script(READ_REPLAY) is None:
            table.add("load", "n/a: dashboard lacks window.keyscopeStats().replay")
            table.print("Time travel in headless Chromium")
            return 1
        by_testid(driver, "tab-replay").click()
        began = time.monotonic()
        by_testid(driver, "replay-file").send_keys(str(path))
        replay = None
        while time.monotonic() - began < LOAD_TIMEOUT:
            replay = driver.execute_script(READ_REPLAY)
            if replay and (replay["status"] == "error" or (replay["active"] and replay["drawnSeq"] == replay["seq"])):
                break
            time.sleep(0.05)
        loaded = time.monotonic() - began
        if not replay or replay["status"] != "ready":
            table.add("load", f"failed: {replay['message'] if replay else 'no answer'} after {loaded:.1f} s")
            table.print("Time travel in headless Chromium")
            return 1
        table.add("load (upload → replay bar)", f"{loaded:.2f} s ({size / 2**20 / loaded:.0f} MiB/s)")
        table.add("  worker's reading", f"{replay['loadMs'] / 1000:.2f} s")
        results.add("load, upload → replay bar", loaded, "s", no_peer=NO_PEER)
        results.add("  index and snapshots", replay["indexBytes"] / 2**20, "MiB", no_peer=NO_PEER)
        table.add("  index and snapshots",
                  f"{replay['indexBytes'] / 2**20:.1f} MiB, a snapshot every {replay['checkpointEvery']:,} events")
        heap = driver.execute_script(probes.READ_HEAP)
        if heap:
            table.add("  JS heap (page thread)", probes.mib(heap[0]))

        rnd = random.Random(options.seed)
        targets = [rnd.randrange(0, options.events + 1) for _ in range(options.jumps)]
        drawn: list[float] = []
        worker: list[float] = []
        for target in targets:
            result = driver.execute_async_script(JUMP, target)
            if result is None:
                table.add(f"jump to #{target}", f"timed out after {JUMP_TIMEOUT_MS} ms")
                continue
            drawn.append(result[0])
            worker.append(result[1])
        if drawn:
            def summary(values):
                return (f"p50 {percentile(values, 0.5):.0f} ms, p99 {percentile(values, 0.99):.0f} ms, "
                        f"max {max(values):.0f} ms, mean {statistics.fmean(values):.0f} ms")
            table.add(f"jump, input → frame drawn ({len(drawn)} random)", summary(drawn))
            table.add("  the worker's part of it", summary(worker))
            table.add("  under a second", f"{sum(1 for v in drawn if v < 1000)} of {len(drawn)}")
            results.add(f"jump to a random seq, input → frame drawn, p50 ({len(drawn)}×)",
                        percentile(drawn, 0.5), "ms", no_peer=NO_PEER)
            results.add(f"  p99 ({len(drawn)}×)", percentile(drawn, 0.99), "ms", no_peer=NO_PEER)
    finally:
        if driver:
            driver.quit()
        server.stop()
    print()
    table.print(f"Time travel in headless Chromium (keyscope {Path(binary).parent.name} build)")
    results.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())

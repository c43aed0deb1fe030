#!/usr/bin/env python3
"""The dashboard in headless Chromium against a real `keyscope serve --demo` (issue 4's performance numbers):

- first tree render of a store of 100,000 keys (`--demo-keys`), from the `keyscope:first-tree-render` mark;
- frame intervals while the demo streams 10,000 and 50,000 changes/s (a requestAnimationFrame loop);
- input latency at those rates (Event Timing, keystrokes sent by ChromeDriver into an input of the page);
- the JS heap at start and after 30 s at 50,000 changes/s;
- beside each streaming row, the rate the server really made and, when the dashboard exposes
  `window.keyscopeStats`, how fast its counters moved.

    make bench-browser        (a release build of keyscope, then this script)
    KEYSCOPE_BIN=.build/release/keyscope .venv-e2e/bin/python Benchmarks/browser/dashboard_bench.py --help

What the page does not expose (the performance mark, window.keyscopeStats) is reported as "n/a: dashboard lacks
…"; only a server or browser that cannot start fails the run. The figures also go to dashboard.json in the results
folder (Benchmarks/bench_results.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "Tests" / "e2e"), str(REPO / "Tests" / "e2e" / "browser"), str(REPO / "Benchmarks")]
sys.dont_write_bytecode = True

import page_probes as probes  # noqa: E402
from bench_results import Results  # noqa: E402
from bench_table import Table  # noqa: E402
from dashboard import connection_state, wait_connected  # noqa: E402
from headless import WINDOW_SIZE, dashboard_url, start_chromium  # noqa: E402
from support import KeyscopeServer, http  # noqa: E402

# Chromium flags for measuring: exact heap sizes (not bucketed) and gc() to read the heap after a collection.
MEASURING_FLAGS = ("--enable-precise-memory-info", "--js-flags=--expose-gc")
# How long the first tree render may take before it is reported missing.
MARK_TIMEOUT = 60.0
# Why the dashboard's figures stand alone in the summary table.
NO_PEER = "no other dashboard follows this service"


def server_seq(server: KeyscopeServer) -> int:
    return http(server, "GET", "/api/snapshot").json()["seq"]


def open_page(server: KeyscopeServer):
    driver = start_chromium(MEASURING_FLAGS)
    driver.get(dashboard_url(server))
    wait_connected(driver, timeout=60)
    return driver


def first_render(table: Table, results: Results, keys: int, serve_args: list[str]) -> str:
    """Loads the page on a server with a `keys`-key catalog; returns which page it was."""
    server = KeyscopeServer(["--demo-keys", str(keys), "--rate", "20", *serve_args])
    driver = None
    try:
        driver = open_page(server)
        page = "dashboard" if connection_state(driver).page == "dashboard" else "no dashboard"
        deadline = time.monotonic() + MARK_TIMEOUT
        rendered = driver.execute_script(probes.READ_FIRST_RENDER)
        while rendered is None and time.monotonic() < deadline:
            time.sleep(0.1)
            rendered = driver.execute_script(probes.READ_FIRST_RENDER)
        what = f"first tree render, {keys:,} keys"
        if rendered is None:
            table.add(what, f"n/a: dashboard lacks the performance mark '{probes.FIRST_RENDER_MARK}' ({page})")
        else:
            table.add(what, f"{rendered:.0f} ms after navigation start")
            results.add(what, rendered, "ms", no_peer=NO_PEER)
        navigation = driver.execute_script(probes.READ_NAVIGATION)
        if navigation:
            table.add(
                f"  page load, {keys:,} keys",
                f"DOMContentLoaded {navigation['domContentLoaded']:.0f} ms, load {navigation['load']:.0f} ms",
            )
        return page
    finally:
        if driver:
            driver.quit()
        server.stop()


def streaming(
    table: Table, results: Results, rate: int, frame_seconds: float, keys: int, heap_seconds: float | None,
    serve_args: list[str],
) -> None:
    """Frames, input latency and (with `heap_seconds`) the heap, on a page following the demo at `rate`."""
    server = KeyscopeServer(["--rate", str(rate), *serve_args])
    driver = None
    label = f"@{rate // 1000}k/s" if rate >= 1000 else f"@{rate}/s"
    try:
        driver = open_page(server)
        began = time.monotonic()
        heap_start = driver.execute_script(probes.READ_HEAP)
        stats_before = driver.execute_script(probes.READ_STATS)
        seq_before, seq_time = server_seq(server), time.monotonic()

        driver.execute_script(probes.START_FRAMES, frame_seconds * 1000)
        time.sleep(frame_seconds + 0.5)
        frames = probes.frame_stats(driver.execute_script(probes.READ_FRAMES))
        table.add(f"frames {label}", str(frames) if frames else "no animation frame ran")
        if frames:
            results.add(f"frame interval p99 {label}", frames.p99, "ms", no_peer=NO_PEER)
            results.add(f"  dropped frames {label}", frames.dropped_share * 100, "%", no_peer=NO_PEER)

        latency, ranked = type_keys(driver, keys)
        table.add(f"input latency {label}", latency)
        if ranked:
            p95 = probes.percentile(ranked, 0.95)
            results.add(f"input latency p95 {label}", p95, "ms", no_peer=NO_PEER,
                        display=None if p95 is not None else f"<{probes.EVENT_THRESHOLD_MS} ms")

        seconds = time.monotonic() - seq_time
        made = (server_seq(server) - seq_before) / seconds
        table.add(f"  server {label}", f"{made:,.0f} log entries/s made (asked {rate:,} changes/s)")
        results.add(f"  log entries/s the demo made {label}", made, "/s", "higher", no_peer=NO_PEER)
        stats_after = driver.execute_script(probes.READ_STATS)
        if stats_before is None or stats_after is None:
            table.add(f"  page stats {label}", "n/a: dashboard lacks window.keyscopeStats")
        else:
            table.add(f"  page stats {label}", probes.stats_rates(stats_before, stats_after, seconds))

        if heap_seconds is not None:
            if heap_start is None:
                table.add(f"JS heap (main thread) {label}", "n/a: the browser lacks performance.memory")
            else:
                time.sleep(max(0.0, heap_seconds - (time.monotonic() - began)))
                heap_end = driver.execute_script(probes.READ_HEAP)
                followed = time.monotonic() - began
                after_gc = " (each after a full GC)" if heap_start[1] else ""
                table.add(
                    f"JS heap (main thread) {label}",
                    f"{probes.mib(heap_start[0])} at start, {probes.mib(heap_end[0])} after "
                    f"{followed:.0f} s{after_gc}",
                )
                results.add(f"JS heap (main thread) at start {label}", heap_start[0] / (1 << 20), "MiB",
                            no_peer=NO_PEER)
                results.add(f"  after {followed:.0f} s {label}", heap_end[0] / (1 << 20), "MiB", no_peer=NO_PEER)
    finally:
        if driver:
            driver.quit()
        server.stop()


def type_keys(driver, keys: int) -> tuple[str, list[float | None]]:
    """Sends `keys` keystrokes, one interaction each, and summarises their Event Timing durations; also returns the
    durations ranked (probes.ranked_keystrokes; empty when the browser cannot time them)."""
    if not driver.execute_script(probes.START_EVENTS):
        return "n/a: the browser lacks the Event Timing API", []
    element, where = driver.execute_script(probes.FIND_INPUT)
    element.click()
    # One WebDriver command for all the keys (a round trip each would stretch the run on a busy machine), 50 ms
    # apart so that each key is an interaction of its own.
    actions = ActionChains(driver)
    for index in range(keys):
        key = "keyscope"[index % 8]
        actions.key_down(key).key_up(key).pause(0.05)
    actions.perform()
    time.sleep(1.0)  # observers are called after the next paint
    events = driver.execute_script(probes.READ_EVENTS)
    return f"{probes.input_latency(events, keys)}; into {where}", probes.ranked_keystrokes(events, keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100_000, help="keys of the first-render store (100000)")
    parser.add_argument(
        "--rates", default="10000,50000", help="demo rates to stream at, comma-separated (10000,50000)"
    )
    parser.add_argument("--frame-seconds", type=float, default=5.0, help="how long frames are recorded (5)")
    parser.add_argument("--heap-seconds", type=float, default=30.0, help="how long the heap is followed (30)")
    parser.add_argument("--typed-keys", type=int, default=40, help="keystrokes for the input latency (40)")
    parser.add_argument(
        "--public", metavar="DIR", help="serve the dashboard from DIR (default: the checkout's Public/)"
    )
    options = parser.parse_args()
    serve_args = ["--public", str(Path(options.public).resolve())] if options.public else []
    rates = [int(rate) for rate in options.rates.split(",") if rate]

    binary = os.environ.get("KEYSCOPE_BIN", str(REPO / ".build" / "release" / "keyscope"))
    os.environ["KEYSCOPE_BIN"] = binary
    print(f"browser bench: {binary}, headless Chromium {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]}", file=sys.stderr)
    table = Table()
    title = f"Dashboard in headless Chromium ({WINDOW_SIZE[0]}x{WINDOW_SIZE[1]}, release keyscope serve --demo)"
    results = Results("dashboard", title, "make bench-browser")
    page = first_render(table, results, options.keys, serve_args)
    for rate in rates:
        # The heap is followed at the highest rate only, as issue 4 asks.
        heap_seconds = options.heap_seconds if rate == max(rates) else None
        streaming(table, results, rate, options.frame_seconds, options.typed_keys, heap_seconds, serve_args)
    print()
    table.print(f"Dashboard in headless Chromium ({page}; keyscope {Path(binary).parent.name} build)")
    results.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Soak: 50 dashboard clients on `keyscope serve --demo --rate 10000` for 5 minutes (issue 8, "Load and faults").

Asserted: no client sees a missing or repeated `seq` except the ranges the server announced with `gap`, and none is
closed by the server; the service's memory stays flat: from the moment the hub's log holds its 100,000 entries, the
highest RSS of the last minute is at most the highest of the first minute plus a margin, and RSS's trend over the
last 3 minutes before the clients close is under LOAD_SOAK_MAX_TREND (2 MiB/min; a run whose log was full for less
than 2 of those minutes reports both instead). Issue 23's target, under 1 MiB/min, is reported as met or not: the
release server measured +0.35 and +1.26 MiB/min in two runs, so holding the test to it would fail about one run in
two on noise alone, while the leaks and the fragmentation it was written against grew 9 to 15 MiB/min; its
file descriptors come back to the count before the clients connected. Measured and reported: the rate the demo
reached (its own count, and the hub's `seq` as the clients saw it), entries and gaps per client, RSS over time, CPU,
how the clients' closes ended.

The trend is the least-squares slope through the medians of 10 s windows: the hub gives freed memory back every
5 s (HubOptions.freedMemoryReturn), so RSS saws up and down by 10 to 20 MiB within a window, and a slope through the
raw samples moves with where the run happens to end in that saw.

Figures: LOAD_SOAK_CLIENTS (50), LOAD_SOAK_RATE (10000), LOAD_SOAK_SECONDS (300), LOAD_SOAK_RSS_MARGIN_MIB (64),
LOAD_SOAK_TREND_SECONDS (180), LOAD_SOAK_MAX_TREND (2.0 MiB/min).
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time

from dashboards import run_dashboards
from loadsupport import Sampler, number, settled_fd_count
from support import KeyscopeServer

CLIENTS = int(number("SOAK_CLIENTS", 50))
RATE = int(number("SOAK_RATE", 10_000))
SECONDS = float(number("SOAK_SECONDS", 300))
RSS_MARGIN_MIB = float(number("SOAK_RSS_MARGIN_MIB", 64))
TREND_SECONDS = float(number("SOAK_TREND_SECONDS", 180))
MAX_TREND = float(number("SOAK_MAX_TREND", 2.0))
TARGET_TREND = 1.0  # issue 23's figure, reported
TREND_STEP = 10.0  # the windows whose medians the trend goes through
LOG_ENTRIES = 100_000  # `keyscope serve`'s --log-entries default
DEMO_LINE = re.compile(r"demo made (\d+) changes in ([\d.]+) s: (\d+) per second")


def test_soak_dashboards_at_full_rate(report):
    server = KeyscopeServer(["--rate", str(RATE), "--log-level", "notice"])
    try:
        fds_before = settled_fd_count(server.pid)
        began, own_cpu = time.monotonic(), time.process_time()
        ticks: list[float] = []
        with Sampler(server.pid, interval=1.0) as sampler:
            clients = asyncio.run(
                run_dashboards(server.ws_url(), CLIENTS, SECONDS, on_tick=lambda: ticks.append(time.monotonic()))
            )
        elapsed = time.monotonic() - began
        client_cpu = (time.process_time() - own_cpu) / elapsed
        fds_after = settled_fd_count(server.pid, target=fds_before, timeout=20)
        alive = server.alive()
    finally:
        server.stop()
    demo = DEMO_LINE.search(server.stderr_text())

    # The hub's seq as the first client saw it, over the run: the rate of entries the server produced.
    timeline = clients[0].timeline
    hub_rate = (timeline[-1][1] - timeline[0][1]) / (timeline[-1][0] - timeline[0][0]) if len(timeline) > 1 else 0
    # Memory is compared once the hub's log holds its 100,000 entries (`serve`'s default): the first window after
    # that against the last one. Before, the log itself is growing.
    full = next((t - sampler.started for t, seq in timeline if seq >= LOG_ENTRIES), None)
    end = sampler.rows[-1][0]
    window = min(60.0, SECONDS / 3)
    compared = full is not None and full + 2 * window <= end + 1
    start = full if compared else 0.0
    first = sampler.window(start, start + window)
    last = sampler.window(end - window, end + 1)
    first_peak = max(row[1] for row in first) / 1024
    last_peak = max(row[1] for row in last) / 1024
    cpu = (sampler.rows[-1][3] - sampler.rows[0][3]) / (sampler.rows[-1][0] - sampler.rows[0][0])
    # The trend from the first window on: MiB per minute, least squares.
    settled = sampler.window(start, end + 1)
    slope = 0.0
    if len(settled) > 2:
        slope = statistics.linear_regression([r[0] for r in settled], [r[1] / 1024 for r in settled]).slope * 60
    # The trend over the last minutes while every client was connected (the last tick before they close), from
    # the moment the log was full at the earliest.
    closing = (ticks[-1] - sampler.started) if ticks else end
    trend_start = max(closing - TREND_SECONDS, full if full is not None else closing)
    trend = median_trend(sampler, trend_start, closing)
    trend_judged = full is not None and closing - trend_start >= min(TREND_SECONDS, 120)
    unclean = [c for c in clients if c.close_code != 1000]
    by_server = [c for c in clients if c.ended_by_server]
    gaps = [len(c.gaps) for c in clients]
    skipped = [c.skipped for c in clients]
    received = [c.entries for c in clients]
    violations = [c for c in clients if c.violations]
    report.samples("soak-samples.csv", ["seconds", "rss_kib", "fds", "cpu_seconds"], [list(r) for r in sampler.rows])
    report.section(
        "Load and soak",
        [
            f"- {CLIENTS} dashboard clients, `--rate {RATE}`, {SECONDS:.0f} s (ran {elapsed:.0f} s)",
            "- demo rate reached: "
            + (f"{demo.group(3)} changes/s ({demo.group(1)} in {demo.group(2)} s, its own count)" if demo else "n/a")
            + f"; hub seq rate seen by client 0: {hub_rate:.0f}/s",
            f"- entries received per client: min {min(received)}, median {statistics.median(received):.0f}, "
            f"max {max(received)}",
            f"- announced gaps per client: min {min(gaps)}, median {statistics.median(gaps):.0f}, max {max(gaps)}; "
            f"entries skipped by them: median {statistics.median(skipped):.0f}, max {max(skipped)}",
            f"- seq violations (missing or repeated outside a gap): {sum(c.violations for c in clients)}",
            f"- RSS: {sampler.rows[0][1] / 1024:.0f} MiB at start; the log full after "
            + (f"{full:.0f} s" if full is not None else "never")
            + f"; peak {first_peak:.0f} MiB in the {window:.0f} s from {start:.0f} s, peak {last_peak:.0f} MiB in "
            f"the last {window:.0f} s, {sampler.rows[-1][1] / 1024:.0f} MiB at the end; trend from {start:.0f} s: "
            f"{slope:+.1f} MiB/min" + ("" if compared else " (not compared: the run ended before the log was full "
                                        "for two windows)"),
            f"- RSS trend over the last {closing - trend_start:.0f} s before the clients closed ({trend_start:.0f} to "
            f"{closing:.0f} s; medians of {TREND_STEP:.0f} s windows): {trend:+.2f} MiB/min"
            + (
                f"; issue 23's target (under {TARGET_TREND:.0f} MiB/min) "
                + ("met" if trend < TARGET_TREND else "NOT met")
                if trend_judged
                else " (not judged: the log was full for less than 2 minutes of it)"
            ),
            f"- fds: {fds_before} before the clients, {max(r[2] for r in sampler.rows)} at most, {fds_after} after",
            f"- CPU: service {cpu:.2f} cores, the {CLIENTS} clients {client_cpu:.2f} cores (machine load average "
            f"{' / '.join(open('/proc/loadavg').read().split()[:3])})",
            f"- closes: {len(by_server)} connections ended by the server during the run; at the clients' close, "
            f"{len(unclean)} got no close frame back (1006)"
            + (": lws 4.1 drops a partly sent frame and sends no close when the peer's close comes" if unclean else ""),
            "- samples: soak-samples.csv",
        ],
    )

    assert alive, f"the service died during the soak:\n{server.stderr_text()[-2000:]}"
    assert not by_server, f"the server closed {len(by_server)} dashboards during the soak: {by_server[0].close_code}"
    assert not violations, "\n".join(
        f"client {c.index}: {c.violations} violations, e.g. {c.examples}" for c in violations
    )
    assert min(received) > 0, f"a client received no entries at all: {received}"
    assert compared or SECONDS < 120, f"the hub's log was not full for two {window:.0f} s windows (full at {full})"
    assert not compared or last_peak <= first_peak + RSS_MARGIN_MIB, (
        f"memory grew: peak RSS {last_peak:.0f} MiB in the last {window:.0f} s against {first_peak:.0f} MiB in the "
        f"first (margin {RSS_MARGIN_MIB:.0f} MiB)"
    )
    assert not trend_judged or trend < MAX_TREND, (
        f"RSS still grows {trend:+.2f} MiB/min over the last {closing - trend_start:.0f} s (at most {MAX_TREND}); "
        "samples in soak-samples.csv"
    )
    assert fds_after == fds_before, f"{fds_after} fds after the clients left, {fds_before} before"


def median_trend(sampler: Sampler, start: float, end: float) -> float:
    """MiB per minute: the least-squares slope through the RSS medians of consecutive TREND_STEP windows from
    `start` to `end` (nan with fewer than three)."""
    points = []
    at = start
    while at + TREND_STEP <= end + 1e-6:
        window = sampler.window(at, at + TREND_STEP)
        if window:
            points.append((at + TREND_STEP / 2, statistics.median(row[1] for row in window) / 1024))
        at += TREND_STEP
    if len(points) < 3:
        return float("nan")
    return statistics.linear_regression([p[0] for p in points], [p[1] for p in points]).slope * 60

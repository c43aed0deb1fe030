"""Slow and hostile clients (issue 8, "Load and faults"): while each of these runs against `keyscope serve --demo`,
a normal client (normal.py) keeps using the service, and every one of its answers must come within 1 s:

- a client that never reads (and one that also keeps sending requests whose answers it never reads);
- 500 connections that send their request headers one byte a second (reconnecting when dropped);
- 1,000 connections that send part of a request line and wait (past the server's connection cap, raised here to
  2,000 so that all of them are held: the service thread's CPU while they wait is reported);
- a client that sends one message in 1,000,000 tiny (1-byte) fragments;
- clients that upgrade and reset the connection (RST) without reading what the server sends.

After each, the service's file descriptors must come back to their count before it, and its memory is reported.

Figures: LOAD_HOSTILE_SECONDS (20, for the endless ones), LOAD_HOSTILE_RATE (1000 changes/s),
LOAD_SLOW_CONNECTIONS (500), LOAD_FRAGMENTS (1000000), LOAD_ABRUPT_PER_SECOND (50), LOAD_MAX_REPLY (1.0 s),
LOAD_HOSTILE_RSS_GROWTH_MIB (16: the most the service's RSS may grow over the second half of a scenario).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from loadsupport import Sampler, number, settled_fd_count
from normal import NormalClient
from support import KeyscopeServer, StreamClient, rss_kib

SECONDS = float(number("HOSTILE_SECONDS", 20))
RATE = int(number("HOSTILE_RATE", 1000))
MAX_REPLY = float(number("MAX_REPLY", 1.0))
RSS_GROWTH_MIB = float(number("HOSTILE_RSS_GROWTH_MIB", 16))
SCENARIOS = {
    "never-read": ("a client that never reads", 1),
    "never-read-asking": ("a client that never reads and sends a request every 10 ms", 1),
    "slow-headers": ("connections sending their headers 1 byte/s", int(number("SLOW_CONNECTIONS", 500))),
    "half-open": ("idle connections with part of a request line", int(number("HALF_OPEN_CONNECTIONS", 1000))),
    "fragments": ("one message in 1-byte fragments", int(number("FRAGMENTS", 1_000_000))),
    "abrupt": ("upgrades reset (RST) after hello, per second", int(number("ABRUPT_PER_SECOND", 50))),
}
HOSTILE = Path(__file__).resolve().parent / "hostile.py"
rows: list[str] = []


# A catalog of 2,000 keys makes each snapshot about 150 KB, so that a client that asks for snapshots and never reads
# them shows in the service's memory at once; the log is kept small so that it is full (and flat) before the first
# scenario.
LOG_ENTRIES = 5000
# Room for every half-open connection, so that they are held (and cost what a held connection costs) rather than
# pushed out by newer ones.
CONNECTION_CAP = 2000


@pytest.fixture(scope="module")
def busy():
    running = KeyscopeServer(
        [
            "--rate", str(RATE), "--demo-keys", "2000", "--log-entries", str(LOG_ENTRIES),
            "--max-connections", str(CONNECTION_CAP),
        ]
    )
    try:
        client = StreamClient.open(running)
        client.wait_seq(LOG_ENTRIES + 1000, timeout=120)  # the log is at its bound
        client.close()
        yield running
    finally:
        running.stop()


class Hostile:
    """hostile.py MODE as a process of its own: its `ready` line, its final JSON line."""

    def __init__(self, mode: str, server: KeyscopeServer, count: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HOSTILE), mode, str(server.port), server.token, str(count)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.strip())
            self.ready.set()
        self.ready.set()

    def finish(self, endless: bool, timeout: float) -> dict:
        if endless:
            self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            raise AssertionError(f"the hostile client did not end within {timeout} s")
        self._reader.join(10)
        errors = self.process.stderr.read()
        assert self.process.returncode == 0 and self.lines, f"hostile client failed: {errors[-2000:]}"
        return json.loads(self.lines[-1])


@pytest.mark.parametrize("mode", list(SCENARIOS))
def test_a_normal_client_is_served_within_a_second(busy, report, mode):
    title, count = SCENARIOS[mode]
    endless = mode != "fragments"
    fds_before = settled_fd_count(busy.pid)
    rss_before = rss_kib(busy.pid) / 1024
    with NormalClient(busy) as normal, Sampler(busy.pid, interval=0.5) as sampler:
        hostile = Hostile(mode, busy, count)
        assert hostile.ready.wait(120), "the hostile client never got going"
        began = time.monotonic() - sampler.started
        if endless:
            time.sleep(SECONDS)
        outcome = hostile.finish(endless, timeout=600)
        ended = time.monotonic() - sampler.started
    fds_after = settled_fd_count(busy.pid, target=fds_before, timeout=30)
    rss_after = rss_kib(busy.pid) / 1024
    worst = normal.worst()
    middle = (began + ended) / 2
    rss_middle = min(sampler.window(middle - 0.5, ended + 1), key=lambda row: abs(row[0] - middle))[1] / 1024
    growth = max((row[1] / 1024 for row in sampler.window(middle, ended + 1)), default=rss_middle) - rss_middle
    during = sampler.window(began, ended)
    cores = (during[-1][3] - during[0][3]) / (during[-1][0] - during[0][0]) if len(during) > 1 else float("nan")
    rows.append(
        f"| {title} ({count:,}) | {worst['health']:.3f} | {worst['connect']:.3f} | {worst['request']:.3f} | "
        f"{normal.rounds()} | {rss_before:.0f} → {max(r[1] for r in sampler.rows) / 1024:.0f} → {rss_after:.0f} "
        f"(+{growth:.1f} in the second half) | "
        f"{fds_before} → {max(r[2] for r in sampler.rows)} → {fds_after} | {cores:.2f} | {json.dumps(outcome)} |"
    )
    report.section(
        "Slow and hostile clients",
        [
            f"`keyscope serve --demo --rate {RATE} --demo-keys 2000 --log-entries {LOG_ENTRIES}`; worst reply times "
            "of the normal client (s), measured every "
            f"200 ms while each runs ({SECONDS:.0f} s for the endless ones):",
            "",
            "| hostile load | health | new WebSocket | request | rounds | RSS MiB before → peak → after | fds "
            "before → peak → after | service CPU (cores) | hostile client's counts |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            *rows,
        ],
    )
    assert busy.alive(), f"the service died:\n{busy.stderr_text()[-2000:]}"
    assert not normal.failures, f"the normal client failed {len(normal.failures)} times: {normal.failures[:5]}"
    assert not normal.stream.gaps, f"the normal client's stream had gaps: {normal.stream.gaps[:3]}"
    slow = {name: value for name, value in worst.items() if value > MAX_REPLY}
    assert not slow, f"the normal client waited more than {MAX_REPLY} s: {slow} ({title})"
    assert fds_after == fds_before, f"{fds_after} fds after {title}, {fds_before} before"
    assert growth <= RSS_GROWTH_MIB, (
        f"the service's RSS grew by {growth:.1f} MiB over the second half of {title} (at most {RSS_GROWTH_MIB:.0f})"
    )
    if mode == "fragments":
        assert outcome["reply_ok"], f"the fragmented request got no good reply: {outcome}"

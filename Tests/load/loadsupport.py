"""Helpers for the load and fault tests: their parameters (env `LOAD_*`, the issue's figures by default), the
report they write, sampling a process's memory and file descriptors, and the host probe process
(Sources/KeyscopeHostProbe).

The server helpers of the end-to-end tests (`KeyscopeServer`, `http`, `StreamClient`, `RawWebSocket`, the addresses
and `/proc` readings) come from Tests/e2e/support.py, which conftest.py puts on the path: not copied.
"""

from __future__ import annotations

import collections
import json
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

from support import LoopbackAddress, cpu_seconds, rss_kib

REPO = Path(__file__).resolve().parents[2]


# MARK: - Parameters


def number(name: str, default: float) -> float:
    """`$LOAD_<name>` as a number, else `default` (the issue's figure)."""
    text = os.environ.get("LOAD_" + name)
    if text is None or text == "":
        return default
    try:
        return float(text) if "." in text else int(text)
    except ValueError:
        raise AssertionError(f"LOAD_{name}={text!r} is not a number") from None


# MARK: - The report


class Report:
    """What the load tests measured, as Markdown sections and CSV sample files in one folder
    (`$LOAD_REPORT_DIR`, default `.build/load/`): `report.md` is rewritten as each section is added, so a run that
    stops half-way still leaves what it measured."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sections: dict[str, list[str]] = {}
        self.started = time.monotonic()
        (self.folder / "report.md").write_text("# Load and fault tests\n\n(running)\n")

    def section(self, title: str, lines: list[str]) -> None:
        self.sections[title] = lines
        self._write()

    def samples(self, name: str, header: list[str], rows: list[list]) -> Path:
        path = self.folder / name
        with path.open("w") as out:
            out.write(",".join(header) + "\n")
            for row in rows:
                out.write(",".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row) + "\n")
        return path

    def _write(self) -> None:
        text = ["# Load and fault tests", ""]
        for title, lines in self.sections.items():
            text += [f"## {title}", "", *lines, ""]
        text.append(f"Elapsed so far: {time.monotonic() - self.started:.0f} s.")
        (self.folder / "report.md").write_text("\n".join(text) + "\n")


# MARK: - A process's memory and descriptors


def fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def settled_fd_count(pid: int, target: int | None = None, timeout: float = 15) -> int:
    """The fd count once it stops changing (or reaches `target`): sockets being closed take a moment to go."""
    deadline = time.monotonic() + timeout
    last = fd_count(pid)
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = fd_count(pid)
        if target is not None and now == target:
            return now
        if target is None and now == last:
            return now
        last = now
    return fd_count(pid)


class Sampler:
    """Samples a process's RSS, fd count and CPU time every `interval` seconds on a thread of its own."""

    def __init__(self, pid: int, interval: float = 1.0) -> None:
        self.pid = pid
        self.interval = interval
        self.rows: list[tuple[float, int, int, float]] = []  # (seconds since start, RSS KiB, fds, CPU s)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.started = time.monotonic()

    def __enter__(self) -> "Sampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.rows.append(
                    (time.monotonic() - self.started, rss_kib(self.pid), fd_count(self.pid), cpu_seconds(self.pid))
                )
            except (FileNotFoundError, ProcessLookupError):
                return
            self._stop.wait(self.interval)

    def window(self, start: float, end: float) -> list[tuple[float, int, int, float]]:
        return [row for row in self.rows if start <= row[0] < end]


# MARK: - The host probe


def probe_binary() -> Path:
    """`$KEYSCOPE_PROBE_BIN`, else KeyscopeHostProbe beside `$KEYSCOPE_BIN`, else the debug build's."""
    given = os.environ.get("KEYSCOPE_PROBE_BIN")
    if given:
        return Path(given)
    keyscope = os.environ.get("KEYSCOPE_BIN")
    if keyscope:
        return Path(keyscope).resolve().parent / "KeyscopeHostProbe"
    return REPO / ".build" / "debug" / "KeyscopeHostProbe"


DASHBOARD = re.compile(r"^inspector http://127\.0\.0\.1:(\d+)/\?token=(\S+)$")


class Probe(LoopbackAddress):
    """A running KeyscopeHostProbe: its stdout (`inspector …`, `recording …`, `work N`) and stderr (its log) are
    read by threads for its whole life, and can be waited on. Its inspector's addresses (port and token, once it
    printed them) are what Tests/e2e/support.py's clients (`http`, `ws_connect`, `StreamClient`) ask for."""

    def __init__(self, args: list[str], prefix: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        binary = probe_binary()
        if not binary.exists():
            raise AssertionError(f"no probe at {binary}: swift build --product KeyscopeHostProbe")
        self.args = [*(prefix or []), str(binary), *args]
        self.process = subprocess.Popen(
            self.args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        self.pid = self.process.pid
        self.stdout: list[str] = []
        self.stderr: collections.deque[str] = collections.deque(maxlen=2000)
        self.last_work = 0
        super().__init__()
        self._changed = threading.Condition()
        self._threads = [
            threading.Thread(target=self._drain, args=(self.process.stdout, True), daemon=True),
            threading.Thread(target=self._drain, args=(self.process.stderr, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _drain(self, stream, is_stdout: bool) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            with self._changed:
                if is_stdout:
                    if line.startswith("work "):
                        self.last_work = int(line[5:])
                    else:
                        self.stdout.append(line)
                        match = DASHBOARD.match(line)
                        if match:
                            self.port, self.token = int(match.group(1)), match.group(2)
                else:
                    self.stderr.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for(self, condition, what: str, timeout: float = 20):
        """Waits until `condition(self)` is truthy (checked whenever a line arrives); returns its value."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                result = condition(self)
                if result:
                    return result
                remaining = deadline - time.monotonic()
                ended = self.process.poll()
                if remaining <= 0 or ended is not None:
                    state = "running" if ended is None else f"exited {ended}"
                    raise AssertionError(
                        f"{what}: not within {timeout} s (probe {state}, last work {self.last_work}).\n"
                        f"stdout: {self.stdout[-10:]}\nstderr: {self.log_text()[-3000:]}"
                    )
                self._changed.wait(min(remaining, 0.5))

    def wait_work(self, count: int, timeout: float = 20) -> int:
        """Waits until the probe's work has gone `count` steps past where it is now; the step it reached."""
        target = self.last_work + count
        return self.wait_for(lambda p: p.last_work if p.last_work >= target else 0,
                             f"the probe's work reaching step {target}", timeout)

    def log_lines(self, pattern: str) -> list[str]:
        with self._changed:
            return [line for line in self.stderr if re.search(pattern, line)]

    def wait_log(self, pattern: str, timeout: float = 20) -> str:
        return self.wait_for(lambda p: next(iter(p.log_lines(pattern)), None), f"a log line matching {pattern!r}",
                             timeout)

    def log_text(self) -> str:
        return "\n".join(self.stderr)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        for thread in self._threads:
            thread.join(5)


def read_json(path: Path):
    return json.loads(path.read_bytes())

"""Running `keyscope` client commands as a user does: to completion, or in the background like a second terminal."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

from support import keyscope_binary


def cli_env(home: Path | str, **extra: str) -> dict[str, str]:
    """The environment of a user whose state folder is `home` (KEYSCOPE_HOME), without a KEYSCOPE_TOKEN."""
    env = {k: v for k, v in os.environ.items() if k != "KEYSCOPE_TOKEN"}
    env["KEYSCOPE_HOME"] = str(home)
    env.update(extra)
    return env


def run_cli(args: list[str], env: dict[str, str], cwd: Path | str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs `keyscope ARGS` to its end and returns what it printed."""
    return subprocess.run([str(keyscope_binary()), *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


class BackgroundCLI:
    """`keyscope ARGS` running until Ctrl-C, its stdout and stderr read line by line as they come."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path | str | None = None) -> None:
        self.args = args
        self.process = subprocess.Popen([str(keyscope_binary()), *args], env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._changed = threading.Condition()
        self._threads = [threading.Thread(target=self._drain, args=(stream, lines), daemon=True)
                         for stream, lines in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr))]
        for thread in self._threads:
            thread.start()

    def _drain(self, stream, lines: list[str]) -> None:
        for raw in iter(stream.readline, b""):
            with self._changed:
                lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_line(self, predicate, what: str, stream: str = "stdout", timeout: float = 60) -> str:
        """The first line of `stream` that `predicate` accepts, waiting for it (the timeout only guards a hang)."""
        lines = self.stdout if stream == "stdout" else self.stderr
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((line for line in lines if predicate(line)), None)
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.process.poll() is not None and not any(t.is_alive() for t in self._threads)):
                    raise AssertionError(f"`keyscope {' '.join(self.args)}` printed no {what} "
                                         f"(exit {self.process.poll()}).\nstdout: {self.stdout[-20:]}\n"
                                         f"stderr: {self.stderr[-20:]}")
                self._changed.wait(min(remaining, 1))

    def count(self, predicate, stream: str = "stdout") -> int:
        with self._changed:
            return sum(1 for line in (self.stdout if stream == "stdout" else self.stderr) if predicate(line))

    def interrupt(self, timeout: float = 20) -> int:
        """Ctrl-C, then the exit status (SIGKILL when it does not exit: the test then fails on the status)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(timeout)
        for thread in self._threads:
            thread.join(5)
        return code

"""The conformance echo (the `KeyscopeConformanceEcho` executable) as a context manager, for test_echo.py and the
Autobahn run (Tests/conformance/autobahn.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from pathlib import Path

from support import LoopbackAddress, keyscope_binary

ECHO_LINE = re.compile(r"^Keyscope echo: ws://127\.0\.0\.1:(\d+)/$")
START_TIMEOUT = 20.0
STOP_TIMEOUT = 10.0


def echo_binary() -> Path:
    """`$KEYSCOPE_ECHO_BIN`, else `KeyscopeConformanceEcho` beside the `keyscope` binary (the same build folder)."""
    given = os.environ.get("KEYSCOPE_ECHO_BIN")
    return Path(given).resolve() if given else keyscope_binary().parent / "KeyscopeConformanceEcho"


class EchoServer(LoopbackAddress):
    """Starts `KeyscopeConformanceEcho --port 0 ARGS…` and waits for its `Keyscope echo: ws://127.0.0.1:PORT/` line;
    on exit, SIGINT and a wait for exit status 0. Its stderr goes to ours."""

    def __init__(self, *args: str) -> None:
        super().__init__()  # no token: the echo asks for none (support.RawWebSocket and raw_request read it)
        self.args = list(args)
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """The echo's WebSocket URL: any path is the echo, so `/`."""
        return f"ws://{self.host_header}/"

    def __enter__(self) -> "EchoServer":
        binary = echo_binary()
        if not binary.exists():
            raise AssertionError(f"{binary} does not exist: build it with `swift build --product KeyscopeConformanceEcho`")
        self.process = subprocess.Popen([str(binary), "--port", "0", *self.args], stdout=subprocess.PIPE, text=True)
        first_line: list[str] = []
        reader = threading.Thread(target=lambda: first_line.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(START_TIMEOUT)
        match = ECHO_LINE.match(first_line[0].strip()) if first_line else None
        if not match:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"KeyscopeConformanceEcho did not start: first line {first_line!r}")
        self.port = int(match.group(1))
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError("KeyscopeConformanceEcho did not stop on SIGINT")
        self.process.stdout.close()
        if exc[0] is None:
            assert code == 0, f"KeyscopeConformanceEcho exited with {code}"

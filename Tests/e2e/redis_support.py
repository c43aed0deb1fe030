"""A real `redis-server` of the test's own: a free loopback port, a temporary folder, stopped by pid. Never the
system Redis. `make deps` installs redis-server; KEYSCOPE_REDIS_SERVER names another binary."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

READY_TIMEOUT = 20


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """`RedisServer(password="pw")` starts one and waits until it accepts connections; `url` has the password when
    one is set (`redis://:pw@127.0.0.1:PORT`). `stop()` sends SIGTERM to its pid and waits; `kill()` SIGKILL."""

    def __init__(self, password: str | None = None, persistent: bool = False) -> None:
        self.binary = os.environ.get("KEYSCOPE_REDIS_SERVER") or shutil.which("redis-server")
        if not self.binary:
            raise AssertionError("redis-server is not installed: run `make deps`")
        self.password = password
        self.persistent = persistent
        self.directory = Path(tempfile.mkdtemp(prefix="keyscope-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        credentials = f":{self.password}@" if self.password else ""
        return f"redis://{credentials}127.0.0.1:{self.port}"

    @property
    def shown_url(self) -> str:
        """The URL as Keyscope shows it: no credentials, the db spelled out."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log(self) -> Path:
        return self.directory / "redis.log"

    def start(self) -> None:
        mark = self.log.stat().st_size if self.log.exists() else 0
        args = [
            self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory),
            "--logfile", str(self.log), "--daemonize", "no", "--appendonly", "no",
            "--save", "3600 1" if self.persistent else "",
        ]
        if self.password:
            args += ["--requirepass", self.password]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.log.exists() and b"Ready to accept connections" in self.log.read_bytes()[mark:]:
                return
            if self.process.poll() is not None:
                raise AssertionError(f"redis-server exited ({self.process.returncode}): {self.log.read_text()[-400:]}")
            time.sleep(0.01)
        self.kill()
        raise AssertionError(f"redis-server on port {self.port} was not ready within {READY_TIMEOUT} s")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, sig)
            self.process.wait(timeout=30)
        self.process = None

    def kill(self) -> None:
        self.stop(signal.SIGKILL)

    def restart(self, keep_data: bool) -> None:
        self.stop()
        if not keep_data:
            for entry in self.directory.iterdir():
                if entry.name != "redis.log":
                    entry.unlink()
        self.start()

    def call(self, *args: str) -> object:
        """One command on a fresh connection (AUTH first when the server has a password), with its RESP2 reply:
        str for status and bulk replies, int, None, list; an error reply raises AssertionError."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as connection:
            reader = connection.makefile("rb")
            commands = ([("AUTH", self.password)] if self.password else []) + [args]
            for command in commands:
                payload = f"*{len(command)}\r\n".encode()
                for arg in command:
                    data = arg.encode()
                    payload += f"${len(data)}\r\n".encode() + data + b"\r\n"
                connection.sendall(payload)
                reply = _read_reply(reader)
            return reply

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "RedisServer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _read_reply(reader) -> object:
    line = reader.readline().rstrip(b"\r\n")
    kind, rest = line[:1], line[1:].decode()
    if kind == b"+":
        return rest
    if kind == b"-":
        raise AssertionError(f"redis replied with an error: {rest}")
    if kind == b":":
        return int(rest)
    if kind == b"$":
        if int(rest) < 0:
            return None
        data = reader.read(int(rest) + 2)
        return data[:-2].decode("utf-8", errors="replace")
    if kind == b"*":
        return None if int(rest) < 0 else [_read_reply(reader) for _ in range(int(rest))]
    raise AssertionError(f"not a RESP2 reply: {line!r}")

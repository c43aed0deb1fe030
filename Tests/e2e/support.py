"""Helpers for the end-to-end tests: start the real `keyscope serve --demo`, and talk to it with clients that
share no code with the server (http.client, raw sockets, the `websockets` library, a minimal raw WebSocket client).

Everything here waits on events with timeouts; nothing sleeps to synchronise.
"""

from __future__ import annotations

import base64
import collections
import datetime
import http.client as httpclient
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

REPO = Path(__file__).resolve().parents[2]
SUBPROTOCOL = "keyscope.v1"
DASHBOARD_LINE = re.compile(r"^Keyscope (?:fleet )?dashboard: http://127\.0\.0\.1:(\d+)/\?token=(\S+)$")
START_TIMEOUT = 20.0
# The store the tests write to; a server counts as started once the demo has registered it.
READY_STORE = "app/memory"
STOP_TIMEOUT = 5.0


def keyscope_binary() -> Path:
    """`$KEYSCOPE_BIN`, else the package's debug build."""
    given = os.environ.get("KEYSCOPE_BIN")
    path = Path(given) if given else REPO / ".build" / "debug" / "keyscope"
    if not path.is_absolute():
        path = path.resolve() if path.exists() else REPO / path
    return path


# MARK: - A process's memory and CPU (from /proc), a server's addresses


def rss_kib(pid: int) -> int:
    """A process's resident set size (VmRSS) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS in /proc/{pid}/status")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a whole process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LoopbackAddress:
    """The addresses of a server on 127.0.0.1:`port` whose token is `token`, as the clients below ask for them
    (`http`, `raw_request`, `ws_connect`, `RawWebSocket`…). `KeyscopeServer`, the echo (echo_server.py) and the load
    tests' host probe are such servers; on its own, it names a server known only by its port and token."""

    def __init__(self, port: int = 0, token: str = "") -> None:
        self.port = port
        self.token = token

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def host_header(self) -> str:
        return f"127.0.0.1:{self.port}"

    def ws_url(self, token: str | None = "", query: str = "") -> str:
        """`ws://…/ws` with `?token=` (the server's when `token` is "", none when None) and more query items."""
        items = []
        if token is not None:
            items.append("token=" + (token or self.token))
        items += [item for item in (self.query, query) if item]
        return f"ws://{self.host_header}/ws" + ("?" + "&".join(items) if items else "")

    @property
    def query(self) -> str:
        """Query items every request to this address carries (`instance=ID` for one instance of a fleet)."""
        return ""

    def target(self, path: str) -> str:
        """`path` with this address's query items, for an HTTP request line."""
        if not self.query:
            return path
        return path + ("&" if "?" in path else "?") + self.query


# MARK: - The server process


class ServerStartError(AssertionError):
    pass


class KeyscopeServer(LoopbackAddress):
    """A running `keyscope serve --demo --port 0 …` (or another serving `command`, such as `fleet`) with its own
    `KEYSCOPE_HOME`, `TMPDIR` and `XDG_CONFIG_HOME` (where Foundation keeps UserDefaults suites, which the demo's
    preference scanning reads) in a temp dir.

    Its stdout and stderr are drained by threads for its whole life (a full pipe would block it); the last lines of
    each are kept for failure messages. The constructor returns once the server has registered `ready_store` (the
    demo's `app/memory`; `None`: once it printed its dashboard line).
    """

    # Servers not stopped yet, for the failure report (conftest.py).
    running: list["KeyscopeServer"] = []

    @classmethod
    def describe_in(cls, report) -> None:
        """Adds to a failed test's report which servers were running, whether they still are, and their last
        stderr (the conftest's report hook)."""
        if not (report.failed and cls.running):
            return
        lines = []
        for running in cls.running:
            lines.append(running.describe())
            tail = running.stderr_text()[-1500:]
            if tail:
                lines.append("  stderr: " + tail.replace("\n", "\n  "))
        report.sections.append(("keyscope servers", "\n".join(lines)))

    def __init__(
        self,
        extra_args: Iterable[str] = (),
        env: dict[str, str] | None = None,
        command: Iterable[str] = ("serve", "--demo"),
        ready_store: str | None = READY_STORE,
    ) -> None:
        self.binary = keyscope_binary()
        if not self.binary.exists():
            raise ServerStartError(
                f"no keyscope binary at {self.binary}: build it (swift build --product keyscope) or set KEYSCOPE_BIN"
            )
        self.extra_args = list(extra_args)
        self.home = Path(tempfile.mkdtemp(prefix="keyscope-e2e-"))
        self.stdout_tail: collections.deque[str] = collections.deque(maxlen=200)
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=400)
        super().__init__()
        self.returncode: int | None = None
        self._dashboard = threading.Event()
        self._threads: list[threading.Thread] = []
        full_env = dict(os.environ)
        full_env.pop("KEYSCOPE_TOKEN", None)
        self.config_home = self.home / "config"
        self.config_home.mkdir()
        full_env.update(
            {"KEYSCOPE_HOME": str(self.home), "TMPDIR": str(self.home), "XDG_CONFIG_HOME": str(self.config_home)}
        )
        full_env.update(env or {})
        self.args = [str(self.binary), *command, "--port", "0", *self.extra_args]
        self.process = subprocess.Popen(
            self.args,
            cwd=REPO,
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.pid = self.process.pid
        KeyscopeServer.running.append(self)
        self._drain(self.process.stdout, self.stdout_tail, watch_dashboard=True)
        self._drain(self.process.stderr, self.stderr_tail, watch_dashboard=False)
        if not self._dashboard.wait(START_TIMEOUT) or not self.port:
            self.stop()
            raise ServerStartError(
                f"`{' '.join(self.args)}` printed no dashboard line within {START_TIMEOUT:.0f} s "
                f"(exit code {self.process.poll()}).\nstdout:\n{self.stdout_text()}\nstderr:\n{self.stderr_text()}"
            )
        try:
            if ready_store:
                self.wait_store(ready_store)
        except BaseException:
            self.stop()
            raise

    def wait_store(self, store_id: str, timeout: float = 10) -> None:
        """Waits (on the WebSocket stream) until the demo has registered `store_id`: it prints the dashboard line
        before it opens its stores."""
        deadline = time.monotonic() + timeout
        with ws_connect(self) as ws:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ServerStartError(f"the demo did not register {store_id} within {timeout} s")
                message = recv_json(ws, remaining)
                if message["type"] == "snapshot" and any(s["id"] == store_id for s in message["stores"]):
                    return
                if message["type"] == "changes" and any(
                    e.get("event") == "registered" and e["store"] == store_id for e in message["entries"]
                ):
                    return

    def _drain(self, stream, tail: collections.deque[str], watch_dashboard: bool) -> None:
        def run() -> None:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\n")
                tail.append(line)
                if watch_dashboard and not self._dashboard.is_set():
                    match = DASHBOARD_LINE.match(line)
                    if match:
                        self.port = int(match.group(1))
                        self.token = match.group(2)
                        self._dashboard.set()
            stream.close()
            if watch_dashboard:
                self._dashboard.set()  # the process ended: stop waiting

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self._threads.append(thread)

    @property
    def record_path(self) -> Path:
        return self.home / "servers" / f"{self.port}.json"

    # Diagnostics

    def stdout_text(self) -> str:
        return "\n".join(list(self.stdout_tail)[-40:])

    def stderr_text(self) -> str:
        return "\n".join(self.stderr_tail)

    def rss_kib(self) -> int:
        """The server's resident set size (VmRSS) in KiB."""
        return rss_kib(self.pid)

    def describe(self) -> str:
        state = "running" if self.alive() else f"exited with {self.process.returncode}"
        return f"pid {self.pid}, port {self.port}, {' '.join(self.args[1:])}: {state}"

    def alive(self) -> bool:
        return self.process.poll() is None

    # Stopping

    def settle(self, span: float = 0.3, timeout: float = 10) -> None:
        """Waits until the demo's changes have flowed for `span` seconds of the server's own time (the entries'
        `time`). `serve` prints its dashboard line, and accepts clients, before it installs its SIGINT/SIGTERM
        handling, and says nowhere when that is done (see test_signal_right_after_start_is_a_clean_shutdown); a
        test about shutdown itself waits for this first."""
        client = StreamClient.open(self)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if len(client.entries) >= 2 and _seconds_between(client.entries[0], client.entries[-1]) >= span:
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"the demo's changes did not flow for {span} s within {timeout} s")
                client.read(remaining)
        finally:
            client.close()

    def interrupt(self, sig: int = signal.SIGINT) -> None:
        """Sends SIGINT (Ctrl-C), or another signal."""
        if self.process.poll() is None:
            self.process.send_signal(sig)

    def wait(self, timeout: float = STOP_TIMEOUT) -> int | None:
        """Waits for the process to exit; the exit code, or None when it is still running."""
        try:
            self.returncode = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        for thread in self._threads:
            thread.join(2)
        return self.returncode

    def stop(self) -> int:
        """SIGINT, up to 5 s to exit, then SIGKILL. Removes the temp home. Returns the exit code."""
        if self in KeyscopeServer.running:
            KeyscopeServer.running.remove(self)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            if self.wait(STOP_TIMEOUT) is None:
                self.process.kill()
                self.wait(STOP_TIMEOUT)
        else:
            self.wait(STOP_TIMEOUT)
        shutil.rmtree(self.home, ignore_errors=True)
        return self.process.returncode


def _seconds_between(first: dict, last: dict) -> float:
    def parse(entry: dict) -> datetime.datetime:
        return datetime.datetime.strptime(entry["time"], "%Y-%m-%dT%H:%M:%S.%fZ")

    return (parse(last) - parse(first)).total_seconds()


# MARK: - HTTP


@dataclass
class Response:
    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        values = self.header_values(name)
        return values[0] if values else None

    def header_values(self, name: str) -> list[str]:
        return [value for key, value in self.headers if key.lower() == name.lower()]

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError as error:
            raise AssertionError(f"{self.status} body is not JSON ({error}): {self.body[:300]!r}") from None

    def describe(self) -> str:
        head = "\n".join(f"{k}: {v}" for k, v in self.headers)
        return f"HTTP {self.status} {self.reason}\n{head}\n\n{self.body[:400]!r}"


def target_of(server, path: str) -> str:
    """`path` with the address's own query items (a `LoopbackAddress`'s `target`); as given for an address that has
    none (any object with a port and a token)."""
    target = getattr(server, "target", None)
    return target(path) if target else path


def http(
    server: LoopbackAddress,
    method: str,
    path: str,
    body: bytes | str | dict | list | None = None,
    headers: dict[str, str] | None = None,
    token: str | None = "",
    timeout: float = 10,
) -> Response:
    """One request with http.client. `token`: "" sends the server's as a Bearer header, None sends none, else that
    text. A dict or list body is sent as JSON with Content-Type application/json unless `headers` says otherwise."""
    all_headers: dict[str, str] = {}
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
        all_headers["Content-Type"] = "application/json"
    if isinstance(body, str):
        body = body.encode()
    if token is not None:
        all_headers["Authorization"] = "Bearer " + (token or server.token)
    all_headers.update(headers or {})
    connection = httpclient.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request(method, target_of(server, path), body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        return Response(response.status, response.reason, list(response.getheaders()), data)
    finally:
        connection.close()


def request_http(server: LoopbackAddress, payload: Any, token: str | None = "") -> Response:
    """`POST /api/request` with a JSON body."""
    return http(server, "POST", "/api/request", body=payload, token=token)


def parse_response(buffer: bytes, eof: bool) -> tuple[Response, bytes] | None:
    """The first complete HTTP response in `buffer` and what follows it; None when it is not complete yet."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        if eof and buffer:
            raise AssertionError(f"connection closed inside a response head: {buffer[:300]!r}")
        return None
    head = buffer[:end].decode("latin-1").split("\r\n")
    rest = buffer[end + 4 :]
    status_line = head[0].split(" ", 2)
    if len(status_line) < 2 or not status_line[0].startswith("HTTP/1."):
        raise AssertionError(f"not an HTTP response: {buffer[:200]!r}")
    status = int(status_line[1])
    reason = status_line[2] if len(status_line) > 2 else ""
    headers = []
    for line in head[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip().lower(), value.strip()))
    lowered = {k: v for k, v in headers}
    if status in (101, 204, 304) or 100 <= status < 200:
        return Response(status, reason, headers, b""), rest
    if "content-length" in lowered:
        length = int(lowered["content-length"])
        if len(rest) < length:
            if eof:
                raise AssertionError(f"connection closed after {len(rest)} of {length} body bytes")
            return None
        return Response(status, reason, headers, rest[:length]), rest[length:]
    if lowered.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        position = 0
        while True:
            line_end = rest.find(b"\r\n", position)
            if line_end < 0:
                return None
            size = int(rest[position:line_end].split(b";")[0], 16)
            start = line_end + 2
            if len(rest) < start + size + 2:
                return None
            body += rest[start : start + size]
            position = start + size + 2
            if size == 0:
                return Response(status, reason, headers, body), rest[position:]
    if not eof:
        return None
    return Response(status, reason, headers, rest), b""


def raw_exchange(port: int, data: bytes, responses: int = 1, timeout: float = 10) -> list[Response]:
    """Sends `data` as it is on a fresh TCP connection and reads `responses` responses (fewer when the server closes
    first). For requests http.client would normalise (Host edge cases, pipelining)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        sock.sendall(data)
        buffer = b""
        found: list[Response] = []
        deadline = time.monotonic() + timeout
        eof = False
        while len(found) < responses:
            parsed = parse_response(buffer, eof)
            if parsed:
                found.append(parsed[0])
                buffer = parsed[1]
                continue
            if eof:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no complete response within {timeout} s; got {buffer[:300]!r}")
            sock.settimeout(remaining)
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                eof = True
            buffer += chunk
        return found
    finally:
        sock.close()


def raw_request(
    server: LoopbackAddress,
    method: str = "GET",
    path: str = "/api/health",
    host: str | None | list[str] = "",
    headers: list[tuple[str, str]] | None = None,
    body: bytes = b"",
    token: bool = True,
) -> Response:
    """One request built by hand. `host`: "" is the server's `127.0.0.1:PORT`, None sends no Host, a list sends one
    Host line per element. `token` adds `Authorization: Bearer`."""
    lines = [f"{method} {target_of(server, path)} HTTP/1.1"]
    hosts = [server.host_header] if host == "" else ([] if host is None else ([host] if isinstance(host, str) else host))
    lines += [f"Host: {value}" for value in hosts]
    if token:
        lines.append(f"Authorization: Bearer {server.token}")
    lines += [f"{name}: {value}" for name, value in headers or []]
    declared = any(name.lower() in ("content-length", "transfer-encoding") for name, _ in headers or [])
    if (body or method in ("POST", "PUT")) and not declared:
        lines.append(f"Content-Length: {len(body)}")
    lines.append("Connection: close")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    found = raw_exchange(server.port, data)
    assert found, f"the server closed the connection without answering {method} {path} (Host {hosts})"
    return found[0]


# MARK: - WebSocket with the `websockets` library


def ws_connect(
    server: LoopbackAddress,
    token: str | None = "",
    query: str = "",
    subprotocols: list[str] | None = [SUBPROTOCOL],
    origin: str | None = None,
    headers: dict[str, str] | None = None,
) -> ClientConnection:
    return connect(
        server.ws_url(token, query),
        subprotocols=subprotocols,
        origin=origin,
        additional_headers=headers,
        proxy=None,
        max_size=None,
        max_queue=None,
        open_timeout=10,
        ping_interval=None,
        close_timeout=5,
        legacy=True,
    )


def recv_json(ws: ClientConnection, timeout: float = 10) -> dict:
    text = ws.recv(timeout=timeout)
    assert isinstance(text, str), f"expected a text frame, got binary {text[:100]!r}"
    message = json.loads(text)
    assert isinstance(message, dict) and "type" in message, f"not a typed message: {text[:300]}"
    return message


def close_code_of(ws: ClientConnection, timeout: float = 10) -> int | None:
    """Reads (and drops) messages until the server closes; the close code it sent."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"the server did not close the connection within {timeout} s")
        try:
            ws.recv(timeout=remaining)
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def error_code(response: Response) -> str:
    """The `code` of an HTTP error answer (`{"error": {"code": …, "message": …}}`)."""
    return response.json()["error"]["code"]


def wait_for(condition, what: str, timeout: float = 10):
    """Polls `condition()` every 50 ms until it is truthy and returns it; fails saying what was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        assert time.monotonic() < deadline, f"{what} (waited {timeout} s)"
        time.sleep(0.05)


def unique_key(prefix: str = "e2e") -> str:
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


class StreamError(AssertionError):
    pass


@dataclass
class StreamClient:
    """A WebSocket client that checks the stream as it reads it: hello first, then a snapshot (unless resuming), then
    entries whose seqs follow the last snapshot's without a gap (a `gap` message must be followed by a snapshot).

    Replies are kept by id; every message is kept in `messages` in arrival order.
    """

    ws: ClientConnection
    resuming: bool = False
    hello: dict | None = None
    snapshots: list[dict] = field(default_factory=list)
    entries: list[dict] = field(default_factory=list)
    replies: dict[Any, dict] = field(default_factory=dict)
    gaps: list[dict] = field(default_factory=list)
    subscriptions: list[dict] = field(default_factory=list)
    messages: list[dict] = field(default_factory=list)
    next_seq: int | None = None
    awaiting_snapshot: bool = False
    _ids: int = 0

    @classmethod
    def open(cls, server: LoopbackAddress, query: str = "", **kwargs: Any) -> "StreamClient":
        client = cls(ws_connect(server, query=query, **kwargs), resuming="resume=" in query)
        client.read_start()
        return client

    def read_start(self, timeout: float = 10) -> None:
        first = self.read(timeout)
        if first["type"] != "hello":
            raise StreamError(f"the first message is not hello: {first}")
        if not self.resuming:
            second = self.read(timeout)
            if second["type"] != "snapshot":
                raise StreamError(f"the message after hello is not a snapshot: {second}")

    @property
    def last_seq(self) -> int:
        return (self.next_seq or 1) - 1

    def read(self, timeout: float = 10) -> dict:
        """Reads and checks one message."""
        message = recv_json(self.ws, timeout)
        self.messages.append(message)
        kind = message["type"]
        if kind == "hello":
            if self.hello is not None:
                raise StreamError(f"a second hello: {message}")
            self.hello = message
        elif self.hello is None:
            raise StreamError(f"a {kind} message before hello: {message}")
        elif kind == "snapshot":
            self.snapshots.append(message)
            if self.next_seq is not None and message["seq"] < self.last_seq:
                raise StreamError(f"a snapshot at seq {message['seq']} after entries up to {self.last_seq}")
            self.next_seq = message["seq"] + 1
            self.awaiting_snapshot = False
        elif kind == "gap":
            self.gaps.append(message)
            self.awaiting_snapshot = True
        elif kind == "changes":
            if self.awaiting_snapshot:
                raise StreamError(f"changes after a gap without a snapshot first: {message}")
            if not message["entries"]:
                raise StreamError("an empty changes message")
            for entry in message["entries"]:
                if self.next_seq is not None and entry["seq"] != self.next_seq:
                    raise StreamError(
                        f"entry seq {entry['seq']} where {self.next_seq} was due (after "
                        f"{len(self.entries)} entries; snapshots at {[s['seq'] for s in self.snapshots]})"
                    )
                self.entries.append(entry)
                self.next_seq = entry["seq"] + 1
        elif kind == "reply":
            key = json.dumps(message.get("id"))
            self.replies[key] = message
        elif kind == "subscriptions":
            self.subscriptions.append(message)
        return message

    def send(self, payload: Any) -> None:
        self.ws.send(payload if isinstance(payload, (str, bytes)) else json.dumps(payload))

    def next_id(self) -> str:
        self._ids += 1
        return f"r{self._ids}"

    def request(self, payload: dict, timeout: float = 10) -> dict:
        """Sends a request (with a fresh id unless it has one) and reads until its reply."""
        if "id" not in payload:
            payload = {"id": self.next_id(), **payload}
        self.send(payload)
        return self.wait_reply(payload["id"], timeout)

    def wait_reply(self, request_id: Any, timeout: float = 10) -> dict:
        key = json.dumps(request_id)
        deadline = time.monotonic() + timeout
        while key not in self.replies:
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise TimeoutError
                self.read(remaining)
            except TimeoutError:
                raise AssertionError(
                    f"no reply to id {request_id!r} within {timeout} s; other replies: {list(self.replies.values())}"
                ) from None
        return self.replies.pop(key)

    def next_reply(self, timeout: float = 10) -> dict:
        """The oldest reply not taken yet (read until one arrives): for checking the id a request's reply echoes."""
        deadline = time.monotonic() + timeout
        while not self.replies:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no reply within {timeout} s")
            self.read(remaining)
        return self.replies.pop(next(iter(self.replies)))

    def wait_seq(self, seq: int, timeout: float = 10) -> None:
        """Reads until the stream has reached `seq` (through entries or a snapshot)."""
        deadline = time.monotonic() + timeout
        while self.last_seq < seq:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"stream at seq {self.last_seq}, not {seq}, after {timeout} s")
            self.read(remaining)

    def wait_entries(self, count: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while len(self.entries) < count:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{len(self.entries)} entries, not {count}, after {timeout} s")
            self.read(remaining)

    def entry(self, seq: int) -> dict:
        for entry in self.entries:
            if entry["seq"] == seq:
                return entry
        raise AssertionError(f"no entry {seq} received (have {self.entries[:1]}…{self.last_seq})")

    def close(self) -> None:
        self.ws.close()


def store_root(snapshot: dict, store_id: str) -> dict:
    for store in snapshot["stores"]:
        if store["id"] == store_id:
            return store["root"]
    raise AssertionError(f"no store {store_id} in the snapshot ({[s['id'] for s in snapshot['stores']]})")


# MARK: - A raw WebSocket client (for frames the library will not send, and clients that misbehave)


OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
# A mask key of zeros is allowed and leaves the payload as it is: for clients that send very many frames.
ZERO_MASK = b"\0\0\0\0"


def mask_payload(payload: bytes, key: bytes) -> bytes:
    if not payload or key == ZERO_MASK:
        return payload
    repeated = (key * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


def frame_bytes(opcode: int, payload: bytes, fin: bool = True, key: bytes | None = None) -> bytes:
    """One client frame: masked with `key` (4 bytes; random when None), its length in the shortest form."""
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", length)
    key = os.urandom(4) if key is None else key
    return head + key + mask_payload(payload, key)


def handshake_bytes(
    server: LoopbackAddress,
    path: str | None = None,
    host: str | None | list[str] = "",
    origin: str | None = None,
    subprotocol: str | None = SUBPROTOCOL,
    extra: list[tuple[str, str]] | None = None,
) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path if path is not None else '/ws?token=' + server.token} HTTP/1.1"]
    hosts = [server.host_header] if host == "" else ([] if host is None else ([host] if isinstance(host, str) else host))
    lines += [f"Host: {value}" for value in hosts]
    lines += ["Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if subprotocol:
        lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
    if origin:
        lines.append(f"Origin: {origin}")
    lines += [f"{name}: {value}" for name, value in extra or []]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class RawWebSocket:
    """A minimal RFC 6455 client on a plain socket: the handshake, masked frames of any kind, and frame reading."""

    def __init__(
        self,
        server: LoopbackAddress,
        timeout: float = 10,
        recv_buffer: int | None = None,
        **handshake: Any,
    ) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if recv_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, recv_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", server.port))
        self.sock.sendall(handshake_bytes(server, **handshake))
        self.buffer = b""
        self.close_code: int | None = None
        self.close_reason = b""
        self.ended_by = ""
        deadline = time.monotonic() + timeout
        eof = False
        while True:
            parsed = parse_response(self.buffer, eof)
            if parsed:
                self.response, self.buffer = parsed
                break
            if eof:
                raise AssertionError(f"the server closed the connection without answering the upgrade: {self.buffer!r}")
            try:
                self._fill(deadline)
            except (EOFError, ConnectionResetError):
                eof = True

    def __enter__(self) -> "RawWebSocket":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def accepted(self) -> bool:
        return self.response.status == 101

    def _fill(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("timed out reading from the server")
        self.sock.settimeout(remaining)
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise EOFError("the server closed the connection")
        self.buffer += chunk

    def _take(self, count: int, deadline: float) -> bytes:
        while len(self.buffer) < count:
            self._fill(deadline)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_frame(self, opcode: int, payload: bytes, fin: bool = True) -> None:
        self.sock.sendall(frame_bytes(opcode, payload, fin))

    def send_text(self, text: str | bytes) -> None:
        self.send_frame(OP_TEXT, text.encode() if isinstance(text, str) else text)

    def read_frame(self, timeout: float = 10) -> tuple[bool, int, bytes]:
        deadline = time.monotonic() + timeout
        first, second = self._take(2, deadline)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._take(2, deadline))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._take(8, deadline))[0]
        assert not second & 0x80, "the server masked a frame"
        return bool(first & 0x80), first & 0x0F, self._take(length, deadline)

    def read_message(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next data message (fragments joined), or (OP_CLOSE, payload). Pings are answered."""
        deadline = time.monotonic() + timeout
        opcode = None
        data = b""
        while True:
            fin, frame_op, payload = self.read_frame(max(0.01, deadline - time.monotonic()))
            if frame_op == OP_CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.close_reason = payload[2:]
                return OP_CLOSE, payload
            if frame_op == OP_PING:
                self.send_frame(OP_PONG, payload)
                continue
            if frame_op == OP_PONG:
                continue
            if frame_op != OP_CONT:
                opcode = frame_op
            data += payload
            if fin:
                return opcode if opcode is not None else OP_CONT, data

    def read_json(self, timeout: float = 10) -> dict:
        opcode, data = self.read_message(timeout)
        assert opcode == OP_TEXT, f"expected a text message, got opcode {opcode}: {data[:200]!r}"
        return json.loads(data)

    def read_until(self, predicate, timeout: float = 10) -> dict:
        """Reads messages until one satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.read_json(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def wait_close(self, timeout: float = 10) -> int | None:
        """Reads until the server's close frame (or the end of the connection); the close code, or None when the
        connection ended without one."""
        deadline = time.monotonic() + timeout
        try:
            while True:
                opcode, _ = self.read_message(max(0.01, deadline - time.monotonic()))
                if opcode == OP_CLOSE:
                    self.ended_by = "close frame"
                    return self.close_code
        except EOFError:
            self.ended_by = "end of stream without a close frame"
        except ConnectionResetError:
            self.ended_by = "connection reset without a close frame"
        return self.close_code

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def with_known_deviations(values: list, deviations: dict[str, str]) -> list:
    """Parametrize `values`, marking those in `deviations` (value → why) as strict xfail: a known deviation is
    reported as xfailed, never as passed, and fails the suite the day it starts passing, so the mark goes."""
    import pytest

    return [
        pytest.param(value, marks=pytest.mark.xfail(strict=True, reason=deviations[value]))
        if value in deviations
        else value
        for value in values
    ]

"""Hostile clients against a real `keyscope serve --demo` (issue 23, items 2, 4 and 6): more connections than the
cap, connections that never finish their request line or headers, WebSocket clients that never read, request
floods, bodies beyond the server's budget.

For each attack: the service stays up and answers `/api/health` to a well-behaved client while it goes on; its file
descriptors (`/proc/PID/fd`) stay within the documented bound (the count before, plus `--max-connections`, plus a
few connections being closed) and come back afterwards; its RSS, sampled all along, stays within the count before
plus 64 MiB (the 32 MiB the bodies may hold at once, 4 MiB of queued replies per client that does not read, and
room for the allocator); and no state changes (a canary key and the tunables are as they were). The server runs
with a small cap (`--max-connections 24`) so that passing it takes few sockets. No assertion here is on time: waits
are guards with generous timeouts (Tests/load times `/api/health` during such attacks). docs/hardening.md lists
the limits.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import pytest
from support import (
    OP_TEXT,
    KeyscopeServer,
    RawWebSocket,
    frame_bytes,
    http,
    parse_response,
    request_http,
    store_root,
    unique_key,
    wait_for,
    ws_connect,
)

CAP = 24
# Connections on their way out (evicted or refused, closed at lws's next turn) that may still hold a descriptor.
CLOSING_SLACK = 8
STORE = "app/memory"
BODY_LIMIT = 4 << 20
BODY_BUDGET = 32 << 20


@pytest.fixture(scope="module")
def server():
    running = KeyscopeServer(
        [
            "--rate",
            "20",
            "--max-connections",
            str(CAP),
            "--header-timeout",
            "3",
            "--stalled-client-timeout",
            "2",
        ]
    )
    yield running
    running.stop()


def fd_count(server: KeyscopeServer) -> int:
    return len(os.listdir(f"/proc/{server.pid}/fd"))


def healthy(server: KeyscopeServer) -> None:
    response = http(server, "GET", "/api/health")
    assert response.status == 200, response.describe()
    assert response.json()["ok"] is True


class Canary:
    """A key the tests write once, and the tunables: what no attack may change."""

    def __init__(self, server: KeyscopeServer) -> None:
        self.server = server
        self.key = unique_key("canary")
        reply = request_http(
            server, {"id": 1, "type": "write", "store": STORE, "op": "set", "path": self.key, "value": {"v": 1}}
        )
        assert reply.status == 200, reply.describe()
        self.tunables = http(server, "GET", "/tune").body

    def unchanged(self) -> None:
        snapshot = http(self.server, "GET", "/api/snapshot").json()
        assert store_root(snapshot, STORE)[self.key] == {"v": 1}
        assert http(self.server, "GET", "/tune").body == self.tunables


# The most the server's RSS may grow during one attack (see the module's docstring and docs/hardening.md).
RSS_BOUND_MIB = 64


class PeakRSS:
    """The server's highest RSS while a test runs, sampled every 50 ms on a thread of its own."""

    def __init__(self, server: KeyscopeServer) -> None:
        self.server = server
        self.baseline = server.rss_kib()
        self.peak = self.baseline
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.gone: set[socket.socket] = set()
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            try:
                self.peak = max(self.peak, self.server.rss_kib())
            except (FileNotFoundError, ProcessLookupError):
                return

    def stop(self) -> float:
        """Stops sampling; the growth over the baseline, in MiB."""
        self._stop.set()
        self._thread.join(5)
        return (self.peak - self.baseline) / 1024


@pytest.fixture
def calm(server):
    """The descriptor count before the test (once earlier tests' connections are gone), checked again after it;
    the server's RSS sampled meanwhile."""
    baseline = wait_for(lambda: stable_fd_count(server), "the descriptor count to settle", timeout=20)
    canary = Canary(server)
    rss = PeakRSS(server)
    yield baseline
    growth = rss.stop()
    assert server.alive()
    healthy(server)
    canary.unchanged()
    wait_for(lambda: fd_count(server) <= baseline, f"the descriptors to come back to {baseline}", timeout=20)
    assert growth <= RSS_BOUND_MIB, f"the server's RSS grew by {growth:.0f} MiB during the attack"


def stable_fd_count(server: KeyscopeServer) -> int | None:
    first = fd_count(server)
    time.sleep(0.2)
    return first if fd_count(server) == first else None


def within_bound(server: KeyscopeServer, baseline: int) -> bool:
    return fd_count(server) <= baseline + CAP + CLOSING_SLACK


def open_partial(server: KeyscopeServer, count: int, data: bytes) -> list[socket.socket]:
    """`count` connections that each send `data` and then nothing more."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(data)
        socks.append(sock)
    return socks


def answers(socks: list[socket.socket]) -> list[bytes]:
    """What each socket received so far (b"" when nothing, or closed without an answer)."""
    found = []
    for sock in socks:
        sock.setblocking(False)
        try:
            found.append(sock.recv(4096))
        except (BlockingIOError, ConnectionResetError):
            found.append(b"")
    return found


def close_all(socks) -> None:
    for sock in socks:
        sock.close()


def held_off_while(server: KeyscopeServer, baseline: int, attackers: list[socket.socket]) -> None:
    """During an attack: the well-behaved client gets in again and again, and the descriptors stay in bound."""
    wait_for(lambda: within_bound(server, baseline), "the descriptors to fall within the cap", timeout=20)
    for _ in range(10):
        healthy(server)
        assert within_bound(server, baseline), f"{fd_count(server)} descriptors, baseline {baseline}, cap {CAP}"


def assert_made_room(socks: list[socket.socket], at_least: int) -> None:
    """At least `at_least` of the attackers were answered 503 `unavailable` with Retry-After, nothing else."""
    received = wait_for(
        lambda: (lambda got: got if sum(1 for g in got if g) >= at_least else None)(answers(socks)),
        f"{at_least} attackers to be answered",
        timeout=20,
    )
    for data in (g for g in received if g):
        parsed = parse_response(data, eof=True)
        assert parsed, data
        response = parsed[0]
        assert response.status == 503, response.describe()
        assert response.json()["error"]["code"] == "unavailable"
        assert response.header("retry-after") == "1"


# MARK: - Many connections


def test_connections_beyond_the_cap_make_room_for_a_well_behaved_client(server, calm):
    """3x the cap of connections that send part of a request line and wait: the oldest make room for newer ones
    (503), the descriptors stay within the cap, and a well-behaved client gets in every time."""
    attackers = open_partial(server, 3 * CAP, b"GET /api/hea")
    try:
        held_off_while(server, calm, attackers)
        assert_made_room(attackers, at_least=2 * CAP)
    finally:
        close_all(attackers)


def test_connections_that_never_finish_their_headers_make_room(server, calm):
    """A whole request line and a Host header, never the blank line: such connections make room too."""
    partial = f"GET /api/health HTTP/1.1\r\nHost: {server.host_header}\r\n".encode()
    attackers = open_partial(server, 3 * CAP, partial)
    try:
        held_off_while(server, calm, attackers)
        assert_made_room(attackers, at_least=2 * CAP)
    finally:
        close_all(attackers)


def test_held_connections_below_the_cap_stay_until_the_header_timeout(server, calm):
    """Under the cap nobody is pushed out: the well-behaved client gets in beside them, and lws's header timeout
    (3 s here) still drops connections whose request line never completes."""
    attackers = open_partial(server, CAP // 2, b"PUT /tune/a%2F")
    try:
        wait_for(lambda: fd_count(server) >= calm + CAP // 2, "the connections to be accepted")
        healthy(server)
        assert not any(answers(attackers)), "a connection under the cap was answered before its request was complete"
        wait_for(lambda: fd_count(server) <= calm, "the header timeout to drop the held connections", timeout=30)
    finally:
        close_all(attackers)


def test_when_every_connection_is_busy_a_newcomer_gets_503(server, calm):
    """WebSocket clients (they had the token) are never pushed out: with the cap full of them, a new connection
    is refused with 503 `unavailable`, and gets in again once one leaves."""
    clients = [ws_connect(server) for _ in range(CAP)]
    try:
        response = wait_for(
            lambda: (lambda r: r if r.status == 503 else None)(http(server, "GET", "/api/health")),
            "a 503 with the cap full of WebSocket clients",
        )
        assert response.json()["error"]["code"] == "unavailable"
        assert response.header("retry-after") == "1"
        for client in clients:
            assert client.recv(timeout=10)  # still served
        clients.pop().close()
        wait_for(lambda: http(server, "GET", "/api/health").status == 200, "a free slot after one client left")
    finally:
        for client in clients:
            client.close()


# MARK: - WebSocket clients that never read


def test_websocket_clients_that_never_read_are_dropped(server, calm):
    """Clients that ask for snapshots and never read the replies: reading them pauses at 4 MiB queued, and once
    lws has held part of a message for `--stalled-client-timeout` (2 s here) the server drops them. The server's
    memory stays bounded meanwhile and the well-behaved client is served."""
    baseline_rss = server.rss_kib()
    request = frame_bytes(OP_TEXT, json.dumps({"id": "r", "type": "resync"}).encode(), key=b"\0\0\0\0")
    stalled = [RawWebSocket(server, recv_buffer=4096) for _ in range(3)]
    peak = baseline_rss
    try:
        assert all(ws.accepted for ws in stalled)
        for ws in stalled:
            ws.sock.setblocking(False)
        blocked = set()
        sent = 0
        while len(blocked) < len(stalled) and sent < 200_000:
            for index, ws in enumerate(stalled):
                if index in blocked:
                    continue
                try:
                    ws.sock.send(request)
                    sent += 1
                except BlockingIOError:
                    blocked.add(index)  # the server stopped reading it
                except (BrokenPipeError, ConnectionResetError):
                    blocked.add(index)  # already dropped
            peak = max(peak, server.rss_kib())
        healthy(server)

        # Without reading (that would make them readers): their descriptors go on the server's side.
        def gone() -> bool:
            nonlocal peak
            peak = max(peak, server.rss_kib())
            return fd_count(server) <= calm

        wait_for(gone, "the server to drop the clients that never read", timeout=60)
        for ws in stalled:
            ws.sock.setblocking(True)
            ws.sock.settimeout(10)
            try:
                while ws.sock.recv(1 << 20):
                    pass  # what the server had sent before it dropped the connection, then the end
            except ConnectionResetError:
                pass
        growth_mib = (peak - baseline_rss) / 1024
        # Per client: at most 4 MiB of replies queued, plus the message lws holds, for 2 s.
        assert growth_mib < 64, f"RSS grew by {growth_mib:.0f} MiB with {len(stalled)} clients that never read"
    finally:
        for ws in stalled:
            ws.sock.close()


# MARK: - Floods


def test_a_request_flood_changes_nothing(server, calm):
    """Eight threads of requests as fast as they go: health, snapshots, unauthorized writes, bad JSON, unknown
    paths. Nothing is written, the well-behaved client is answered, and the descriptors stay in bound."""
    key = unique_key("flood")
    write = {"id": 1, "type": "write", "store": STORE, "op": "set", "path": key, "value": 1}
    failures: list[str] = []

    def flood() -> None:
        for round_ in range(60):
            try:
                assert http(server, "GET", "/api/health").status in (200, 503)
                assert http(server, "GET", "/api/snapshot").status in (200, 503)
                assert http(server, "POST", "/api/request", body=write, token="wrong").status in (401, 503)
                bad_json = http(server, "POST", "/api/request", body="{", headers={"Content-Type": "application/json"})
                assert bad_json.status in (400, 503)
                assert http(server, "GET", f"/no/such/{round_}").status in (404, 503)
            except (AssertionError, OSError) as error:
                failures.append(repr(error))

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for thread in threads:
        thread.start()
    try:
        while any(thread.is_alive() for thread in threads):
            response = http(server, "GET", "/api/health")
            # The flood may hold every slot for a moment (its requests are being answered): 503 then, never a hang.
            assert response.status in (200, 503), response.describe()
            assert within_bound(server, calm), f"{fd_count(server)} descriptors, baseline {calm}"
    finally:
        for thread in threads:
            thread.join(60)
    assert not failures, failures[:5]
    assert key not in store_root(http(server, "GET", "/api/snapshot").json(), STORE)


# MARK: - Request bodies


def body_head(server: KeyscopeServer, length: int) -> bytes:
    return (
        f"POST /api/request HTTP/1.1\r\nHost: {server.host_header}\r\nAuthorization: Bearer {server.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


# A valid JSON request that changes nothing (unknown type), padded to the body limit.
PROBE = b'{"id":"p","type":"nothing"}'
PROBE += b" " * (BODY_LIMIT - len(PROBE))


def probe_status(server: KeyscopeServer) -> int:
    """Sends a whole 4 MiB body; the status of the answer."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    try:
        sock.sendall(body_head(server, len(PROBE)))
        try:
            sock.sendall(PROBE)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed before the whole body was in
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                break
            data += chunk
        parsed = parse_response(data, eof=True)
        assert parsed, f"no answer: {data[:200]!r}"
        return parsed[0].status
    finally:
        sock.close()


class Trickle:
    """Sends one more byte of each held body every half second, so the holders look like slow uploads rather than
    stalled ones: lws drops a body that makes no progress for the header timeout."""

    HELD_BACK = 256

    def __init__(self, socks: list[socket.socket]) -> None:
        self.socks = socks
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.gone: set[socket.socket] = set()

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        for _ in range(self.HELD_BACK - 1):  # never the last byte: the bodies stay unfinished
            if self._stop.wait(0.5):
                return
            for sock in self.socks:
                if sock in self.gone:
                    continue
                try:
                    sock.sendall(b" ")
                except OSError:
                    self.gone.add(sock)  # dropped by the server: the test's wait reports it

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)


@pytest.fixture
def roomy():
    """A server of its own, with the default connection cap: on the module's (24 connections) the sockets earlier
    tests leave closing can fill the cap on a busy machine, and the cap's rule (the oldest unfinished request makes
    room) then pushes a holder out, so the budget never fills. Its header timeout (the longest pause within a body)
    is long, so that no holder is dropped for waiting, untouched, while a loaded machine opens the others."""
    running = KeyscopeServer(["--rate", "20", "--header-timeout", "60"])
    yield running
    running.stop()


def unread_by_server(port: int) -> int:
    """Bytes that clients sent to the server on `port` and that it has not read yet: the receive queues of its
    side of each connection (Linux's /proc/net/tcp). `sendall` returns once the bytes are in the kernel, long before
    the server has taken them."""
    total = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as rows:
                next(rows)
                for row in rows:
                    fields = row.split()
                    if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # ESTABLISHED
                        total += int(fields[4].split(":")[1], 16)
        except FileNotFoundError:
            continue
    return total


def test_bodies_beyond_the_servers_budget_get_503(roomy):
    """Eight connections each hold 4 MiB of an unfinished body (32 MiB, the budget): another body is refused with
    503 until they are gone, and then accepted (its request answered as usual)."""
    server = roomy
    canary = Canary(server)
    holders = []
    trickle = Trickle(holders)
    try:
        for _ in range(BODY_BUDGET // BODY_LIMIT):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
            sock.sendall(body_head(server, BODY_LIMIT) + b" " * (BODY_LIMIT - Trickle.HELD_BACK))
            holders.append(sock)
        trickle.start()
        # The budget counts what the server has received: a probe that came in before the last holder's bytes were
        # read would take their room, and that holder would be the one refused.
        wait_for(lambda: unread_by_server(server.port) == 0, "the server to have read the holders' bodies", timeout=30)
        seen = []

        def refused() -> bool:
            seen.append(probe_status(server))
            return seen[-1] == 503

        try:
            wait_for(refused, "a body over the budget to get 503", timeout=30)
        except AssertionError as missed:
            raise AssertionError(f"{missed}; {len(seen)} probes answered {sorted(set(seen))}; {len(trickle.gone)} of the "
                                 f"holders dropped") from None
        healthy(server)
    finally:
        trickle.stop()
        close_all(holders)
    wait_for(lambda: probe_status(server) == 400, "the budget to be free again (400 unknown_type)", timeout=30)
    assert server.alive()
    canary.unchanged()

"""Requests run off the service thread (issue 23; docs/hardening.md "Requests run off the service thread"), against
the real `keyscope serve --demo`:

- wide merges (200,000 members over a WebSocket and over HTTP, a million with a raised `--max-body`) leave
  `/api/health` answering while they run: health requests sent after a write went out are answered before its
  reply (before, the write held the service thread and every answer waited for it); the latencies are printed,
  never asserted (Tests/load/test_hostile.py holds them to 50 ms);
- one WebSocket client's pipelined requests get their replies in the order they were sent, a `resync` among them
  its snapshot where it was (after every entry already sent, the stream going on right after it, no seq missing
  or repeated);
- clients that close while their request runs (or while their first snapshot is made) leave the service whole:
  their writes applied entirely or not at all, no descriptor left behind;
- a flood of wide requests from one client that never reads is not read ahead: the server's RSS stays within its
  start plus 64 MiB while the client offers far more.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import threading
import time

import pytest
from support import (
    OP_TEXT,
    ZERO_MASK,
    KeyscopeServer,
    StreamClient,
    frame_bytes,
    handshake_bytes,
    http,
    store_root,
    unique_key,
    wait_for,
)

SERVER_ARGS = ["--rate", "20", "--max-body", "32MB", "--max-message", "32MB"]
STORE = "app/memory"
WIDE = 200_000
# The most the server's RSS may grow while one client floods it (as in test_hostile_clients.py): the requests it
# holds for the client (4, or 4 MiB), the one being parsed, and room for the allocator.
RSS_BOUND_MIB = 64


def merge(key: str, members: int, value: int = 0, request_id: object = None) -> dict:
    request = {"type": "write", "store": STORE, "op": "merge", "path": key,
               "value": {f"m{index}": value for index in range(members)}}
    return request if request_id is None else {"id": request_id, **request}


def fd_count(server: KeyscopeServer) -> int:
    return len(os.listdir(f"/proc/{server.pid}/fd"))


def settled_fd_count(server: KeyscopeServer) -> int:
    """The server's descriptor count once it has held for a second: the start's readiness check closes a
    WebSocket just before the server is handed over, and on a loaded machine the server has not yet closed its side."""
    counts = [fd_count(server)]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        time.sleep(0.25)
        counts.append(fd_count(server))
        if len(counts) >= 5 and len(set(counts[-5:])) == 1:
            break
    return counts[-1]


def snapshot_root(server: KeyscopeServer) -> dict:
    response = http(server, "GET", "/api/snapshot", timeout=120)
    assert response.status == 200, response.describe()
    return store_root(response.json(), STORE)


def remove(server: KeyscopeServer, key: str) -> None:
    response = http(server, "POST", "/api/request", body={"type": "write", "store": STORE, "op": "remove",
                                                           "path": key}, timeout=120)
    assert response.status == 200 and response.json()["ok"] is True, response.describe()


class HealthWatch:
    """Asks `/api/health` on a fresh connection, one after another, on a thread of its own: when each was sent and
    answered (monotonic seconds), and its status."""

    def __init__(self, server: KeyscopeServer) -> None:
        self.server = server
        self.answers: list[tuple[float, float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "HealthWatch":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(60)

    def _run(self) -> None:
        while not self._stop.is_set():
            sent = time.monotonic()
            try:
                status = http(self.server, "GET", "/api/health", timeout=60).status
            except OSError as error:
                status = -1
                print(f"health failed: {error}")
            self.answers.append((sent, time.monotonic(), status))
            self._stop.wait(0.02)

    def within(self, start: float, end: float) -> list[tuple[float, float, int]]:
        """The answers to requests sent after `start` and answered before `end`."""
        return [answer for answer in self.answers if answer[0] > start and answer[1] < end]

    def latencies_ms(self) -> str:
        times = sorted((answered - sent) * 1000 for sent, answered, _ in self.answers)
        if not times:
            return "no answers"
        return (f"{len(times)} answers, p50 {times[len(times) // 2]:.1f} ms, p95 {times[int(len(times) * 0.95)]:.1f}"
                f" ms, max {times[-1]:.1f} ms")


@pytest.mark.timeout(600)  # a million members take the debug build a while
def test_health_answers_while_wide_merges_run_over_websocket_and_http(server):
    spans: list[tuple[str, float, float]] = []  # (what, request sent, reply received)
    errors: list[str] = []
    ws_key, http_key, million_key = unique_key("wide_ws"), unique_key("wide_http"), unique_key("million")
    stream = StreamClient.open(server)
    ws_requests = [json.dumps(merge(ws_key, WIDE, value, f"ws{value}")) for value in (0, 1)]
    http_bodies = [json.dumps(merge(http_key, WIDE, value)) for value in (0, 1)]
    million = json.dumps(merge(million_key, 1_000_000))
    seqs: dict[str, int] = {}

    def over_websocket() -> None:
        try:
            for value, request in enumerate(ws_requests):
                sent = time.monotonic()
                stream.send(request)
                reply = stream.wait_reply(f"ws{value}", timeout=600)
                spans.append((f"ws merge {value}", sent, time.monotonic()))
                assert reply["ok"] is True, reply
                seqs[f"ws{value}"] = reply["result"]["seq"]
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(f"websocket: {error!r}"[:500])

    def over_http() -> None:
        try:
            for what, body in [("http merge 0", http_bodies[0]), ("http merge 1", http_bodies[1]),
                               ("http million", million)]:
                sent = time.monotonic()
                response = http(server, "POST", "/api/request", body=body,
                                headers={"Content-Type": "application/json"}, timeout=600)
                spans.append((what, sent, time.monotonic()))
                assert response.status == 200 and response.json()["ok"] is True, response.describe()
                seqs[what] = response.json()["result"]["seq"]
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(f"http: {error!r}"[:500])

    with HealthWatch(server) as watch:
        writers = [threading.Thread(target=over_websocket), threading.Thread(target=over_http)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join(1200)
    print(f"/api/health during the wide writes: {watch.latencies_ms()}")
    assert not errors, errors
    assert len(spans) == 5, spans
    assert all(status == 200 for _, _, status in watch.answers), watch.answers
    # The writes ran on the worker: each was under way while health requests sent after it were answered.
    for what, sent, replied in spans:
        assert watch.within(sent, replied), f"no health answer while the {what} ran ({sent:.3f} → {replied:.3f})"
    # Every write applied whole: the stream carried each one's entry with all its members.
    stream.wait_seq(max(seqs.values()), timeout=600)
    for name in ("ws0", "ws1", "http merge 0", "http merge 1"):
        patch = stream.entry(seqs[name])["patches"][0]
        assert len(patch["new"]) == WIDE, name  # (a merge into a new key is logged as its set)
    assert len(stream.entry(seqs["http million"])["patches"][0]["new"]) == 1_000_000
    stream.close()
    # (A snapshot with a million keys takes the debug build minutes: the keys go before the snapshot is read.)
    for key in (ws_key, http_key, million_key):
        remove(server, key)
    root = snapshot_root(server)
    assert not {ws_key, http_key, million_key} & root.keys()


def test_pipelined_requests_are_answered_in_order_with_a_resync_in_place(server):
    key = unique_key("order")
    client = StreamClient.open(server)
    requests = [
        {"id": "w1", "type": "write", "store": STORE, "op": "set", "path": f"{key}.a", "value": 1},
        merge(f"{key}.wide", 20_000, request_id="w2"),
        {"id": "w3", "type": "write", "store": STORE, "op": "set", "path": f"{key}.b", "value": 2},
        {"id": "r", "type": "resync"},
        {"id": "bad", "type": "nope"},
        {"id": "w4", "type": "write", "store": STORE, "op": "set", "path": f"{key}.c", "value": 3},
        {"id": "t5", "type": "transaction", "store": STORE,
         "ops": [{"op": "set", "path": f"{key}.d", "value": 4}, {"op": "remove", "path": f"{key}.a"}]},
    ]
    for request in requests:  # all sent before any reply is read
        client.send(request)
    client.wait_reply("t5", timeout=300)
    replies = [message for message in client.messages if message["type"] == "reply"]
    assert [reply["id"] for reply in replies] == [request["id"] for request in requests]
    assert [reply["ok"] for reply in replies] == [True, True, True, True, False, True, True]
    assert replies[4]["error"]["code"] == "unknown_type"
    seq = {reply["id"]: reply["result"]["seq"] for reply in replies if reply["ok"]}
    # The resync's snapshot comes right before its reply, at the seq the reply names, after the earlier writes and
    # before the later ones.
    position = next(index for index, message in enumerate(client.messages) if message.get("id") == "r")
    snapshot = client.messages[position - 1]
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == seq["r"]
    assert seq["w1"] < seq["w2"] < seq["w3"] <= snapshot["seq"] < seq["w4"] < seq["t5"]
    root = store_root(snapshot, STORE)[key]
    assert root["a"] == 1 and root["b"] == 2 and len(root["wide"]) == 20_000 and "c" not in root
    # The stream goes on right after the snapshot: StreamClient checked every seq (none missing or repeated, none
    # older than the snapshot after it); the later writes come as entries.
    client.wait_seq(seq["t5"], timeout=60)
    after = [entry["seq"] for entry in client.entries if entry["seq"] > snapshot["seq"]]
    assert after == list(range(snapshot["seq"] + 1, client.last_seq + 1))
    assert client.entry(seq["w4"])["patches"][0]["path"] == f"{key}.c"
    client.close()
    remove(server, key)


def raw_websocket(server: KeyscopeServer, send_buffer: int | None = None) -> socket.socket:
    """An upgraded socket with the response head read (byte by byte: nothing after it is taken)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    if send_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    sock.sendall(handshake_bytes(server))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, f"the server closed the upgrade: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


def reset(sock: socket.socket) -> None:
    """Closes with a reset (RST), as a client that dies does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def post_and_go(server: KeyscopeServer, body: bytes) -> socket.socket:
    """Sends a whole `POST /api/request` and reads nothing."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(
        f"POST /api/request HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAuthorization: Bearer {server.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
    return sock


def test_clients_that_close_mid_request_leave_the_service_whole(server):
    members = 30_000
    assert http(server, "GET", "/api/health").status == 200
    fds_before = settled_fd_count(server)
    stream = StreamClient.open(server)  # sees every write that applies, whole
    finishing, resetting = [unique_key("gone") for _ in range(4)], [unique_key("reset") for _ in range(4)]
    body = {key: json.dumps(merge(key, members, index)).encode()
            for index, key in enumerate(finishing + resetting)}
    for index in range(4):
        if index % 2 == 0:
            # A WebSocket client sends a wide write and ends its side: the server reads it whole, then closes the
            # connection while the write runs on the worker.
            sock = raw_websocket(server)
            sock.sendall(frame_bytes(OP_TEXT, body[finishing[index]], key=ZERO_MASK))
        else:
            # An HTTP client sends its whole request and ends its side without reading the answer.
            sock = post_and_go(server, body[finishing[index]])
        sock.shutdown(socket.SHUT_WR)
        if index % 2 == 0:
            # Read until the server closes: a socket closed with unread bytes is reset, and the reset could
            # discard the end of the request before the server read it.
            sock.settimeout(120)
            while sock.recv(1 << 16):
                pass
        sock.close()
        # Clients that reset their connection right after sending: the server may never read their request.
        if index % 2 == 0:
            sock = raw_websocket(server)
            sock.sendall(frame_bytes(OP_TEXT, body[resetting[index]], key=ZERO_MASK))
        else:
            sock = post_and_go(server, body[resetting[index]])
        reset(sock)
        # A client that resets while its first snapshot is being made.
        reset(raw_websocket(server))
    assert server.alive(), server.describe()

    # The writes of the clients that went after sending still apply (the worker runs them to the end; only their
    # replies are dropped); those of the clients that reset apply whole or not at all.
    def written() -> dict[str, dict]:
        found: dict[str, dict] = {}
        for entry in stream.entries:
            patch = entry.get("patches", [{}])[0]  # store events have none
            if patch.get("path") in body:
                assert patch["path"] not in found, f"{patch['path']} was written twice"
                found[patch["path"]] = patch["new"]
        return found

    def all_finishing_written() -> bool:
        try:
            stream.read(timeout=1)
        except TimeoutError:
            pass
        return set(finishing) <= written().keys()

    wait_for(all_finishing_written, "the writes of the clients that went to apply", timeout=300)
    for key, value in written().items():
        assert len(value) == members and value["m0"] == (finishing + resetting).index(key), key
    wait_for(lambda: fd_count(server) <= fds_before + 1, f"the descriptors to come back to {fds_before} (and the "
             "stream's)", timeout=60)
    stream.close()
    reply = http(server, "POST", "/api/request", body={"type": "resync"})
    assert reply.status == 200 and reply.json()["ok"] is True, reply.describe()
    root = snapshot_root(server)
    for key in finishing + resetting:
        assert key not in root or len(root[key]) == members, key
        if key in root:
            remove(server, key)


def test_a_flood_of_wide_requests_is_not_read_ahead(launch):
    # The log is kept small, so that what the server holds is the flood's and not the log's.
    server = launch("--rate", "20", "--log-bytes", "4MB")
    fds_before = settled_fd_count(server)
    baseline = server.rss_kib()
    # Wide merges that the server must parse whole before the store refuses them (a merge under a number): each
    # costs the worker its parse, and changes nothing.
    key = unique_key("number")
    assert http(server, "POST", "/api/request", body={"type": "write", "store": STORE, "op": "set", "path": key,
                                                      "value": 5}).json()["ok"] is True
    count, members = 100, 100_000
    template = json.dumps(merge(f"{key}.x", members, request_id="ID")).encode()
    frames = [frame_bytes(OP_TEXT, template.replace(b'"ID"', str(index).encode(), 1), key=ZERO_MASK)
              for index in range(count)]
    offered = sum(len(frame) for frame in frames)
    peak = [baseline]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.05):
            peak[0] = max(peak[0], server.rss_kib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    sock = raw_websocket(server, send_buffer=64 << 10)
    with HealthWatch(server) as watch:
        for frame in frames:  # blocks while the server does not read: it reads as fast as the worker frees room
            sock.sendall(frame)
        # Every request in its turn, each refused, in order.
        sock.settimeout(300)
        buffer, ids = b"", []
        while len(ids) < count:
            chunk = sock.recv(1 << 20)
            assert chunk, "the server closed the connection"
            buffer += chunk
            while len(buffer) >= 2:
                length, start = buffer[1] & 0x7F, 2
                if length == 126:
                    length, start = struct.unpack("!H", buffer[2:4])[0], 4
                elif length == 127:
                    length, start = struct.unpack("!Q", buffer[2:10])[0], 10
                if len(buffer) < start + length:
                    break
                message, buffer = json.loads(buffer[start:start + length]), buffer[start + length:]
                if message.get("type") == "reply":
                    assert message["ok"] is False and message["error"]["code"] in ("type_mismatch", "bad_path"), \
                        message
                    ids.append(message["id"])
    done.set()
    sampler.join(5)
    sock.close()
    growth = (peak[0] - baseline) / 1024
    print(f"/api/health during the flood: {watch.latencies_ms()}; RSS +{growth:.0f} MiB for "
          f"{offered / (1 << 20):.0f} MiB offered")
    assert ids == list(range(count))
    assert all(status == 200 for _, _, status in watch.answers) and watch.answers
    assert growth <= RSS_BOUND_MIB, (
        f"the server's RSS grew by {growth:.0f} MiB while one client offered {offered / (1 << 20):.0f} MiB of wide "
        f"requests (at most {RSS_BOUND_MIB})")
    assert http(server, "GET", "/api/snapshot").json()["seq"] > 0
    assert store_root(http(server, "GET", "/api/snapshot").json(), STORE)[key] == 5
    wait_for(lambda: fd_count(server) <= fds_before, f"the descriptors to come back to {fds_before}", timeout=60)

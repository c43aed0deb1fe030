"""Robustness: malformed and mistyped requests, oversized and deeply nested messages, odd frames, a client that never
reads, slow and incomplete HTTP requests, pipelining, body and header limits."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from support import (
    OP_CLOSE,
    OP_CONT,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    KeyscopeServer,
    RawWebSocket,
    StreamClient,
    close_code_of,
    http,
    raw_exchange,
    raw_request,
    store_root,
    unique_key,
    ws_connect,
    recv_json,
)

SERVER_ARGS = ["--rate", "50"]
STORE = "app/memory"


def still_serving(client: StreamClient) -> None:
    """The connection is up and answers requests."""
    reply = client.request({"type": "resync"})
    assert reply["ok"] is True, reply


def reply_error(client: StreamClient, expected_id=None) -> str:
    reply = client.next_reply()
    assert reply["ok"] is False, reply
    assert reply["id"] == expected_id, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
    return reply["error"]["code"]


# MARK: - Malformed and mistyped requests


MALFORMED = [
    "",
    " ",
    "{",
    "}",
    "nope",
    "[]",
    '"a string"',
    "42",
    "null",
    "true",
    '{"id": 1, "type": "resync",}',
    "{'id': 1, 'type': 'resync'}",
    '{"id": 1, "type": "resync"} trailing',
    '{"id": 1, "type": "resync"}{"id": 2}',
    '{"id": 1 "type": "resync"}',
    '{"id": NaN, "type": "resync"}',
    '{"id": 1, "type": "re\\qsync"}',
    '{"id": 1, "type": "resync", "x": "\\ud800"}',
    '{"id": 1, "id": 2, "type": "resync"}',
    "\u0000",
]


@pytest.mark.parametrize("text", MALFORMED, ids=[repr(t)[:40] for t in MALFORMED])
def test_malformed_json_gets_bad_json(server, text):
    client = StreamClient.open(server)
    try:
        client.send(text)
        assert reply_error(client, None) == "bad_json"
        still_serving(client)
    finally:
        client.close()


WRONG_TYPES = [
    ("id is an object", {"id": {"a": 1}, "type": "resync"}, None, "bad_request"),
    ("id is an array", {"id": [1], "type": "resync"}, None, "bad_request"),
    ("id is a bool", {"id": True, "type": "resync"}, None, "bad_request"),
    ("id is null", {"id": None, "type": "resync"}, None, "bad_request"),
    ("type is a number", {"id": 1, "type": 5}, 1, "bad_request"),
    ("type is null", {"id": 1, "type": None}, 1, "bad_request"),
    ("store is a number", {"id": 1, "type": "write", "store": 5, "op": "set", "path": "a", "value": 1}, 1,
     "bad_request"),
    ("op is a list", {"id": 1, "type": "write", "store": STORE, "op": ["set"], "path": "a", "value": 1}, 1,
     "bad_request"),
    ("path is a number", {"id": 1, "type": "write", "store": STORE, "op": "set", "path": 5, "value": 1}, 1,
     "bad_request"),
    ("path is null", {"id": 1, "type": "write", "store": STORE, "op": "set", "path": None, "value": 1}, 1,
     "bad_request"),
    ("ops is not a list", {"id": 1, "type": "transaction", "store": STORE, "ops": {"op": "set"}}, 1, "bad_request"),
    ("ops is a string", {"id": 1, "type": "transaction", "store": STORE, "ops": "set a 1"}, 1, "bad_request"),
    ("an op is not an object", {"id": 1, "type": "transaction", "store": STORE, "ops": [1]}, 1, "bad_request"),
    ("an op has a number path",
     {"id": 1, "type": "transaction", "store": STORE, "ops": [{"op": "set", "path": 1, "value": 1}]}, 1,
     "bad_request"),
    ("revert seq is a string", {"id": 1, "type": "revert", "seq": "3"}, 1, "bad_request"),
    ("revert seq is negative", {"id": 1, "type": "revert", "seq": -3}, 1, "bad_request"),
    ("revert seq is a fraction", {"id": 1, "type": "revert", "seq": 1.5}, 1, "bad_request"),
    ("revert without seq", {"id": 1, "type": "revert"}, 1, "bad_request"),
]


@pytest.mark.parametrize("name", [case[0] for case in WRONG_TYPES])
def test_wrong_member_types_are_refused_without_closing(server, name):
    _, payload, expected_id, code = next(case for case in WRONG_TYPES if case[0] == name)
    client = StreamClient.open(server)
    try:
        client.send(payload)
        assert reply_error(client, expected_id) == code
        still_serving(client)
    finally:
        client.close()


def test_bad_requests_change_no_state(server):
    key = unique_key()
    client = StreamClient.open(server)
    try:
        assert client.request({"type": "write", "store": STORE, "op": "set", "path": key, "value": {"v": 1}})["ok"]
        for _, payload, _, _ in WRONG_TYPES:
            client.send(payload)
            client.next_reply()
        for text in MALFORMED:
            client.send(text)
            client.next_reply()
        still_serving(client)
        assert store_root(http(server, "GET", "/api/snapshot").json(), STORE)[key] == {"v": 1}
    finally:
        client.close()


# MARK: - Size and depth


@pytest.mark.xfail(
    strict=False,
    reason="known intermittent bug, the same as test_oversized_message_while_the_server_is_sending_closes_with_1009: "
    "the server closes while the client is still sending its 5 MiB, so the client's kernel may get a reset and drop "
    "the 1009 close frame it had not read yet; seen about 1 run in 2 on a loaded machine. Reported as xfail/xpass, "
    "never as a pass, until the close path drains the socket (the raw-socket variant below stays strict)",
)
def test_5_mib_message_closes_with_1009(server):
    with ws_connect(server) as ws:
        assert recv_json(ws)["type"] == "hello"
        try:
            ws.send("x" * (5 << 20))
        except Exception:  # the server may close while the message is still going out
            pass
        assert close_code_of(ws, timeout=15) == 1009
    assert http(server, "GET", "/api/health").status == 200


def test_5_mib_message_closes_with_1009_raw(server):
    ws = RawWebSocket(server)
    try:
        assert ws.accepted
        assert ws.read_json()["type"] == "hello"
        payload = json.dumps({"id": 1, "type": "write", "store": STORE, "op": "set", "path": unique_key(),
                              "value": "x" * (5 << 20)}).encode()
        sender = threading.Thread(target=lambda: _send_quietly(ws, OP_TEXT, payload), daemon=True)
        sender.start()
        code = ws.wait_close(timeout=15)
        sender.join(15)
        assert code == 1009, f"close code {code}: {ws.ended_by}"
    finally:
        ws.close()


def _send_quietly(ws: RawWebSocket, opcode: int, payload: bytes, fin: bool = True) -> None:
    try:
        ws.send_frame(opcode, payload, fin=fin)
    except OSError:
        pass


@pytest.fixture(scope="module")
def small_limits():
    running = KeyscopeServer(["--rate", "10", "--max-body", "64KiB", "--max-header", "4KiB"])
    yield running
    running.stop()


@pytest.fixture(scope="module")
def message_limit():
    running = KeyscopeServer(["--rate", "10", "--max-message", "64KiB"])
    yield running
    running.stop()


def big_write(key: str, size: int) -> str:
    """A write request whose JSON text is `size` bytes long."""
    shell = json.dumps({"id": "big", "type": "write", "store": STORE, "op": "set", "path": key, "value": ""})
    return shell.replace('"value": ""', '"value": "' + "y" * (size - len(shell)) + '"')


def test_message_over_the_limit_closes_with_1009(message_limit):
    with ws_connect(message_limit) as ws:
        assert recv_json(ws)["type"] == "hello"
        ws.send(big_write(unique_key(), (64 << 10) + 1))
        assert close_code_of(ws) == 1009


def test_fragmented_message_over_the_limit_closes_with_1009(message_limit):
    ws = RawWebSocket(message_limit)
    try:
        assert ws.accepted
        chunk = b"z" * (30 << 10)
        ws.send_frame(OP_TEXT, b'{"id": 1, "type": "resync", "pad": "' + chunk, fin=False)
        ws.send_frame(OP_CONT, chunk, fin=False)
        _send_quietly(ws, OP_CONT, chunk + b'"}', fin=True)
        code = ws.wait_close()
        assert code == 1009, f"close code {code}: {ws.ended_by}"
    finally:
        ws.close()


def test_message_at_the_limit_is_accepted(message_limit):
    client = StreamClient.open(message_limit)
    try:
        key = unique_key()
        text = big_write(key, 64 << 10)
        assert len(text.encode()) == 64 << 10
        client.send(text)
        reply = client.wait_reply("big")
        assert reply["ok"] is True, reply
        # Leave the state small for the other tests on this server.
        assert client.request({"type": "write", "store": STORE, "op": "remove", "path": key})["ok"] is True
    finally:
        client.close()


@pytest.mark.xfail(
    strict=False,
    reason="known intermittent bug (about 1 run in 4): while a large snapshot is still going out, the client that "
    "keeps sending its oversized message sometimes sees a reset instead of the 1009 close frame; reported as "
    "xfail/xpass, never as a pass, until the close path drains the socket",
)
def test_oversized_message_while_the_server_is_sending_closes_with_1009(launch):
    """The same limit while the server still has a large snapshot on its way to the client (about 240 KiB of
    state): the client must still get the 1009 close, not a connection that just ends."""
    running = launch("--rate", "10", "--max-message", "64KiB")
    for index in range(4):
        response = http(running, "POST", "/api/request", body=big_write(f"e2e_big{index}", 60_000),
                        headers={"Content-Type": "application/json"})
        assert response.status == 200, response.describe()
    outcomes = []
    for _ in range(2):
        # In fragments, sent without reading anything.
        ws = RawWebSocket(running)
        try:
            assert ws.accepted
            chunk = b"z" * (30 << 10)
            ws.send_frame(OP_TEXT, b'{"id": 1, "type": "resync", "pad": "' + chunk, fin=False)
            ws.send_frame(OP_CONT, chunk, fin=False)
            _send_quietly(ws, OP_CONT, chunk + b'"}', fin=True)
            outcomes.append((ws.wait_close(), "fragments: " + ws.ended_by))
        finally:
            ws.close()
        # In one message, by the websockets client, after reading hello.
        with ws_connect(running) as library:
            assert recv_json(library)["type"] == "hello"
            try:
                library.send(big_write(unique_key(), (64 << 10) + 1))
            except Exception:  # the server may close while the message is still going out
                pass
            outcomes.append((close_code_of(library), "websockets client"))
    assert all(code == 1009 for code, _ in outcomes), outcomes


def test_fragmented_message_is_one_request(server):
    ws = RawWebSocket(server)
    try:
        assert ws.accepted
        text = json.dumps({"id": "frag", "type": "resync"}).encode()
        ws.send_frame(OP_TEXT, text[:5], fin=False)
        ws.send_frame(OP_CONT, text[5:12], fin=False)
        ws.send_frame(OP_PING, b"in between")  # control frames may come between fragments
        ws.send_frame(OP_CONT, text[12:], fin=True)
        reply = ws.read_until(lambda m: m["type"] == "reply")
        assert reply["id"] == "frag" and reply["ok"] is True, reply
    finally:
        ws.close()


def test_100k_deep_nesting_gets_bad_json_and_the_connection_stays(server):
    client = StreamClient.open(server)
    try:
        client.send("[" * 100_000 + "]" * 100_000)
        assert reply_error(client, None) == "bad_json"
        client.send('{"id": 1, "type": "write", "value": ' + "[" * 100_000 + "]" * 100_000 + "}")
        assert reply_error(client, None) == "bad_json"
        still_serving(client)
    finally:
        client.close()
    assert http(server, "GET", "/api/health").status == 200


def test_deep_nesting_over_http_is_400(server):
    response = http(server, "POST", "/api/request", body="[" * 100_000 + "]" * 100_000,
                    headers={"Content-Type": "application/json"})
    assert response.status == 400, response.describe()
    assert response.json()["error"]["code"] == "bad_json"


def test_moderate_nesting_is_a_valid_value(server):
    client = StreamClient.open(server)
    try:
        key = unique_key()
        value = {"a": 1}
        for _ in range(100):
            value = [value]
        reply = client.request({"type": "write", "store": STORE, "op": "set", "path": key, "value": value})
        assert reply["ok"] is True, reply
        assert store_root(http(server, "GET", "/api/snapshot").json(), STORE)[key] == value
    finally:
        client.close()


# MARK: - Odd frames


@pytest.mark.parametrize(
    "payload",
    [b'{"id": 1, "type": "resync", "x": "\xff\xfe"}', b'{"id": 1, "type": "resync", "x": "\xc0\xaf"}',
     b'{"id": 1, "type": "resync", "x": "\xed\xa0\x80"}', b"\xff{}"],
    ids=["ff-fe", "overlong-slash", "encoded-surrogate", "leading-ff"],
)
def test_invalid_utf8_in_a_text_frame(server, payload):
    """Either a bad_json reply with the connection kept, or a close with 1007 (RFC 6455 invalid payload data)."""
    ws = RawWebSocket(server)
    try:
        assert ws.accepted
        ws.send_frame(OP_TEXT, payload)
        deadline = time.monotonic() + 10
        while True:
            opcode, data = ws.read_message(max(0.01, deadline - time.monotonic()))
            if opcode == OP_CLOSE:
                assert ws.close_code == 1007, f"closed with {ws.close_code} {ws.close_reason!r}"
                return
            message = json.loads(data)
            if message["type"] == "reply":
                break
        assert message["ok"] is False and message["error"]["code"] == "bad_json", message
        assert message["id"] is None, message
        ws.send_text(json.dumps({"id": 2, "type": "resync"}))
        reply = ws.read_until(lambda m: m["type"] == "reply")
        assert reply["id"] == 2 and reply["ok"] is True
    finally:
        ws.close()


def test_binary_frame_gets_bad_request(server):
    client = StreamClient.open(server)
    try:
        client.send(json.dumps({"id": 1, "type": "resync"}).encode())
        assert reply_error(client, None) == "bad_request"
        still_serving(client)
    finally:
        client.close()


def test_ping_gets_its_pong(server):
    ws = RawWebSocket(server)
    try:
        assert ws.accepted
        ws.send_frame(OP_PING, b"e2e-ping")
        deadline = time.monotonic() + 10
        while True:
            fin, opcode, payload = ws.read_frame(max(0.01, deadline - time.monotonic()))
            if opcode == OP_PONG:
                assert payload == b"e2e-ping"
                break
    finally:
        ws.close()


def test_client_close_is_answered(server):
    ws = RawWebSocket(server)
    try:
        assert ws.accepted
        ws.send_frame(OP_CLOSE, (1000).to_bytes(2, "big") + b"bye")
        assert ws.wait_close() == 1000
    finally:
        ws.close()


# MARK: - A client that never reads


def test_a_client_that_never_reads_slows_no_one(launch):
    busy = launch("--rate", "1000")
    reader = StreamClient.open(busy)
    stalled: list[RawWebSocket] = []
    try:
        reader.wait_entries(500, timeout=20)
        baseline = busy.rss_kib()
        for _ in range(3):
            ws = RawWebSocket(busy, recv_buffer=4096)
            assert ws.accepted
            stalled.append(ws)
        start_count = len(reader.entries)
        peak = baseline
        started = time.monotonic()
        while time.monotonic() - started < 5:
            reader.read(timeout=5)  # checks order and gaps
            peak = max(peak, busy.rss_kib())
        received = len(reader.entries) - start_count
        assert received >= 2000, f"the reader got only {received} entries in 5 s"
        assert not reader.gaps
        growth_mib = (peak - baseline) / 1024
        assert growth_mib < 200, f"RSS grew by {growth_mib:.0f} MiB"
        # The stalled clients really are behind: data waits, unread, on their sockets.
        for ws in stalled:
            assert ws.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        response = http(busy, "GET", "/api/health")
        assert response.status == 200
    finally:
        reader.close()
        for ws in stalled:
            ws.close()


# MARK: - Slow and incomplete HTTP requests


@pytest.fixture(scope="module")
def impatient():
    running = KeyscopeServer(["--rate", "20", "--header-timeout", "2"])
    yield running
    running.stop()


def seconds_until_dropped(port: int, send: bytes = b"", drip: bytes = b"", limit: float = 7) -> float | str:
    """Connects, sends `send`, then one byte of `drip` every 0.5 s; how long until the server ends the connection
    (or a description of what happened instead)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=limit)
    started = time.monotonic()
    try:
        if send:
            sock.sendall(send)
        position = 0
        while time.monotonic() - started < limit:
            sock.settimeout(0.5)
            try:
                data = sock.recv(4096)
            except socket.timeout:
                if position < len(drip):
                    try:
                        sock.sendall(drip[position : position + 1])
                    except OSError:
                        return time.monotonic() - started
                    position += 1
                continue
            except ConnectionResetError:
                return time.monotonic() - started
            if not data or data.startswith((b"HTTP/1.1 408", b"HTTP/1.0 408")):
                return time.monotonic() - started
            return f"answered an incomplete request: {data[:100]!r}"
        return f"still connected after {limit} s"
    finally:
        sock.close()


def test_incomplete_requests_are_dropped_after_the_header_timeout(impatient):
    """--header-timeout 2: a connection that sends nothing, one that stops inside its headers, and one that drips
    its headers a byte at a time are all dropped after about 2 s (measured at the same time)."""
    partial = f"GET /api/health HTTP/1.1\r\nHost: {impatient.host_header}\r\n".encode()
    scenarios = {
        "silent": {},
        "incomplete headers": {"send": partial},
        "dripped headers": {"send": partial, "drip": b"X-Slow: " + b"a" * 40},
    }
    outcomes: dict[str, float | str] = {}

    def run(name: str) -> None:
        outcomes[name] = seconds_until_dropped(impatient.port, **scenarios[name])

    threads = [threading.Thread(target=run, args=(name,)) for name in scenarios]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert all(isinstance(v, float) and 1.0 <= v <= 5.0 for v in outcomes.values()), outcomes


def test_an_open_websocket_outlives_the_header_timeout(impatient):
    client = StreamClient.open(impatient)
    try:
        started = time.monotonic()
        while time.monotonic() - started < 4:
            client.read(timeout=5)
        still_serving(client)
    finally:
        client.close()


# MARK: - Pipelining and limits


def test_pipelined_requests_get_the_first_answer_then_a_close_and_change_nothing(launch):
    # One request per connection, by design (docs/protocol.md, "Connections"): lws 4.1 mishandles a POST pipelined
    # behind another request, so every response says `Connection: close` and the connection ends after it. What a
    # client pipelines behind the first request is not executed, and the server keeps serving everyone else.
    server = launch("--rate", "5")
    StreamClient.open(server).wait_entries(2)  # the demo's stores are registered
    host = server.host_header
    auth = f"Authorization: Bearer {server.token}\r\n"
    key = unique_key()
    body = json.dumps({"id": "p", "type": "write", "store": STORE, "op": "set", "path": key, "value": 7}).encode()
    data = (
        f"GET /api/health HTTP/1.1\r\nHost: {host}\r\n{auth}\r\n".encode()
        + f"POST /api/request HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\n"
          f"Content-Length: {len(body)}\r\n\r\n".encode() + body
        + f"GET /api/snapshot HTTP/1.1\r\nHost: {host}\r\n{auth}\r\n".encode()
    )
    responses = raw_exchange(server.port, data, responses=3, timeout=5)
    assert [r.status for r in responses] == [200], [r.describe() for r in responses]
    assert responses[0].json() == {"ok": True, "protocol": 1}
    assert responses[0].header("connection") == "close"
    assert _health_within(server, 3), "after the pipelined requests the server no longer answers anyone"
    assert key not in store_root(http(server, "GET", "/api/snapshot").json(), STORE)


def _health_within(server: KeyscopeServer, timeout: float) -> bool:
    try:
        return http(server, "GET", "/api/health", timeout=timeout).status == 200
    except OSError:
        return False


def test_every_http_response_closes_its_connection(server):
    host = server.host_header
    request = f"GET /api/health HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {server.token}\r\n\r\n".encode()
    for path_request in (request, f"GET /nope HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()):
        responses = raw_exchange(server.port, path_request * 2, responses=2)
        assert len(responses) == 1, [r.describe() for r in responses]
        assert responses[0].header("connection") == "close"


def test_body_over_the_limit_is_413(small_limits):
    key = unique_key()
    text = big_write(key, (64 << 10) + 1).encode()
    response = raw_request(small_limits, "POST", "/api/request", body=text,
                           headers=[("Content-Type", "application/json")])
    assert response.status == 413, response.describe()
    assert response.json()["error"]["code"] == "too_large"
    assert key not in store_root(http(small_limits, "GET", "/api/snapshot").json(), STORE)


def chunked(body: bytes, size: int = 8192) -> bytes:
    """`body` framed as `Transfer-Encoding: chunked`, in chunks of `size` bytes."""
    return b"".join(f"{len(body[i:i + size]):x}\r\n".encode() + body[i:i + size] + b"\r\n"
                    for i in range(0, len(body), size)) + b"0\r\n\r\n"


def test_chunked_body_over_the_limit_is_413(small_limits):
    key = unique_key()
    text = big_write(key, 100 << 10).encode()
    response = raw_request(small_limits, "POST", "/api/request", body=chunked(text),
                           headers=[("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
    assert response.status == 413, response.describe()
    assert response.json()["error"]["code"] == "too_large"
    assert key not in store_root(http(small_limits, "GET", "/api/snapshot").json(), STORE)


def test_chunked_body_is_decoded_and_applied(small_limits):
    key = unique_key()
    text = big_write(key, 20 << 10).encode()
    response = raw_request(small_limits, "POST", "/api/request", body=chunked(text, 1000),
                           headers=[("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
    assert response.status == 200, response.describe()
    assert response.json()["ok"] is True
    assert store_root(http(small_limits, "GET", "/api/snapshot").json(), STORE)[key] == json.loads(text)["value"]


def test_broken_chunked_framing_is_400_and_changes_nothing(small_limits):
    key = unique_key()
    text = big_write(key, 200).encode()
    broken = f"{len(text) - 10:x}\r\n".encode() + text + b"\r\n0\r\n\r\n"
    response = raw_request(small_limits, "POST", "/api/request", body=broken,
                           headers=[("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
    assert response.status == 400, response.describe()
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    assert "chunk" in error["message"]
    assert key not in store_root(http(small_limits, "GET", "/api/snapshot").json(), STORE)


def test_unknown_transfer_coding_is_501(small_limits):
    response = raw_request(small_limits, "POST", "/api/request", body=b"\x1f\x8b",
                           headers=[("Content-Type", "application/json"), ("Transfer-Encoding", "gzip")])
    assert response.status == 501, response.describe()
    assert response.json()["error"]["code"] == "not_implemented"


def test_body_at_the_limit_is_accepted(small_limits):
    key = unique_key()
    response = http(small_limits, "POST", "/api/request", body=big_write(key, 64 << 10),
                    headers={"Content-Type": "application/json"})
    assert response.status == 200, response.describe()
    assert key in store_root(http(small_limits, "GET", "/api/snapshot").json(), STORE)


def test_headers_over_the_limit_are_431(small_limits, server):
    response = raw_request(small_limits, headers=[("X-Filler", "a" * (5 << 10))])
    assert response.status == 431, response.describe()
    assert raw_request(small_limits, headers=[("X-Filler", "a" * (2 << 10))]).status == 200
    # The default limit is 16 KiB.
    response = raw_request(server, headers=[("X-Filler", "a" * (17 << 10))])
    assert response.status == 431, response.describe()
    assert raw_request(server, headers=[("X-Filler", "a" * (12 << 10))]).status == 200


def test_many_small_headers_over_the_limit_are_431(server):
    headers = [(f"X-H{i}", "b" * 100) for i in range(200)]
    response = raw_request(server, headers=headers)
    assert response.status == 431, response.describe()


def test_server_survives_garbage(server):
    """Connections that send what is not HTTP (a TLS hello, nonsense, HTTP/9.9…) and stay open do not keep the
    server from serving others."""
    garbage = [b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", b"NOT HTTP AT ALL\r\n\r\n", b"GET\r\n\r\n",
               b"GET / HTTP/9.9\r\n\r\n", b"\r\n\r\n\r\n", b"\x00" * 1000, b"GET /" + b"a" * 100_000]
    sockets = []
    try:
        for data in garbage:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            try:
                sock.sendall(data)
            except OSError:
                pass
            sockets.append(sock)
        assert http(server, "GET", "/api/health", timeout=5).status == 200
        client = StreamClient.open(server)
        try:
            client.wait_entries(3)
            still_serving(client)
        finally:
            client.close()
    finally:
        for sock in sockets:
            sock.close()


def test_extension_offers_are_ignored_and_offers_lws_cannot_answer_get_431(server):
    """No extension is taken (the 101 has no Sec-WebSocket-Extensions); offers of 255 bytes or more, which lws 4.1
    would answer by dropping the socket, get 431 instead."""
    deflate = "permessage-deflate; client_max_window_bits; server_no_context_takeover; client_no_context_takeover"
    ws = RawWebSocket(server, extra=[("Sec-WebSocket-Extensions", deflate)])
    try:
        assert ws.accepted, ws.response.describe()
        assert ws.response.header("Sec-WebSocket-Extensions") is None
        assert ws.read_json()["type"] == "hello"
    finally:
        ws.close()
    for offers in [[", ".join([deflate] * 3)], [deflate, deflate, deflate]]:  # one header, or repeated
        ws = RawWebSocket(server, extra=[("Sec-WebSocket-Extensions", value) for value in offers])
        try:
            assert ws.response.status == 431, ws.response.describe()
            assert ws.response.json()["error"]["code"] == "too_large"
        finally:
            ws.close()

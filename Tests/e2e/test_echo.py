"""The conformance echo, `KeyscopeConformanceEcho`: every message comes back whole and in its frame type, through the
inspector's lws layer (framing, reassembly and limits); bad UTF-8 closes with 1007, an oversized message with 1009;
any or no subprotocol, no token, no HTTP API. The shipped `keyscope serve` has no echo mode. The Autobahn suite
itself runs in `make conformance` (docs/conformance.md)."""

from __future__ import annotations

import signal
import subprocess

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from echo_server import EchoServer, echo_binary
from support import OP_BINARY, OP_CLOSE, OP_CONT, OP_PING, OP_PONG, OP_TEXT, RawWebSocket, keyscope_binary, raw_request

LIMIT = 64 << 10


@pytest.fixture(scope="module")
def echo():
    with EchoServer("--max-message", str(LIMIT)) as running:
        yield running


def open_echo(url: str, subprotocols: list[str] | None = None) -> ClientConnection:
    """The `websockets` client, with no proxy from the environment and no pings of its own."""
    return connect(url, subprotocols=subprotocols, proxy=None, max_size=None, open_timeout=10, ping_interval=None)


def raw(echo: EchoServer, **handshake) -> RawWebSocket:
    """A raw client on the echo: no token, path /, no subprotocol unless given."""
    handshake.setdefault("path", "/")
    handshake.setdefault("subprotocol", None)
    ws = RawWebSocket(echo, **handshake)
    assert ws.accepted, ws.response.describe()
    return ws


def test_text_and_binary_come_back_as_they_went(echo):
    with open_echo(echo.url) as ws:
        assert ws.subprotocol is None
        ws.send("héllo ✓")
        assert ws.recv(timeout=10) == "héllo ✓"
        ws.send(b"\x00\xff\x10")
        assert ws.recv(timeout=10) == b"\x00\xff\x10"
        ws.send("")
        assert ws.recv(timeout=10) == ""
        payload = bytes(range(256)) * 240  # 60 KiB: more than one read, under the limit
        ws.send(payload)
        assert ws.recv(timeout=10) == payload


def test_messages_sent_without_reading_come_back_in_order(echo):
    with open_echo(echo.url) as ws:
        for i in range(200):
            ws.send(f"message {i}" if i % 2 else f"message {i}".encode())
        for i in range(200):
            assert ws.recv(timeout=10) == (f"message {i}" if i % 2 else f"message {i}".encode())


def test_a_fragmented_message_comes_back_as_one_frame(echo):
    with raw(echo) as ws:
        ws.send_frame(OP_TEXT, "frag".encode(), fin=False)
        ws.send_frame(OP_CONT, "ment".encode(), fin=False)
        ws.send_frame(OP_PING, b"in between")  # a control frame may come between fragments
        ws.send_frame(OP_CONT, "ed ✓".encode(), fin=True)
        frames = [ws.read_frame(), ws.read_frame()]
        assert (True, OP_PONG, b"in between") in frames, frames
        assert (True, OP_TEXT, "fragmented ✓".encode()) in frames, frames
        ws.send_frame(OP_BINARY, b"\x01", fin=False)
        ws.send_frame(OP_CONT, b"\x02", fin=True)
        assert ws.read_frame() == (True, OP_BINARY, b"\x01\x02")


def test_a_library_client_fragmenting_gets_one_message(echo):
    with open_echo(echo.url) as ws:
        ws.send(["a", "bc", "def"])
        assert ws.recv(timeout=10) == "abcdef"


@pytest.mark.parametrize(
    "fragments",
    [
        [b"\xff"],
        [b"valid so far \xce", b"\xba but \xed\xa0\x80 is a surrogate"],
        [b"ends inside a character \xe2\x82"],
    ],
    ids=["one-frame", "second-fragment", "cut-character"],
)
def test_text_that_is_not_utf8_closes_with_1007(echo, fragments):
    with raw(echo) as ws:
        for index, fragment in enumerate(fragments):
            ws.send_frame(OP_TEXT if index == 0 else OP_CONT, fragment, fin=index == len(fragments) - 1)
        assert ws.wait_close() == 1007, ws.ended_by


def test_bad_utf8_fails_fast_before_the_message_ends(echo):
    with raw(echo) as ws:
        ws.send_frame(OP_TEXT, b"fine \xf4\x90\x80\x80 out of range", fin=False)
        assert ws.wait_close() == 1007, ws.ended_by


def test_a_message_over_the_limit_closes_with_1009(echo):
    with raw(echo) as ws:
        ws.send_frame(OP_BINARY, b"x" * (LIMIT + 1))
        assert ws.wait_close() == 1009, ws.ended_by
        assert ws.close_reason == f"message over {LIMIT} bytes".encode()


def test_a_fragmented_message_over_the_limit_closes_with_1009_after_earlier_echoes(echo):
    with raw(echo) as ws:
        ws.send_frame(OP_TEXT, b"before")
        for _ in range(3):
            ws.send_frame(OP_CONT if _ else OP_TEXT, b"y" * (LIMIT // 2), fin=False)
        assert ws.read_message() == (OP_TEXT, b"before")
        assert ws.wait_close() == 1009, ws.ended_by


def test_the_close_handshake_echoes_the_code(echo):
    with open_echo(echo.url) as ws:
        ws.send("bye")
        assert ws.recv(timeout=10) == "bye"
        ws.close(code=1000, reason="done")
        assert ws.close_code == 1000
    with raw(echo) as ws:
        ws.send_frame(OP_CLOSE, (1000).to_bytes(2, "big") + b"ok")
        opcode, payload = ws.read_message()
        assert opcode == OP_CLOSE and payload[:2] == (1000).to_bytes(2, "big")


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [(["chat", "superchat"], "chat"), (["keyscope.v1"], "keyscope.v1"), (["v2+json"], "v2+json")],
)
def test_any_subprotocol_is_taken_the_first_offered(echo, offered, chosen):
    with open_echo(echo.url, offered) as ws:
        assert ws.subprotocol == chosen
        ws.send("ok")
        assert ws.recv(timeout=10) == "ok"


def test_subprotocol_offers_lws_cannot_read_get_400_not_a_dropped_socket(echo):
    for offered in ["x/y", ", chat", "a" * 63, "chat, " + "b" * 130]:
        with RawWebSocket(echo, path="/", subprotocol=offered) as ws:
            assert ws.response.status == 400, (offered, ws.response.describe())


def test_extension_offers_are_ignored_and_offers_lws_cannot_answer_get_431(echo):
    deflate = "permessage-deflate; client_max_window_bits"
    with raw(echo, extra=[("Sec-WebSocket-Extensions", deflate)]) as ws:
        assert ws.response.header("Sec-WebSocket-Extensions") is None
        ws.send_text("plain")
        assert ws.read_message() == (OP_TEXT, b"plain")
    long_offers = ", ".join([deflate + "; server_no_context_takeover; client_no_context_takeover"] * 3)
    with RawWebSocket(echo, path="/", subprotocol=None, extra=[("Sec-WebSocket-Extensions", long_offers)]) as ws:
        assert ws.response.status == 431, ws.response.describe()


def test_any_path_no_token_and_plain_http_is_404(echo):
    with raw(echo, path="/any/path?x=1") as ws:
        ws.send_text("path")
        assert ws.read_message() == (OP_TEXT, b"path")
    for path in ["/", "/api/health", "/ws"]:
        response = raw_request(echo, "GET", path, token=False)
        assert response.status == 404, response.describe()
        assert response.json()["error"]["code"] == "not_found"


def test_the_host_rule_still_holds(echo):
    with RawWebSocket(echo, path="/", subprotocol=None, host="evil.example") as ws:
        assert ws.response.status == 403, ws.response.describe()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--host", "0.0.0.0"], "loopback only"),
        (["--host", "::"], "loopback only"),
        (["--max-message", "1023"], "at least 1024 bytes"),
        (["--max-message", "4MiB"], "--max-message"),
    ],
)
def test_the_echo_refuses_what_it_cannot_serve(args, says):
    result = subprocess.run([str(echo_binary()), "--port", "0", *args], capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert says in result.stderr, result.stderr


def test_the_echo_says_when_its_port_is_taken(echo):
    result = subprocess.run(
        [str(echo_binary()), "--port", str(echo.port)], capture_output=True, text=True, timeout=20)
    assert result.returncode == 1
    assert f"could not listen on 127.0.0.1 port {echo.port}" in result.stderr, result.stderr


def test_the_shipped_server_has_no_echo_mode():
    result = subprocess.run(
        [str(keyscope_binary()), "serve", "--demo", "--echo", "--port", "0"], capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "Unknown option '--echo'" in result.stderr, result.stderr


def test_sigint_closes_clients_with_1001_and_exits_0():
    with EchoServer() as server, open_echo(server.url) as ws:
        server.process.send_signal(signal.SIGINT)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert server.process.wait(10) == 0

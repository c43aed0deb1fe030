"""Hostile clients, each run as a process of its own (so that they never slow the measuring client's Python):

    python hostile.py never-read PORT TOKEN COUNT          COUNT WebSocket clients that never read a byte
    python hostile.py never-read-asking PORT TOKEN COUNT   …that also send a `resync` request every 10 ms
    python hostile.py slow-headers PORT TOKEN COUNT        COUNT connections sending their request 1 byte a second
    python hostile.py half-open PORT TOKEN COUNT           COUNT connections that send part of a request line and wait
    python hostile.py fragments PORT TOKEN COUNT           one message in COUNT 1-byte fragments, then its reply
    python hostile.py abrupt PORT TOKEN COUNT              COUNT upgrades a second, each reset (RST) after hello
    python hostile.py wide PORT TOKEN COUNT                merges of COUNT members, one after another, over a
                                                           WebSocket and over HTTP at once

Each prints one JSON line of counts on stdout when it ends (SIGTERM ends the endless ones). The upgrade request
and the frames are those of Tests/e2e/support.py's raw client.
"""

from __future__ import annotations

import json
import selectors
import signal
import socket
import struct
import sys
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))  # support.py: the raw WebSocket client

from support import (  # noqa: E402
    OP_CLOSE,
    OP_CONT,
    OP_TEXT,
    ZERO_MASK,
    LoopbackAddress,
    RawWebSocket,
    frame_bytes,
    handshake_bytes,
    http,
    ws_connect,
)

stopping = False


def on_term(*_):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)


def connect_ws(port: int, token: str, rcvbuf: int | None = None) -> socket.socket:
    """An upgraded socket with nothing after the response head read from it (unlike support.RawWebSocket, which
    reads ahead): for the clients that never read, or read only the start of hello."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(handshake_bytes(LoopbackAddress(port, token)))
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)  # byte by byte: nothing after the response head is taken off the socket
        if not chunk:
            raise ConnectionError(f"the server closed the upgrade: {head!r}")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"upgrade refused: {head[:100]!r}")
    return sock


def never_read(port: int, token: str, count: int, asking: bool) -> dict:
    socks = [connect_ws(port, token, rcvbuf=4096) for _ in range(count)]
    for sock in socks:
        sock.setblocking(False)
    print("ready", flush=True)
    sent = blocked = 0
    request = frame_bytes(OP_TEXT, json.dumps({"id": "hostile", "type": "resync"}).encode(), key=ZERO_MASK)
    while not stopping:
        if asking:
            for sock in socks:
                try:
                    sock.send(request)
                    sent += 1
                except BlockingIOError:
                    blocked += 1
                except OSError:
                    pass
        time.sleep(0.01)
    return {"clients": count, "requests_sent": sent, "sends_blocked": blocked}


def slow_headers(port: int, token: str, count: int) -> dict:
    request = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n".encode()
    request += b"X-Slow: " + b"a" * 4000  # never finished: the drip lasts longer than any header timeout
    selector = selectors.DefaultSelector()
    state: dict[socket.socket, int] = {}
    opened = dropped = refused = answered = 0

    def open_one() -> None:
        nonlocal opened, refused
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect_ex(("127.0.0.1", port))
        except OSError:
            refused += 1
            sock.close()
            return
        state[sock] = 0
        selector.register(sock, selectors.EVENT_READ)
        opened += 1

    for _ in range(count):
        open_one()
    print("ready", flush=True)
    next_drip = time.monotonic()
    while not stopping:
        timeout = max(0.0, next_drip - time.monotonic())
        for key, _ in selector.select(timeout):
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            if data:
                answered += 1  # a 408 or an error page: the server gave up on it
            selector.unregister(sock)
            state.pop(sock, None)
            sock.close()
            dropped += 1
            open_one()
        if time.monotonic() >= next_drip:
            next_drip += 1.0
            for sock in list(state):
                position = state[sock]
                try:
                    sock.send(request[position : position + 1])
                    state[sock] = min(position + 1, len(request) - 1)
                except OSError:
                    pass  # not connected yet, or reset: the read side reports it
    for sock in list(state):
        sock.close()
    return {"connections": count, "opened": opened, "dropped_by_server": dropped, "answered": answered,
            "refused": refused, "open_at_end": len(state)}


def half_open(port: int, token: str, count: int) -> dict:
    """COUNT connections that send part of a request line and wait; those the server answers (503 past its
    connection cap) or drops are counted and not reopened."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(b"GET /api/hea")
        sock.setblocking(False)
        socks.append(sock)
    print("ready", flush=True)
    while not stopping:
        time.sleep(0.2)
    answered = closed = 0
    for sock in socks:
        try:
            data = sock.recv(4096)
            answered += bool(data)
            closed += not data
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    return {"connections": count, "answered_503": answered, "closed": closed, "open_at_end": count - answered - closed}


def fragments(port: int, token: str, count: int) -> dict:
    ws = RawWebSocket(LoopbackAddress(port, token))
    if not ws.accepted:
        raise ConnectionError(f"upgrade refused: {ws.response.describe()[:200]}")
    print("ready", flush=True)
    prefix = b'{"id": "fragments", "type": "resync", "pad": "'
    suffix = b'"}'
    body = prefix + b"x" * (count - len(prefix) - len(suffix)) + suffix
    assert len(body) == count
    started = time.monotonic()
    chunks = []
    for index in range(count):
        opcode = OP_TEXT if index == 0 else OP_CONT
        chunks.append(frame_bytes(opcode, body[index : index + 1], fin=index == count - 1, key=ZERO_MASK))
        if len(chunks) == 65536:
            ws.sock.sendall(b"".join(chunks))
            chunks = []
    ws.sock.sendall(b"".join(chunks))
    sent = time.monotonic()
    # Read frames until the reply to our request (the hello, a snapshot and changes come first).
    reply = None
    while reply is None:
        try:
            _, opcode, payload = ws.read_frame(timeout=120)
        except EOFError:
            break
        if opcode == OP_CLOSE:
            reply = {"closed": struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None}
        elif opcode == OP_TEXT and b'"reply"' in payload[:200]:
            message = json.loads(payload)
            if message.get("type") == "reply" and message.get("id") == "fragments":
                reply = message
    done = time.monotonic()
    ws.close()
    return {"fragments": count, "send_seconds": round(sent - started, 3), "reply_seconds": round(done - started, 3),
            "reply_ok": bool(reply and reply.get("ok")), "reply": reply if not (reply and reply.get("ok")) else "ok"}


def abrupt(port: int, token: str, per_second: int) -> dict:
    made = failed = 0
    print("ready", flush=True)
    while not stopping:
        began = time.monotonic()
        for _ in range(per_second):
            try:
                sock = connect_ws(port, token)
                sock.recv(64)  # the start of hello, then reset with the rest unread
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
                made += 1
            except OSError:
                failed += 1
            if stopping:
                break
        time.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
    return {"reset_connections": made, "failed": failed}


def wide(port: int, token: str, members: int) -> dict:
    """A WebSocket client and an HTTP client, each writing merges of MEMBERS members into a key of its own in
    app/memory, the next as soon as the reply to the last is in, until SIGTERM. The members' values alternate between
    two rounds, so that every merge changes them all (its log entry holds the old and the new values)."""
    server = LoopbackAddress(port, token)
    counts = {"members": members, "ws_writes": 0, "http_writes": 0, "refused": 0, "errors": []}

    def bodies(key: str) -> list[str]:
        return [
            json.dumps({"type": "write", "store": "app/memory", "op": "merge", "path": key,
                        "value": {f"m{index}": value for index in range(members)}})
            for value in (0, 1)
        ]

    def over_websocket(ready: threading.Event) -> None:
        requests = bodies("hostile_wide_ws")
        with ws_connect(server) as ws:
            ready.set()
            sent = 0
            while not stopping:
                ws.send(requests[sent % 2].replace('"type"', f'"id": {sent}, "type"', 1))
                while True:  # the stream's messages (large: they carry the merges) until the reply
                    message = ws.recv(timeout=600)
                    if '"type":"reply"' in message[:200] and json.loads(message).get("id") == sent:
                        break
                reply = json.loads(message)
                counts["ws_writes" if reply["ok"] else "refused"] += 1
                sent += 1

    def over_http(ready: threading.Event) -> None:
        requests = bodies("hostile_wide_http")
        ready.set()
        sent = 0
        while not stopping:
            response = http(server, "POST", "/api/request", body=requests[sent % 2],
                            headers={"Content-Type": "application/json"}, timeout=600)
            counts["http_writes" if response.status == 200 else "refused"] += 1
            sent += 1

    def run(body, ready: threading.Event) -> None:
        try:
            body(ready)
        except Exception as error:  # noqa: BLE001 - reported in the counts, never hidden
            counts["errors"].append(f"{body.__name__}: {type(error).__name__}: {error}"[:300])
            ready.set()

    readies = [threading.Event(), threading.Event()]
    threads = [threading.Thread(target=run, args=(body, ready), daemon=True)
               for body, ready in zip((over_websocket, over_http), readies)]
    for thread in threads:
        thread.start()
    for ready in readies:
        ready.wait(60)
    print("ready", flush=True)
    for thread in threads:
        thread.join()
    return counts


def main() -> None:
    mode, port, token, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    if mode == "never-read":
        result = never_read(port, token, count, asking=False)
    elif mode == "never-read-asking":
        result = never_read(port, token, count, asking=True)
    elif mode == "slow-headers":
        result = slow_headers(port, token, count)
    elif mode == "half-open":
        result = half_open(port, token, count)
    elif mode == "fragments":
        result = fragments(port, token, count)
    elif mode == "abrupt":
        result = abrupt(port, token, count)
    elif mode == "wide":
        result = wide(port, token, count)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

"""Hostile clients, each run as a process of its own (so that they never slow the measuring client's Python):

    python hostile.py never-read PORT TOKEN COUNT          COUNT WebSocket clients that never read a byte
    python hostile.py never-read-asking PORT TOKEN COUNT   …that also send a `resync` request every 10 ms
    python hostile.py slow-headers PORT TOKEN COUNT        COUNT connections sending their request 1 byte a second
    python hostile.py fragments PORT TOKEN COUNT           one message in COUNT 1-byte fragments, then its reply
    python hostile.py abrupt PORT TOKEN COUNT              COUNT upgrades a second, each reset (RST) after hello

Each prints one JSON line of counts on stdout when it ends (SIGTERM ends the endless ones).
"""

from __future__ import annotations

import base64
import json
import os
import selectors
import signal
import socket
import struct
import sys
import time

SUBPROTOCOL = "keyscope.v1"
stopping = False


def on_term(*_):
    global stopping
    stopping = True


signal.signal(signal.SIGTERM, on_term)


def upgrade_bytes(port: int, token: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n"
    ).encode()


def frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """A client frame with an all-zero mask key (allowed, and the payload goes as it is)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(payload)
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", length)
    return head + b"\0\0\0\0" + payload


def connect_ws(port: int, token: str, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(upgrade_bytes(port, token))
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
    request = frame(0x1, json.dumps({"id": "hostile", "type": "resync"}).encode())
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


def fragments(port: int, token: str, count: int) -> dict:
    sock = connect_ws(port, token)
    print("ready", flush=True)
    prefix = b'{"id": "fragments", "type": "resync", "pad": "'
    suffix = b'"}'
    body = prefix + b"x" * (count - len(prefix) - len(suffix)) + suffix
    assert len(body) == count
    started = time.monotonic()
    chunks = []
    for index in range(count):
        opcode = 0x1 if index == 0 else 0x0
        chunks.append(frame(opcode, body[index : index + 1], fin=index == count - 1))
        if len(chunks) == 65536:
            sock.sendall(b"".join(chunks))
            chunks = []
    sock.sendall(b"".join(chunks))
    sent = time.monotonic()
    # Read frames until the reply to our request (the hello, a snapshot and changes come first).
    sock.settimeout(120)
    buffer = b""
    reply = None
    while reply is None:
        chunk = sock.recv(1 << 16)
        if not chunk:
            break
        buffer += chunk
        while len(buffer) >= 2:
            length = buffer[1] & 0x7F
            offset = 2
            if length == 126:
                if len(buffer) < 4:
                    break
                length, offset = struct.unpack("!H", buffer[2:4])[0], 4
            elif length == 127:
                if len(buffer) < 10:
                    break
                length, offset = struct.unpack("!Q", buffer[2:10])[0], 10
            if len(buffer) < offset + length:
                break
            opcode, payload = buffer[0] & 0x0F, buffer[offset : offset + length]
            buffer = buffer[offset + length :]
            if opcode == 0x8:
                reply = {"closed": struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None}
                break
            if opcode == 0x1 and b'"reply"' in payload[:200]:
                message = json.loads(payload)
                if message.get("type") == "reply" and message.get("id") == "fragments":
                    reply = message
                    break
    done = time.monotonic()
    sock.close()
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


def main() -> None:
    mode, port, token, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    if mode == "never-read":
        result = never_read(port, token, count, asking=False)
    elif mode == "never-read-asking":
        result = never_read(port, token, count, asking=True)
    elif mode == "slow-headers":
        result = slow_headers(port, token, count)
    elif mode == "fragments":
        result = fragments(port, token, count)
    elif mode == "abrupt":
        result = abrupt(port, token, count)
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

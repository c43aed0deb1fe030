#!/usr/bin/env python3
"""A stand-in for the Keyscope inspector's WebSocket surface (`docs/protocol.md`), to check the
`keyscope` client commands (snapshot, tail, write) and the KeyscopeClient library without the real server.

It is a mock, not a second implementation: it keeps the framing and the security checks of the contract (Host,
Origin, token, subprotocol `keyscope.v1`, hello then snapshot then changes, replies by id), with a tiny store model
(names and indices in paths, set/insert/remove/merge) and made-up changes. Extras a real server does not have:
  --big-bytes N   adds a store whose root holds a string of about N bytes, so the snapshot is a big message; it is
                  sent as a fragmented message (64 KiB frames) to exercise the client's reassembly
  --close-after N closes each connection with 1000 once it was sent N changes messages
  --gap-after N   after N changes messages to a connection, skips its next 3 and sends a gap and a snapshot instead
  --record        writes a ServerRecord ($KEYSCOPE_HOME/servers/PORT.json) so the CLI finds it on its own
  {"type": "sleep", "ms": N} request: replies after N ms (replies out of order, for id correlation checks)
  --log-handshakes prints each upgrade request's path and headers on stderr

Needs the `websockets` package (13 or later); in a virtual environment, never system-wide:
  python3 -m venv /tmp/client-venv && /tmp/client-venv/bin/pip install websockets
  /tmp/client-venv/bin/python Tests/client-mock/mock_server.py --port 0 --token t0k3n --rate 5 --record
It prints `mock: listening on http://127.0.0.1:PORT token TOKEN` once ready, then runs until killed.
"""

import argparse
import asyncio
import datetime
import http
import json
import os
import re
import signal
import sys
import urllib.parse

from websockets.asyncio.server import serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response

ALLOWED_HOSTS = {"localhost", "127.0.0.1", "[::1]"}
PATH_TOKEN = re.compile(r'\.?([^.\[\]"\s]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]')


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_path(text):
    """Key path segments (str keys, int indices); None when it does not parse."""
    segments, position = [], 0
    while position < len(text):
        match = PATH_TOKEN.match(text, position)
        if not match or (position == 0 and text.startswith(".")):
            return None
        name, index, quoted = match.groups()
        if index is not None:
            segments.append(int(index))
        elif quoted is not None:
            segments.append(json.loads('"%s"' % quoted))
        else:
            segments.append(name)
        position = match.end()
    return segments


class Failure(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class Mock:
    def __init__(self, args):
        self.args = args
        self.port = None
        self.seq = 100
        self.clients = set()
        self.generated = 0
        self.stores = {
            "app/memory": {
                "cart": {"total": 90, "coupon": "SAVE10", "lines": [{"title": "Tea", "qty": 1}]},
                "cartoon": {"frames": 1},
                "items": [{"title": "x"}],
                "flags": {"$$beta": True},
                "accent": {"$color": "#FF8800"},
            },
            "app/userPrefs": {"theme": "dark", "ratio": 0.5},
        }
        if args.big_bytes:
            self.stores["app/file:/tmp/big.json"] = {"blob": "x" * args.big_bytes}

    # --- handshake -------------------------------------------------------------------------------------------

    def check_request(self, connection, request):
        headers = request.headers
        if self.args.log_handshakes:
            lines = ["mock: upgrade %s" % request.path] + ["mock:   %s: %s" % kv for kv in headers.raw_items()]
            print("\n".join(lines), file=sys.stderr, flush=True)

        def refuse(status, code, message):
            body = json.dumps({"error": {"code": code, "message": message}})
            return Response(status.value, status.phrase, Headers({"Content-Type": "application/json"}),
                            body.encode())

        hosts = headers.get_all("Host")
        if len(hosts) != 1:
            return refuse(http.HTTPStatus.BAD_REQUEST, "bad_request", "exactly one Host header")
        host, _, port = hosts[0].rpartition(":") if not hosts[0].endswith("]") else (hosts[0], "", "")
        if host not in ALLOWED_HOSTS or (port and port != str(self.port)):
            return refuse(http.HTTPStatus.FORBIDDEN, "forbidden", "Host %r is not allowed" % hosts[0])
        origin = headers.get("Origin")
        if origin is not None:
            allowed = {"http://%s:%d" % (name, self.port) for name in ALLOWED_HOSTS}
            if origin not in allowed:
                return refuse(http.HTTPStatus.FORBIDDEN, "forbidden", "Origin %r is not allowed" % origin)
        url = urllib.parse.urlsplit(request.path)
        if url.path != "/ws":
            return refuse(http.HTTPStatus.NOT_FOUND, "not_found", "no such endpoint")
        tokens = urllib.parse.parse_qs(url.query).get("token", [])
        bearer = headers.get("Authorization", "")
        if self.args.token and tokens != [self.args.token] and bearer != "Bearer " + self.args.token:
            return refuse(http.HTTPStatus.UNAUTHORIZED, "unauthorized", "missing or wrong token")
        offered = [p.strip() for p in ",".join(headers.get_all("Sec-WebSocket-Protocol")).split(",")]
        if "keyscope.v1" not in offered:
            return refuse(http.HTTPStatus.BAD_REQUEST, "bad_request", "subprotocol keyscope.v1 is required")
        return None

    # --- messages --------------------------------------------------------------------------------------------

    def snapshot(self):
        stores = []
        for store_id, root in sorted(self.stores.items()):
            scope, storage = store_id.split("/", 1)
            stores.append({"id": store_id, "scope": scope, "storage": storage, "version": "1.0.0", "root": root})
        return {"type": "snapshot", "seq": self.seq, "stores": stores, "subscriptions": []}

    def broadcast(self, message):
        for queue in list(self.clients):
            queue.put_nowait(message)

    def record_change(self, store, patches, txn=None):
        self.seq += 1
        entry = {"seq": self.seq, "time": now(), "store": store, "txn": txn, "patches": patches}
        self.broadcast({"type": "changes", "entries": [entry]})
        return self.seq

    async def send(self, ws, message):
        text = json.dumps(message, separators=(",", ":"))
        if len(text) > 65536:
            chunks = [text[i:i + 65536] for i in range(0, len(text), 65536)]
            print("mock: sending a %d-byte %s in %d fragments" % (len(text), message["type"], len(chunks)),
                  file=sys.stderr, flush=True)
            await ws.send(iter(chunks))
        else:
            await ws.send(text)

    async def handle(self, ws):
        queue = asyncio.Queue()
        queue.put_nowait({"type": "hello", "protocol": 1,
                          "server": {"name": "mock", "version": "0.0.0", "pid": os.getpid()},
                          "readOnly": self.args.read_only})
        queue.put_nowait(self.snapshot())
        self.clients.add(queue)
        writer = asyncio.create_task(self.write_loop(ws, queue))
        try:
            async for text in ws:
                asyncio.create_task(self.answer(queue, text))
        except ConnectionClosed:
            pass  # closed without a proper close handshake, or by a close code other than 1000/1001
        finally:
            self.clients.discard(queue)
            writer.cancel()
            print("mock: connection closed with code %s reason %r" % (ws.close_code, ws.close_reason),
                  file=sys.stderr, flush=True)

    async def write_loop(self, ws, queue):
        changes = 0
        while True:
            message = await queue.get()
            await self.send(ws, message)
            changes += message["type"] == "changes"
            if self.args.gap_after and changes == self.args.gap_after:
                await self.skip(ws, queue, 3)
            if self.args.close_after and changes >= self.args.close_after:
                await ws.close(1000, "bye")
                return

    async def skip(self, ws, queue, count):
        """Drops the next `count` changes messages of one connection, then tells it with a gap and a snapshot."""
        skipped = []
        while len(skipped) < count:
            message = await queue.get()
            if message["type"] == "changes":
                skipped += [entry["seq"] for entry in message["entries"]]
            else:
                await self.send(ws, message)
        await self.send(ws, {"type": "gap", "from": skipped[0], "to": skipped[-1]})
        snapshot = self.snapshot()
        snapshot["seq"] = skipped[-1]  # later queued changes go on from there
        await self.send(ws, snapshot)

    async def answer(self, queue, text):
        request_id = None
        try:
            try:
                request = json.loads(text)
            except ValueError:
                raise Failure("bad_json", "not JSON")
            if not isinstance(request, dict):
                raise Failure("bad_request", "a request is an object")
            request_id = request.get("id")
            kind = request.get("type")
            if kind == "sleep":
                await asyncio.sleep(request.get("ms", 0) / 1000)
                result = {"slept": request.get("ms", 0)}
            elif kind == "resync":
                queue.put_nowait(self.snapshot())
                result = None
            elif kind == "write":
                result = {"seq": self.write(request)}
            else:
                raise Failure("unknown_type", "unknown request type %r" % kind)
            queue.put_nowait({"type": "reply", "id": request_id, "ok": True, "result": result})
        except Failure as failure:
            queue.put_nowait({"type": "reply", "id": request_id, "ok": False,
                              "error": {"code": failure.code, "message": failure.message}})

    # --- the tiny store model --------------------------------------------------------------------------------

    def write(self, request):
        if self.args.read_only:
            raise Failure("read_only", "this server is read-only")
        store, op, path = request.get("store"), request.get("op"), request.get("path")
        if store not in self.stores:
            raise Failure("unknown_store", "no store %r" % store)
        if op not in ("set", "insert", "remove", "merge"):
            raise Failure("bad_request", "unknown op %r" % op)
        segments = parse_path(path) if isinstance(path, str) else None
        if segments is None:
            raise Failure("bad_path", "path %r does not parse" % path)
        if not segments:
            raise Failure("bad_path", "the mock does not write the root")
        parent = self.stores[store]
        for segment in segments[:-1]:
            parent = self.child(parent, segment)
        last, value = segments[-1], request.get("value")
        old = self.peek(parent, last)
        if op == "remove":
            if old is None:
                return None
            del parent[last]
            patch = {"op": "remove", "path": path, "old": old}
        elif op == "insert":
            if not isinstance(parent, list) or not isinstance(last, int) or last > len(parent):
                raise Failure("out_of_range", "insert needs an index within an array")
            parent.insert(last, value)
            patch = {"op": "insert", "path": path, "new": value}
        elif op == "merge":
            if not isinstance(value, dict) or not isinstance(old, dict):
                raise Failure("type_mismatch", "merge needs an object at the path and as the value")
            patch = {"op": "merge", "path": path, "old": {k: old[k] for k in value if k in old}, "new": value}
            old.update(value)
        else:
            self.put(parent, last, value)
            patch = {"op": "set", "path": path, "new": value}
            if old is not None:
                patch["old"] = old
        return self.record_change(store, [patch])

    @staticmethod
    def child(parent, segment):
        value = Mock.peek(parent, segment)
        if value is None:
            raise Failure("type_mismatch", "nothing at %r" % (segment,))
        return value

    @staticmethod
    def peek(parent, segment):
        if isinstance(segment, int):
            if not isinstance(parent, list):
                raise Failure("type_mismatch", "an index into a non-array")
            return parent[segment] if segment < len(parent) else None
        if not isinstance(parent, dict):
            raise Failure("type_mismatch", "a name into a non-object")
        return parent.get(segment)

    @staticmethod
    def put(parent, segment, value):
        if isinstance(segment, int):
            if segment > len(parent):
                raise Failure("out_of_range", "index %d past the end" % segment)
            if segment == len(parent):
                parent.append(value)
            else:
                parent[segment] = value
        else:
            parent[segment] = value

    # --- made-up changes -------------------------------------------------------------------------------------

    async def generate(self):
        script = [
            lambda: self.set_total(),
            lambda: self.record_change("app/memory", [{"op": "set", "path": "cartoon.frames",
                                                       "old": self.bump("cartoon", "frames"),
                                                       "new": self.stores["app/memory"]["cartoon"]["frames"]}]),
            lambda: self.record_change("app/memory", [
                {"op": "set", "path": "cart.total", "old": 1, "new": 2},
                {"op": "remove", "path": "cart.coupon", "old": "SAVE10"}],
                txn="1F0C9A2E-5B7D-4C3A-9E2F-0A1B2C3D4E5F"),
            lambda: self.record_change("app/memory", [{"op": "insert", "path": "cart.lines[1]",
                                                       "new": {"title": "Jam", "qty": 2}}]),
            lambda: self.record_change("app/userPrefs", [{"op": "set", "path": "ratio", "old": 0.5,
                                                          "new": 0.75}]),
        ]
        while True:
            await asyncio.sleep(1 / self.args.rate)
            script[self.generated % len(script)]()
            self.generated += 1

    def set_total(self):
        cart = self.stores["app/memory"]["cart"]
        old = cart["total"]
        cart["total"] = old + 14.5 if isinstance(old, float) else old + 9.5
        return self.record_change("app/memory", [{"op": "set", "path": "cart.total", "old": old,
                                                  "new": cart["total"]}])

    def bump(self, key, field):
        old = self.stores["app/memory"][key][field]
        self.stores["app/memory"][key][field] = old + 1
        return old


def write_record(mock):
    home = os.environ.get("KEYSCOPE_HOME")
    if home:
        directory = os.path.join(home, "servers")
    elif os.environ.get("XDG_RUNTIME_DIR"):
        directory = os.path.join(os.environ["XDG_RUNTIME_DIR"], "keyscope", "servers")
    elif os.environ.get("XDG_STATE_HOME"):
        directory = os.path.join(os.environ["XDG_STATE_HOME"], "keyscope", "servers")
    else:
        directory = os.path.expanduser("~/.local/state/keyscope/servers")
    os.makedirs(directory, mode=0o700, exist_ok=True)
    path = os.path.join(directory, "%d.json" % mock.port)
    record = {"host": "127.0.0.1", "port": mock.port, "token": mock.args.token, "pid": os.getpid(),
              "name": "mock", "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(record, file)
    return path


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", default="t0k3n")
    parser.add_argument("--rate", type=float, default=5, help="made-up changes per second (0: none)")
    parser.add_argument("--big-bytes", type=int, default=0)
    parser.add_argument("--close-after", type=int, default=0)
    parser.add_argument("--gap-after", type=int, default=0)
    parser.add_argument("--read-only", action="store_true")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--log-handshakes", action="store_true")
    args = parser.parse_args()

    mock = Mock(args)
    async with serve(mock.handle, "127.0.0.1", args.port, subprotocols=["keyscope.v1"],
                     process_request=mock.check_request, compression=None, max_size=4 << 20) as server:
        mock.port = server.sockets[0].getsockname()[1]
        record = write_record(mock) if args.record else None
        print("mock: listening on http://127.0.0.1:%d token %s" % (mock.port, args.token), flush=True)
        stop = asyncio.get_running_loop().create_future()
        for number in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(number, stop.set_result, None)
        generator = asyncio.create_task(mock.generate()) if args.rate > 0 else None
        try:
            await stop
        finally:
            if generator:
                generator.cancel()
            if record and os.path.exists(record):
                os.remove(record)


if __name__ == "__main__":
    asyncio.run(main())

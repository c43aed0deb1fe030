"""Dashboard clients for the soak: asyncio WebSocket clients that follow the dashboard's protocol (docs/protocol.md):
`hello`, then a `snapshot`, then `changes` whose entries' `seq` rise by exactly 1 from the snapshot's; a `gap`
(the server says the client fell behind) must be followed by a snapshot, and the entries after it continue from
that snapshot's `seq`. Anything else (a missing or repeated `seq`, changes between a gap and its snapshot) is
counted as a violation with its first examples kept.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from support import SUBPROTOCOL


@dataclass
class DashboardClient:
    index: int
    messages: int = 0
    bytes: int = 0
    entries: int = 0
    snapshots: int = 0
    gaps: list[tuple[int, int]] = field(default_factory=list)
    skipped: int = 0  # entries the server announced as skipped (sum of gap widths)
    violations: int = 0
    examples: list[str] = field(default_factory=list)
    next_seq: int | None = None
    awaiting_snapshot: bool = False
    hello: bool = False
    ended_by_server: bool = False  # the server closed the connection before the client's close
    close_code: int | None = None
    close_reason: str = ""
    timeline: list[tuple[float, int]] = field(default_factory=list)  # (monotonic time, last seq) once a second
    kinds: dict[str, int] = field(default_factory=dict)  # messages received by type

    @property
    def last_seq(self) -> int:
        return (self.next_seq or 1) - 1

    def violation(self, text: str) -> None:
        self.violations += 1
        if len(self.examples) < 5:
            self.examples.append(text)

    def handle(self, text: str) -> None:
        self.messages += 1
        self.bytes += len(text)
        message = json.loads(text)
        kind = message.get("type")
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if not self.hello:
            if kind != "hello":
                self.violation(f"first message is {kind}, not hello")
            self.hello = True
            return
        if kind == "snapshot":
            self.snapshots += 1
            seq = message["seq"]
            if self.next_seq is not None and seq < self.last_seq:
                self.violation(f"snapshot at seq {seq} after entries up to {self.last_seq}")
            self.next_seq = seq + 1
            self.awaiting_snapshot = False
        elif kind == "gap":
            start, end = message["from"], message["to"]
            if self.next_seq is not None and start != self.next_seq:
                self.violation(f"gap from {start} while {self.next_seq} was due")
            self.gaps.append((start, end))
            self.skipped += end - start + 1
            self.awaiting_snapshot = True
        elif kind == "changes":
            if self.awaiting_snapshot:
                self.violation("changes after a gap, before its snapshot")
            if self.next_seq is None:
                self.violation("changes before the first snapshot")
            entries = message["entries"]
            if not entries:
                self.violation("an empty changes message")
            for entry in entries:
                seq = entry["seq"]
                if self.next_seq is not None and seq != self.next_seq:
                    what = "repeated" if seq < self.next_seq else "missing"
                    self.violation(f"{what}: seq {seq} where {self.next_seq} was due")
                self.next_seq = seq + 1
            self.entries += len(entries)
        elif kind == "hello":
            self.violation("a second hello")
        now = time.monotonic()
        if not self.timeline or now - self.timeline[-1][0] >= 1:
            self.timeline.append((now, self.last_seq))

    async def run(self, url: str, stop: asyncio.Event, connected: asyncio.Event | None = None) -> None:
        self.ended_by_server, self.close_code, self.close_reason = await follow(url, self.handle, stop, connected)


async def follow(url: str, handle, stop: asyncio.Event, connected: asyncio.Event | None = None):
    """Connects, hands every text message to `handle` until `stop` is set (or the server closes), closes; returns
    whether the server ended it, and the close code and reason the server sent back (1006 when none came)."""
    # max_queue keeps only a few frames in Python: a client that cannot keep up pushes back on its TCP window,
    # and the server must then skip it ahead with an announced gap (never buffer for it without bound).
    async with connect(
        url, subprotocols=[SUBPROTOCOL], compression=None, max_size=None, max_queue=4, ping_interval=None,
        proxy=None, open_timeout=30, close_timeout=5,
    ) as ws:
        if connected:
            connected.set()

        async def read() -> None:
            async for text in ws:
                handle(text)

        reader = asyncio.ensure_future(read())
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait([reader, stopper], return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        ended_by_server = reader.done()
        await ws.close()
        try:
            await reader
        except ConnectionClosed:
            pass
        return ended_by_server, ws.close_code, ws.close_reason or ""


async def run_dashboards(url: str, count: int, seconds: float, on_tick=None) -> list[DashboardClient]:
    """`count` clients connected at once, reading for `seconds`, then closed; `on_tick()` is called each second."""
    clients = [DashboardClient(index) for index in range(count)]
    stop = asyncio.Event()
    events = [asyncio.Event() for _ in clients]
    tasks = [asyncio.ensure_future(client.run(url, stop, event)) for client, event in zip(clients, events)]
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in events)), 60)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        if on_tick:
            on_tick()
        failed = [task for task in tasks if task.done() and task.exception()]
        if failed:
            break
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        if task.exception():
            raise task.exception()
    return clients

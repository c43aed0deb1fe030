"""Clients of a fleet dashboard for the fleet load test: asyncio WebSocket clients of `/ws?instance=*` (every
instance's changes merged, each entry naming its instance) and of `/ws?instance=ID` (one instance's protocol).

Each checks what it reads: per instance, seqs rise by exactly 1, except across a `gap` naming the instance (for `*`)
or a gap followed by a snapshot (for one instance); and records the lag of every entry, from the time the
instance logged it (the entry's `time`, same machine clock) to its arrival here.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime

from dashboards import follow

CHANGES = '{"type":"changes","entries":['
SEQ = re.compile(r'"seq":(\d+),"store"')
INSTANCE = re.compile(r'\{"instance":"([^"]+)"')
TIME = re.compile(r'"time":"([^"]+)"')


def logged_at(entry: dict) -> float:
    """The entry's `time` as Unix seconds."""
    return datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp()


@dataclass
class FleetClient:
    name: str
    messages: int = 0
    entries: int = 0
    gaps: int = 0
    skipped: int = 0
    violations: int = 0
    examples: list[str] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    next_seq: dict[str, int] = field(default_factory=dict)
    instances_seen: set[str] = field(default_factory=set)
    awaiting_snapshot: bool = False
    ended_by_server: bool = False

    def violation(self, text: str) -> None:
        self.violations += 1
        if len(self.examples) < 5:
            self.examples.append(text)

    def scan_changes(self, text: str, single: str | None, now: float) -> None:
        """A `changes` frame's entries by their top-level members, which the server writes with sorted keys:
        `"instance":"ID"` first on the merged stream, `"seq":N,"store"` and `"time":"…"` further on. The lag is
        sampled from each frame's last entry."""
        seqs = [int(seq) for seq in SEQ.findall(text)]
        instances = [single] * len(seqs) if single else INSTANCE.findall(text)
        if len(instances) != len(seqs):
            self.violation(f"a changes frame with {len(seqs)} seqs and {len(instances)} instances")
            return
        for instance, seq in zip(instances, seqs):
            self.follow(instance, seq)
        times = TIME.findall(text)
        if times:
            self.lags.append(now - datetime.fromisoformat(times[-1].replace("Z", "+00:00")).timestamp())

    def follow(self, instance: str, seq: int) -> None:
        expected = self.next_seq.get(instance)
        if expected is not None and seq != expected:
            what = "repeated" if seq < expected else "missing"
            self.violation(f"{instance}: {what} seq {seq} where {expected} was due")
        self.next_seq[instance] = seq + 1
        self.entries += 1
        self.instances_seen.add(instance)

    def entry(self, instance: str, entry: dict, now: float) -> None:
        """An entry of a `changes` frame that was parsed whole (one scan_changes could not read)."""
        self.follow(instance, entry["seq"])
        self.lags.append(now - logged_at(entry))

    def handle(self, text: str, single: str | None) -> None:
        now = time.time()
        self.messages += 1
        if text.startswith(CHANGES):
            # The bulk of the stream, read without building it: the Python client must keep up with 20,000
            # entries a second without becoming what the test measures (see scan_changes).
            if self.awaiting_snapshot:
                self.violation("changes after a gap, before its snapshot")
            self.scan_changes(text, single, now)
            return
        message = json.loads(text)
        kind = message.get("type")
        if kind == "changes":
            for entry in message["entries"]:
                self.entry(single or entry.get("instance", "?"), entry, now)
        elif kind == "gap":
            instance = single or message.get("instance")
            if instance is None:
                self.violation(f"a gap without an instance on the merged stream: {message}")
                return
            expected = self.next_seq.get(instance)
            if expected is not None and message["from"] != expected:
                self.violation(f"{instance}: gap from {message['from']} while {expected} was due")
            self.gaps += 1
            self.skipped += message["to"] - message["from"] + 1
            self.next_seq[instance] = message["to"] + 1
            if single:
                self.awaiting_snapshot = True
        elif kind == "snapshot" and single:
            self.next_seq[single] = message["seq"] + 1
            self.awaiting_snapshot = False

    async def run(self, url: str, single: str | None, stop: asyncio.Event, connected: asyncio.Event) -> None:
        self.ended_by_server, _, _ = await follow(url, lambda text: self.handle(text, single), stop, connected)


async def run_fleet_clients(base_url: str, picks: list[str], seconds: float) -> list[FleetClient]:
    """One `*` client and one client of a picked instance per browser (`picks`: the instance each one picks), all
    connected at once, reading for `seconds`."""
    clients: list[tuple[FleetClient, str, str | None]] = []
    for index, pick in enumerate(picks):
        clients.append((FleetClient(f"browser {index + 1}, all instances"), base_url + "&instance=%2A", None))
        clients.append((FleetClient(f"browser {index + 1}, {pick}"), base_url + f"&instance={pick}", pick))
    stop = asyncio.Event()
    events = [asyncio.Event() for _ in clients]
    tasks = [
        asyncio.ensure_future(client.run(url, single, stop, event))
        for (client, url, single), event in zip(clients, events)
    ]
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in events)), 60)
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        if task.exception():
            raise task.exception()
    return [client for client, _, _ in clients]

#!/usr/bin/env python3
"""Time travel in headless Chromium against a real `keyscope serve --demo` (docs/recording.md "Time travel in the
dashboard"): a generated recording of 1,000,000 events is uploaded to the Replay tab, and the run reports

- how long the dashboard takes to read it (from the upload to the replay bar, and the worker's own reading time),
  what its index and snapshots take, and the page's JS heap;
- how long a jump to a random seq takes, from the scrubber's input to the first frame drawn at that seq (p50, p99
  and max over `--jumps` jumps), beside the worker's own time for each (the frames it replays).

The recording is realistic: a few stores (a cart with items, a session, settings, a file store, a checkout scenario
registered and removed again and again), set/insert/remove/merge patches, transactions of several patches, and a
subscription list now and then. It is generated once per size into a cache folder.

    make bench-recording   (also run by make bench)
    KEYSCOPE_BIN=.build/release/keyscope .venv-e2e/bin/python Benchmarks/browser/replay_bench.py --help

Only a server or browser that cannot start, or a recording the dashboard refuses, fails the run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "Tests" / "e2e"), str(REPO / "Tests" / "e2e" / "browser")]
sys.dont_write_bytecode = True

import page_probes as probes  # noqa: E402
from dashboard import by_testid, wait_connected  # noqa: E402
from headless import WINDOW_SIZE, dashboard_url, start_chromium  # noqa: E402
from support import KeyscopeServer  # noqa: E402

MEASURING_FLAGS = ("--enable-precise-memory-info", "--js-flags=--expose-gc")
LOAD_TIMEOUT = 600.0
CHECKOUT = "scenario:checkout/memory"
JUMP_TIMEOUT_MS = 20_000

# The replay's state as the page shows it (window.keyscopeStats().replay), or null.
READ_REPLAY = "return window.keyscopeStats ? window.keyscopeStats().replay : null;"
# Moves the scrubber to arguments[0] and calls back once a frame was drawn with the replay at that seq:
# [ms from the input to that frame, the worker's own ms for the jump] (null on timeout).
JUMP = f"""
const [target, done] = [arguments[0], arguments[arguments.length - 1]];
const scrubber = document.querySelector('[data-testid="replay-scrubber"]');
const started = performance.now();
scrubber.value = String(target);
scrubber.dispatchEvent(new Event('input', {{bubbles: true}}));
function check() {{
  const replay = window.keyscopeStats().replay;
  if (replay && replay.seq === target && replay.drawnSeq === target) {{
    return done([performance.now() - started, replay.seekMs]);
  }}
  if (performance.now() - started > {JUMP_TIMEOUT_MS}) return done(null);
  requestAnimationFrame(check);
}}
requestAnimationFrame(check);
"""


class Table:
    """Rows of (what, value), printed as they come (stderr) and together at the end (stdout)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str]] = []

    def add(self, what: str, value: str) -> None:
        self.rows.append((what, value))
        print(f"  {what}: {value}", file=sys.stderr, flush=True)

    def print(self, title: str) -> None:
        width = max(len(what) for what, _ in self.rows)
        print(title)
        for what, value in self.rows:
            print(f"  {what.ljust(width)}  {value}")


# MARK: - The recording


def log_time(micros: int) -> str:
    seconds, fraction = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1795255200 + seconds)) + f".{fraction:06d}Z"


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def generate(path: Path, events: int, seed: int = 1) -> None:
    """Writes a recording of `events` events (LOG-FORMAT.md) to `path`, every patch true to the state."""
    rnd = random.Random(seed)
    catalog = {f"SKU-{i:04d}": {"title": f"Product {i}", "price": round(1 + (i * 7.31) % 200, 2), "stock": i % 17}
               for i in range(400)}
    skus = list(catalog)
    memory = {"cart": {"currency": "EUR", "items": [], "total": 0.0, "note": None},
              "session": {"pageViews": 0, "route": "/", "flags": {"beta": False}}, "catalog": catalog}
    prefs = {"theme": "dark", "fontSize": 14, "recent": []}
    state_file = {"counters": {"orders": 0, "refunds": 0}, "lastOrder": None}
    subscriptions = [
        {"id": id_, "store": store, "path": path, "label": label, "since": log_time(0), "deliveries": 0}
        for id_, store, path, label in [(1, "app/memory", "cart.total", "CartBadge"),
                                        (2, "app/memory", "session.route", "Router"),
                                        (3, "app/userPrefs", "theme", "Theme")]
    ]
    header = {"format": "keyscope-log", "version": 1, "createdAt": log_time(0),
              "source": {"name": "checkout-service", "host": "bench", "pid": 4242},
              "stores": [{"id": "app/memory", "version": "2.0.0", "root": memory},
                         {"id": "app/userPrefs", "version": "1.0.0", "root": prefs},
                         {"id": "app/file:/var/lib/svc/state.json", "version": "1.0.0", "root": state_file}],
              "liveSeq": 0, "recorder": {"name": "keyscope", "version": "bench"}, "subscriptions": subscriptions}
    checkout: dict | None = None
    micros = 0
    tmp = path.with_suffix(".part")
    with tmp.open("w", buffering=1 << 20) as out:
        out.write(dumps(header) + "\n")
        for seq in range(1, events + 1):
            micros += rnd.randrange(200, 3000)
            time_text = log_time(micros)
            cart = memory["cart"]
            roll = rnd.random()
            txn = "null"
            if checkout is None and roll < 0.002:
                checkout = {"step": "cart", "attempts": 0}
                out.write(f'{{"event":"registered","root":{dumps(checkout)},"seq":{seq},"store":"{CHECKOUT}",'
                          f'"time":"{time_text}","version":"1.0.0"}}\n')
                continue
            if checkout is not None and roll < 0.002:
                checkout = None
                out.write(f'{{"event":"removed","seq":{seq},"store":"{CHECKOUT}","time":"{time_text}"}}\n')
                continue
            if roll < 0.30:
                store = "app/memory"
                if len(cart["items"]) < 40 and (rnd.random() < 0.55 or not cart["items"]):
                    sku = rnd.choice(skus)
                    item = {"sku": sku, "title": catalog[sku]["title"], "price": catalog[sku]["price"], "quantity": 1}
                    index = rnd.randrange(len(cart["items"]) + 1)
                    cart["items"].insert(index, item)
                    first = f'{{"new":{dumps(item)},"op":"insert","path":"cart.items[{index}]"}}'
                    delta = item["price"]
                else:
                    index = rnd.randrange(len(cart["items"]))
                    item = cart["items"].pop(index)
                    first = f'{{"old":{dumps(item)},"op":"remove","path":"cart.items[{index}]"}}'
                    delta = -item["price"] * item["quantity"]
                old = cart["total"]
                cart["total"] = round(old + delta, 2) + 0.0
                patches = f'{first},{{"new":{dumps(cart["total"])},"old":{dumps(old)},"op":"set","path":"cart.total"}}'
                txn = f'"{rnd.getrandbits(128):032x}"'
                txn = f'"{txn[1:9]}-{txn[9:13]}-{txn[13:17]}-{txn[17:21]}-{txn[21:33]}"'
            elif roll < 0.45 and cart["items"]:
                store = "app/memory"
                index = rnd.randrange(len(cart["items"]))
                old = cart["items"][index]["quantity"]
                cart["items"][index]["quantity"] = old + 1
                patches = f'{{"new":{old + 1},"old":{old},"op":"set","path":"cart.items[{index}].quantity"}}'
            elif roll < 0.70:
                store = "app/memory"
                session = memory["session"]
                route = rnd.choice(["/", "/cart", "/product", "/checkout", "/account"])
                new = {"pageViews": session["pageViews"] + 1, "route": route}
                old = {"pageViews": session["pageViews"], "route": session["route"]}
                session.update(new)
                patches = f'{{"new":{dumps(new)},"old":{dumps(old)},"op":"merge","path":"session"}}'
            elif roll < 0.80:
                store = "app/memory"
                sku = rnd.choice(skus)
                old = catalog[sku]["stock"]
                catalog[sku]["stock"] = (old + rnd.randrange(1, 5)) % 40
                patches = f'{{"new":{catalog[sku]["stock"]},"old":{old},"op":"set","path":"catalog.{sku}.stock"}}'
            elif roll < 0.88:
                store = "app/userPrefs"
                if rnd.random() < 0.5:
                    old = prefs["theme"]
                    prefs["theme"] = "light" if old == "dark" else "dark"
                    patches = f'{{"new":"{prefs["theme"]}","old":"{old}","op":"set","path":"theme"}}'
                elif len(prefs["recent"]) < 10:
                    word = rnd.choice(["headphones", "cable", "lamp", "desk", "chair"])
                    prefs["recent"].insert(0, word)
                    patches = f'{{"new":"{word}","op":"insert","path":"recent[0]"}}'
                else:
                    old = prefs["recent"].pop()
                    patches = f'{{"old":"{old}","op":"remove","path":"recent[{len(prefs["recent"])}]"}}'
            elif roll < 0.94 or checkout is None:
                store = "app/file:/var/lib/svc/state.json"
                counters = state_file["counters"]
                key = rnd.choice(["orders", "refunds"])
                old = counters[key]
                counters[key] = old + 1
                old_last = state_file["lastOrder"]
                state_file["lastOrder"] = f"ORD-{seq}"
                patches = (f'{{"new":{old + 1},"old":{old},"op":"set","path":"counters.{key}"}},'
                           f'{{"new":"ORD-{seq}","old":{dumps(old_last)},"op":"set","path":"lastOrder"}}')
                txn = f'"{seq:08x}-0000-4000-8000-{seq:012x}"'
            else:
                store = CHECKOUT
                old = {"attempts": checkout["attempts"]}
                checkout["attempts"] += 1
                patches = f'{{"new":{{"attempts":{checkout["attempts"]}}},"old":{dumps(old)},"op":"merge","path":""}}'
            extra = ""
            if seq % 5000 == 0:
                for subscription in subscriptions:
                    subscription["deliveries"] += rnd.randrange(100, 900)
                extra = f',"liveSeq":{seq},"subscriptions":{dumps(subscriptions)}'
            out.write(f'{{"patches":[{patches}],"seq":{seq},"store":"{store}","time":"{time_text}",'
                      f'"txn":{txn}{extra}}}\n')
    tmp.replace(path)


def recording_file(events: int, cache: Path) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"bench-{events}.kslog"
    if not path.exists():
        began = time.monotonic()
        print(f"generating {path} ({events:,} events)…", file=sys.stderr, flush=True)
        generate(path, events)
        print(f"  generated in {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
    return path


# MARK: - The run


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the recording (1000000)")
    parser.add_argument("--jumps", type=int, default=30, help="random jumps to time (30)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the jumps' targets (7)")
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "keyscope-replay-bench"),
                        help="where generated recordings are kept")
    parser.add_argument(
        "--public", metavar="DIR", help="serve the dashboard from DIR (default: the checkout's Public/)"
    )
    options = parser.parse_args()
    serve_args = ["--public", str(Path(options.public).resolve())] if options.public else []

    binary = os.environ.get("KEYSCOPE_BIN", str(REPO / ".build" / "release" / "keyscope"))
    os.environ["KEYSCOPE_BIN"] = binary
    path = recording_file(options.events, Path(options.cache))
    size = path.stat().st_size
    print(f"replay bench: {binary}, headless Chromium {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]}, {path}", file=sys.stderr)
    table = Table()
    table.add("recording", f"{options.events:,} events, {size / 2**20:.0f} MiB")
    server = KeyscopeServer(["--rate", "5", *serve_args])
    driver = None
    try:
        driver = start_chromium(MEASURING_FLAGS)
        driver.get(dashboard_url(server))
        wait_connected(driver, timeout=60)
        if driver.execute_script(READ_REPLAY) is None:
            table.add("load", "n/a: dashboard lacks window.keyscopeStats().replay")
            table.print("Time travel in headless Chromium")
            return 1
        by_testid(driver, "tab-replay").click()
        began = time.monotonic()
        by_testid(driver, "replay-file").send_keys(str(path))
        replay = None
        while time.monotonic() - began < LOAD_TIMEOUT:
            replay = driver.execute_script(READ_REPLAY)
            if replay and (replay["status"] == "error" or (replay["active"] and replay["drawnSeq"] == replay["seq"])):
                break
            time.sleep(0.05)
        loaded = time.monotonic() - began
        if not replay or replay["status"] != "ready":
            table.add("load", f"failed: {replay['message'] if replay else 'no answer'} after {loaded:.1f} s")
            table.print("Time travel in headless Chromium")
            return 1
        table.add("load (upload → replay bar)", f"{loaded:.2f} s ({size / 2**20 / loaded:.0f} MiB/s)")
        table.add("  worker's reading", f"{replay['loadMs'] / 1000:.2f} s")
        table.add("  index and snapshots",
                  f"{replay['indexBytes'] / 2**20:.1f} MiB, a snapshot every {replay['checkpointEvery']:,} events")
        heap = driver.execute_script(probes.READ_HEAP)
        if heap:
            table.add("  JS heap (page thread)", probes.mib(heap[0]))

        rnd = random.Random(options.seed)
        targets = [rnd.randrange(0, options.events + 1) for _ in range(options.jumps)]
        drawn: list[float] = []
        worker: list[float] = []
        for target in targets:
            result = driver.execute_async_script(JUMP, target)
            if result is None:
                table.add(f"jump to #{target}", f"timed out after {JUMP_TIMEOUT_MS} ms")
                continue
            drawn.append(result[0])
            worker.append(result[1])
        if drawn:
            def summary(values):
                return (f"p50 {percentile(values, 0.5):.0f} ms, p99 {percentile(values, 0.99):.0f} ms, "
                        f"max {max(values):.0f} ms, mean {statistics.fmean(values):.0f} ms")
            table.add(f"jump, input → frame drawn ({len(drawn)} random)", summary(drawn))
            table.add("  the worker's part of it", summary(worker))
            table.add("  under a second", f"{sum(1 for v in drawn if v < 1000)} of {len(drawn)}")
    finally:
        if driver:
            driver.quit()
        server.stop()
    print()
    table.print(f"Time travel in headless Chromium (keyscope {Path(binary).parent.name} build)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

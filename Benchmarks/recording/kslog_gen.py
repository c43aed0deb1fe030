"""The recording the replay benchmarks read: a seeded, realistic `.kslog` (docs/recording.md) of N events, made once
per size into a cache folder and shared by `Benchmarks/recording/recording_bench.py` (the CLI) and
`Benchmarks/browser/replay_bench.py` (the dashboard's time travel), so both measure the same file.

A few stores (a cart with items, a session, a catalog of 400 products, preferences, a file store, a checkout
scenario registered and removed again and again), set/insert/remove/merge patches, transactions of several
patches, and a subscription list (with `liveSeq`) every 5,000 events. Every patch is true to the state.

    python3 kslog_gen.py OUT.kslog --events 1000000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

CHECKOUT = "scenario:checkout/memory"
DEFAULT_CACHE = Path(tempfile.gettempdir()) / "keyscope-bench"


def log_time(micros: int) -> str:
    seconds, fraction = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(1795255200 + seconds)) + f".{fraction:06d}Z"


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def generate(path: Path, events: int, seed: int = 1) -> None:
    """Writes a recording of `events` events (docs/recording.md) to `path`, every patch true to the state."""
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


def recording_file(events: int, cache: Path = DEFAULT_CACHE) -> Path:
    """The cached recording of `events` events, generated on first use."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"generated-{events}.kslog"
    if not path.exists():
        began = time.monotonic()
        print(f"generating {path} ({events:,} events)…", file=sys.stderr, flush=True)
        generate(path, events)
        print(f"  generated in {time.monotonic() - began:.1f} s", file=sys.stderr, flush=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    generate(Path(arguments.out), arguments.events, arguments.seed)


if __name__ == "__main__":
    main()

"""Writes a large, valid `.kslog` recording (LOG-FORMAT.md) for the replay benchmarks: a cart, a user profile and a
counters store that change by `set`, `insert`, `remove` and `merge`, some changes grouped in transactions, and a
checkout scenario store registered and removed again and again. Seeded, so the same arguments give the same file
(but for nothing: times rise by 1 ms per event from a fixed start).

    python3 kslog_gen.py OUT.kslog --events 1000000
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from datetime import datetime, timedelta, timezone

START = datetime(2026, 11, 21, 10, 0, 0, tzinfo=timezone.utc)


def stamp(index: int) -> str:
    return (START + timedelta(milliseconds=index)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


class Generator:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.cart = {"items": [], "total": 0, "currency": "EUR"}
        self.profile = {"name": "Ada", "plan": "free", "visits": 0, "flags": {"beta": False}}
        self.counters = {f"c{i}": 0 for i in range(32)}
        self.checkout: dict | None = None
        self.seq = 0

    def header(self) -> str:
        stores = [
            {"id": "app/memory", "version": "1.4.0", "root": {"cart": self.cart, "profile": self.profile}},
            {"id": "app/file:state.json", "version": "1.4.0", "root": {"counters": self.counters}},
        ]
        return dumps({"format": "keyscope-log", "version": 1, "createdAt": stamp(0),
                      "source": {"name": "kslog_gen", "host": "bench", "pid": 1}, "stores": stores})

    def line(self, payload: dict) -> str:
        self.seq += 1
        payload["seq"] = self.seq
        payload["time"] = stamp(self.seq)
        return dumps(payload)

    def change(self, store: str, patches: list[dict], txn: bool = False) -> str:
        return self.line({"store": store, "patches": patches, "txn": str(uuid.UUID(int=self.random.getrandbits(128)))
                          if txn else None})

    def add_item(self) -> dict:
        items = self.cart["items"]
        item = {"sku": f"SKU-{self.random.randrange(10_000):04d}", "qty": self.random.randrange(1, 5),
                "price": round(self.random.uniform(1, 200), 2), "title": self.random.choice(
                    ["Mug", "Lamp", "Desk", "Chair", "Pen", "Notebook", "Cable", "Plant"])}
        index = self.random.randrange(len(items) + 1)
        items.insert(index, item)
        return {"op": "insert", "path": f"cart.items[{index}]", "new": item}

    def remove_item(self) -> dict:
        items = self.cart["items"]
        index = self.random.randrange(len(items))
        old = items.pop(index)
        return {"op": "remove", "path": f"cart.items[{index}]", "old": old}

    def set_total(self) -> dict:
        old = self.cart["total"]
        new = round(sum(i["price"] * i["qty"] for i in self.cart["items"]), 2)
        if new == old:
            new = old + 1
        self.cart["total"] = new
        return {"op": "set", "path": "cart.total", "old": old, "new": new}

    def next_event(self) -> str:
        roll = self.random.random()
        if self.checkout is None and roll < 0.002:
            self.checkout = {}
            return self.line({"event": "registered", "store": "scenario:checkout/memory", "version": "1.0.0",
                              "root": {}})
        if self.checkout is not None and roll < 0.004:
            self.checkout = None
            return self.line({"event": "removed", "store": "scenario:checkout/memory"})
        if self.checkout is not None and roll < 0.03:
            steps = ["address", "shipping", "payment", "review", "confirmed"]
            old = self.checkout.get("step")
            new = self.random.choice([s for s in steps if s != old])
            self.checkout["step"] = new
            return self.change("scenario:checkout/memory", [{"op": "set", "path": "step", "old": old, "new": new}]
                               if old is not None else [{"op": "set", "path": "step", "new": new}])
        if roll < 0.45:
            key = f"c{self.random.randrange(32)}"
            old = self.counters[key]
            self.counters[key] = old + 1
            return self.change("app/file:state.json",
                               [{"op": "set", "path": f"counters.{key}", "old": old, "new": old + 1}])
        if roll < 0.75:
            patches = [self.add_item() if len(self.cart["items"]) < 40 or self.random.random() < 0.3
                       else self.remove_item()]
            if self.cart["items"] and self.random.random() < 0.5:
                patches.append(self.remove_item())
            patches.append(self.set_total())
            return self.change("app/memory", patches, txn=True)
        if roll < 0.9:
            old = {"visits": self.profile["visits"]}
            new = {"visits": self.profile["visits"] + 1}
            self.profile["visits"] += 1
            return self.change("app/memory", [{"op": "merge", "path": "profile", "old": old, "new": new}])
        old = self.profile["plan"]
        new = "pro" if old == "free" else "free"
        self.profile["plan"] = new
        return self.change("app/memory", [{"op": "set", "path": "profile.plan", "old": old, "new": new}])


def write(path: str, events: int, seed: int = 7) -> None:
    generator = Generator(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write(generator.header() + "\n")
        batch = []
        for _ in range(events):
            batch.append(generator.next_event())
            if len(batch) == 10_000:
                out.write("\n".join(batch) + "\n")
                batch.clear()
        if batch:
            out.write("\n".join(batch) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    write(arguments.out, arguments.events, arguments.seed)


if __name__ == "__main__":
    main()

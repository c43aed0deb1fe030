#!/usr/bin/env python3
"""Times writes at the depth limit (docs/hardening.md "Limits") on every storage, with the release binaries:

    swift build -c release --product keyscope && swift build -c release --product KeyscopeTestChild
    python3 scripts/deep-writes.py [BIN_DIR]          # BIN_DIR: default .build/release

- in-process, `KeyscopeTestChild write-file|write-prefs … --timing`: a store in a JSON file and a store in a
  UserDefaults suite, the write (StoreValue.apply) and its save (flush) apart; the longest path (512 segments) and a
  value 511 levels deep under one key (both make the store 512 levels deep), and a 1-segment write to compare;
- over HTTP, `keyscope serve --demo`: `POST /api/request` round trips into the memory store, the file store and
  the demo's UserDefaults suite through its preference mirror (which takes 32 levels), the median of 5.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.argv[1] if len(sys.argv) > 1 else ".build/release")
LONG_PATH = ".".join(f"k{i}" for i in range(512))


def nested(depth: int):
    value: object = 7
    for level in range(depth):
        value = {"n": value} if level % 2 else [value]
    return value


def child(home: Path) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"))
    cases = [("1 segment", "a", '"x"'), ("512 segments", LONG_PATH, '"x"'),
             ("value 511 deep", "deep", json.dumps(nested(511)))]
    for storage, location in (("file", str(home / "state.json")), ("prefs", "keyscope-deep-writes")):
        for name, path, value in cases:
            out = subprocess.run([str(BIN / "KeyscopeTestChild"), f"write-{storage}", location, path, value,
                                  "--timing"], env=env, capture_output=True, text=True, check=True).stdout
            print(f"{'UserDefaults' if storage == 'prefs' else 'file'} store, {name}: {out.splitlines()[-1]}")
    subprocess.run(["rm", "-f", str(home / "config" / "keyscope-deep-writes.plist")])


def server(home: Path) -> None:
    env = dict(os.environ, KEYSCOPE_HOME=str(home), TMPDIR=str(home), XDG_CONFIG_HOME=str(home / "config"))
    env.pop("KEYSCOPE_TOKEN", None)
    process = subprocess.Popen([str(BIN / "keyscope"), "serve", "--demo", "--port", "0", "--rate", "5"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = None
        while match is None:
            match = re.match(r"Keyscope dashboard: http://127\.0\.0\.1:(\d+)/\?token=(\S+)", process.stdout.readline())
        port, token = int(match[1]), match[2]
        time.sleep(1)  # the demo registers its stores after the line

        def post(body) -> float:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            started = time.perf_counter()
            connection.request("POST", "/api/request", json.dumps(body),
                               {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
            reply = json.loads(connection.getresponse().read())
            elapsed = time.perf_counter() - started
            connection.close()
            assert reply["ok"], reply
            return elapsed

        connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.request("GET", "/api/snapshot", headers={"Authorization": f"Bearer {token}"})
        stores = [s["id"] for s in json.loads(connection.getresponse().read())["stores"]]
        file_store = next(s for s in stores if s.startswith("app/file:") and s.endswith("/state.json"))
        targets = [("memory", "app/memory", 512), ("file", file_store, 512),
                   ("UserDefaults suite (preference mirror)", "app/userPrefs:com.keyscope.demo", 32)]
        for name, store, limit in targets:
            for label, path, value in (("1 segment", "a", "x"), (f"{limit} segments", ".".join(
                    f"k{i}" for i in range(limit)), "x"), (f"value {limit - 1} deep", "deep", nested(limit - 1))):
                times = [post({"type": "write", "store": store, "op": "set", "path": path, "value": value})
                         for _ in range(5)]
                print(f"HTTP {name}, {label}: {statistics.median(times) * 1000:.2f} ms (median of 5)")
    finally:
        process.terminate()
        process.wait()


with tempfile.TemporaryDirectory() as directory:
    child(Path(directory))
    server(Path(directory))

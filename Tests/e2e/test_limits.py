"""Depth and size limits on what a write can build (docs/hardening.md "Limits"), against the real demo: deep paths
and deep values on every write route are refused with `bad_path` or `too_large` and change nothing; a value at the
limit goes through every path (WebSocket, HTTP, the log, a recording read back by `keyscope state`, the file store,
the UserDefaults store); a file that already holds a deeper value is refused at load; wide values and huge keys
leave the service answering."""

from __future__ import annotations

import json
import os
import plistlib
import subprocess
from http import client as httpclient
from pathlib import Path
from urllib.parse import quote

import pytest

from support import (
    KeyscopeServer,
    StreamClient,
    http,
    keyscope_binary,
    request_http,
    store_root,
    unique_key,
    wait_for,
)

SERVER_ARGS = ["--rate", "20"]
STORE = "app/memory"
PREFS_SUITE = "com.keyscope.demo"
PREFS_STORE = f"app/userPrefs:{PREFS_SUITE}"
LIMIT = 512  # StoreLimits.maxDepth and .maxPathSegments
SUITE_DEPTH = 32  # PlistConversion.maxSuiteDepth


def nested(depth: int):
    """A value of exactly `depth` JSON levels (objects and arrays in turn, an integer at the bottom)."""
    value: object = 7
    for level in range(depth):
        value = {"n": value} if level % 2 else [value]
    return value


def long_path(segments: int) -> str:
    return ".".join(f"k{i}" for i in range(segments))


def healthy(server: KeyscopeServer) -> None:
    assert server.alive(), server.describe()
    assert http(server, "GET", "/api/health").status == 200


def snapshot(server: KeyscopeServer, timeout: float = 10) -> dict:
    response = http(server, "GET", "/api/snapshot", timeout=timeout)
    assert response.status == 200, response.describe()
    return response.json()


def cli(server: KeyscopeServer, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    env.pop("KEYSCOPE_TOKEN", None)
    return subprocess.run([str(keyscope_binary()), *args], env=env, capture_output=True, text=True, timeout=60)


# MARK: - Refused on every route, nothing changed


@pytest.mark.parametrize(
    "path, value, code",
    [
        (long_path(LIMIT + 1), 1, "bad_path"),
        ("a." * 100_000 + "a", 1, "bad_path"),
        ("deep", nested(LIMIT), "too_large"),
        (long_path(10), nested(LIMIT - 9), "too_large"),
        (long_path(LIMIT), {"$color": "#FF8800"}, "too_large"),
    ],
    ids=["513-segments", "100k-segments", "value-513-levels", "path-and-value-513", "tagged-at-the-bottom"],
)
def test_deep_writes_are_refused_on_every_route_and_change_nothing(server, path, value, code):
    key = path.split(".")[0]
    client = StreamClient.open(server)
    try:
        before = store_root(snapshot(server), STORE).get(key)
        write = {"type": "write", "store": STORE, "op": "set", "path": path, "value": value}
        reply = client.request(write)
        assert reply["ok"] is False and reply["error"]["code"] == code, reply
        assert len(reply["error"]["message"]) < 1000
        transaction = {"type": "transaction", "store": STORE, "ops": [{"op": "set", "path": "fine", "value": 1},
                                                                      {"op": "set", "path": path, "value": value}]}
        reply = client.request(transaction)
        assert reply["ok"] is False and reply["error"]["code"] == code, reply
        if isinstance(value, dict) and "$color" not in value:
            merge = {"type": "write", "store": STORE, "op": "merge", "path": path, "value": value}
            reply = client.request(merge)
            assert reply["ok"] is False and reply["error"]["code"] in (code, "too_large"), reply
        response = request_http(server, write)
        assert response.status == 400 or response.status == 413, response.describe()
        assert response.json()["error"]["code"] == code, response.describe()
        # Into the file and UserDefaults stores too.
        for store in (file_store(server), PREFS_STORE):
            response = request_http(server, dict(write, store=store))
            assert response.json()["error"]["code"] == code, response.describe()
        root = store_root(snapshot(server), STORE)
        assert root.get(key) == before
        assert "fine" not in root
        client.request({"type": "resync"})
    finally:
        client.close()
    healthy(server)


def test_the_cli_write_gets_the_same_refusal(server):
    refused = cli(server, "write", STORE, long_path(LIMIT + 1), "1")
    assert refused.returncode != 0
    assert "bad_path" in refused.stderr + refused.stdout
    refused = cli(server, "write", STORE, "deep", json.dumps(nested(LIMIT)))
    assert refused.returncode != 0
    assert "too_large" in refused.stderr + refused.stdout
    healthy(server)


def test_a_deep_preference_or_tunable_is_refused_and_changes_nothing(server):
    key = unique_key("deep-pref")
    path = "/api/preferences/" + "/".join(quote(p, safe="") for p in ("userDefaults", PREFS_SUITE, key))
    for depth in (SUITE_DEPTH + 1, LIMIT):
        response = http(server, "PUT", path, body={"value": nested(depth)})
        assert response.status == 413, response.describe()
        assert response.json()["error"]["code"] == "too_large", response.describe()
        assert "32 levels" in response.json()["error"]["message"]
    assert key not in http(server, "GET", "/api/preferences").body.decode()
    response = http(server, "POST", "/tune", body={"toolbar_height": nested(LIMIT)})
    assert 400 <= response.status < 500, response.describe()
    healthy(server)


# MARK: - At the limit: every path


def file_store(server: KeyscopeServer) -> str:
    """The demo's settings store (`app/file:…/state.json`; the tunables have a file store of their own)."""
    return next(s["id"] for s in snapshot(server)["stores"]
                if s["id"].startswith("app/file:") and s["id"].endswith("/state.json"))


def test_a_value_at_the_limit_round_trips_through_every_path(server, tmp_path):
    value = nested(LIMIT - 1)  # under a top-level key: the root makes it 512 levels
    deep_path = long_path(LIMIT)  # the longest path, a scalar at its end: 512 levels too
    started = http(server, "POST", "/api/recordings", {"name": "deep.kslog", "durationSeconds": 60})
    assert started.status == 201, started.describe()
    client = StreamClient.open(server)
    try:
        key = unique_key("deep")
        reply = client.request({"type": "write", "store": STORE, "op": "set", "path": key, "value": value})
        assert reply["ok"] is True, reply
        seq = reply["result"]["seq"]
        client.wait_seq(seq)
        entry = client.entry(seq)
        assert entry["patches"][0]["new"] == value  # the log line, over the WebSocket
        reply = client.request({"type": "write", "store": STORE, "op": "set", "path": deep_path, "value": "end"})
        assert reply["ok"] is True, reply
        root = store_root(snapshot(server), STORE)  # over HTTP
        assert root[key] == value
        node = root
        for segment in deep_path.split("."):
            node = node[segment]
        assert node == "end"
        resync = client.request({"type": "resync"})
        assert resync["ok"] is True, resync
        shown = cli(server, "snapshot", "--store", STORE, "--path", key, "--compact")  # the Swift client
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout) == value

        # The file store: saved as its file.
        fstore = file_store(server)
        response = request_http(server, {"type": "write", "store": fstore, "op": "set", "path": key, "value": value})
        assert response.status == 200 and response.json()["ok"] is True, response.describe()
        state_file = Path(fstore.split(":", 1)[1])
        wait_for(lambda: json.loads(state_file.read_text())["root"].get(key) == value, "the file store's save")

        # The demo's UserDefaults suite, through its preference mirror (written through as a nested property list):
        # a suite takes 32 levels (PlistConversion.maxSuiteDepth), one more is too_large. (A store whose storage
        # is UserDefaults keeps JSON text per key and takes the 512 levels: core LimitTests.)
        shallow = nested(SUITE_DEPTH)
        response = request_http(server, {"type": "write", "store": PREFS_STORE, "op": "set", "path": key,
                                         "value": shallow})
        assert response.status == 200 and response.json()["ok"] is True, response.describe()
        plist = server.config_home / f"{PREFS_SUITE}.plist"
        wait_for(lambda: plist.exists() and plistlib.loads(plist.read_bytes()).get(key) == shallow,
                 "the suite's save")
        assert store_root(snapshot(server), PREFS_STORE)[key] == shallow
        refused = request_http(server, {"type": "write", "store": PREFS_STORE, "op": "set", "path": key + "x",
                                        "value": nested(SUITE_DEPTH + 1)})
        assert refused.json()["error"]["code"] == "too_large", refused.describe()
        assert "32 levels" in refused.json()["error"]["message"]

        # The recording, read back by `keyscope state`.
        stopped = http(server, "POST", "/api/recordings/recordings/deep.kslog/stop")
        assert stopped.status == 200, stopped.describe()
        recording = tmp_path / "deep.kslog"
        recording.write_bytes(http(server, "GET", "/api/recordings/recordings/deep.kslog").body)
        state = cli(server, "state", str(recording))
        assert state.returncode == 0, state.stderr
        stores = json.loads(state.stdout)
        assert stores[STORE][key] == value
        assert stores[fstore][key] == value
        assert stores[PREFS_STORE][key] == shallow
        assert cli(server, "verify", str(recording)).returncode == 0
        client.request({"type": "write", "store": STORE, "op": "remove", "path": "k0"})
    finally:
        client.close()
    healthy(server)


def test_a_saved_file_deeper_than_the_limit_is_refused_at_load(tmp_path):
    """`keyscope demo --state-dir` opens its settings store from a file of our making: one nested deeper than a
    store may hold is refused with a clear error, the demo runs on (that store in memory), the file is untouched."""
    state_file = tmp_path / "state.json"
    deep = '{"root": {"d": ' + "[" * (LIMIT + 5) + "]" * (LIMIT + 5) + '}, "version": "1.0.0"}'
    state_file.write_text(deep)
    env = dict(os.environ, TMPDIR=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    run = subprocess.run([str(keyscope_binary()), "demo", "--state-dir", str(tmp_path), "--duration", "1"],
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "could not load store data" in run.stderr, run.stderr
    assert "deeper than 513 levels" in run.stderr or "nests deeper than 512" in run.stderr, run.stderr
    assert state_file.read_text() == deep  # left for a person to look at


# MARK: - Wide and long


def test_a_million_keys_in_one_merge_leave_the_service_answering(launch):
    server = launch("--rate", "5", "--max-body", "32MB")
    key = unique_key("wide")
    members = {f"m{i}": i for i in range(1_000_000)}
    response = http(server, "POST", "/api/request", body={"type": "write", "store": STORE, "op": "merge",
                                                         "path": key, "value": members}, timeout=120)
    assert response.status == 200 and response.json()["ok"] is True, response.describe()
    healthy(server)
    # (A snapshot of 14 MB with its keys sorted takes the debug build minutes on a busy machine: the removal's seq
    # shows the member was there.)
    removed = http(server, "POST", "/api/request", body={"type": "write", "store": STORE, "op": "remove",
                                                        "path": key}, timeout=120)
    assert removed.json()["ok"] is True and removed.json()["result"]["seq"] is not None, removed.describe()
    assert key not in store_root(snapshot(server, timeout=60), STORE)
    healthy(server)


def post_announcing(server: KeyscopeServer, body: bytes) -> int:
    """`POST /api/request` that announces `body`'s length and sends only its headers: the server answers an
    oversized one from its `Content-Length` (sending the body would meet a closed connection)."""
    connection = httpclient.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("POST", "/api/request")
        connection.putheader("Authorization", "Bearer " + server.token)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_million_keys_over_the_default_body_limit_are_413(server):
    members = {f"m{i}": i for i in range(1_000_000)}
    body = json.dumps({"type": "write", "store": STORE, "op": "merge", "path": "wide", "value": members}).encode()
    assert post_announcing(server, body) == 413
    assert "wide" not in store_root(snapshot(server), STORE)
    healthy(server)


def test_a_huge_key_name_is_stored_and_removed(server):
    name = "k" * (1 << 20)
    path = '["' + name + '"]'
    reply = request_http(server, {"type": "write", "store": STORE, "op": "set", "path": path, "value": 1})
    assert reply.status == 200 and reply.json()["ok"] is True, reply.describe()
    assert store_root(snapshot(server), STORE)[name] == 1
    reply = request_http(server, {"type": "write", "store": STORE, "op": "remove", "path": path})
    assert reply.json()["ok"] is True, reply.describe()
    assert name not in store_root(snapshot(server), STORE)
    too_long = json.dumps({"type": "write", "store": STORE, "op": "set", "path": "k" * (5 << 20), "value": 1})
    assert post_announcing(server, too_long.encode()) == 413
    healthy(server)

"""Tunables are an open JSON object (docs/tunables.md "Open and closed"): against a real `keyscope serve --demo`,
new keys are created by `PUT /tune`, `POST /tune`, the WebSocket `tune` request and an edit of the served file,
removed by `DELETE /tune/:key` and by a `POST` or an edit that leaves them out, and every such change is in
`GET /tune`, in the log and in the saved file. Keys no file or URL could hold, and under a closed schema
(`"additionalKeys": false`) keys it does not list, are refused with nothing changed (state, file and log).
`keyscope tune watch` / `pull` carry added and removed keys both ways."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from support import StreamClient, error_code, http, keyscope_binary, wait_for, unique_key
from test_tunables import Watcher, save_by_rename


def tunables(server) -> dict:
    response = http(server, "GET", "/tune")
    assert response.status == 200, response.describe()
    return response.json()


def saved_file(server) -> Path:
    store = http(server, "GET", "/api/tunables").json()["store"]
    return Path(store.removeprefix("app/file:"))


def saved_values(server) -> dict:
    return json.loads(saved_file(server).read_text())


def tunables_store(server) -> str:
    return http(server, "GET", "/api/tunables").json()["store"]


def logged_patch(client: StreamClient, seq: int) -> dict:
    """The one patch of the change `seq`, as the log streamed it."""
    client.wait_seq(seq)
    entry = client.entry(seq)
    assert len(entry["patches"]) == 1, entry
    return entry["patches"][0]


def assert_no_tunables_change_logged(server, stream: StreamClient, since: int) -> None:
    """No change to the tunables' store was logged after seq `since`: a marker change made now (and taken out
    again) is the first one the stream shows for that store. Requests answered before the marker cannot log after
    it, since the hub gives seqs in the order it applies changes."""
    store = tunables_store(server)
    marker = unique_key("marker")
    response = http(server, "PUT", f"/tune/{marker}/1")
    assert response.status == 200, response.describe()
    stream.wait_seq(response.json()["seq"])
    logged = [e for e in stream.entries if since < e["seq"] < response.json()["seq"] and e.get("store") == store]
    assert not logged, f"a refused request logged a change: {logged}"
    assert http(server, "DELETE", f"/tune/{marker}").status == 200


@pytest.fixture
def stream(server):
    client = StreamClient.open(server)
    yield client
    client.close()


@pytest.mark.parametrize(
    ("segment", "expected"),
    [
        ("7", 7),
        ("-2.5", -2.5),
        ("hello", "hello"),
        ("Hello%20there%2Fall%20%E2%9C%93", "Hello there/all ✓"),  # percent-encoded, %2F inside its segment
        ("%23ff8800", "#ff8800"),  # no schema entry and no current value: a string, not a color
    ],
)
def test_put_creates_a_new_key_logged_and_saved(server, stream, segment, expected):
    key = unique_key("new")
    response = http(server, "PUT", f"/tune/{key}/{segment}")
    assert response.status == 200, response.describe()
    body = response.json()
    assert body["key"] == key and body["value"] == expected
    value = tunables(server)[key]
    assert value == expected and type(value) is type(expected)
    patch = logged_patch(stream, body["seq"])
    assert patch["op"] == "set" and patch["new"] == expected and "old" not in patch, patch
    wait_for(lambda: saved_values(server).get(key) == expected, "the file on disk has the new key")


def test_post_adds_and_removes_keys_in_one_change(server, stream):
    dropped = unique_key("dropped")
    assert http(server, "PUT", f"/tune/{dropped}/1").status == 200
    before = tunables(server)
    added = unique_key("posted")
    values = dict(before)
    del values[dropped]  # the demo's schema requires its own keys: a key made here can be left out
    values[added] = {"nested": [1, 2]}
    response = http(server, "POST", "/tune", body=values)
    assert response.status == 200, response.describe()
    assert response.json()["count"] == len(values)
    assert tunables(server) == values
    stream.wait_seq(response.json()["seq"])
    entry = stream.entry(response.json()["seq"])
    assert entry.get("txn"), "one transaction"
    ops = {(p["op"], p["path"]) for p in entry["patches"]}
    assert ("remove", dropped) in ops and ("set", added) in ops, entry
    wait_for(lambda: saved_values(server) == values, "the file on disk is the posted set")
    # Take the new key out again for the other tests.
    assert http(server, "DELETE", f"/tune/{added}").status == 200


def test_a_websocket_tune_creates_and_removes_a_key(server, stream):
    key = unique_key("ws")
    reply = stream.request({"type": "tune", "key": key, "value": [1, "two"]})
    assert reply["ok"] is True, reply
    assert tunables(server)[key] == [1, "two"]
    assert logged_patch(stream, reply["result"]["seq"])["new"] == [1, "two"]
    wait_for(lambda: saved_values(server).get(key) == [1, "two"], "the file on disk has the key")

    reply = stream.request({"type": "tune", "op": "remove", "key": key})
    assert reply["ok"] is True, reply
    assert key not in tunables(server)
    patch = logged_patch(stream, reply["result"]["seq"])
    assert patch["op"] == "remove" and patch["old"] == [1, "two"], patch
    wait_for(lambda: key not in saved_values(server), "the file on disk lost the key")


def test_delete_removes_a_key_and_refuses_what_it_cannot_remove(server, stream):
    key = unique_key("gone")
    assert http(server, "PUT", f"/tune/{key}/1").status == 200
    response = http(server, "DELETE", f"/tune/{key}")
    assert response.status == 200, response.describe()
    assert response.json()["key"] == key
    assert key not in tunables(server)
    assert logged_patch(stream, response.json()["seq"])["op"] == "remove"
    wait_for(lambda: key not in saved_values(server), "the file on disk lost the key")

    before = tunables(server)
    for path, status, code in [
        (f"/tune/{key}", 404, "unknown_key"),  # gone already
        ("/tune/toolbar_height", 400, "bad_request"),  # the demo's schema requires it
        ("/tune/toolbar_height/48", 400, "bad_request"),  # DELETE takes one segment
    ]:
        refused = http(server, "DELETE", path)
        assert refused.status == status, refused.describe()
        assert error_code(refused) == code
        assert refused.json()["error"]["message"]
    assert tunables(server) == before


@pytest.mark.parametrize(
    ("segment", "key"),
    [
        ("", ""),
        ("a%2Fb", "a/b"),
        ("k" * 257, "k" * 257),
        ("%C3%A9" * 128 + "k", "\u00e9" * 128 + "k"),  # 257 bytes in 129 characters
        ("tab%09key", "tab\tkey"),
        ("del%7Fkey", "del\u007fkey"),
        ("c1%C2%85", "c1\u0085"),
    ],
    ids=["empty", "slash", "257-bytes", "257-bytes-utf8", "control", "delete", "c1-control"],
)
def test_keys_no_file_or_url_could_hold_are_bad_requests_that_change_nothing(server, stream, segment, key):
    before = tunables(server)
    wait_for(lambda: saved_values(server) == before, "earlier tests' saves are on disk")
    file_before = saved_file(server).read_bytes()
    since = stream.last_seq
    response = http(server, "PUT", f"/tune/{segment}/1")
    assert response.status == 400, response.describe()
    assert error_code(response) == "bad_request"
    assert response.json()["error"]["message"]
    reply = stream.request({"type": "tune", "key": key, "value": 1})
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply
    posted = http(server, "POST", "/tune", body={**before, key: 1})
    assert posted.status == 400 and error_code(posted) == "bad_request", posted.describe()
    replaced = stream.request({"type": "tune", "op": "replace", "values": {**before, key: 1}})
    assert replaced["ok"] is False and replaced["error"]["code"] == "bad_request", replaced
    assert tunables(server) == before
    assert saved_file(server).read_bytes() == file_before
    assert_no_tunables_change_logged(server, stream, since)


def test_a_key_of_256_bytes_is_created(server, stream):
    key = unique_key("long")
    key += "\u00e9" * ((256 - len(key)) // 2)
    key += "k" * (256 - len(key.encode()))
    assert len(key.encode()) == 256
    response = http(server, "PUT", f"/tune/{quote(key, safe='')}/3")
    assert response.status == 200, response.describe()
    assert response.json()["key"] == key
    assert tunables(server)[key] == 3
    assert logged_patch(stream, response.json()["seq"])["new"] == 3
    wait_for(lambda: saved_values(server).get(key) == 3, "the file on disk has the 256-byte key")
    assert http(server, "DELETE", f"/tune/{quote(key, safe='')}").status == 200


def next_logged(stream: StreamClient, store: str, since: int) -> dict:
    """The first entry of `store` after seq `since`, read from the stream until it comes."""

    def found():
        return next((e for e in stream.entries if e["seq"] > since and e.get("store") == store), None)

    while found() is None:
        stream.read()  # raises when nothing comes within its timeout
    return found()


def test_an_edit_of_the_served_file_adds_and_removes_a_key_live(server, stream):
    path = saved_file(server)
    before = tunables(server)
    wait_for(lambda: saved_values(server) == before, "earlier tests' saves are on disk")
    key = unique_key("edited")
    store = tunables_store(server)

    since = stream.last_seq
    save_by_rename(path, {**before, key: 2.5})
    entry = next_logged(stream, store, since)
    assert entry["patches"] == [{"op": "set", "path": key, "new": 2.5}], entry
    assert tunables(server)[key] == 2.5

    since = stream.last_seq
    save_by_rename(path, before)
    entry = next_logged(stream, store, since)
    assert entry["patches"] == [{"op": "remove", "path": key, "old": 2.5}], entry
    assert tunables(server) == before


CLOSED_DEFAULTS = {"height": 44, "title": "Shop"}
CLOSED_SCHEMA = {"additionalKeys": False, "height": {"type": "integer", "min": 24, "max": 120}}


def test_a_closed_schema_refuses_unknown_keys_and_changes_nothing(launch, tmp_path):
    defaults = tmp_path / "live-constants.json"
    defaults.write_text(json.dumps(CLOSED_DEFAULTS))
    (tmp_path / "live-constants.schema.json").write_text(json.dumps(CLOSED_SCHEMA))
    running = launch("--tunables", str(defaults))
    description = http(running, "GET", "/api/tunables").json()
    assert description["additionalKeys"] is False
    file_before = saved_file(running).read_bytes()
    before = tunables(running)
    assert before == CLOSED_DEFAULTS
    client = StreamClient.open(running)
    try:
        since = client.last_seq
        response = http(running, "PUT", "/tune/typo/1")
        assert response.status == 404, response.describe()
        assert error_code(response) == "unknown_key"
        assert "additionalKeys" in response.json()["error"]["message"]
        posted = http(running, "POST", "/tune", body={**before, "typo": 1})
        assert posted.status == 404 and error_code(posted) == "unknown_key"
        reply = client.request({"type": "tune", "key": "typo", "value": 1})
        assert reply["ok"] is False and reply["error"]["code"] == "unknown_key", reply
        replaced = client.request({"type": "tune", "op": "replace", "values": {**before, "typo": 1}})
        assert replaced["ok"] is False and replaced["error"]["code"] == "unknown_key", replaced
        # A key the schema lists keeps its checks.
        ranged = http(running, "PUT", "/tune/height/500")
        assert ranged.status == 400 and error_code(ranged) == "out_of_range", ranged.describe()
        assert tunables(running) == before
        assert saved_file(running).read_bytes() == file_before
        # The keys it lists (and the defaults' keys) still take writes; the first change logged is this one.
        accepted = http(running, "PUT", "/tune/title/Basket")
        assert accepted.status == 200, accepted.describe()
        client.wait_seq(accepted.json()["seq"])
        store = tunables_store(running)
        logged = [e["seq"] for e in client.entries if e["seq"] > since and e.get("store") == store]
        assert logged == [accepted.json()["seq"]], "the refused requests logged nothing"
    finally:
        client.close()
    assert tunables(running)["title"] == "Basket"
    wait_for(lambda: saved_values(running)["title"] == "Basket", "the accepted write is saved")


def run_cli(server, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    env.pop("KEYSCOPE_TOKEN", None)
    return subprocess.run([str(keyscope_binary()), *args], env=env, capture_output=True, text=True, timeout=30)


def pushed_seq(watcher: Watcher, pushes: int) -> int:
    """The seq of the watcher's `pushes`-th push ("pushed N tunables (seq S)"), once it has printed it."""

    def seqs() -> list[int]:
        return [int(m) for line in list(watcher.stdout) for m in re.findall(r"\(seq (\d+)\)", line)]

    wait_for(lambda: len(seqs()) >= pushes, f"tune watch printed push {pushes}")
    return seqs()[pushes - 1]


def test_tune_watch_adds_and_removes_keys_and_pull_writes_back_what_the_service_has(server, stream, tmp_path):
    target = tmp_path / "constants.json"
    pulled = run_cli(server, "tune", "pull", str(target))
    assert pulled.returncode == 0, pulled.stderr
    values = json.loads(target.read_text())
    original = dict(values)
    key = unique_key("watched")
    watcher = Watcher(server, target)
    try:
        wait_for(lambda: any("pushed" in line for line in watcher.stdout), "the push at start")
        values[key] = 12
        save_by_rename(target, values)
        wait_for(lambda: tunables(server).get(key) == 12, "a key added to the file is created on the service")
        patch = logged_patch(stream, pushed_seq(watcher, 1))
        assert patch["op"] == "set" and patch["path"] == key and patch["new"] == 12 and "old" not in patch, patch
        wait_for(lambda: saved_values(server).get(key) == 12, "and saved to the service's own file")
        del values[key]
        save_by_rename(target, values)
        wait_for(lambda: key not in tunables(server), "a key removed from the file is removed on the service")
        patch = logged_patch(stream, pushed_seq(watcher, 2))
        assert patch["op"] == "remove" and patch["path"] == key and patch["old"] == 12, patch
        wait_for(lambda: key not in saved_values(server), "and from the service's own file")
    finally:
        code = watcher.stop()
    assert code == 0, "".join(watcher.stderr)

    added, number = unique_key("pulled"), unique_key("pulled_number")
    assert http(server, "PUT", f"/tune/{added}/on").status == 200
    assert http(server, "PUT", f"/tune/{number}/2.0").status == 200
    again = run_cli(server, "tune", "pull", str(target))
    assert again.returncode == 0, again.stderr
    text = target.read_text()
    assert json.loads(text) == tunables(server)
    assert json.loads(text)[added] == "on" and f'"{number}": 2.0' in text, "types as the service has them"
    # The same writer as the service's own file: once that is saved, the two are the same bytes.
    wait_for(lambda: saved_values(server) == tunables(server), "the service saved its file")
    assert target.read_bytes() == saved_file(server).read_bytes()
    assert http(server, "POST", "/tune", body=original).status == 200

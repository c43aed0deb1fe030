"""Requests (docs/protocol.md "Client to server"): every request type over the WebSocket and `POST /api/request`, every
error code, the reply's seq matching the change in the stream, and `--read-only`.

The demo's own keys are never touched: each test writes under its own fresh top-level key of `app/memory`.
"""

from __future__ import annotations

import json
import re

import pytest

from support import (
    KeyscopeServer, StreamClient, http, recv_json, request_http, store_root, unique_key, with_known_deviations, ws_connect,
)

SERVER_ARGS = ["--rate", "20"]
STORE = "app/memory"
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def current(server: KeyscopeServer, key: str, store: str = STORE):
    """The value under a top-level key of a store, from `GET /api/snapshot` (None when absent)."""
    return store_root(http(server, "GET", "/api/snapshot").json(), store).get(key)


def ok_seq(reply: dict, request_id=None) -> int | None:
    assert reply["type"] == "reply", reply
    if request_id is not None:
        assert reply["id"] == request_id, reply
    assert reply["ok"] is True, reply
    # A write that made a key out of nothing also names it (docs/protocol.md "reply"); nothing else is added.
    assert set(reply["result"]) in ({"seq"}, {"seq", "created"}), reply
    if "created" in reply["result"]:
        created = reply["result"]["created"]
        assert isinstance(created, list) and created and all(isinstance(path, str) for path in created), reply
    return reply["result"]["seq"]


def http_error_code(body: dict, request_id=None) -> str:
    """An HTTP error body: `{"error": {"code", "message"}}` (docs/protocol.md "HTTP"); when it is a whole reply object,
    its id must be the request's."""
    assert isinstance(body.get("error"), dict), body
    assert isinstance(body["error"].get("message"), str) and body["error"]["message"], body
    if "type" in body:
        assert body["type"] == "reply" and body["ok"] is False and body["id"] == request_id, body
    return body["error"]["code"]


def error_code(reply: dict, request_id=None) -> str:
    assert reply["type"] == "reply", reply
    assert reply["id"] == request_id, reply
    assert reply["ok"] is False, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"], reply
    return reply["error"]["code"]


@pytest.fixture
def client(server):
    opened = StreamClient.open(server)
    yield opened
    opened.close()


def write(key_path: str, value=None, op: str = "set", store: str = STORE) -> dict:
    request = {"type": "write", "store": store, "op": op, "path": key_path}
    if op != "remove":
        request["value"] = value
    return request


def change_for(client: StreamClient, seq: int) -> dict:
    """The entry the stream carries for `seq` (read until it arrives)."""
    client.wait_seq(seq, timeout=10)
    entry = client.entry(seq)
    assert entry["store"] == STORE
    return entry


# MARK: - Writes


def test_set_creates_intermediates_then_overwrites(client, server):
    key = unique_key()
    seq = ok_seq(client.request({"id": 1, **write(f"{key}.counter", 1)}), request_id=1)
    assert isinstance(seq, int)
    entry = change_for(client, seq)
    assert entry["txn"] is None
    assert entry["patches"] == [{"op": "set", "path": key, "new": {"counter": 1}}]

    seq2 = ok_seq(client.request({"id": "two", **write(f"{key}.counter", 2)}), request_id="two")
    assert seq2 > seq
    assert change_for(client, seq2)["patches"] == [{"op": "set", "path": f"{key}.counter", "old": 1, "new": 2}]
    assert current(server, key) == {"counter": 2}


def test_insert_remove_merge(client, server):
    key = unique_key()
    ok_seq(client.request(write(key, {"list": [1, 2], "obj": {"a": 1}})))

    seq = ok_seq(client.request(write(f"{key}.list[1]", 9, op="insert")))
    assert change_for(client, seq)["patches"] == [{"op": "insert", "path": f"{key}.list[1]", "new": 9}]

    seq = ok_seq(client.request(write(f"{key}.list[0]", op="remove")))
    assert change_for(client, seq)["patches"] == [{"op": "remove", "path": f"{key}.list[0]", "old": 1}]

    seq = ok_seq(client.request(write(f"{key}.obj", {"a": 3, "b": 2}, op="merge")))
    assert change_for(client, seq)["patches"] == [
        {"op": "merge", "path": f"{key}.obj", "old": {"a": 1}, "new": {"a": 3, "b": 2}}
    ]
    assert current(server, key) == {"list": [9, 2], "obj": {"a": 3, "b": 2}}


def test_tagged_and_escaped_values_round_trip(client, server):
    key = unique_key()
    value = {
        "color": {"$color": "#FF8800aa"},
        "url": {"$url": "https://example.com/x"},
        "inf": {"$number": "inf"},
        "$$dollar": {"$$x": 1},
        "float": 3.0,
        "int": 3,
    }
    seq = ok_seq(client.request(write(key, value)))
    new = change_for(client, seq)["patches"][0]["new"]
    assert new == value
    stored = current(server, key)
    assert stored == value
    assert isinstance(stored["float"], float) and isinstance(stored["int"], int)


def test_remove_of_a_missing_key_changes_nothing(client, server):
    key = unique_key()
    ok_seq(client.request(write(key, {"a": 1})))
    reply = client.request({"id": 7, **write(f"{key}.missing", op="remove")})
    assert ok_seq(reply, request_id=7) is None
    assert current(server, key) == {"a": 1}


def test_transaction_is_one_change_with_one_txn(client, server):
    key = unique_key()
    ok_seq(client.request(write(key, {})))
    reply = client.request(
        {
            "id": 3,
            "type": "transaction",
            "store": STORE,
            "ops": [
                {"op": "set", "path": f"{key}.a", "value": 1},
                {"op": "set", "path": f"{key}.b", "value": 2},
                {"op": "set", "path": f"{key}.list", "value": []},
                {"op": "insert", "path": f"{key}.list[0]", "value": "x"},
            ],
        }
    )
    seq = ok_seq(reply, request_id=3)
    entry = change_for(client, seq)
    assert isinstance(entry["txn"], str) and UUID.match(entry["txn"]), entry
    assert entry["patches"] == [
        {"op": "set", "path": f"{key}.a", "new": 1},
        {"op": "set", "path": f"{key}.b", "new": 2},
        {"op": "set", "path": f"{key}.list", "new": []},
        {"op": "insert", "path": f"{key}.list[0]", "new": "x"},
    ]
    # Exactly one entry carries this transaction.
    assert sum(1 for e in client.entries if e.get("txn") == entry["txn"]) == 1
    assert current(server, key) == {"a": 1, "b": 2, "list": ["x"]}


def test_transaction_is_all_or_nothing(client, server):
    key = unique_key()
    before_seq = ok_seq(client.request(write(key, {"a": 1, "list": [1]})))
    reply = client.request(
        {
            "id": 4,
            "type": "transaction",
            "store": STORE,
            "ops": [
                {"op": "set", "path": f"{key}.a", "value": 2},
                {"op": "set", "path": f"{key}.list[5]", "value": 1},
            ],
        }
    )
    assert error_code(reply, 4) == "out_of_range"
    assert current(server, key) == {"a": 1, "list": [1]}
    # Read past the moment of the request: no entry touches the key.
    mark = http(server, "GET", "/api/snapshot").json()["seq"]
    client.wait_seq(mark, timeout=10)
    touched = [e for e in client.entries if e["seq"] > before_seq and any(
        p["path"].startswith(key) for p in e.get("patches", []))]
    assert touched == []


def test_revert_applies_the_inverse_then_conflicts(client, server):
    key = unique_key()
    ok_seq(client.request(write(f"{key}.v", 1)))
    changed = ok_seq(client.request(write(f"{key}.v", 2)))
    reverted = ok_seq(client.request({"id": 5, "type": "revert", "seq": changed}), request_id=5)
    assert isinstance(reverted, int) and reverted > changed
    entry = change_for(client, reverted)
    assert entry["patches"] == [{"op": "set", "path": f"{key}.v", "old": 2, "new": 1}]
    assert current(server, key) == {"v": 1}

    # The value is no longer what change `changed` left there.
    assert error_code(client.request({"id": 6, "type": "revert", "seq": changed}), 6) == "conflict"
    assert current(server, key) == {"v": 1}


def test_revert_of_a_creation_removes_it(client, server):
    key = unique_key()
    created = ok_seq(client.request(write(f"{key}.deep.er", True)))
    reverted = ok_seq(client.request({"type": "revert", "seq": created}))
    assert change_for(client, reverted)["patches"] == [{"op": "remove", "path": key, "old": {"deep": {"er": True}}}]
    assert current(server, key) is None


def test_revert_of_a_seq_not_in_the_log_is_bad_request(client):
    assert error_code(client.request({"id": 8, "type": "revert", "seq": 999999999}), 8) == "bad_request"


def test_resync_sends_a_snapshot_then_the_reply(client):
    client.wait_entries(2, timeout=10)
    before = len(client.messages)
    reply = client.request({"id": "sync", "type": "resync"})
    assert reply["ok"] is True, reply
    after = client.messages[before:]
    kinds = [m["type"] for m in after]
    assert "snapshot" in kinds, kinds
    snapshot_index = kinds.index("snapshot")
    reply_index = next(i for i, m in enumerate(after) if m["type"] == "reply" and m["id"] == "sync")
    assert snapshot_index < reply_index, kinds
    snapshot = after[snapshot_index]
    assert reply["result"] == {"seq": snapshot["seq"]}
    count = len(client.entries)
    client.wait_entries(count + 2, timeout=10)
    assert client.entries[count]["seq"] == snapshot["seq"] + 1


def test_tune_sets_a_tunable_and_refuses_what_the_schema_refuses(client):
    reply = client.request({"id": 9, "type": "tune", "key": "toolbar_height", "value": 64})
    assert reply["ok"] is True and isinstance(reply["result"]["seq"], int), reply
    assert error_code(client.request({"id": 10, "type": "tune", "key": "a/b", "value": 1}), 10) == "bad_request"
    reply = client.request({"id": 11, "type": "tune", "key": "toolbar_height", "value": 64.0})
    assert error_code(reply, 11) == "type_mismatch"
    reply = client.request({"id": 12, "type": "tune", "key": "toolbar_height", "value": 1000})
    assert error_code(reply, 12) == "out_of_range"


def test_tune_without_tunables_is_an_error_reply(launch):
    running = launch("--no-tunables")
    with ws_connect(running) as ws:
        while recv_json(ws)["type"] != "snapshot":
            pass
        ws.send(json.dumps({"id": 9, "type": "tune", "key": "toolbar_height", "value": 64}))
        while (message := recv_json(ws))["type"] != "reply":
            pass
    assert message["ok"] is False and message["error"]["code"] == "no_tunables", message
    assert "started with --no-tunables" in message["error"]["message"], message


@pytest.fixture(scope="module")
def no_tunables_server():
    running = KeyscopeServer(["--no-tunables"])
    yield running
    running.stop()


@pytest.mark.parametrize(
    "method,path,body,status,code",
    [
        ("GET", "/tune", None, 404, "no_tunables"),
        ("GET", "/api/tunables", None, 404, "no_tunables"),
        ("PUT", "/tune/a%2Fb/5", None, 404, "no_tunables"),
        ("POST", "/tune", {"toolbar_height": 64}, 404, "no_tunables"),
        # The value is the rest of the path after the key: the key "a" is well formed, so the answer is that there
        # are no tunables.
        ("PUT", "/tune/a/b/5", None, 404, "no_tunables"),
        ("PUT", "/tune//5", None, 400, "bad_request"),
        ("PUT", "/tune/k/%zz", None, 400, "bad_request"),
        ("PUT", "/tune/k/a%0Ab", None, 400, "bad_request"),
        ("DELETE", "/tune", None, 405, "method_not_allowed"),
        ("GET", "/tune/k/v", None, 405, "method_not_allowed"),
    ],
)
def test_tune_endpoints_without_tunables(no_tunables_server, method, path, body, status, code):
    response = http(no_tunables_server, method, path, body=body)
    assert response.status == status, response.describe()
    assert response.json()["error"]["code"] == code, response.describe()


def test_ids_are_echoed_exactly(client):
    for request_id in [0, -5, 12.5, "x", "", "ünïcode ✓", 2**53]:
        reply = client.request({"id": request_id, "type": "resync"})
        assert reply["id"] == request_id and type(reply["id"]) is type(request_id)


def test_a_request_without_id_gets_a_null_id(client):
    client.send({"type": "frobnicate"})
    assert error_code(client.next_reply(), None) == "unknown_type"


# MARK: - Error codes (WebSocket and HTTP)


@pytest.fixture(scope="module")
def base_key(server):
    """A key holding {"n": 1, "list": [1, 2]}, for requests that must fail."""
    key = unique_key("e2e_base")
    response = request_http(server, write(key, {"n": 1, "list": [1, 2]}))
    assert response.status == 200, response.describe()
    return key


def error_cases(key: str) -> list[tuple[str, object, str, int]]:
    """(name, request (object or raw text), code, HTTP status)."""
    return [
        ("not json", '{"id": 1, "type": ', "bad_json", 400),
        ("not an object", "[1, 2]", "bad_json", 400),
        ("unknown type", {"id": 1, "type": "frobnicate"}, "unknown_type", 400),
        ("missing type", {"id": 1}, "bad_request", 400),
        ("missing path", {"id": 1, "type": "write", "store": STORE, "op": "set", "value": 1}, "bad_request", 400),
        ("set without value", {"id": 1, "type": "write", "store": STORE, "op": "set", "path": f"{key}.x"},
         "bad_request", 400),
        ("unknown op", {"id": 1, **write(f"{key}.n", 1, op="frobnicate")}, "bad_request", 400),
        ("unknown store", {"id": 1, **write(f"{key}.n", 1, store="app/nope")}, "unknown_store", 404),
        ("unknown scenario store", {"id": 1, **write("x", 1, store="scenario:nope/memory")}, "unknown_store", 404),
        ("bad path", {"id": 1, **write(f"{key}..n", 1)}, "bad_path", 400),
        ("bad index", {"id": 1, **write(f"{key}.list[01]", 1)}, "bad_path", 400),
        ("unclosed bracket", {"id": 1, **write(f"{key}.list[0", 1)}, "bad_path", 400),
        ("name into a scalar", {"id": 1, **write(f"{key}.n.deeper", 1)}, "type_mismatch", 400),
        ("index into an object", {"id": 1, **write(f"{key}[0]", 1)}, "type_mismatch", 400),
        ("index into a scalar", {"id": 1, **write(f"{key}.n[0]", 1)}, "type_mismatch", 400),
        ("merge of a non-object", {"id": 1, **write(f"{key}.m", [1], op="merge")}, "type_mismatch", 400),
        ("set root to a non-object", {"id": 1, **write("", 5)}, "type_mismatch", 400),
        ("bad color", {"id": 1, **write(f"{key}.c", {"$color": "red"})}, "type_mismatch", 400),
        ("bad number tag", {"id": 1, **write(f"{key}.c", {"$number": "1.5"})}, "type_mismatch", 400),
        ("relative url", {"id": 1, **write(f"{key}.c", {"$url": "/relative"})}, "type_mismatch", 400),
        ("integer beyond int64", f'{{"id": 1, "type": "write", "store": "{STORE}", "op": "set", '
         f'"path": "{key}.c", "value": 9223372036854775808}}', "type_mismatch", 400),
        ("index past the end", {"id": 1, **write(f"{key}.list[3]", 1)}, "out_of_range", 400),
        ("insert past the end", {"id": 1, **write(f"{key}.list[3]", 1, op="insert")}, "out_of_range", 400),
        ("remove of the root", {"id": 1, **write("", op="remove")}, "bad_request", 400),
        ("revert seq 0", {"id": 1, "type": "revert", "seq": 0}, "bad_request", 400),
        ("revert unknown seq", {"id": 1, "type": "revert", "seq": 999999999}, "bad_request", 400),
    ]


CASE_NAMES = [case[0] for case in error_cases("k")]

KNOWN_DEVIATIONS = {
    "integer beyond int64": "jansson refuses the whole message ('too big integer') before the id can be read, "
    "so the reply is bad_json with id null instead of type_mismatch with the id",
}
CASE_PARAMS = with_known_deviations(CASE_NAMES, KNOWN_DEVIATIONS)


def case_named(key: str, name: str):
    return next(case for case in error_cases(key) if case[0] == name)


def expected_id(payload) -> object:
    if isinstance(payload, str):
        try:
            parsed = json.loads(payload)
        except ValueError:
            return None
        return parsed.get("id") if isinstance(parsed, dict) else None
    return payload.get("id")


@pytest.mark.parametrize("name", CASE_PARAMS)
def test_error_code_over_websocket(server, base_key, name):
    _, payload, code, _ = case_named(base_key, name)
    client = StreamClient.open(server)
    try:
        client.send(payload)
        assert error_code(client.next_reply(), expected_id(payload)) == code
        # The connection stays up and nothing changed.
        assert client.request({"type": "resync"})["ok"] is True
        assert current(server, base_key) == {"n": 1, "list": [1, 2]}
        assert not any(p.get("path", "").startswith(base_key) for e in client.entries for p in e.get("patches", []))
    finally:
        client.close()


@pytest.mark.parametrize("name", CASE_PARAMS)
def test_error_code_over_http(server, base_key, name):
    _, payload, code, status = case_named(base_key, name)
    response = http(
        server, "POST", "/api/request", body=payload if isinstance(payload, str) else json.dumps(payload),
        headers={"Content-Type": "application/json"},
    )
    assert response.status == status, response.describe()
    assert response.header("content-type").startswith("application/json")
    assert http_error_code(response.json(), expected_id(payload)) == code
    assert current(server, base_key) == {"n": 1, "list": [1, 2]}


def test_conflict_over_http_is_409(server):
    key = unique_key()
    first = request_http(server, write(f"{key}.v", 1))
    assert first.status == 200, first.describe()
    changed = ok_seq(request_http(server, write(f"{key}.v", 2)).json())
    assert ok_seq(request_http(server, write(f"{key}.v", 3)).json()) > changed
    response = request_http(server, {"id": "c", "type": "revert", "seq": changed})
    assert response.status == 409, response.describe()
    assert http_error_code(response.json(), "c") == "conflict"
    assert current(server, key) == {"v": 3}


# MARK: - HTTP requests that succeed


def test_http_write_reply_and_stream_agree(client, server):
    key = unique_key()
    response = request_http(server, {"id": 42, **write(f"{key}.x", "hello")})
    assert response.status == 200, response.describe()
    assert response.header("content-type").startswith("application/json")
    seq = ok_seq(response.json(), request_id=42)
    assert change_for(client, seq)["patches"] == [{"op": "set", "path": key, "new": {"x": "hello"}}]
    assert current(server, key) == {"x": "hello"}


def test_http_transaction_and_revert(server):
    key = unique_key()
    response = request_http(
        server,
        {"id": 1, "type": "transaction", "store": STORE,
         "ops": [{"op": "set", "path": f"{key}.a", "value": 1}, {"op": "merge", "path": key, "value": {"b": 2}}]},
    )
    assert response.status == 200, response.describe()
    seq = ok_seq(response.json(), request_id=1)
    assert current(server, key) == {"a": 1, "b": 2}
    response = request_http(server, {"id": 2, "type": "revert", "seq": seq})
    assert response.status == 200, response.describe()
    assert isinstance(ok_seq(response.json(), request_id=2), int)
    assert current(server, key) is None


def test_http_resync_is_accepted(server):
    # Over HTTP there is no stream to resynchronise; the request is still a valid one.
    response = request_http(server, {"id": 1, "type": "resync"})
    assert response.status == 200, response.describe()
    reply = response.json()
    assert reply["ok"] is True and reply["id"] == 1


# MARK: - Read-only


@pytest.fixture(scope="module")
def read_only_server():
    running = KeyscopeServer(["--read-only", "--rate", "20"])
    yield running
    running.stop()


READ_ONLY_WRITES = [
    {"type": "write", "store": STORE, "op": "set", "path": "e2e.x", "value": 1},
    {"type": "write", "store": STORE, "op": "remove", "path": "e2e.x"},
    {"type": "transaction", "store": STORE, "ops": [{"op": "set", "path": "e2e.x", "value": 1}]},
    {"type": "revert", "seq": 1},
    {"type": "tune", "key": "toolbar_height", "value": 64},
    # Refused before validation: none of these is looked at further.
    {"type": "write"},
    {"type": "write", "store": "app/nope", "op": "frobnicate", "path": "a..b", "value": {"$color": "red"}},
    {"type": "transaction", "store": STORE, "ops": "not a list"},
    {"type": "revert", "seq": "x"},
]


@pytest.mark.parametrize("payload", READ_ONLY_WRITES, ids=lambda p: json.dumps(p)[:60])
def test_read_only_refuses_every_write_over_websocket(read_only_server, payload):
    client = StreamClient.open(read_only_server)
    try:
        assert client.hello["readOnly"] is True
        assert error_code(client.request({"id": "w", **payload}), "w") == "read_only"
        assert client.request({"type": "resync"})["ok"] is True
    finally:
        client.close()


@pytest.mark.parametrize("payload", READ_ONLY_WRITES, ids=lambda p: json.dumps(p)[:60])
def test_read_only_refuses_every_write_over_http(read_only_server, payload):
    response = request_http(read_only_server, {"id": "w", **payload})
    assert response.status == 403, response.describe()
    assert http_error_code(response.json(), "w") == "read_only"


def test_read_only_still_reads(read_only_server):
    assert http(read_only_server, "GET", "/api/health").json() == {"ok": True, "protocol": 1}
    snapshot = http(read_only_server, "GET", "/api/snapshot").json()
    assert "e2e" not in store_root(snapshot, STORE)
    client = StreamClient.open(read_only_server)
    try:
        client.wait_entries(2, timeout=10)
        reply = client.request({"id": 1, "type": "resync"})
        assert reply["ok"] is True and isinstance(reply["result"]["seq"], int)
    finally:
        client.close()

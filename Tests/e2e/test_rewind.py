"""Rewind end to end (docs/recording.md "Rewind"): the real demo's live stores put back as they were at an earlier
seq, over the WebSocket `rewind` request and `POST /api/rewind`, checked through `GET /api/snapshot` and the
stream; refused on a read-only server; stores removed since (the demo's checkout scenario) listed in `skipped`."""

from __future__ import annotations

import time

from support import KeyscopeServer, StreamClient, error_code, http, request_http, store_root, unique_key

STORE = "app/memory"
CHECKOUT = "scenario:checkout/memory"
# Fast enough that the demo's checkout scenario ends (its store is removed) within a few seconds.
SERVER_ARGS = ["--rate", "200"]


def write(path: str, value) -> dict:
    return {"type": "write", "store": STORE, "op": "set", "path": path, "value": value}


def ok_result(reply: dict) -> dict:
    assert reply["type"] == "reply" and reply["ok"] is True, reply
    return reply["result"]


def snapshot(server: KeyscopeServer) -> dict:
    response = http(server, "GET", "/api/snapshot")
    assert response.status == 200, response.describe()
    return response.json()


def current(server: KeyscopeServer, key: str):
    return store_root(snapshot(server), STORE).get(key)


def wait_entry(client: StreamClient, predicate, what: str, timeout: float = 30) -> dict:
    """Reads the stream until an entry satisfies `predicate`; returns it."""
    deadline = time.monotonic() + timeout
    checked = 0
    while True:
        for entry in client.entries[checked:]:
            if predicate(entry):
                return entry
        checked = len(client.entries)
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no {what} within {timeout} s"
        client.read(remaining)


def test_rewinding_over_the_websocket_puts_the_values_back(server):
    client = StreamClient.open(server)
    try:
        key = unique_key()
        first = ok_result(client.request(write(key, {"v": 1, "list": [1]})))["seq"]
        ok_result(client.request(write(f"{key}.v", 2)))
        insert = {"type": "write", "store": STORE, "op": "insert", "path": f"{key}.list[0]", "value": 0}
        ok_result(client.request(insert))
        ok_result(client.request(write(f"{key}.extra", True)))
        assert current(server, key) == {"v": 2, "list": [0, 1], "extra": True}

        result = ok_result(client.request({"id": "rw", "type": "rewind", "seq": first}))
        assert set(result) == {"seq", "changes", "stores", "skipped"}, result
        assert STORE in result["stores"], result
        assert result["changes"] >= 3, result  # our three writes, and whatever the demo did meanwhile
        assert isinstance(result["seq"], int) and result["seq"] > first, result
        assert current(server, key) == {"v": 1, "list": [1]}

        # The rewind is changes like any other: one transaction per store, the last one at the reply's seq.
        client.wait_seq(result["seq"])
        rewinding = client.entry(result["seq"])
        assert rewinding["txn"] is not None and rewinding["store"] in result["stores"], rewinding
        ours = [e for e in client.entries if e["seq"] <= result["seq"] and e["store"] == STORE and e["txn"]]
        undo = next(e for e in reversed(ours) if any(p["path"].startswith(key) for p in e["patches"]))
        paths = {p["path"] for p in undo["patches"] if p["path"].startswith(key)}
        assert paths == {f"{key}.extra", f"{key}.list[0]", f"{key}.v"}, undo
    finally:
        client.close()


def test_rewinding_to_before_a_key_existed_removes_it(server):
    client = StreamClient.open(server)
    try:
        before = client.last_seq
        key = unique_key()
        ok_result(client.request(write(key, 1)))
        response = http(server, "POST", "/api/rewind", body={"seq": before})
        assert response.status == 200, response.describe()
        assert response.header("content-type") == "application/json"
        result = response.json()
        assert STORE in result["stores"] and result["seq"] is not None, result
        assert current(server, key) is None
    finally:
        client.close()


def test_rewinding_to_the_newest_seq_is_accepted(server):
    # The demo writes on its own, so "nothing to undo" cannot be pinned down from outside; the newest seq is
    # always within the log, and rewinding to it answers a well-formed result.
    last = snapshot(server)["seq"]
    result = ok_result(request_http(server, {"id": 1, "type": "rewind", "seq": last}).json())
    assert isinstance(result["changes"], int) and isinstance(result["stores"], list), result


def test_a_seq_outside_the_log_is_bad_request(server):
    client = StreamClient.open(server)
    try:
        reply = client.request({"id": 2, "type": "rewind", "seq": 10**12})
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply
        reply = client.request({"id": 3, "type": "rewind", "seq": -1})
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply
        reply = client.request({"id": 4, "type": "rewind"})
        assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply
    finally:
        client.close()
    for body in ({"seq": 10**12}, {"seq": "1"}, {}, [1]):
        response = http(server, "POST", "/api/rewind", body=body)
        assert response.status == 400 and error_code(response) == "bad_request", (body, response.describe())
    response = http(server, "POST", "/api/rewind", body="{", headers={"Content-Type": "application/json"})
    assert response.status == 400 and error_code(response) == "bad_json", response.describe()
    response = http(server, "POST", "/api/rewind", body="seq=1", headers={"Content-Type": "text/plain"})
    assert response.status == 415, response.describe()
    response = http(server, "GET", "/api/rewind")
    assert response.status == 405 and response.header("allow") == "POST", response.describe()


def test_rewind_needs_the_token(server):
    response = http(server, "POST", "/api/rewind", body={"seq": 1}, token=None)
    assert response.status == 401 and error_code(response) == "unauthorized", response.describe()


def test_rewinding_past_a_removal_lists_the_store_in_skipped(server):
    client = StreamClient.open(server)
    try:
        # A seq at which the checkout scenario's store exists, then its removal after it.
        registered = wait_entry(
            client, lambda e: e["store"] == CHECKOUT and e.get("event") == "registered", "checkout registration"
        )
        target = registered["seq"]
        removed = wait_entry(
            client,
            lambda e: e["store"] == CHECKOUT and e.get("event") == "removed" and e["seq"] > target,
            "checkout removal",
        )
        key = unique_key()
        ok_result(client.request(write(key, "after")))
        result = ok_result(client.request({"id": "past", "type": "rewind", "seq": target}))
        skipped = {s["store"]: s["reason"] for s in result["skipped"]}
        assert CHECKOUT in skipped, result
        assert f"removed at seq {removed['seq']}" in skipped[CHECKOUT], skipped
        assert STORE in result["stores"], result
        assert current(server, key) is None
    finally:
        client.close()


def test_a_read_only_server_refuses_rewinds(launch):
    server = launch("--read-only")
    client = StreamClient.open(server)
    try:
        last = client.last_seq
        for payload in ({"id": 1, "type": "rewind", "seq": last}, {"id": 2, "type": "rewind"}):
            reply = client.request(payload)
            assert reply["ok"] is False and reply["error"]["code"] == "read_only", reply
    finally:
        client.close()
    for body in ({"seq": 0}, "nonsense"):
        response = http(server, "POST", "/api/rewind", body=body, headers={"Content-Type": "application/json"})
        assert response.status == 403 and error_code(response) == "read_only", response.describe()
    response = request_http(server, {"id": 3, "type": "rewind", "seq": 0})
    assert response.status == 403 and error_code(response) == "read_only", response.describe()

"""The read side of the wire contract (docs/protocol.md "HTTP" and "WebSocket", docs/recording.md events): health, snapshot,
hello, the ordered change stream under load, resume (continuous, gap, unknown seq), many clients, shutdown."""

from __future__ import annotations

import re
import socket
import threading

import pytest

from support import (
    SUBPROTOCOL,
    StreamClient,
    close_code_of,
    http,
    recv_json,
    ws_connect,
)

SERVER_ARGS = ["--rate", "200"]

TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
SEMVER = re.compile(r"^\d+\.\d+\.\d+")


def check_snapshot_shape(snapshot: dict) -> None:
    assert snapshot["type"] == "snapshot"
    assert isinstance(snapshot["seq"], int) and snapshot["seq"] >= 0
    assert isinstance(snapshot["stores"], list) and snapshot["stores"], "the demo has stores"
    for store in snapshot["stores"]:
        assert set(store) >= {"id", "scope", "storage", "version", "root"}, store
        assert store["id"] == store["scope"] + "/" + store["storage"]
        assert SEMVER.match(store["version"]), store["version"]
        assert isinstance(store["root"], dict)
    ids = [store["id"] for store in snapshot["stores"]]
    assert len(ids) == len(set(ids)), f"one store per id: {ids}"
    assert "app/memory" in ids
    assert isinstance(snapshot["subscriptions"], list)
    for subscription in snapshot["subscriptions"]:
        check_subscription(subscription)


def check_subscription(subscription: dict) -> None:
    assert set(subscription) >= {"id", "store", "path", "label", "since", "deliveries"}, subscription
    assert TIME.match(subscription["since"]), subscription["since"]
    assert isinstance(subscription["deliveries"], int)


def check_entry(entry: dict) -> None:
    """One event as docs/recording.md has it: a change (patches, txn) or a store event."""
    assert isinstance(entry["seq"], int)
    assert TIME.match(entry["time"]), entry
    assert isinstance(entry["store"], str) and "/" in entry["store"], entry
    if "event" in entry:
        assert entry["event"] in ("registered", "reset", "removed"), entry
        if entry["event"] == "registered":
            assert isinstance(entry["root"], dict) and SEMVER.match(entry["version"]), entry
        if entry["event"] == "reset":
            assert SEMVER.match(entry["version"]), entry
    else:
        assert entry.get("txn") is None or UUID.match(entry["txn"]), entry
        assert isinstance(entry["patches"], list) and entry["patches"], entry
        for patch in entry["patches"]:
            assert patch["op"] in ("set", "insert", "remove", "merge"), patch
            assert isinstance(patch["path"], str)
            if patch["op"] == "remove":
                assert "new" not in patch and "old" in patch, patch
            else:
                assert "new" in patch, patch
            if patch["op"] == "insert":
                assert "old" not in patch, patch


def test_health(server):
    response = http(server, "GET", "/api/health")
    assert response.status == 200, response.describe()
    assert response.header("content-type").startswith("application/json")
    assert response.json() == {"ok": True, "protocol": 1}


def test_http_snapshot(server):
    response = http(server, "GET", "/api/snapshot")
    assert response.status == 200, response.describe()
    assert response.header("content-type").startswith("application/json")
    check_snapshot_shape(response.json())


def head_exchange(server, path: str, method: str = "HEAD") -> tuple[str, dict[str, str], bytes]:
    """One request on a raw socket, read until the server closes: the status line, the headers and every byte after
    them (http.client would not show a body that a HEAD answer must not have)."""
    request = (
        f"{method} {server.target(path)} HTTP/1.1\r\nHost: {server.host_header}\r\n"
        f"Authorization: Bearer {server.token}\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request.encode("latin-1"))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, separator, rest = data.partition(b"\r\n\r\n")
    assert separator, f"no complete header block: {data[:300]!r}"
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, value in (line.split(":", 1) for line in lines)}
    return status, headers, rest


@pytest.mark.parametrize("path", ["/api/health", "/api/snapshot", "/api/tunables"])
def test_head_on_the_api_answers_as_get_without_a_body(server, path):
    status, headers, rest = head_exchange(server, path)
    assert status.startswith("HTTP/1.1 200"), status
    assert headers["content-type"].startswith("application/json")
    assert int(headers["content-length"]) > 0, headers
    assert rest == b"", f"HEAD {path} sent a body: {rest[:200]!r}"
    if path == "/api/health":
        get_status, get_headers, get_body = head_exchange(server, path, method="GET")
        assert get_status.startswith("HTTP/1.1 200") and get_body == b'{"ok":true,"protocol":1}'
        assert headers["content-length"] == get_headers["content-length"] == str(len(get_body))


def test_head_on_a_post_only_path_is_405_without_a_body(server):
    status, headers, rest = head_exchange(server, "/api/request")
    assert status.startswith("HTTP/1.1 405"), status
    assert headers["allow"] == "POST"
    assert rest == b"", f"the 405 to HEAD sent a body: {rest[:200]!r}"


def test_a_get_only_path_says_it_answers_head_too(server):
    status, headers, _ = head_exchange(server, "/api/health", method="DELETE")
    assert status.startswith("HTTP/1.1 405"), status
    assert headers["allow"] == "GET, HEAD"


def test_hello_then_snapshot(server):
    with ws_connect(server) as ws:
        assert ws.subprotocol == SUBPROTOCOL
        hello = recv_json(ws)
        assert hello["type"] == "hello"
        assert hello["protocol"] == 1
        assert isinstance(hello["server"]["name"], str) and hello["server"]["name"]
        assert isinstance(hello["server"]["version"], str) and hello["server"]["version"]
        assert hello["server"]["pid"] == server.pid
        assert hello["readOnly"] is False
        assert hello["resumed"] is False
        snapshot = recv_json(ws)
        check_snapshot_shape(snapshot)
        # The WebSocket snapshot and the HTTP one are the same kind of object.
        http_snapshot = http(server, "GET", "/api/snapshot").json()
        assert http_snapshot["seq"] >= snapshot["seq"]
        assert {s["id"] for s in http_snapshot["stores"]} >= {"app/memory"}


def test_client_without_subprotocol_is_served(server):
    with ws_connect(server, subprotocols=None) as ws:
        assert recv_json(ws)["type"] == "hello"
        assert recv_json(ws)["type"] == "snapshot"
        assert recv_json(ws)["type"] in ("changes", "subscriptions")


def test_changes_in_order_without_gaps_under_load(server):
    client = StreamClient.open(server)
    try:
        snapshot = client.snapshots[0]
        # --rate 200: 500 entries take about 2.5 s. StreamClient fails on any skipped or repeated seq.
        client.wait_entries(500, timeout=20)
        assert client.entries[0]["seq"] == snapshot["seq"] + 1
        seqs = [entry["seq"] for entry in client.entries]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        for entry in client.entries:
            check_entry(entry)
        changes = [m for m in client.messages if m["type"] == "changes"]
        assert all(set(m) >= {"type", "entries"} for m in changes)
        assert not client.gaps
    finally:
        client.close()


def test_resume_continues_after_the_given_seq(server):
    first = StreamClient.open(server)
    first.wait_entries(50, timeout=20)
    resume_after = first.entries[-1]["seq"]
    first.close()

    second = StreamClient.open(server, query=f"resume={resume_after}")
    try:
        assert second.hello["resumed"] is True
        second.wait_entries(50, timeout=20)
        assert not second.snapshots, "a resumable seq must not get a snapshot"
        assert not second.gaps
        assert second.entries[0]["seq"] == resume_after + 1
        for message in second.messages:
            if message["type"] == "subscriptions":
                for subscription in message["list"]:
                    check_subscription(subscription)
    finally:
        second.close()


def test_resume_with_a_seq_never_handed_out_gets_a_snapshot(server):
    client = StreamClient.open(server, query="resume=999999999")
    try:
        assert client.hello["resumed"] is True
        client.wait_entries(5, timeout=20)
        assert len(client.snapshots) == 1 and not client.gaps
        assert client.snapshots[0]["seq"] < 999999999
        check_snapshot_shape(client.snapshots[0])
        assert client.entries[0]["seq"] == client.snapshots[0]["seq"] + 1
        kinds = [m["type"] for m in client.messages]
        assert kinds.index("snapshot") < kinds.index("changes")
    finally:
        client.close()


def test_resume_after_the_log_moved_on_gets_gap_then_snapshot(launch):
    # A log of 50 entries at 500 changes per second: a client away for 200 entries has missed some for good.
    small = launch("--rate", "500", "--log-entries", "50")
    first = StreamClient.open(small)
    first.wait_entries(10, timeout=20)
    resume_after = first.entries[-1]["seq"]
    first.close()

    watcher = StreamClient.open(small)
    try:
        watcher.wait_seq(resume_after + 200, timeout=20)
    finally:
        watcher.close()

    client = StreamClient.open(small, query=f"resume={resume_after}")
    try:
        assert client.hello["resumed"] is True
        client.wait_entries(5, timeout=20)
        assert len(client.gaps) == 1, [m["type"] for m in client.messages]
        gap = client.gaps[0]
        assert gap["from"] == resume_after + 1
        kinds = [m["type"] for m in client.messages]
        gap_index = kinds.index("gap")
        assert kinds[gap_index + 1] == "snapshot", kinds
        snapshot = client.messages[gap_index + 1]
        assert gap["to"] == snapshot["seq"]
        assert gap["to"] >= resume_after + 200 - 1
        check_snapshot_shape(snapshot)
        assert "changes" not in kinds[:gap_index], "no entries may come before the gap"
        assert client.entries[0]["seq"] == snapshot["seq"] + 1
    finally:
        client.close()


def test_ten_clients_receive_the_same_entries_in_the_same_order(server):
    clients = [StreamClient.open(server) for _ in range(10)]
    try:
        start = max(client.snapshots[0]["seq"] for client in clients) + 1
        end = start + 300
        errors: list[BaseException] = []

        def follow(client: StreamClient) -> None:
            try:
                client.wait_seq(end, timeout=30)
            except BaseException as error:  # reported below
                errors.append(error)

        threads = [threading.Thread(target=follow, args=(client,)) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(40)
        assert not errors, errors
        reference = [entry for entry in clients[0].entries if start <= entry["seq"] <= end]
        assert [entry["seq"] for entry in reference] == list(range(start, end + 1))
        for index, client in enumerate(clients[1:], start=1):
            mine = [entry for entry in client.entries if start <= entry["seq"] <= end]
            assert mine == reference, f"client {index} saw different entries"
    finally:
        for client in clients:
            client.close()


def test_sigint_closes_every_client_with_1001(launch):
    running = launch("--rate", "100")
    running.settle()
    clients = [StreamClient.open(running) for _ in range(3)]
    for client in clients:
        client.wait_entries(5, timeout=10)
    running.interrupt()
    codes = [close_code_of(client.ws, timeout=10) for client in clients]
    assert codes == [1001, 1001, 1001]
    assert running.wait(5) == 0, f"exit code {running.process.returncode}\n{running.stderr_text()}"


@pytest.mark.parametrize("resume", ["abc", "-1"])
def test_unusable_resume_value_is_a_fresh_start(server, resume):
    # Not in docs/protocol.md; what the server does with a resume value it cannot use must still be a valid stream.
    client = StreamClient.open(server, query=f"resume={resume}")
    try:
        client.wait_entries(3, timeout=20)
        assert client.snapshots, "a stream that cannot be resumed starts from a snapshot"
        assert client.entries[0]["seq"] == client.snapshots[0]["seq"] + 1
    finally:
        client.close()

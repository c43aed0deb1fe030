"""Preferences, secrets and watches end to end (docs/preferences.md): the demo's UserDefaults suites and secrets
through an independent HTTP and WebSocket client, checked against the plist files on disk (read with Python's
plistlib, a reader not written here) and against every frame and log line the server sends."""

from __future__ import annotations

import base64
import datetime
import json
import plistlib
import socket
from pathlib import Path
from urllib.parse import quote

from support import KeyscopeServer, StreamClient, error_code, http, store_root, wait_for

SUITE = "com.keyscope.demo"
STATUS_SUITE = "com.keyscope.demo.status"
SERVICE = "com.keyscope.demo.api"
SUITE_STORE = f"app/userPrefs:{SUITE}"
SERVICE_STORE = f"app/secrets:{SERVICE}"
PLACEHOLDER = "\u2022\u2022\u2022\u2022 ("


def panel(server) -> dict:
    response = http(server, "GET", "/api/preferences")
    assert response.status == 200, response.describe()
    return response.json()


def item(server, source: str, container: str, key: str) -> dict | None:
    for entry in panel(server)["items"]:
        if (entry["source"], entry["container"], entry["key"]) == (source, container, key):
            return entry
    return None


def pref_path(source: str, container: str, key: str) -> str:
    return "/api/preferences/" + "/".join(quote(part, safe="") for part in (source, container, key))


def put(server, key: str, value, source: str = "userDefaults", container: str = SUITE, **kwargs):
    return http(server, "PUT", pref_path(source, container, key), body={"value": value}, **kwargs)


def delete(server, key: str, source: str = "userDefaults", container: str = SUITE, **kwargs):
    return http(server, "DELETE", pref_path(source, container, key), **kwargs)


def suite_file(server: KeyscopeServer, suite: str = SUITE) -> Path:
    """The suite's plist where Foundation keeps it, under the server's XDG_CONFIG_HOME."""
    found = sorted(server.config_home.rglob(f"{suite}.plist"))
    assert found, f"no {suite}.plist under {server.config_home}: {sorted(server.config_home.rglob('*'))}"
    return found[0]


def on_disk(server: KeyscopeServer, suite: str = SUITE) -> dict:
    with suite_file(server, suite).open("rb") as handle:
        return plistlib.load(handle)


def ws_request(server, payload: dict) -> dict:
    """Sends one request on a fresh WebSocket and returns its reply."""
    client = StreamClient.open(server)
    try:
        return client.request(payload)
    finally:
        client.close()


# MARK: - The panel


def test_the_panel_lists_the_demo_suites_and_secrets_with_their_types(server):
    description = panel(server)
    assert description["editing"] is True and description["reveal"] is False
    containers = {(c["source"], c["container"]): c for c in description["containers"]}
    assert containers[("userDefaults", SUITE)]["store"] == SUITE_STORE
    assert containers[("secrets", SERVICE)]["store"] == SERVICE_STORE
    types = {e["key"]: e["type"] for e in description["items"] if e["container"] == SUITE}
    assert types["theme"] == "string"
    assert types["fontSize"] == "integer"
    assert types["volume"] == "number"
    assert types["onboardingDone"] == "bool"
    assert types["lastOpened"] == "date"
    assert types["recentSearches"] == "array"
    for entry in description["items"]:
        assert entry["id"] == f"{entry['source']}/{entry['container']}/{entry['key']}"
        assert entry["timestamp"].endswith("Z")
        assert entry["system"] is False


def test_every_secret_is_redacted_with_a_length_hint(server):
    secrets = [e for e in panel(server)["items"] if e["source"] == "secrets"]
    assert {e["key"] for e in secrets} >= {"token", "refreshToken"}
    for entry in secrets:
        assert entry["redacted"] is True
        assert entry["value"] == f"{PLACEHOLDER}{entry['length']})"


def test_the_mirror_stores_are_in_the_snapshot(server):
    snapshot = http(server, "GET", "/api/snapshot").json()
    root = store_root(snapshot, SUITE_STORE)
    assert root["fontSize"] == on_disk(server)["fontSize"]
    for value in store_root(snapshot, SERVICE_STORE).values():
        assert value.startswith(PLACEHOLDER)


# MARK: - Edits reach the suite on disk and the log


def test_an_edit_is_on_disk_in_the_log_and_in_the_panel():
    server = KeyscopeServer()
    try:
        client = StreamClient.open(server)
        try:
            response = put(server, "theme", "light")
            assert response.status == 200, response.describe()
            seq = response.json()["seq"]
            assert isinstance(seq, int)
            assert on_disk(server)["theme"] == "light"
            assert item(server, "userDefaults", SUITE, "theme")["value"] == "light"
            client.wait_seq(seq)
            entry = client.entry(seq)
            assert entry["store"] == SUITE_STORE
            assert entry["patches"][0]["path"] == "theme"
            assert entry["patches"][0]["new"] == "light"
        finally:
            client.close()
        again = put(server, "theme", "light")
        assert again.status == 200 and again.json()["seq"] is None, "writing the same value changes nothing"
    finally:
        server.stop()


def test_a_date_and_data_preference_take_their_string_forms(server):
    response = put(server, "lastOpened", "2026-01-02T03:04:05Z")
    assert response.status == 200, response.describe()
    stored = on_disk(server)["lastOpened"]
    assert isinstance(stored, datetime.datetime)
    assert stored.replace(tzinfo=None) == datetime.datetime(2026, 1, 2, 3, 4, 5)
    bad = put(server, "lastOpened", "yesterday")
    assert bad.status == 400 and error_code(bad) == "type_mismatch", bad.describe()
    assert on_disk(server)["lastOpened"] == stored, "a refused edit changes nothing"


def test_a_new_key_with_a_slash_is_created(server):
    response = put(server, "a/b", {"nested": [1, 2.5, True]})
    assert response.status == 200, response.describe()
    assert on_disk(server)["a/b"] == {"nested": [1, 2.5, True]}
    assert item(server, "userDefaults", SUITE, "a/b")["type"] == "object"


def test_delete_removes_the_key_and_a_second_delete_is_unknown_key(server):
    put(server, "scratch", "x")
    response = delete(server, "scratch")
    assert response.status == 200, response.describe()
    assert isinstance(response.json()["seq"], int)
    assert "scratch" not in on_disk(server)
    again = delete(server, "scratch")
    assert again.status == 404 and error_code(again) == "unknown_key", again.describe()


def test_the_websocket_preference_request_sets_and_deletes(server):
    reply = ws_request(
        server,
        {"id": "p1", "type": "preference", "op": "set", "source": "userDefaults", "container": SUITE,
         "key": "fontSize", "value": 17},
    )
    assert reply["ok"] is True, reply
    assert isinstance(reply["result"]["seq"], int)
    assert on_disk(server)["fontSize"] == 17
    reply = ws_request(
        server, {"id": 2, "type": "preference", "op": "delete", "source": "userDefaults", "container": SUITE,
                 "key": "fontSize"}
    )
    assert reply["ok"] is True, reply
    assert "fontSize" not in on_disk(server)
    reply = ws_request(server, {"id": 3, "type": "preference", "op": "set", "source": "nowhere", "container": SUITE,
                                "key": "x", "value": 1})
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply


def test_a_generic_write_and_a_revert_of_the_mirror_reach_the_suite(server):
    client = StreamClient.open(server)
    try:
        reply = client.request({"id": 1, "type": "write", "store": SUITE_STORE, "op": "set", "path": "volume",
                                "value": 0.25})
        assert reply["ok"] is True, reply
        seq = reply["result"]["seq"]
        assert on_disk(server)["volume"] == 0.25
        reply = client.request({"id": 2, "type": "revert", "seq": seq})
        assert reply["ok"] is True, reply
    finally:
        client.close()
    assert on_disk(server)["volume"] == 0.8


def test_a_change_made_behind_the_apps_back_is_found_by_a_refresh(server):
    path = suite_file(server)
    with path.open("rb") as handle:
        contents = plistlib.load(handle)
    contents["externalNote"] = "written by another process"
    temporary = path.with_suffix(".tmp")
    with temporary.open("wb") as handle:
        plistlib.dump(contents, handle, fmt=plistlib.FMT_XML)
    temporary.replace(path)
    response = http(server, "POST", "/api/preferences/refresh", body={})
    assert response.status == 200, response.describe()
    found = item(server, "userDefaults", SUITE, "externalNote")
    assert found is not None and found["value"] == "written by another process"
    root = store_root(http(server, "GET", "/api/snapshot").json(), SUITE_STORE)
    assert root["externalNote"] == "written by another process"


# MARK: - Secrets never leave the process in clear


def test_a_secret_set_through_the_inspector_never_appears_in_a_frame_or_log_line():
    server = KeyscopeServer(["--log-level", "debug"])
    secret = "e2e-secret-" + base64.b32encode(bytes(range(10))).decode().lower()
    try:
        client = StreamClient.open(server)
        frames: list[str] = []
        try:
            reply = ws_request(
                server, {"id": 1, "type": "preference", "op": "set", "source": "secrets", "container": SERVICE,
                         "key": "token", "value": secret}
            )
            assert reply["ok"] is True, reply
            seq = reply["result"]["seq"]
            client.wait_seq(seq)
            frames.extend(json.dumps(m) for m in client.messages)
            frames.extend(json.dumps(e) for e in client.entries)
        finally:
            client.close()
        shown = item(server, "secrets", SERVICE, "token")
        assert shown["redacted"] is True and shown["length"] == len(secret)
        texts = frames + [
            http(server, "GET", "/api/preferences").body.decode(),
            http(server, "GET", "/api/snapshot").body.decode(),
            server.stderr_text(),
            server.stdout_text(),
        ]
        for text in texts:
            assert secret not in text
        # The secret store itself holds it (the headless file backend under KEYSCOPE_HOME).
        stored = b"".join(path.read_bytes() for path in (server.home / "secrets").rglob("*") if path.is_file())
        assert secret.encode() in stored or base64.b64encode(secret.encode()) in stored
    finally:
        server.stop()


def test_a_generic_write_to_a_redacted_secret_mirror_is_refused(server):
    reply = ws_request(server, {"id": 1, "type": "write", "store": SERVICE_STORE, "op": "set", "path": "token",
                                "value": "plain"})
    assert reply["ok"] is False and reply["error"]["code"] == "bad_request", reply


def test_reveal_shows_secret_values():
    server = KeyscopeServer(["--reveal-secrets"])
    try:
        assert panel(server)["reveal"] is True
        put(server, "token", "visible-value", source="secrets", container=SERVICE)
        shown = item(server, "secrets", SERVICE, "token")
        assert shown["redacted"] is False and shown["value"] == "visible-value"
    finally:
        server.stop()


# MARK: - Configuration on every path


def test_editing_off_refuses_every_write_path_and_allows_refresh():
    server = KeyscopeServer(["--preferences-read-only"])
    try:
        before = on_disk(server)
        assert panel(server)["editing"] is False
        response = put(server, "theme", "light")
        assert response.status == 403 and error_code(response) == "read_only", response.describe()
        response = delete(server, "theme")
        assert response.status == 403 and error_code(response) == "read_only", response.describe()
        reply = ws_request(server, {"id": 1, "type": "preference", "op": "set", "source": "userDefaults",
                                    "container": SUITE, "key": "theme", "value": "light"})
        assert reply["ok"] is False and reply["error"]["code"] == "read_only", reply
        reply = ws_request(server, {"id": 2, "type": "write", "store": SUITE_STORE, "op": "set", "path": "theme",
                                    "value": "light"})
        assert reply["ok"] is False and reply["error"]["code"] == "read_only", reply
        assert http(server, "POST", "/api/preferences/refresh", body={}).status == 200
        assert on_disk(server) == before
    finally:
        server.stop()


def test_an_excluded_suite_is_neither_shown_nor_writable():
    server = KeyscopeServer(["--exclude-suite", "com.keyscope.demo"])
    try:
        assert all(e["container"] != SUITE for e in panel(server)["items"])
        assert any(e["container"] == STATUS_SUITE for e in panel(server)["items"])
        response = put(server, "theme", "light")
        assert response.status == 404 and error_code(response) == "unknown_key", response.describe()
        snapshot = http(server, "GET", "/api/snapshot").json()
        assert all(s["id"] != SUITE_STORE for s in snapshot["stores"])
    finally:
        server.stop()


def test_a_read_only_server_refuses_preference_writes():
    server = KeyscopeServer(["--read-only"])
    try:
        response = put(server, "theme", "light")
        assert response.status == 403 and error_code(response) == "read_only", response.describe()
    finally:
        server.stop()


def test_without_preferences_the_routes_say_so():
    server = KeyscopeServer(["--no-preferences"])
    try:
        response = http(server, "GET", "/api/preferences")
        assert response.status == 404 and error_code(response) == "no_preferences", response.describe()
    finally:
        server.stop()


# MARK: - Watches


def watches(server) -> dict:
    response = http(server, "GET", "/api/watches")
    assert response.status == 200, response.describe()
    return response.json()


def test_the_demo_statuses_are_mirrored_into_preference_keys(server):
    statuses = {s["name"]: s for s in watches(server)["statuses"]}
    assert set(statuses) >= {"DataDirWritable", "PortFree", "DebugFlag"}
    stored = on_disk(server, STATUS_SUITE)
    for status in statuses.values():
        assert status["key"] == "p_" + status["name"]
        assert stored[status["key"]] == status["value"] == status["stored"]
        assert status["inSync"] is True
        assert status["value"] in ("yes", "no")


def test_a_status_change_is_recorded_before_and_after():
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    port = busy.getsockname()[1]
    busy.close()
    server = KeyscopeServer(["--status-port", str(port), "--log-level", "info"])
    try:
        first = {s["name"]: s for s in watches(server)["statuses"]}["PortFree"]
        assert first["value"] == "yes"
        holder = socket.socket()
        holder.bind(("127.0.0.1", port))
        holder.listen()
        try:
            assert http(server, "POST", "/api/watches/refresh", body={}).status == 200
            now = {s["name"]: s for s in watches(server)["statuses"]}["PortFree"]
            assert now["value"] == "no" and now["stored"] == "no"
            assert now["history"][-1]["before"] == "yes" and now["history"][-1]["after"] == "no"
            assert on_disk(server, STATUS_SUITE)["p_PortFree"] == "no"
            assert "p_PortFree" in server.stderr_text() and "yes → no" in server.stderr_text()
        finally:
            holder.close()
    finally:
        server.stop()


def test_a_change_that_breaks_a_rule_is_flagged_with_its_seq(server):
    rules = {r["id"]: r for r in watches(server)["rules"]}
    assert rules["theme-allowed"]["allowed"] == ["light", "dark", "system"]
    response = put(server, "theme", "neon")
    assert response.status == 200, response.describe()
    seq = response.json()["seq"]

    def flagged():
        found = [v for v in watches(server)["violations"] if v["rule"] == "theme-allowed" and v["seq"] == seq]
        return found[0] if found else None

    violation = wait_for(flagged, "the rule violation is listed")
    assert violation["value"] == "neon" and violation["store"] == SUITE_STORE
    assert {r["id"]: r for r in watches(server)["rules"]}["theme-allowed"]["ok"] is False
    put(server, "theme", "dark")
    wait_for(lambda: {r["id"]: r for r in watches(server)["rules"]}["theme-allowed"]["ok"], "the rule holds again")

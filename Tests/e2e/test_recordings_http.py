"""Recordings over HTTP against the real demo (docs/recording.md "HTTP"): the fixtures it offers, a recording made
inside the service with `POST /api/recordings` and stopped, downloaded as it was written, valid per docs/recording.md
(checked by the real `keyscope verify` and by replaying it here against the service's own log), and the rules: the
token, bad names, read-only servers (which refuse to start recordings: a recording writes a file)."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from support import REPO, KeyscopeServer, error_code, http, keyscope_binary, wait_for

FIXTURES = sorted(p.name for p in (REPO / "fixtures" / "recordings").glob("*.kslog"))


def lines_of(body: bytes) -> list[dict]:
    assert body.endswith(b"\n"), "a stopped recording ends with a complete line"
    return [json.loads(line) for line in body.decode("utf-8").splitlines()]


def test_the_server_offers_the_package_fixtures_and_serves_them_byte_for_byte():
    server = KeyscopeServer(["--rate", "5"])
    try:
        listing = http(server, "GET", "/api/recordings")
        assert listing.status == 200, listing.describe()
        offered = {r["name"]: r for r in listing.json()["recordings"] if r["source"] == "fixtures"}
        assert sorted(offered) == FIXTURES
        for name in FIXTURES:
            assert offered[name]["id"] == f"fixtures/{name}"
            assert offered[name]["bytes"] == (REPO / "fixtures" / "recordings" / name).stat().st_size
            download = http(server, "GET", f"/api/recordings/fixtures/{name}")
            assert download.status == 200, download.describe()
            assert (download.header("Content-Type") or "").startswith("application/x-ndjson")
            assert download.body == (REPO / "fixtures" / "recordings" / name).read_bytes()
        assert error_code(http(server, "GET", "/api/recordings/fixtures/nope.kslog")) == "not_found"
        assert error_code(http(server, "GET", "/api/recordings/fixtures/..%2F..%2FPackage.swift")) == "not_found"
        assert http(server, "GET", "/api/recordings", token=None).status == 401
    finally:
        server.stop()


def test_a_recording_inside_the_service_holds_every_change_after_its_snapshot_once():
    server = KeyscopeServer(["--rate", "200"])
    try:
        started = http(server, "POST", "/api/recordings", {"name": "e2e-inside.kslog", "mute": ["session.*"]})
        assert started.status == 201, started.describe()
        status = started.json()["recording"]
        assert (status["id"], status["state"]) == ("recordings/e2e-inside.kslog", "recording")
        wait_for(lambda: next(a for a in http(server, "GET", "/api/recordings").json()["active"]
                              if a["name"] == "e2e-inside.kslog")["events"] >= 100, "100 recorded events")
        stopped = http(server, "POST", "/api/recordings/recordings/e2e-inside.kslog/stop", {})
        assert stopped.status == 200, stopped.describe()
        final = stopped.json()["recording"]
        assert (final["state"], final["endReason"]) == ("ended", "stopped")

        body = http(server, "GET", "/api/recordings/recordings/e2e-inside.kslog").body
        assert len(body) == final["bytes"]
        header, *events = lines_of(body)
        assert header["format"] == "keyscope-log" and header["muted"] == ["session.*"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert len(events) == final["events"]
        live = [e["liveSeq"] for e in events]
        # Dense unless a whole change was muted away: every gap is a change to session.* only.
        assert live == sorted(set(live)) and live[0] > header["liveSeq"]
        for event in events:
            for patch in event.get("patches", []):
                if patch["path"].startswith("session."):
                    assert patch.get("new", "•••• (muted)") == "•••• (muted)", patch

        with tempfile.NamedTemporaryFile(suffix=".kslog") as copy:
            copy.write(body)
            copy.flush()
            verify = subprocess.run([str(keyscope_binary()), "verify", copy.name], capture_output=True, text=True)
        assert verify.returncode == 0, verify.stderr
        assert f"events    {len(events)} " in verify.stdout
    finally:
        server.stop()


def test_recording_names_and_mutes_are_checked():
    server = KeyscopeServer(["--rate", "50"])
    try:
        bad = http(server, "POST", "/api/recordings", {"name": "../escape.kslog"})
        assert bad.status in (400, 404) and error_code(bad) in ("bad_request", "not_found"), bad.describe()
        assert error_code(http(server, "POST", "/api/recordings", {"mute": ["items[0]"]})) == "bad_path"
        started = http(server, "POST", "/api/recordings", {"durationSeconds": 0.5, "name": "short.kslog"})
        assert started.status == 201, started.describe()
        ended = wait_for(lambda: next((a for a in http(server, "GET", "/api/recordings").json()["active"]
                                       if a["name"] == "short.kslog" and a["state"] == "ended"), None),
                         "the half-second recording to end")
        assert ended["endReason"] == "duration"
        assert Path(server.home, "recordings", "short.kslog").exists()
    finally:
        server.stop()


def test_a_read_only_server_refuses_to_start_or_stop_recordings():
    server = KeyscopeServer(["--rate", "50", "--read-only"])
    try:
        for body in ({"durationSeconds": 0.5, "name": "short.kslog"}, {}, None):
            refused = http(server, "POST", "/api/recordings", body)
            assert refused.status == 403 and error_code(refused) == "read_only", refused.describe()
            assert "read-only" in refused.json()["error"]["message"]
        stop = http(server, "POST", "/api/recordings/recordings/short.kslog/stop")
        assert stop.status == 403 and error_code(stop) == "read_only", stop.describe()
        listing = http(server, "GET", "/api/recordings")
        assert listing.status == 200 and listing.json()["active"] == [], listing.describe()
        assert not Path(server.home, "recordings", "short.kslog").exists()
        assert error_code(http(server, "POST", "/api/rewind", {"seq": 1})) == "read_only"
    finally:
        server.stop()

"""Recordings started by clients are bounded (docs/hardening.md "Recordings"): at most `--max-recordings` at once
(`too_many` beyond), each with a default duration and byte bound (and no more than those may be asked), and the
recordings folder within `--recordings-limit` (new recordings are refused with `no_space`; nothing is deleted)."""

from __future__ import annotations

import os
from pathlib import Path

from support import error_code, http, wait_for


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def start(server, body=None):
    return http(server, "POST", "/api/recordings", body if body is not None else {})


def test_at_most_max_recordings_run_at_once_and_a_stopped_one_makes_room(launch):
    server = launch("--rate", "20", "--max-recordings", "3")
    before = fds(server.pid)
    accepted = [start(server, {"name": f"r{i}.kslog"}) for i in range(3)]
    assert [r.status for r in accepted] == [201, 201, 201], [r.describe() for r in accepted]
    refused = [start(server, {"name": f"x{i}.kslog"}) for i in range(20)]
    for response in refused:
        assert response.status == 429 and error_code(response) == "too_many", response.describe()
        assert "3 recordings are in progress" in response.json()["error"]["message"]
    assert not any(Path(server.home, "recordings", f"x{i}.kslog").exists() for i in range(20))
    assert fds(server.pid) <= before + 3 + 2  # one file each, and a little slack for the HTTP connections
    stopped = http(server, "POST", "/api/recordings/recordings/r1.kslog/stop")
    assert stopped.status == 200, stopped.describe()
    again = start(server, {"name": "after.kslog"})
    assert again.status == 201, again.describe()
    assert http(server, "GET", "/api/health").status == 200


def test_a_recording_gets_default_bounds_and_may_not_ask_for_more(launch):
    server = launch("--rate", "20")
    started = start(server)
    assert started.status == 201, started.describe()
    status = started.json()["recording"]
    assert status["maxBytes"] == 64 << 20
    assert status["durationSeconds"] == 3600
    asked = start(server, {"durationSeconds": 5, "maxBytes": 10_000, "name": "asked.kslog"}).json()["recording"]
    assert asked["maxBytes"] == 10_000 and asked["durationSeconds"] == 5
    for body, member in (({"durationSeconds": 3601}, "durationSeconds"), ({"maxBytes": (64 << 20) + 1}, "maxBytes")):
        refused = start(server, body)
        assert refused.status == 400 and error_code(refused) == "bad_request", refused.describe()
        assert member in refused.json()["error"]["message"]
    ended = wait_for(lambda: next((a for a in http(server, "GET", "/api/recordings").json()["active"]
                                   if a["name"] == "asked.kslog" and a["state"] == "ended"), None),
                     "the 10 kB recording to end", timeout=30)
    assert ended["endReason"] in ("max-bytes", "duration"), ended
    assert Path(server.home, "recordings", "asked.kslog").stat().st_size <= 10_000


def test_the_recordings_folder_bound_refuses_new_recordings_and_deletes_nothing(launch):
    server = launch("--rate", "20", "--recordings-limit", "100000")
    folder = Path(server.home, "recordings")
    default = start(server)
    assert default.status == 507 and error_code(default) == "no_space", default.describe()
    assert "delete old recordings" in default.json()["error"]["message"]
    first = start(server, {"name": "first.kslog", "maxBytes": 60_000})
    assert first.status == 201, first.describe()
    second = start(server, {"name": "second.kslog", "maxBytes": 60_000})
    assert second.status == 507 and error_code(second) == "no_space", second.describe()
    assert not (folder / "second.kslog").exists()
    stopped = http(server, "POST", "/api/recordings/recordings/first.kslog/stop")
    assert stopped.status == 200, stopped.describe()
    used = (folder / "first.kslog").stat().st_size
    fits = start(server, {"name": "fits.kslog", "maxBytes": 100_000 - used})
    assert fits.status == 201, fits.describe()
    over = start(server, {"name": "over.kslog", "maxBytes": 1000})
    assert over.status == 507 and error_code(over) == "no_space", over.describe()
    assert (folder / "first.kslog").exists()  # nothing deleted for room
    assert http(server, "GET", "/api/health").status == 200

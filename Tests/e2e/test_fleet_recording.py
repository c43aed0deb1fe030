"""Recording one instance from a fleet dashboard (`POST /api/recordings?instance=ID`, the dashboard's Record button
on a picked instance): the file is a valid recording of that instance's log, read through the dashboard's mirror."""

from __future__ import annotations

import json
import subprocess
import tempfile

from fleet_support import running_fleet
from redis_support import RedisServer
from support import error_code, http, keyscope_binary, request_http, unique_key, wait_for

STORE = "app/memory"


def test_a_recording_of_one_instance_holds_its_changes_and_verifies():
    with RedisServer() as redis, running_fleet(redis, ("shop-1", "--rate", "100"), ("shop-2",)) as servers:
        one, _, dashboard = servers
        assert error_code(http(dashboard, "POST", "/api/recordings", {"name": "none.kslog"})) == "bad_request"
        assert error_code(http(dashboard, "POST", "/api/recordings?instance=shop-9", {})) == "unknown_instance"
        started = http(dashboard, "POST", "/api/recordings?instance=shop-1", {"name": "fleet-one.kslog"})
        assert started.status == 201, started.describe()
        key = unique_key("recorded_through_the_fleet")
        assert request_http(one, {"type": "write", "store": STORE, "op": "set", "path": key, "value": 5}).status == 200
        wait_for(lambda: next(a for a in http(dashboard, "GET", "/api/recordings").json()["active"]
                              if a["name"] == "fleet-one.kslog")["events"] >= 50, "50 recorded events")
        stopped = http(dashboard, "POST", "/api/recordings/recordings/fleet-one.kslog/stop", {})
        assert stopped.status == 200, stopped.describe()
        body = http(dashboard, "GET", "/api/recordings/recordings/fleet-one.kslog").body
        header, *events = [json.loads(line) for line in body.decode().splitlines()]
        assert header["format"] == "keyscope-log"
        assert any(store["id"] == STORE for store in header["stores"])
        live = [event["liveSeq"] for event in events]
        assert live == list(range(live[0], live[0] + len(live))) and live[0] == header["liveSeq"] + 1
        assert any(patch["path"] == key for event in events for patch in event.get("patches", []))
        with tempfile.NamedTemporaryFile(suffix=".kslog") as copy:
            copy.write(body)
            copy.flush()
            verify = subprocess.run([str(keyscope_binary()), "verify", copy.name], capture_output=True, text=True)
        assert verify.returncode == 0, verify.stderr

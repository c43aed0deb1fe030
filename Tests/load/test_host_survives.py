"""The host service survives the inspector's failures (issue 8, "Load and faults"). KeyscopeHostProbe embeds the
inspector with `Inspector.start` and keeps doing its own work (a counter it prints and saves); its inspector is then
broken three ways, and each time the log says so in a clear line and the work goes on:

- its port is already taken: `Inspector.start` fails (and logs why, naming the address); the service runs on
  without an inspector;
- its Public/ directory is deleted while it serves: the dashboard's files answer 404 and the log says the directory
  is gone, while `/api/health`, the WebSocket stream and requests keep working (and the files come back with the
  directory);
- the disk under its recordings is full (a 64 KiB tmpfs, mounted in a mount namespace of the probe's own): the
  recording ends with `endReason` `failed` and a log line, the file keeps its complete lines, the service goes on.
"""

from __future__ import annotations

import os
import shutil
import socket

import pytest

from loadsupport import REPO, Probe, read_json
from support import StreamClient, http, wait_for

WORK_STEPS = 20  # how far the probe's own work must go on after each failure


@pytest.fixture
def probes():
    started: list[Probe] = []
    yield started
    for probe in started:
        probe.kill()


def test_a_taken_port_is_logged_and_the_service_goes_on(tmp_path, probes):
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        probe = Probe(["--state", str(tmp_path / "state"), "--port", str(port)])
        probes.append(probe)
        probe.wait_for(lambda p: "inspector none" in p.stdout, "the probe saying it has no inspector")
        line = probe.wait_log(rf"Keyscope inspector not started: could not listen on 127\.0\.0\.1:{port}\b")
        assert "error" in line, line
        reached = probe.wait_work(WORK_STEPS)
        assert read_json(tmp_path / "state" / "state.json")["root"]["counter"] >= reached - 1
        assert probe.alive()
    finally:
        taken.close()


def test_a_deleted_public_directory_is_logged_and_the_api_goes_on(tmp_path, probes):
    public = tmp_path / "Public"
    shutil.copytree(REPO / "Public", public)
    probe = Probe(["--state", str(tmp_path / "state"), "--port", "0", "--public", str(public)])
    probes.append(probe)
    probe.wait_for(lambda p: p.port, "the probe's inspector listening")
    assert http(probe, "GET", "/", token=None).status == 200
    client = StreamClient.open(probe)
    try:
        shutil.rmtree(public)
        response = http(probe, "GET", "/", token=None)
        assert response.status == 404, response.describe()
        assert "missing" in response.json()["error"]["message"], response.describe()
        assert http(probe, "GET", "/app/main.mjs", token=None).status == 404
        probe.wait_log(r"the dashboard's files at .* are gone")
        assert len(probe.log_lines(r"the dashboard's files at .* are gone")) == 1, "said once, not per request"

        assert http(probe, "GET", "/api/health").status == 200
        before = len(client.entries)
        client.wait_entries(before + 10)  # the probe's own changes keep streaming, in order
        assert client.request({"type": "resync"})["ok"] is True
        probe.wait_work(WORK_STEPS)

        shutil.copytree(REPO / "Public", public)
        assert http(probe, "GET", "/", token=None).status == 200
        assert probe.alive()
    finally:
        client.close()


def mount_namespace_prefix(mountpoint) -> list[str]:
    """A command prefix that runs the probe in a mount namespace of its own with a 64 KiB tmpfs on `mountpoint`:
    nothing to unmount afterwards, whatever happens. As root (here and in CI) a plain `unshare --mount`; otherwise a
    user namespace mapped to root, where the kernel allows one."""
    user = [] if os.geteuid() == 0 else ["--map-root-user"]
    script = 'mount -t tmpfs -o size=64k keyscope-full "$0" && exec "$@"'
    return ["unshare", *user, "--mount", "--propagation", "private", "sh", "-c", script, str(mountpoint)]


def test_a_full_disk_ends_the_recording_with_a_log_line_and_the_service_goes_on(tmp_path, probes):
    assert shutil.which("unshare"), "unshare (util-linux) is needed to mount a small tmpfs for this test"
    full = tmp_path / "recordings"
    full.mkdir()
    probe = Probe(
        ["--state", str(tmp_path / "state"), "--port", "0", "--recordings", str(full)],
        prefix=mount_namespace_prefix(full),
    )
    probes.append(probe)
    probe.wait_for(lambda p: p.port, "the probe's inspector listening (in its mount namespace)")
    started = http(probe, "POST", "/api/recordings", body={})
    assert started.status == 201, started.describe()
    name = started.json()["recording"]["name"]

    def ended():
        active = http(probe, "GET", "/api/recordings").json()["active"]
        return next((item for item in active if item["name"] == name and item["state"] == "ended"), None)

    status = wait_for(ended, "the recording on the full disk to end", timeout=60)
    assert status["endReason"] == "failed", status
    assert "No space left on device" in (status["message"] or ""), status
    line = probe.wait_log(rf"recording .*{name} ended \(failed\)")
    assert "No space left on device" in line, line

    # The file keeps every complete line (read through the API: the tmpfs is only visible to the probe).
    download = http(probe, "GET", f"/api/recordings/recordings/{name}")
    assert download.status == 200, download.describe()
    lines = download.body.split(b"\n")[:-1]
    assert lines and b'"keyscope-log"' in lines[0], download.body[:200]
    assert len(lines) - 1 == status["events"], (len(lines), status)

    # The service goes on: its work, its API, and a new recording on the full disk is refused with the reason.
    probe.wait_work(WORK_STEPS)
    assert http(probe, "GET", "/api/health").status == 200
    again = http(probe, "POST", "/api/recordings", body={})
    assert again.status == 400 and "No space left on device" in again.json()["error"]["message"], again.describe()
    probe.wait_work(5)
    assert probe.alive()

"""`keyscope record` against the real demo: the files it writes are valid recordings (docs/recording.md, checked here by a
small replay that shares no code with Keyscope), its bounds and muting hold, and Ctrl-C ends it cleanly."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support import keyscope_binary

MUTED = "•••• (muted)"
ABSENT = object()


# MARK: - A tiny replay (docs/store.md paths and patches)

PATH_TOKEN = re.compile(r'\.?([^.\[\]"\s]+)|\[(0|[1-9][0-9]*)\]|\[("(?:[^"\\]|\\.)*")\]')


def parse_path(text: str) -> list[str | int]:
    segments: list[str | int] = []
    position = 0
    while position < len(text):
        match = PATH_TOKEN.match(text, position)
        assert match and match.end() > position, f"cannot parse path {text!r} at {position}"
        name, index, quoted = match.groups()
        segments.append(name if name is not None else int(index) if index is not None else json.loads(quoted))
        position = match.end()
    return segments


def lookup(root, segments):
    value = root
    for segment in segments:
        if isinstance(segment, int):
            if not isinstance(value, list) or segment >= len(value):
                return ABSENT
            value = value[segment]
        else:
            if not isinstance(value, dict) or segment not in value:
                return ABSENT
            value = value[segment]
    return value


def apply_patch(root: dict, patch: dict) -> None:
    segments = parse_path(patch["path"])
    op = patch["op"]
    current = lookup(root, segments)
    if op in ("set", "remove"):
        assert current == patch.get("old", ABSENT), f"{patch['path']} is {current!r}, the patch expected {patch.get('old')!r}"
    if not segments:
        assert op == "set" and isinstance(patch["new"], dict)
        root.clear()
        root.update(patch["new"])
        return
    parent = lookup(root, segments[:-1])
    last = segments[-1]
    if op == "set":
        if isinstance(last, int):
            assert isinstance(parent, list) and last <= len(parent)
            if last == len(parent):
                parent.append(patch["new"])
            else:
                parent[last] = patch["new"]
        else:
            assert isinstance(parent, dict), f"no object at the parent of {patch['path']}"
            parent[last] = patch["new"]
    elif op == "insert":
        assert isinstance(parent, list) and isinstance(last, int) and last <= len(parent)
        parent.insert(last, patch["new"])
    elif op == "remove":
        del parent[last]
    elif op == "merge":
        assert isinstance(current, dict), f"merge needs an object at {patch['path']}"
        for key, value in patch["new"].items():
            assert current.get(key, ABSENT) == patch["old"].get(key, ABSENT), f"merge member {key} differs"
            current[key] = value
    else:
        raise AssertionError(f"unknown op {op}")


def replay(path: Path) -> tuple[dict, list[dict], dict]:
    """Checks `path` against docs/recording.md; returns the header, the events and the final state (store id → root)."""
    data = path.read_bytes()
    assert data.endswith(b"\n"), "a torn tail"
    lines = data.decode("utf-8").split("\n")[:-1]
    header = json.loads(lines[0])
    assert header["format"] == "keyscope-log" and header["version"] == 1
    state = {store["id"]: json.loads(json.dumps(store["root"])) for store in header["stores"]}
    events = []
    for number, line in enumerate(lines[1:], start=2):
        assert line, f"line {number} is blank"
        event = json.loads(line)
        assert event["seq"] == number - 1, f"line {number}: seq {event['seq']}"
        kind = event.get("event")
        store = event["store"]
        if kind == "registered":
            assert store not in state
            state[store] = event["root"]
        elif kind == "reset":
            state[store] = {}
        elif kind == "removed":
            del state[store]
        else:
            assert kind is None, kind
            root = json.loads(json.dumps(state[store]))  # all or nothing
            for patch in event["patches"]:
                apply_patch(root, patch)
            state[store] = root
        events.append(event)
    return header, events, state


# MARK: - Running the command


def record(server, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    env.pop("KEYSCOPE_TOKEN", None)
    return subprocess.run(
        [str(keyscope_binary()), "record", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def test_a_timed_recording_is_valid_and_misses_nothing(server, tmp_path):
    output = tmp_path / "timed.kslog"
    done = record(server, "-o", str(output), "--duration", "2s")
    assert done.returncode == 0, done.stderr
    assert re.search(r"keyscope record: \d+ events, [0-9.]+ KiB in [0-9.]+ s into .*\(duration\)", done.stderr)
    header, events, state = replay(output)
    assert {"app/memory", "scenario:checkout/memory"} & {store["id"] for store in header["stores"]}
    assert header["source"]["name"] == "keyscope demo" and header["source"]["pid"] == server.pid
    assert header["recorder"]["name"] == "keyscope"
    assert len(events) > 10, "the demo changes 20 times a second"
    # Nothing muted: every live entry after the header's is there, once, in order.
    live = [event["liveSeq"] for event in events]
    assert live == list(range(header["liveSeq"] + 1, header["liveSeq"] + 1 + len(events)))
    assert "app/memory" in state
    assert output.stat().st_mode & 0o077 == 0, "a recording is readable by its owner only"


def test_the_byte_bound_is_respected(server, tmp_path):
    output = tmp_path / "bounded.kslog"
    done = record(server, "-o", str(output), "--max-bytes", "24KiB", "--duration", "60s")
    assert done.returncode == 0, done.stderr
    assert "(max-bytes)" in done.stderr
    size = output.stat().st_size
    assert size <= 24 * 1024
    assert size > 12 * 1024, "it stops only when the next line would not fit"
    replay(output)


def test_muting_hides_a_path_and_a_store(server, tmp_path):
    output = tmp_path / "muted.kslog"
    done = record(
        server, "-o", str(output), "--duration", "2s", "--mute", "cart.items[*].price", "--mute", "user",
        "--mute-store", "scenario:checkout/memory",
    )
    assert done.returncode == 0, done.stderr
    header, events, state = replay(output)
    assert header["muted"] == ["cart.items.*.price", "user"]
    assert header["mutedStores"] == ["scenario:checkout/memory"]
    assert all(store["id"] != "scenario:checkout/memory" for store in header["stores"])
    assert all(event["store"] != "scenario:checkout/memory" for event in events)
    memory = state["app/memory"]
    # The demo's shopper signs out now and then (`user` removed): absent, or muted, never in clear.
    assert memory.get("user", MUTED) == MUTED
    # The cart may be empty at the end (an order was just placed), but its items came and went in the file: every
    # price in it is muted, wherever it appears (header roots, patches' old and new, merge members).
    assert all(item["price"] == MUTED for item in memory["cart"]["items"])
    text = output.read_text(encoding="utf-8")
    assert f'"price":"{MUTED}"' in text
    assert not re.search(r'"price":\s*[-0-9]', text), "a price in clear"
    for event in events:
        for patch in event.get("patches", []):
            assert not patch["path"].startswith("user."), "patches below a muted path are left out"


def test_ctrl_c_ends_the_recording_cleanly(server, tmp_path):
    output = tmp_path / "interrupted.kslog"
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    process = subprocess.Popen(
        [str(keyscope_binary()), "record", "-o", str(output)], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        first = process.stderr.readline()
        assert "recording" in first and "Ctrl-C" in first
        time.sleep(1.0)
        process.send_signal(signal.SIGINT)
        code = process.wait(10)
        rest = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
    assert code == 0, rest
    assert "(stopped)" in rest
    _, events, _ = replay(output)
    count = int(re.search(r"(\d+) events?", rest).group(1))
    assert count == len(events) > 0


def test_an_existing_file_is_kept_unless_forced(server, tmp_path):
    output = tmp_path / "kept.kslog"
    output.write_text("precious\n")
    refused = record(server, "-o", str(output), "--duration", "1s")
    assert refused.returncode != 0
    assert "already exists" in refused.stderr
    assert output.read_text() == "precious\n"
    forced = record(server, "-o", str(output), "--duration", "1s", "--force")
    assert forced.returncode == 0, forced.stderr
    replay(output)


@pytest.mark.parametrize("pattern", ["items[0]", "a..b", ""])
def test_unusable_mute_patterns_are_refused_before_connecting(server, tmp_path, pattern):
    done = record(server, "-o", str(tmp_path / "x.kslog"), "--mute", pattern)
    assert done.returncode != 0
    assert "--mute" in done.stderr
    assert not (tmp_path / "x.kslog").exists()


def test_falling_behind_ends_with_an_error_and_a_valid_file(launch, tmp_path):
    # A log of 50 entries at 100,000 changes a second: the server's tail passes this client within moments.
    busy = launch("--rate", "100000", "--log-entries", "50", "--no-preferences")
    output = tmp_path / "behind.kslog"
    done = record(busy, "-o", str(output), "--duration", "20s")
    assert done.returncode != 0
    assert "(fell-behind)" in done.stderr
    assert "fell behind" in done.stderr and "holds every event up to live seq" in done.stderr
    header, events, _ = replay(output)
    last = int(re.search(r"up to live seq #(\d+)", done.stderr).group(1))
    assert (events[-1]["liveSeq"] if events else header["liveSeq"]) == last


def test_a_bound_smaller_than_the_header_fails_at_once(server, tmp_path):
    output = tmp_path / "tiny.kslog"
    done = record(server, "-o", str(output), "--max-bytes", "100")
    assert done.returncode != 0
    assert "the header alone takes" in done.stderr
    assert not output.exists()

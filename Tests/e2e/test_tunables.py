"""Tunables end to end (docs/protocol.md `/tune`, docs/tunables.md): the demo's tunables through an independent HTTP
client, the file on disk, and the `keyscope tune` commands (get, set, pull, watch) with real files."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from support import error_code, http, keyscope_binary, raw_request, store_root, wait_for

DEMO_KEYS = {
    "accent_color", "animation_speed", "checkout_mode", "corner_radius", "max_cart_items", "show_badges",
    "support_url", "toolbar_height", "welcome_text",
}


def tunables(server) -> dict:
    response = http(server, "GET", "/tune")
    assert response.status == 200, response.describe()
    return response.json()


def tunables_store(server) -> str:
    response = http(server, "GET", "/api/tunables")
    assert response.status == 200, response.describe()
    return response.json()["store"]


def put(server, key: str, value: str, **kwargs):
    return http(server, "PUT", f"/tune/{key}/{value}", **kwargs)


# MARK: - HTTP


def test_get_tune_lists_every_tunable_in_the_values_json_form(server):
    values = tunables(server)
    assert set(values) >= DEMO_KEYS
    assert isinstance(values["max_cart_items"], int)
    assert values["accent_color"].keys() == {"$color"}
    assert values["support_url"].keys() == {"$url"}


def test_api_tunables_describes_store_values_defaults_and_schema(server):
    description = http(server, "GET", "/api/tunables").json()
    assert description["store"].startswith("app/file:") and description["store"].endswith("/live-constants.json")
    assert set(description["values"]) >= DEMO_KEYS
    assert set(description["defaults"]) == DEMO_KEYS
    assert description["schema"]["toolbar_height"]["type"] == "integer"
    assert description["schema"]["checkout_mode"]["options"] == ["standard", "express", "guest"]


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("toolbar_height", "48", 48),
        ("animation_speed", "2.5", 2.5),
        ("animation_speed", "2", 2.0),  # a number tunable takes an integer as a number
        ("welcome_text", "0x10", "0x10"),  # not the JSON number grammar: a string
        ("welcome_text", "+1", "+1"),
        ("welcome_text", "nan", "nan"),
        ("welcome_text", "Hello%20there%2Fall", "Hello there/all"),  # %2F stays inside its segment
        ("accent_color", "%23FF8800", {"$color": "#FF8800"}),  # a color tunable reads #RRGGBB as a color
        ("show_badges", "false", False),
    ],
)
def test_put_sets_one_tunable_typed_by_the_number_grammar_and_the_schema(server, key, text, expected):
    response = put(server, key, text)
    assert response.status == 200, response.describe()
    assert isinstance(response.json()["seq"], int)
    value = tunables(server)[key]
    assert value == expected and type(value) is type(expected)


def test_a_put_is_a_change_in_the_log_and_in_the_file_on_disk(server):
    store = tunables_store(server)
    response = put(server, "max_cart_items", "42")
    assert response.status == 200, response.describe()
    seq = response.json()["seq"]
    snapshot = http(server, "GET", "/api/snapshot").json()
    assert snapshot["seq"] >= seq
    assert store_root(snapshot, store)["max_cart_items"] == 42
    path = Path(store.removeprefix("app/file:"))
    wait_for(lambda: json.loads(path.read_text()).get("max_cart_items") == 42, "the file on disk has the value")


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/tune/toolbar_height/500", 400, "out_of_range"),
        ("/tune/toolbar_height/45", 400, "out_of_range"),  # not on the step of 4 from 24
        ("/tune/toolbar_height/4.5", 400, "type_mismatch"),
        ("/tune/checkout_mode/turbo", 400, "out_of_range"),
        ("/tune/accent_color/%23zz", 400, "type_mismatch"),
        ("/tune/a%2Fb/1", 400, "bad_request"),  # a key holds no "/"
        ("/tune/toolbar_height/48/more", 400, "type_mismatch"),  # the value is "48/more", the rest of the path
        ("/tune/toolbar_height", 400, "bad_request"),
        ("/tune/toolbar_height/%zz", 400, "bad_request"),
    ],
)
def test_bad_puts_say_what_is_wrong_and_change_nothing(server, path, status, code):
    before = tunables(server)
    response = http(server, "PUT", path)
    assert response.status == status, response.describe()
    assert error_code(response) == code
    assert response.json()["error"]["message"]
    assert tunables(server) == before


def test_post_replaces_every_tunable_at_once(server):
    values = http(server, "GET", "/api/tunables").json()["defaults"]
    values["welcome_text"] = "Posted"
    values["toolbar_height"] = 60
    response = http(server, "POST", "/tune", body=values)
    assert response.status == 200, response.describe()
    assert tunables(server) == values


@pytest.mark.parametrize(
    ("body", "headers", "status", "code"),
    [
        ("{not json", {"Content-Type": "application/json"}, 400, "bad_json"),
        ("[1, 2]", {"Content-Type": "application/json"}, 400, "bad_json"),  # not an object: bad_json, as for requests
        ('{"toolbar_height": 500}', {"Content-Type": "application/json"}, 400, None),
        ('{"toolbar_height": 44}', {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
    ],
)
def test_bad_posts_are_refused_whole(server, body, headers, status, code):
    before = tunables(server)
    response = http(server, "POST", "/tune", body=body, headers=headers)
    assert response.status == status, response.describe()
    if code:
        assert error_code(response) == code
    assert tunables(server) == before


def test_a_huge_post_gets_413(server):
    # Declared over the 4 MiB limit: the server answers at once, without reading the body.
    before = tunables(server)
    response = raw_request(
        server, "POST", "/tune", headers=[("Content-Type", "application/json"), ("Content-Length", str(5 << 20))])
    assert response.status == 413, response.describe()
    assert error_code(response) == "too_large"
    assert tunables(server) == before


def test_tune_needs_the_token_and_checks_origin(server):
    assert http(server, "GET", "/tune", token=None).status == 401
    assert put(server, "toolbar_height", "48", token="wrong-token-wrong-token").status == 401
    refused = put(server, "toolbar_height", "48", headers={"Origin": "http://evil.example"})
    assert refused.status == 403


def test_a_read_only_server_refuses_tune_writes(launch):
    running = launch("--read-only")
    before = tunables(running)
    response = put(running, "toolbar_height", "48")
    assert response.status == 403 and error_code(response) == "read_only"
    response = http(running, "POST", "/tune", body=before)
    assert response.status == 403 and error_code(response) == "read_only"
    assert tunables(running) == before


# MARK: - CLI


def run(server, *args: str, cwd: Path | None = None, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """`keyscope ARGS`, finding the server through its record (KEYSCOPE_HOME), as a developer would."""
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    env.pop("KEYSCOPE_TOKEN", None)
    return subprocess.run(
        [str(keyscope_binary()), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def test_cli_get_and_set(server):
    listed = run(server, "tune", "get")
    assert listed.returncode == 0, listed.stderr
    assert set(json.loads(listed.stdout)) >= DEMO_KEYS
    assert run(server, "tune", "set", "welcome_text", "Hi / there").returncode == 0
    one = run(server, "tune", "get", "welcome_text")
    assert one.returncode == 0, one.stderr
    assert json.loads(one.stdout) == "Hi / there"
    refused = run(server, "tune", "set", "toolbar_height", "500")
    assert refused.returncode != 0
    assert "out_of_range" in refused.stderr
    missing = run(server, "tune", "get", "no_such_key")
    assert missing.returncode != 0 and "no_such_key" in missing.stderr


def test_cli_pull_writes_sorted_pretty_json_and_is_stable(server, tmp_path):
    target = tmp_path / "live-constants.json"
    first = run(server, "tune", "pull", str(target))
    assert first.returncode == 0, first.stderr
    text = target.read_text()
    values = json.loads(text)
    assert values == tunables(server)
    assert list(values) == sorted(values), "keys are sorted"
    assert text.endswith("\n") and '\n  "' in text, "pretty-printed with two-space indents"
    assert run(server, "tune", "pull", str(target)).returncode == 0
    assert target.read_text() == text, "the same values give the same bytes"


class Watcher:
    """`keyscope tune watch FILE` running in the background, its output collected."""

    def __init__(self, server, path: Path) -> None:
        env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
        env.pop("KEYSCOPE_TOKEN", None)
        self.process = subprocess.Popen(
            [str(keyscope_binary()), "tune", "watch", str(path)], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        for stream, lines in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr)):
            threading.Thread(target=lambda s=stream, l=lines: [l.append(x) for x in s], daemon=True).start()

    def stop(self) -> int:
        self.process.terminate()
        return self.process.wait(timeout=10)


def save_by_rename(path: Path, values: dict) -> None:
    """Saves the way editors do: a temporary file renamed over the old one."""
    temporary = path.with_name(path.name + ".tmp~")
    temporary.write_text(json.dumps(values, indent=2, sort_keys=True) + "\n")
    os.replace(temporary, path)


def test_cli_watch_pushes_every_save_and_survives_bad_ones(server, tmp_path):
    target = tmp_path / "live-constants.json"
    assert run(server, "tune", "pull", str(target)).returncode == 0
    values = json.loads(target.read_text())
    values["welcome_text"] = "pushed at start"
    target.write_text(json.dumps(values, indent=2, sort_keys=True) + "\n")
    watcher = Watcher(server, target)
    try:
        wait_for(lambda: tunables(server)["welcome_text"] == "pushed at start", "the watcher pushes once at start")
        values["welcome_text"] = "saved in place"
        target.write_text(json.dumps(values, indent=2, sort_keys=True) + "\n")
        wait_for(lambda: tunables(server)["welcome_text"] == "saved in place", "an in-place save is pushed")
        values["welcome_text"] = "saved by rename"
        save_by_rename(target, values)
        wait_for(lambda: tunables(server)["welcome_text"] == "saved by rename", "a save by rename is pushed")

        target.write_text("{ not json")
        wait_for(lambda: any("json" in line.lower() for line in watcher.stderr), "bad JSON gets a message")
        values["toolbar_height"] = 500
        save_by_rename(target, values)
        wait_for(lambda: any("out_of_range" in line for line in watcher.stderr), "a refused value gets a message")
        assert watcher.process.poll() is None, "the watcher keeps running"
        assert tunables(server)["toolbar_height"] != 500

        values["toolbar_height"] = 64
        save_by_rename(target, values)
        wait_for(lambda: tunables(server)["toolbar_height"] == 64, "the next good save is pushed")
    finally:
        code = watcher.stop()
    assert code == 0, "".join(watcher.stderr)
    assert all("\n" not in line.rstrip("\n") for line in watcher.stderr), "one line per message"


def test_an_edit_of_the_file_on_disk_is_picked_up_live_and_a_bad_one_is_ignored(server):
    path = Path(tunables_store(server).removeprefix("app/file:"))
    values = json.loads(path.read_text())
    values["welcome_text"] = "edited on disk"
    save_by_rename(path, values)
    wait_for(lambda: tunables(server)["welcome_text"] == "edited on disk", "the server applies the saved file")
    path.write_text("{ half a file")
    wait_for(lambda: any("live-constants.json" in line and "error" in line.lower() for line in server.stderr_tail),
             "a file that does not parse gets a log line naming it")
    assert tunables(server)["welcome_text"] == "edited on disk", "the last good values stay"
    values["welcome_text"] = "fixed on disk"
    save_by_rename(path, values)
    wait_for(lambda: tunables(server)["welcome_text"] == "fixed on disk", "the next good save is applied")

"""Where `keyscope serve --demo` and `keyscope demo` keep their state (issues 23 and 28): the state folder is
$KEYSCOPE_HOME, else $XDG_STATE_HOME/keyscope, else $HOME/.local/state/keyscope; the demo's tunables and settings
file live in its demo/ and survive a restart; nothing is left in the temporary folder, and the per-run folders older
versions left there are removed once their process is gone."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cli_child import cli_env, run_cli
from support import http

# No KEYSCOPE_HOME and no runtime folder: the state folder rule alone decides (empty counts as unset).
UNSET = {"KEYSCOPE_HOME": "", "XDG_RUNTIME_DIR": ""}


def expect_settings_store(server, path: Path) -> None:
    """Waits until the demo registered its settings store (a file store) at `path`; the demo opens it after
    `app/memory`, so it may not be in the first snapshot."""
    server.wait_store(f"app/file:{path}")


def test_the_state_folder_follows_xdg_state_home(launch, scratch):
    served = launch(env={**UNSET, "XDG_STATE_HOME": str(scratch)})
    folder = scratch / "keyscope"
    assert (folder / "servers" / f"{served.port}.json").is_file()
    expect_settings_store(served, folder / "demo" / "state.json")
    assert (folder / "demo" / "live-constants.json").is_file()
    assert (folder / "secrets").is_dir()


def test_without_xdg_state_home_the_state_folder_is_under_home(launch, scratch):
    served = launch(env={**UNSET, "XDG_STATE_HOME": "", "HOME": str(scratch)})
    folder = scratch / ".local" / "state" / "keyscope"
    assert (folder / "servers" / f"{served.port}.json").is_file()
    expect_settings_store(served, folder / "demo" / "state.json")
    # A client with the same HOME finds the server through that record.
    found = run_cli(["snapshot", "--store", "app/memory", "--compact"],
                    cli_env("", XDG_RUNTIME_DIR="", XDG_STATE_HOME="", HOME=str(scratch)))
    assert found.returncode == 0, found.stderr


def test_the_demo_keeps_its_tunables_and_settings_across_a_restart(launch, scratch):
    env = {"KEYSCOPE_HOME": str(scratch), "TMPDIR": str(scratch)}
    first = launch(env=env)
    assert run_cli(["tune", "set", "toolbar_height", "100"], cli_env(scratch)).returncode == 0
    expect_settings_store(first, scratch / "demo" / "state.json")
    assert first.stop() == 0

    second = launch(env=env)
    assert http(second, "GET", "/tune").json()["toolbar_height"] == 100
    assert not list(scratch.glob("keyscope-serve-*")), "nothing in the temporary folder"


def test_kill_9_leaves_nothing_behind_and_old_run_folders_of_dead_processes_go(launch, scratch):
    temporary = scratch / "tmp"
    temporary.mkdir()
    # A folder of an older version's run whose process is gone, and one of a process that is still alive.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (temporary / f"keyscope-serve-{gone.pid}" / "bundle").mkdir(parents=True)
    alive = temporary / "keyscope-serve-1"   # pid 1 is always running
    alive.mkdir()
    env = {"KEYSCOPE_HOME": str(scratch / "state"), "TMPDIR": str(temporary)}
    killed = launch(env=env)
    killed.process.send_signal(signal.SIGKILL)
    killed.wait()
    assert sorted(p.name for p in temporary.iterdir()) == ["keyscope-serve-1"]
    launch(env=env)
    assert alive.is_dir() and not (temporary / f"keyscope-serve-{gone.pid}").exists()


def test_keyscope_demo_keeps_its_settings_file_where_serve_demo_does(scratch):
    env = cli_env(scratch, TMPDIR=str(scratch / "tmp"))
    (scratch / "tmp").mkdir()
    settings = scratch / "demo" / "state.json"
    for launches in (1, 2):  # the second run starts from the first one's file
        done = run_cli(["demo", "--duration", "1", "--rate", "20", "--seed", "7"], env)
        assert done.returncode == 0, done.stderr
        assert f"state file {settings}" in done.stdout.splitlines()[0], done.stdout
        assert json.loads(settings.read_text())["root"]["launches"] == launches
    assert not list((scratch / "tmp").iterdir()), "nothing in the temporary folder"


def test_keyscope_demo_without_a_state_folder_it_can_make_says_what_to_set(scratch):
    blocker = scratch / "file"
    blocker.write_text("not a folder")
    done = run_cli(["demo", "--duration", "1"], cli_env(blocker / "keyscope"))
    assert done.returncode == 1, done.stderr
    assert "could not make the demo's state folder" in done.stderr and "--state-dir" in done.stderr, done.stderr

"""The README's Quick start, run as written and in its order against the real binaries, after a demo server has
started as `make run` starts it (issue 28: "every command of the README works as written").

The commands are read from README.md itself, so the test follows the README when it changes. `swift run keyscope`
is the built binary ($KEYSCOPE_BIN). They run in a fresh folder beside the checkout's `fixtures/` (a symlink), the
way a user runs them from the checkout, so the files they write land there and not in the checkout. `tail` and
`tune watch`, which run until Ctrl-C, stay running in the background like the other terminals they would get, and
are stopped at the end with Ctrl-C.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tempfile
from pathlib import Path

import pytest

from cli_child import BackgroundCLI, cli_env, run_cli
from support import DASHBOARD_LINE, REPO, http

PREFIX = ["swift", "run", "keyscope"]


def quick_start_commands() -> list[list[str]]:
    """The `swift run keyscope …` commands of the README's Quick start, in order, comments dropped."""
    text = (REPO / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert any("make run" in block for block in blocks), "the Quick start starts the demo with make run"
    commands = [shlex.split(line, comments=True) for block in blocks for line in block.splitlines()
                if line.startswith("swift run keyscope ")]
    assert commands, "the Quick start has client commands"
    return commands


@pytest.fixture
def folder():
    made = Path(tempfile.mkdtemp(prefix="keyscope-quickstart-"))
    (made / "fixtures").symlink_to(REPO / "fixtures")
    yield made
    shutil.rmtree(made, ignore_errors=True)


def test_every_quick_start_command_runs_as_written_in_order(launch, folder):
    server = launch()   # `make run`: `keyscope serve --demo` (on a free port here; the clients find it alike)
    env = cli_env(server.home)
    background: list[BackgroundCLI] = []
    ran: list[str] = []
    try:
        for words in quick_start_commands():
            assert words[:3] == PREFIX
            args = words[3:]
            line = " ".join(words)
            ran.append(args[0] if args[0] != "tune" else f"tune {args[1]}")
            if args[0] == "tail":
                tail = BackgroundCLI(args, env, cwd=folder)
                background.append(tail)
                tail.wait_line(lambda text: text.startswith("#"), "log entry")
            elif args[:2] == ["tune", "watch"]:
                watch = BackgroundCLI(args, env, cwd=folder)
                background.append(watch)
                watch.wait_line(lambda text: text.startswith("pushed "), "first push")
                # A save of the file is pushed back to the demo, live.
                path = folder / args[2]
                values = json.loads(path.read_text())
                values["toolbar_height"] = 72
                path.write_text(json.dumps(values))
                watch.wait_line(lambda text: text.startswith("pushed ") and text != watch.stdout[0], "second push")
                tuned = http(server, "GET", "/tune")
                assert tuned.json()["toolbar_height"] == 72, tuned.describe()
            elif args[0] == "replay" and "--serve" in args:
                replay = BackgroundCLI(args, env, cwd=folder)
                background.append(replay)
                dashboard = replay.wait_line(lambda text: DASHBOARD_LINE.match(text) is not None, "dashboard line")
                assert int(DASHBOARD_LINE.match(dashboard).group(1)) != server.port
                replay.wait_line(lambda text: "serving its final state" in text, "end of the replay", "stderr")
            else:
                done = run_cli(args, env, cwd=folder, timeout=120)
                assert done.returncode == 0, f"`{line}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
                assert "Error" not in done.stderr, f"`{line}`:\n{done.stderr}"
                check_output(args, done.stdout, folder, server)
        for child in background:
            code = child.interrupt()
            assert code == 0, f"`keyscope {' '.join(child.args)}` exited {code} on Ctrl-C:\n{child.stderr[-10:]}"
    finally:
        for child in background:
            child.interrupt()
    assert ran == ["tail", "write", "snapshot", "tune set", "tune pull", "tune watch", "record", "verify", "state",
                   "replay"], "the test ran the Quick start's commands; update this list with the README"
    # The files the commands wrote are in the folder they ran in; in a checkout, git ignores them.
    ignored = (REPO / ".gitignore").read_text().splitlines()
    for name in ("constants.json", "bug.kslog"):
        assert (folder / name).is_file()
        assert f"/{name}" in ignored


def check_output(args: list[str], stdout: str, folder: Path, server) -> None:
    """What each finishing command of the Quick start must have done, beyond exiting 0."""
    match args[0]:
        case "write":
            assert stdout.startswith("ok seq "), stdout
        case "snapshot":
            assert isinstance(json.loads(stdout), (int, float)), stdout
        case "tune" if args[1] == "set":
            assert stdout.startswith(f"{args[2]} = {args[3]} (seq "), stdout
        case "tune" if args[1] == "pull":
            assert json.loads((folder / args[2]).read_text()) == http(server, "GET", "/tune").json()
        case "record":
            assert (folder / args[args.index("-o") + 1]).stat().st_size > 0
        case "state":
            state = json.loads(stdout)
            assert "app/memory" in state, stdout[:300]

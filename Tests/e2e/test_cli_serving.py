"""The serving commands' mistakes (issue 28): a bad option is a usage error of that command (exit 64, its own usage
line, the flag named), a server that cannot listen is a runtime failure (exit 1, no usage text) that leaves nothing
behind, and `serve --help` names every client command that finds servers through their records."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

from cli_child import cli_env, run_cli
from support import REPO

RECORDING = REPO / "fixtures" / "recordings" / "checkout-session.kslog"


def user(scratch: Path, **extra: str) -> dict[str, str]:
    """A user whose state folder, temporary folder and UserDefaults are all in `scratch`."""
    env = cli_env(scratch, TMPDIR=str(scratch), XDG_CONFIG_HOME=str(scratch / "config"), **extra)
    env.pop("KEYSCOPE_REDIS_URL", None)
    return env


def left_behind(scratch: Path) -> list[str]:
    """What a server left in the state and temporary folders: records, per-run folders."""
    records = sorted(p.name for p in (scratch / "servers").glob("*")) if (scratch / "servers").is_dir() else []
    return records + sorted(p.name for p in scratch.glob("keyscope-serve-*"))


@pytest.mark.parametrize(("args", "extra", "message", "command"), [
    (["serve", "--demo", "--port", "99999"], {}, "--port must be 0 (a free port) or 1 to 65535; got 99999.", "serve"),
    (["serve", "--demo", "--port", "0", "--token", "short"], {},
     "--token must be 16 or more URL-safe characters", "serve"),
    (["serve", "--demo", "--port", "0"], {"KEYSCOPE_TOKEN": "not a token"},
     "KEYSCOPE_TOKEN must be 16 or more URL-safe characters", "serve"),
    (["replay", str(RECORDING), "--serve", "--port", "70000"], {},
     "--port must be 0 (a free port) or 1 to 65535; got 70000.", "replay"),
    # Refused only once the command runs (the server checks the folder): still the command's own usage line.
    (["serve", "--demo", "--port", "0", "--public", "/nonexistent-keyscope-public"], {},
     "the public directory /nonexistent-keyscope-public does not exist", "serve"),
    (["fleet", "--port", "0"], {}, "fleet needs --redis URL (or KEYSCOPE_REDIS_URL)", "fleet"),
])
def test_a_bad_serving_option_is_a_usage_error_of_its_command(scratch, args, extra, message, command):
    done = run_cli(args, user(scratch, **extra))
    assert done.returncode == 64, f"exit {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert message in done.stderr, done.stderr
    assert f"Usage: keyscope {command} " in done.stderr, "the command's usage line, not the root's"
    assert f"See 'keyscope {command} --help'" in done.stderr, done.stderr
    assert not done.stdout and left_behind(scratch) == []


@pytest.mark.parametrize("port", ["0", "9"])
def test_an_address_not_of_this_machine_is_a_runtime_failure_that_leaves_nothing(scratch, port):
    # 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    done = run_cli(["serve", "--demo", "--host", "192.0.2.1", "--port", port], user(scratch), timeout=60)
    assert done.returncode == 1, f"exit {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert "Usage:" not in done.stderr and "Keyscope dashboard" not in done.stdout, done.stdout + done.stderr
    if port == "0":
        assert "could not listen on 192.0.2.1: it is not an address of this machine" in done.stderr, done.stderr
    else:
        assert "could not listen on 192.0.2.1:9: the port is taken, or the address is not one of this machine's" \
            in done.stderr, done.stderr
    assert left_behind(scratch) == [], "no server record and no per-run folder after a failed start"


def test_serve_help_names_every_client_command_that_finds_servers_by_their_records():
    env = cli_env(tempfile.gettempdir())
    root = run_cli(["--help"], env).stdout
    commands = re.findall(r"^  (\w+) {2,}", root.split("SUBCOMMANDS:", 1)[1], re.M)
    assert {"serve", "snapshot", "tune", "open"} <= set(commands), root
    clients = []
    for command in commands:
        helped = run_cli([command, "--help"], env).stdout
        subcommands = re.findall(r"^  (\w+) {2,}", helped.split("SUBCOMMANDS:", 1)[1], re.M) \
            if "SUBCOMMANDS:" in helped else []
        texts = [helped] + [run_cli([command, sub, "--help"], env).stdout for sub in subcommands]
        # A client command takes the server options: --url and --token, or a record found on this machine.
        if any("SERVER:" in text and "--url <URL>" in text for text in texts):
            clients.append(command)
    assert {"snapshot", "tail", "write", "tune", "record", "open"} <= set(clients), clients
    serve_help = " ".join(run_cli(["serve", "--help"], env).stdout.split())
    listed = re.search(r"where the client commands \(([^)]*)\) find them", serve_help)
    assert listed, serve_help
    assert sorted(re.findall(r"`(\w+)`", listed.group(1))) == sorted(clients)

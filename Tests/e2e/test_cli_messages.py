"""The `keyscope` client commands' mistakes and messages against a real demo (issue 28): each error says what was
wrong and what to do, usage errors alone exit with 64 (and print the usage line), runtime failures exit with 1."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cli_child import BackgroundCLI, cli_env, run_cli
from support import DASHBOARD_LINE, REPO, LoopbackAddress, http

RECORDING = REPO / "fixtures" / "recordings" / "checkout-session.kslog"


def cli(server, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli(list(args), cli_env(server.home, **extra))


def runtime_failure(done: subprocess.CompletedProcess[str]) -> str:
    """The stderr of a runtime failure: exit 1, no usage text."""
    assert done.returncode == 1, f"exit {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert "Usage:" not in done.stderr, done.stderr
    return done.stderr


def test_an_unknown_store_gets_one_message_everywhere_with_the_stores_and_the_closest(server):
    for args in (["write", "app/memroy", "cart.total", "1"], ["snapshot", "--store", "app/memroy"],
                 ["tail", "--store", "app/memroy"]):
        stderr = runtime_failure(cli(server, *args))
        assert 'no store "app/memroy" on the server; did you mean app/memory?' in stderr, (args, stderr)
        assert re.search(r"\(its stores: (.+, )?app/memory(, .+)?\)", stderr), (args, stderr)


def test_tail_of_a_store_not_registered_yet_says_so_and_keeps_following(server):
    tail = BackgroundCLI(["tail", "--store", "scenario:later/memory"], cli_env(server.home))
    try:
        notice = tail.wait_line(lambda line: 'no store "scenario:later/memory"' in line, "notice", "stderr")
        assert "app/memory" in notice and "following it from when it is registered" in notice
        tail.wait_line(lambda line: "following" in line and "(Ctrl-C stops)" in line, "start notice", "stderr")
    finally:
        assert tail.interrupt() == 0


def test_write_names_a_key_it_created_and_takes_negative_numbers(server):
    created = cli(server, "write", "app/memory", "cli_fresh.total", "-5")
    assert created.returncode == 0, created.stderr
    assert re.fullmatch(r"ok seq \d+\n", created.stdout), "stdout stays `ok seq N` for scripts"
    assert "keyscope write: created cli_fresh, which did not exist before" in created.stderr
    assert "keyscope write app/memory cli_fresh --op remove" in created.stderr
    again = cli(server, "write", "app/memory", "cli_fresh.total", "-2.5")
    assert again.returncode == 0 and "created" not in again.stderr, again.stderr
    shown = cli(server, "snapshot", "--store", "app/memory", "--path", "cli_fresh.total", "--compact")
    assert json.loads(shown.stdout) == -2.5


def test_bad_json_hints_are_valid_advice_and_usage_errors(server):
    broken = cli(server, "write", "app/memory", "cli.code", '{"code":')
    assert broken.returncode == 64 and "Usage:" in broken.stderr
    assert "Check the JSON" in broken.stderr and "--string" in broken.stderr
    assert "'\"{" not in broken.stderr, "no quoting advice that is itself invalid JSON"
    word = cli(server, "write", "app/memory", "cli.word", "hello")
    assert word.returncode == 64 and "'\"hello\"'" in word.stderr, word.stderr


def test_a_refused_token_says_where_the_token_came_from(server):
    given = runtime_failure(cli(server, "snapshot", "--token", "wrong-token-0123456789"))
    assert "refused the token given with --token" in given and "?token=" in given
    inherited = runtime_failure(cli(server, "tune", "get", KEYSCOPE_TOKEN="wrong-token-0123456789"))
    assert "the token in KEYSCOPE_TOKEN" in inherited and "Authorization" not in inherited, inherited


def test_state_at_a_negative_seq_is_refused_as_negative():
    done = run_cli(["state", str(RECORDING), "--at", "-1"], cli_env(tempfile.gettempdir()))
    assert done.returncode == 64
    assert "--at must be 0 or more; got -1." in done.stderr, done.stderr


def test_record_onto_an_existing_file_names_force(server, scratch):
    target = scratch / "kept.kslog"
    target.write_text("precious")
    stderr = runtime_failure(cli(server, "record", "-o", str(target), "--duration", "1s"))
    assert "already exists; pass --force to overwrite it" in stderr
    assert target.read_text() == "precious"


def test_a_taken_port_is_a_runtime_failure_naming_the_holder_and_port_0(server, scratch):
    # Another user's state folder that knows the running demo's record (so it can name who holds the port).
    (scratch / "servers").mkdir(mode=0o700)
    shutil.copy(server.record_path, scratch / "servers")
    env = cli_env(scratch, TMPDIR=str(scratch), XDG_CONFIG_HOME=str(scratch / "config"))
    for args in (["serve", "--demo", "--port", str(server.port)],
                 ["replay", str(RECORDING), "--serve", "--port", str(server.port)]):
        stderr = runtime_failure(run_cli(args, env))
        assert f"could not listen on 127.0.0.1:{server.port}: keyscope demo (pid {server.pid})" in stderr, stderr
        assert "pass --port 0" in stderr


def test_replay_serve_beside_the_demo_is_named_and_refuses_writes_with_the_reason(server):
    replay = BackgroundCLI(["replay", str(RECORDING), "--serve", "--speed", "max"], cli_env(server.home), cwd=REPO)
    try:
        dashboard = DASHBOARD_LINE.match(replay.wait_line(DASHBOARD_LINE.match, "dashboard line"))
        port = int(dashboard.group(1))
        assert port != server.port, "replay --serve takes a free port by default"
        # Its refusal over the protocol names no flag replay lacks either.
        refusal = http(LoopbackAddress(port, dashboard.group(2)), "POST", "/api/request",
                       body={"type": "write", "id": 1, "store": "app/memory", "op": "set", "path": "x", "value": 1})
        assert refusal.json()["error"]["code"] == "read_only", refusal.describe()
        assert "replay --serve" in refusal.json()["error"]["message"], refusal.describe()
        assert "without --read-only" not in refusal.json()["error"]["message"], refusal.describe()
        chosen = cli(server, "snapshot", "--compact")
        assert chosen.returncode == 0, chosen.stderr
        assert (f"keyscope: 2 servers are running; using the newest, keyscope replay on port {port} "
                f"(pass --port N for another: {server.port} keyscope demo)") in chosen.stderr
        refused = runtime_failure(cli(server, "write", "app/memory", "cart.total", "1"))
        assert "`keyscope replay --serve`, which shows a recording and refuses every write" in refused
        assert "--read-only" not in refused, "replay has no --read-only flag"
        # A recording has no tunables: the answer says so, and where they are read instead.
        untuned = runtime_failure(cli(server, "tune", "get"))
        assert "no_tunables: `keyscope replay --serve` shows a recording, which holds no tunables" in untuned, untuned
        assert "TunablesFeature" not in untuned, "no embedding advice for a replay"
        direct = cli(server, "write", "app/memory", "cart.total", "1", "--port", str(server.port))
        assert direct.returncode == 0 and "servers are running" not in direct.stderr, direct.stderr
    finally:
        assert replay.interrupt() == 0


def test_tune_watch_without_a_server_keeps_going_and_pushes_once_one_runs(launch, scratch):
    home = scratch / "home"
    home.mkdir()
    constants = scratch / "constants.json"
    constants.write_text('{"toolbar_height": 52}')
    watch = BackgroundCLI(["tune", "watch", str(constants)], cli_env(home))
    try:
        watch.wait_line(lambda line: "watching" in line and "the service once it runs" in line, "start", "stderr")
        watch.wait_line(lambda line: "the next save is pushed again" in line, "no-server notice", "stderr")
        served = launch(env={"KEYSCOPE_HOME": str(home)})
        # The next save reaches the server that started after the watch (every tunable: POST /tune replaces them).
        full = http(served, "GET", "/tune").json()
        full["toolbar_height"] = 56
        constants.write_text(json.dumps(full))
        watch.wait_line(lambda line: line.startswith("pushed "), "push to the server that started later")
        assert http(served, "GET", "/tune").json()["toolbar_height"] == 56
    finally:
        assert watch.interrupt() == 0


def test_record_with_a_misspelt_mute_store_stops_before_writing(server, scratch):
    target = scratch / "muted.kslog"
    stderr = runtime_failure(cli(server, "record", "-o", str(target), "--duration", "1s", "--mute-store", "app/memroy"))
    assert '--mute-store: no store "app/memroy" on the server; did you mean app/memory?' in stderr
    assert not target.exists(), "nothing recorded with the store left in by mistake"


def test_tune_set_of_a_key_the_demo_lacks_says_it_created_it_and_remove_takes_it_out(server):
    known = sorted(http(server, "GET", "/tune").json())
    assert "toolbar_height" in known and "toolbr_height" not in known
    created = cli(server, "tune", "set", "toolbr_height", "60")
    assert created.returncode == 0, created.stderr
    assert re.fullmatch(r"toolbr_height = 60 \(seq \d+\)\n", created.stdout), "stdout stays `KEY = VALUE (seq N)`"
    assert (f"keyscope tune set: created toolbr_height, a tunable the service did not have (a typo of "
            f"toolbar_height? it had {', '.join(known)}); `keyscope tune remove toolbr_height` takes it out"
            ) in created.stderr, created.stderr
    again = cli(server, "tune", "set", "toolbr_height", "64")
    assert again.returncode == 0 and "created" not in again.stderr, again.stderr

    removed = cli(server, "tune", "remove", "toolbr_height")
    assert removed.returncode == 0, removed.stderr
    assert re.fullmatch(r"removed toolbr_height \(seq \d+\)\n", removed.stdout), removed.stdout
    assert sorted(http(server, "GET", "/tune").json()) == known
    # Gone now: removing or reading it again lists the tunables there are, with the closest one.
    for args in (["tune", "remove", "toolbr_height"], ["tune", "get", "toolbr_height"]):
        stderr = runtime_failure(cli(server, *args))
        assert f"the tunables are: {', '.join(known)} (did you mean toolbar_height?)" in stderr, (args, stderr)


def test_tail_of_a_misspelt_store_that_comes_and_goes_names_the_right_one(server):
    # The demo's checkout scenario store comes and goes: a misspelling of it is an error with the closest id while
    # it is registered, and otherwise is followed with a notice, then named once the real one registers.
    tail = BackgroundCLI(["tail", "--store", "scenario:checkuot/memory"], cli_env(server.home))
    try:
        said = tail.wait_line(lambda line: "scenario:checkout/memory" in line and "did you mean" in line, "the closest",
                              "stderr", timeout=120)
        if said.startswith("Error:"):
            assert said.startswith('Error: no store "scenario:checkuot/memory" on the server; did you mean '
                                   'scenario:checkout/memory? (its stores: '), said
            assert tail.process.wait(60) == 1
        else:
            assert said == ("keyscope tail: scenario:checkout/memory was registered; did you mean it? (still waiting "
                            "for scenario:checkuot/memory; Ctrl-C, then `keyscope tail --store "
                            "scenario:checkout/memory`)"), said
            assert 'no store "scenario:checkuot/memory"' in tail.stderr[0], tail.stderr
    finally:
        code = tail.interrupt()
    assert code == (1 if said.startswith("Error:") else 0), (code, tail.stderr)

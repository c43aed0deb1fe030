"""The `keyscope` client commands against a real server: they find it through its record, with no flags."""

from __future__ import annotations

import json
import os
import subprocess

from support import keyscope_binary


def run(server, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """Runs `keyscope ARGS` with the server's KEYSCOPE_HOME, so that it finds the server record by itself."""
    env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
    env.pop("KEYSCOPE_TOKEN", None)
    return subprocess.run(
        [str(keyscope_binary()), *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def test_write_then_snapshot_finds_the_server_and_sees_the_value(server):
    written = run(server, "write", "app/memory", "cli.note", '{"text": "from the CLI", "n": 3}')
    assert written.returncode == 0, written.stderr
    assert written.stdout.startswith("ok seq ")
    seq = int(written.stdout.split()[2])
    assert seq > 0

    shown = run(server, "snapshot", "--store", "app/memory", "--path", "cli.note", "--compact")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == {"n": 3, "text": "from the CLI"}


def test_write_reports_the_servers_error_code_and_exits_non_zero(server):
    refused = run(server, "write", "app/memory", "a..b", "1")
    assert refused.returncode != 0
    assert "bad_path" in refused.stderr


def test_write_refuses_a_value_that_is_not_json_without_string(server):
    refused = run(server, "write", "app/memory", "cli.word", "hello")
    assert refused.returncode != 0
    accepted = run(server, "write", "--string", "app/memory", "cli.word", "hello")
    assert accepted.returncode == 0, accepted.stderr
    shown = run(server, "snapshot", "--store", "app/memory", "--path", "cli.word", "--compact")
    assert json.loads(shown.stdout) == "hello"


def test_tail_follows_the_log_and_filters_by_prefix(server):
    # The demo keeps writing; three entries touching the cart arrive within seconds.
    tailed = run(server, "tail", "--json", "--prefix", "cart", "--count", "3", timeout=60)
    assert tailed.returncode == 0, tailed.stderr
    lines = [json.loads(line) for line in tailed.stdout.splitlines() if line.strip()]
    assert len(lines) == 3
    seqs = [line["seq"] for line in lines]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    for line in lines:
        if "patches" in line:
            assert any(
                patch["path"] == "cart" or patch["path"].startswith(("cart.", "cart["))
                for patch in line["patches"]
            )


def test_open_prints_the_dashboard_url_with_the_token(server):
    opened = run(server, "open")
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.strip() == f"{server.base_url}/?token={server.token}"
    by_port = run(server, "open", "--port", str(server.port))
    assert by_port.returncode == 0 and by_port.stdout == opened.stdout, by_port.stderr
    missing = run(server, "open", "--port", "1")
    assert missing.returncode == 1 and "1" in missing.stderr, missing.stderr

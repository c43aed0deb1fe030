"""The client commands against a fleet dashboard (`--instance ID` or `'*'`, docs/fleet.md): they find the newest
`keyscope fleet` through its record, as they find a server."""

from __future__ import annotations

import json

import pytest
from cli_child import cli_env, run_cli
from fleet_support import start_fleet, start_instance, wait_live
from redis_support import RedisServer
from support import unique_key, wait_for


@pytest.fixture(scope="module")
def fleet():
    with RedisServer() as redis:
        one = start_instance(redis, "shop-1")
        two = start_instance(redis, "shop-2", "--read-only")
        dashboard = start_fleet(redis)
        try:
            wait_live(dashboard, "shop-1", "shop-2")
            yield one, two, dashboard
        finally:
            for server in (dashboard, one, two):
                server.stop()


def cli(dashboard, *args: str):
    return run_cli(list(args), cli_env(dashboard.home))


def test_write_and_snapshot_reach_one_instance(fleet):
    _, _, dashboard = fleet
    key = unique_key("cli_fleet")
    written = cli(dashboard, "write", "--instance", "shop-1", "app/memory", key, '{"via": "fleet"}')
    assert written.returncode == 0, written.stderr
    assert written.stdout.startswith("ok seq ")

    def shown():
        result = cli(dashboard, "snapshot", "--instance", "shop-1", "--store", "app/memory", "--path", key,
                     "--compact")
        return result if result.returncode == 0 else None

    result = wait_for(shown, "the write in shop-1's snapshot through the fleet")
    assert json.loads(result.stdout) == {"via": "fleet"}


def test_write_to_every_instance_prints_each_answer(fleet):
    one, _, dashboard = fleet
    key = unique_key("cli_everywhere")
    result = cli(dashboard, "write", "--instance", "*", "app/memory", key, "1")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = (result.stdout + result.stderr).splitlines()
    assert any(line.startswith("shop-1: ok seq ") for line in lines), lines
    assert any(line.startswith("shop-2: error read_only") for line in lines), lines


def test_tail_of_every_instance_names_each_entrys_instance(fleet):
    _, _, dashboard = fleet
    tailed = cli(dashboard, "tail", "--instance", "*", "--count", "40")
    assert tailed.returncode == 0, tailed.stderr
    prefixes = {line.split("]")[0] + "]" for line in tailed.stdout.splitlines() if line.startswith("[")}
    assert prefixes == {"[shop-1]", "[shop-2]"}, tailed.stdout[:500]


def test_tail_of_one_instance_prints_its_seqs_in_order(fleet):
    _, _, dashboard = fleet
    tailed = cli(dashboard, "tail", "--instance", "shop-2", "--json", "--count", "5")
    assert tailed.returncode == 0, tailed.stderr
    seqs = [json.loads(line)["seq"] for line in tailed.stdout.splitlines()]
    assert seqs == list(range(seqs[0], seqs[0] + 5))


def test_mistakes_get_clear_errors(fleet):
    one, _, dashboard = fleet
    unknown = cli(dashboard, "snapshot", "--instance", "shop-9")
    assert unknown.returncode != 0
    assert "no instance \"shop-9\"" in unknown.stderr
    every = cli(dashboard, "snapshot", "--instance", "*")
    assert every.returncode != 0 and "snapshot reads one instance" in every.stderr
    bad = cli(dashboard, "tail", "--instance", "a b")
    assert bad.returncode != 0 and "--instance must be an instance id" in bad.stderr
    # An instance's own server is not a fleet dashboard.
    not_fleet = run_cli(["snapshot", "--instance", "shop-1", "--port", str(one.port)], cli_env(one.home))
    assert not_fleet.returncode != 0 and "is not a fleet dashboard" in not_fleet.stderr

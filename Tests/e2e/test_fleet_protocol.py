"""The protocol tests of test_protocol.py run again through a fleet dashboard (docs/fleet.md: `/ws?instance=ID`
speaks docs/protocol.md for that instance): the same tests, unchanged, against an address that is the dashboard's
port and token with `instance=ID` on every request. Left out are those that start servers of their own (a small
log, a SIGINT); the fleet's own gap and restart cases are in test_fleet_stream.py and test_fleet_faults.py."""

from __future__ import annotations

import pytest
from fleet_support import FleetInstanceAddress, fleet_instances, running_fleet, start_instance, wait_live
from redis_support import RedisServer
from support import StreamClient, wait_for
from test_protocol import (  # noqa: F401  (collected here again, with this module's `server`)
    test_changes_in_order_without_gaps_under_load,
    test_client_without_subprotocol_is_served,
    test_head_on_a_post_only_path_is_405_without_a_body,
    test_head_on_the_api_answers_as_get_without_a_body,
    test_health,
    test_hello_then_snapshot,
    test_http_snapshot,
    test_resume_continues_after_the_given_seq,
    test_resume_with_a_seq_never_handed_out_gets_a_snapshot,
    test_ten_clients_receive_the_same_entries_in_the_same_order,
    test_unusable_resume_value_is_a_fresh_start,
)


@pytest.fixture(scope="module")
def fleet():
    with RedisServer() as redis, running_fleet(redis, ("shop-1",), rate=200) as (instance, dashboard):
        yield redis, instance, dashboard


@pytest.fixture
def server(fleet):
    _, instance, dashboard = fleet
    return FleetInstanceAddress(dashboard, instance, "shop-1")


def test_resume_before_what_the_dashboard_holds_gets_gap_then_snapshot(server):
    # The dashboard holds an instance's log from the snapshot it first read: seq 1 (a store's registration) is
    # before it, so a resume from 0 is answered as a resume after the log moved on.
    client = StreamClient.open(server, query="resume=0")
    try:
        assert client.hello["resumed"] is True
        client.wait_entries(5, timeout=20)
        kinds = [m["type"] for m in client.messages]
        assert kinds[:2] == ["hello", "subscriptions"], kinds
        assert client.gaps and client.gaps[0]["from"] == 1, kinds
        gap_index = kinds.index("gap")
        assert kinds[gap_index + 1] == "snapshot" and "changes" not in kinds[:gap_index], kinds
        assert client.gaps[0]["to"] == client.messages[gap_index + 1]["seq"]
    finally:
        client.close()


def test_a_resume_after_the_instance_restarted_shows_its_new_pid(fleet):
    redis, _, dashboard = fleet
    first = start_instance(redis, "shop-9")
    try:
        wait_live(dashboard, "shop-9")
        client = StreamClient.open(FleetInstanceAddress(dashboard, first, "shop-9"))
        try:
            assert client.hello["server"]["pid"] == first.pid
            assert client.hello["server"]["name"] == "keyscope demo" and client.hello["instance"] == "shop-9"
            client.wait_entries(3, timeout=20)
            resume_after = client.last_seq
        finally:
            client.close()
    finally:
        first.stop()
    second = start_instance(redis, "shop-9")
    try:
        wait_for(lambda: fleet_instances(dashboard)["shop-9"]["pid"] == second.pid, "the new run of shop-9 listed", 15)
        wait_live(dashboard, "shop-9")
        resumed = StreamClient.open(FleetInstanceAddress(dashboard, second, "shop-9"), query=f"resume={resume_after}")
        try:
            # docs/protocol.md: another pid in a resumed hello means the client's seqs are another run's.
            assert resumed.hello["resumed"] is True
            assert resumed.hello["server"]["pid"] == second.pid != first.pid
        finally:
            resumed.close()
    finally:
        second.stop()

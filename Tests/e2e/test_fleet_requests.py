"""The request tests of test_requests.py run again through a fleet dashboard (docs/fleet.md: requests to
`/ws?instance=ID` and `POST /api/request?instance=ID` are carried to the instance, validated and applied there):
the same tests, unchanged, against addresses that name an instance of the fleet on every request, a read-only
instance among them. Left out is the one that starts a server of its own."""

from __future__ import annotations

import pytest
from fleet_support import FleetInstanceAddress, running_fleet
from redis_support import RedisServer
from test_requests import (  # noqa: F401  (collected here again, with this module's fixtures)
    base_key,
    client,
    test_a_request_without_id_gets_a_null_id,
    test_conflict_over_http_is_409,
    test_error_code_over_http,
    test_error_code_over_websocket,
    test_http_resync_is_accepted,
    test_http_transaction_and_revert,
    test_http_write_reply_and_stream_agree,
    test_ids_are_echoed_exactly,
    test_insert_remove_merge,
    test_read_only_refuses_every_write_over_http,
    test_read_only_refuses_every_write_over_websocket,
    test_read_only_still_reads,
    test_remove_of_a_missing_key_changes_nothing,
    test_resync_sends_a_snapshot_then_the_reply,
    test_revert_applies_the_inverse_then_conflicts,
    test_revert_of_a_creation_removes_it,
    test_revert_of_a_seq_not_in_the_log_is_bad_request,
    test_set_creates_intermediates_then_overwrites,
    test_tagged_and_escaped_values_round_trip,
    test_transaction_is_all_or_nothing,
    test_transaction_is_one_change_with_one_txn,
    test_tune_endpoints_without_tunables,
    test_tune_sets_a_tunable_and_refuses_what_the_schema_refuses,
)


@pytest.fixture(scope="module")
def fleet():
    with RedisServer() as redis, running_fleet(
        redis, ("shop-1",), ("shop-ro", "--read-only"), ("shop-bare", "--no-tunables")
    ) as servers:
        yield servers


@pytest.fixture(scope="module")
def server(fleet):
    instance, _, _, dashboard = fleet
    return FleetInstanceAddress(dashboard, instance, "shop-1")


@pytest.fixture(scope="module")
def read_only_server(fleet):
    _, instance, _, dashboard = fleet
    return FleetInstanceAddress(dashboard, instance, "shop-ro")


@pytest.fixture(scope="module")
def no_tunables_server(fleet):
    _, _, instance, dashboard = fleet
    return FleetInstanceAddress(dashboard, instance, "shop-bare")

"""The preferences and watches tests of test_preferences.py run again through a fleet dashboard (docs/fleet.md
"Feature panels through the fleet"): `/api/preferences` and `/api/watches` with `?instance=ID`, and the
`preference` request, carried to that instance, whose suites and secret store are on this machine. Left out are
those that start a server of their own (with other options), and the generic write to a secret mirror: the fleet
refuses it itself (`read_only`, test_fleet_features.py), before the value reaches Redis, where the instance would
answer `bad_request`."""

from __future__ import annotations

from fleet_support import fleet_of_one_fixture, instance_server_fixture  # noqa: F401  (the fixtures)
from test_preferences import (  # noqa: F401  (collected here again, with this module's `server`)
    test_a_change_made_behind_the_apps_back_is_found_by_a_refresh,
    test_a_change_that_breaks_a_rule_is_flagged_with_its_seq,
    test_a_date_and_data_preference_take_their_string_forms,
    test_a_generic_write_and_a_revert_of_the_mirror_reach_the_suite,
    test_a_new_key_with_a_slash_is_created,
    test_delete_removes_the_key_and_a_second_delete_is_unknown_key,
    test_every_secret_is_redacted_with_a_length_hint,
    test_the_demo_statuses_are_mirrored_into_preference_keys,
    test_the_mirror_stores_are_in_the_snapshot,
    test_the_panel_lists_the_demo_suites_and_secrets_with_their_types,
    test_the_websocket_preference_request_sets_and_deletes,
)


"""The HTTP tunables tests of test_tunables.py run again through a fleet dashboard (docs/fleet.md "Feature panels
through the fleet"): `/tune` and `/api/tunables` with `?instance=ID` are carried to that instance, which answers
with its own route, checks and file on disk. Left out are the CLI tests (test_fleet_features.py runs `keyscope
tune --instance`) and those that start a server of their own."""

from __future__ import annotations

from fleet_support import fleet_of_one_fixture, instance_server_fixture  # noqa: F401  (the fixtures)
from test_tunables import (  # noqa: F401  (collected here again, with this module's `server`)
    test_a_huge_post_gets_413,
    test_a_put_is_a_change_in_the_log_and_in_the_file_on_disk,
    test_api_tunables_describes_store_values_defaults_and_schema,
    test_bad_posts_are_refused_whole,
    test_bad_puts_say_what_is_wrong_and_change_nothing,
    test_get_tune_lists_every_tunable_in_the_values_json_form,
    test_post_replaces_every_tunable_at_once,
    test_put_sets_one_tunable_typed_by_the_number_grammar_and_the_schema,
    test_tune_needs_the_token_and_checks_origin,
)


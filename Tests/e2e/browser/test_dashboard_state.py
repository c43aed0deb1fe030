"""How the browser tests read the dashboard's connection state (dashboard.py), without a browser: the words that
mean connected, and those that only look like it."""

from __future__ import annotations

import pytest

from dashboard import ConnectionState


@pytest.mark.parametrize("text", ["connected", "Connected", "connected · keyscope demo (pid 42)", "● Connected"])
def test_the_dashboard_is_connected_when_its_state_says_connected(text):
    assert ConnectionState("dashboard", text).connected


@pytest.mark.parametrize(
    "text", ["", "connecting…", "reconnecting in 2 s", "disconnected (1006)", "Disconnected", "not connected"]
)
def test_other_states_of_the_dashboard_are_not_connected(text):
    assert not ConnectionState("dashboard", text).connected


def test_a_page_without_the_state_element_is_not_connected():
    assert not ConnectionState("none", "connected").connected

"""The dashboard page in a real browser: it loads without a console error and connects, and stays so while the
demo changes its stores fast (dashboard.py reads the connection state)."""

from __future__ import annotations

import time

from dashboard import connection_state, console_errors
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from support import http

# Fast enough that every `changes` frame carries many entries, within what a debug build keeps up with.
SERVER_ARGS = ["--rate", "2000"]


def server_seq(server) -> int:
    return http(server, "GET", "/api/snapshot").json()["seq"]


def test_the_page_loads_with_no_console_error_and_shows_it_is_connected(page):
    state = connection_state(page)
    assert state.connected, str(state)
    assert page.title, "the page has a title"
    errors = console_errors(page)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def test_the_page_stays_connected_and_error_free_while_the_demo_streams(page, server):
    # Waits on the server's own progress (not a fixed time): 10,000 more entries sent to the page.
    target = server_seq(server) + 10_000
    deadline = time.monotonic() + 60
    while server_seq(server) < target:
        assert time.monotonic() < deadline, f"the demo did not reach seq {target} within 60 s"
        time.sleep(0.2)
    state = connection_state(page)
    assert state.connected, str(state)
    errors = console_errors(page)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def test_a_wrong_token_is_told_apart_from_a_server_that_is_down(browser, server):
    def banner_text(driver) -> str:
        return " ".join(element.text for element in driver.find_elements(By.CSS_SELECTOR, "[data-testid=banner]"))

    browser.get(f"{server.base_url}/?token=not-{server.token}")
    WebDriverWait(browser, 20).until(lambda driver: "token" in banner_text(driver))
    text = banner_text(browser)
    assert "refused the token" in text, text
    assert not connection_state(browser).connected

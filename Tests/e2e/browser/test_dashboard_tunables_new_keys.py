"""New tunable keys in the Tunables panel, in a real browser against the real demo server: a key created elsewhere
(`PUT /tune/:key/:value`) shows up live, marked "new", and its Remove button takes it out on the server; "Add key"
creates one; a closed schema (`"additionalKeys": false`) offers no way to add one. What the page claims is checked
with `GET /tune`, not only on screen."""

from __future__ import annotations

import json

from selenium.webdriver.common.by import By

from dashboard import by_testid, console_errors, wait_connected, wait_for
from headless import dashboard_url
from support import http, unique_key
from test_dashboard_tunables import open_tunables, row, tune_values

SERVER_ARGS = ["--rate", "20"]

_ROW_STATE = """
const row = [...document.querySelectorAll('[data-testid="tunable-row"]')].find((e) => e.dataset.key === arguments[0]);
if (!row) return null;
const shown = (id) => { const e = row.querySelector(`[data-testid="${id}"]`); return !!e && !e.hidden; };
return {isNew: row.dataset.new, newMarker: shown("tunable-new"), remove: shown("tunable-remove"),
        value: row.querySelector('[data-testid="tunable-control"]')?.value ?? null};
"""


def row_state(driver, key: str):
    return driver.execute_script(_ROW_STATE, key)


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def test_a_key_added_elsewhere_shows_as_new_and_remove_takes_it_out(page, server):
    open_tunables(page)
    key = unique_key("live")
    assert http(server, "PUT", f"/tune/{key}/42").status == 200
    state = wait_for(page, lambda d: row_state(d, key), f"no row for {key} after PUT /tune")
    assert state["isNew"] == "true" and state["newMarker"] and state["remove"], state
    wait_for(page, lambda d: row_state(d, key)["value"] == "42", f"the field of {key} does not show 42")
    # A key of the defaults is not new and offers no Remove.
    default_key = sorted(http(server, "GET", "/api/tunables").json()["defaults"])[0]
    default_state = row_state(page, default_key)
    assert default_state["isNew"] == "false" and not default_state["newMarker"] and not default_state["remove"]

    row(page, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-remove"]').click()
    wait_for(page, lambda _: key not in tune_values(server), f"{key} is still on the server after Remove")
    wait_for(page, lambda d: row_state(d, key) is None, f"the row of {key} stayed after its removal")
    assert_no_console_error(page)


def test_add_key_creates_a_tunable_on_the_server(page, server):
    open_tunables(page)
    key = unique_key("added")
    by_testid(page, "tunables-add-open").click()
    form = by_testid(page, "tunables-add")
    assert form.is_displayed()
    # A key that breaks the rule is refused on the page, before anything is sent.
    by_testid(page, "tunables-add-key").send_keys("a/b")
    by_testid(page, "tunables-add-value").send_keys("1")
    by_testid(page, "tunables-add-submit").click()
    error = wait_for(page, lambda d: by_testid(d, "tunables-add-error").text, "no error for the key a/b")
    assert "/" in error, error
    assert "a/b" not in tune_values(server)

    by_testid(page, "tunables-add-key").clear()
    by_testid(page, "tunables-add-key").send_keys(key)
    by_testid(page, "tunables-add-value").clear()
    by_testid(page, "tunables-add-value").send_keys("Hello there")
    by_testid(page, "tunables-add-submit").click()
    wait_for(page, lambda _: tune_values(server).get(key) == "Hello there", f"{key} is not on the server")
    wait_for(page, lambda d: not by_testid(d, "tunables-add").is_displayed(), "the form stayed open after adding")
    state = wait_for(page, lambda d: row_state(d, key), f"no row for the added {key}")
    assert state["isNew"] == "true" and state["remove"], state
    assert http(server, "DELETE", f"/tune/{key}").status == 200
    assert_no_console_error(page)


def test_a_closed_schema_offers_no_add_key(browser, launch, tmp_path):
    defaults = tmp_path / "live-constants.json"
    defaults.write_text(json.dumps({"height": 44}))
    (tmp_path / "live-constants.schema.json").write_text(
        json.dumps({"additionalKeys": False, "height": {"type": "integer", "min": 24, "max": 120}}))
    closed = launch("--tunables", str(defaults))
    browser.console.mark()
    browser.get(dashboard_url(closed))
    wait_connected(browser)
    open_tunables(browser)
    wait_for(browser, lambda d: row_state(d, "height"), "no row for the closed schema's key")
    assert not by_testid(browser, "tunables-add-open").is_displayed()
    assert_no_console_error(browser)

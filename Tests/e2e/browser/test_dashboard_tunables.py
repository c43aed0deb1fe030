"""The Tunables panel in a real browser against the real demo server: it lists every tunable `GET /api/tunables`
describes, a value set on the page reaches the server, a value the schema refuses shows the server's message and
changes nothing, reset brings back the default, and a change made elsewhere (`PUT /tune/:key/:value`) shows up in
the control live.

The tunables are not named here: each test picks one by its schema (an integer with min and max, a number with min
and max). What the page claims is checked with `GET /tune`, not only on screen. Every wait is an explicit condition.
"""

from __future__ import annotations

from urllib.parse import quote

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from dashboard import by_testid, console_errors, wait_for
from support import http

SERVER_ARGS = ["--rate", "20"]

# The row of a key, found by its data-key in a script (keys may hold characters a CSS selector would need escaped).
_ROW = """
return [...document.querySelectorAll('[data-testid="tunable-row"]')].find((e) => e.dataset.key === arguments[0]) ?? null;
"""
_ROWS = """
return [...document.querySelectorAll('[data-testid="tunable-row"]')]
  .map((e) => ({key: e.dataset.key, modified: e.dataset.modified, kind: e.dataset.kind,
                slider: e.querySelector('[data-testid="tunable-slider"]') !== null,
                control: e.querySelector('[data-testid="tunable-control"]')?.tagName.toLowerCase() ?? null,
                controlType: e.querySelector('[data-testid="tunable-control"]')?.type ?? null}));
"""


def same(a, b) -> bool:
    """StoreValue equality on Python's JSON: the integer 3 is not the number 3.0 (nor is True the integer 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def described(server) -> dict:
    response = http(server, "GET", "/api/tunables")
    assert response.status == 200, "the demo has no tunables:\n" + response.describe()
    return response.json()


def tune_values(server) -> dict:
    response = http(server, "GET", "/tune")
    assert response.status == 200, response.describe()
    return response.json()


def put_tune(server, key: str, text: str) -> None:
    response = http(server, "PUT", f"/tune/{quote(key, safe='')}/{quote(text, safe='')}")
    assert 200 <= response.status < 300, response.describe()


def ranged(panel: dict, type_: str) -> tuple[str, dict]:
    """The first tunable (by key) whose schema gives `type_` with both min and max and no options."""
    schema = panel["schema"] or {}
    for key in sorted(schema):
        entry = schema[key]
        if entry["type"] == type_ and "min" in entry and "max" in entry and not entry.get("options"):
            return key, entry
    raise AssertionError(f"the demo's tunables have no {type_} with min and max: {schema}")


def other_integer(entry: dict, *avoid: int) -> int:
    """An allowed value of a ranged integer tunable (on a step from min) that is none of `avoid`."""
    low, high, step = entry["min"], entry["max"], entry.get("step", 1)
    for candidate in range(low, high + 1, step):
        if candidate not in avoid:
            return candidate
    raise AssertionError(f"no allowed value other than {avoid} in {entry}")


def open_tunables(driver) -> None:
    by_testid(driver, "tab-tunables").click()
    wait_for(driver, lambda d: by_testid(d, "tab-tunables").get_attribute("aria-selected") == "true",
             "the tunables tab did not become the selected one")
    wait_for(driver, lambda d: d.execute_script(_ROWS), "the tunables panel showed no row")


def row(driver, key: str):
    element = driver.execute_script(_ROW, key)
    assert element is not None, f"no tunable-row for {key}"
    return element


def control(driver, key: str):
    return row(driver, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-control"]')


def type_into(driver, key: str, text: str) -> None:
    """Replaces the text of the key's field and presses Enter (the field applies on Enter or when left)."""
    field = control(driver, key)
    driver.execute_script("arguments[0].focus(); arguments[0].select();", field)
    field.send_keys(text, Keys.ENTER)


def shown_error(driver, key: str) -> str:
    error = row(driver, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-error"]')
    return error.text if error.is_displayed() else ""


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def test_the_panel_lists_every_tunable_the_server_describes(page, server):
    panel = described(server)
    keys = set(panel["values"]) | set(panel["defaults"]) | set(panel["schema"] or {})
    assert keys, "the demo's tunables are empty"
    open_tunables(page)
    wait_for(page, lambda d: {r["key"] for r in d.execute_script(_ROWS)} == keys,
             f"the panel did not list exactly the tunables of /api/tunables: {sorted(keys)}")
    counts = by_testid(page, "tunables-counts").text
    assert counts.startswith(f"{len(keys)} tunable"), counts
    assert not by_testid(page, "tunables-empty").is_displayed()
    values = tune_values(server)
    schema = panel["schema"] or {}
    for shown in page.execute_script(_ROWS):
        key = shown["key"]
        if key in panel["defaults"] and key in values:
            expected = not same(values[key], panel["defaults"][key])
            assert shown["modified"] == str(expected).lower(), f"{key}: data-modified {shown['modified']}"
        entry = schema.get(key)
        if entry is None:
            continue
        # The control fits the schema: options → select, bool → switch, a range → slider with its field.
        if entry.get("options"):
            assert shown["control"] == "select", shown
        elif entry["type"] == "bool":
            assert shown["controlType"] == "checkbox", shown
        elif entry["type"] in ("integer", "number") and "min" in entry and "max" in entry:
            assert shown["slider"], shown
    assert_no_console_error(page)


def test_a_number_typed_into_a_field_is_set_on_the_server(page, server):
    key, entry = ranged(described(server), "number")
    before = tune_values(server)[key]
    # min is always allowed (steps count from it); when it is the value already, one step above it.
    low = float(entry["min"])
    target = low if not same(before, low) else low + float(entry.get("step", (entry["max"] - low) / 2))
    open_tunables(page)
    type_into(page, key, repr(target))
    wait_for(page, lambda _: same(tune_values(server).get(key), target),
             f"{key} is not the number {target} on the server after typing it: {tune_values(server).get(key)!r}")
    wait_for(page, lambda d: control(d, key).get_attribute("value") == repr(target),
             f"the field of {key} does not show {target!r}")
    assert shown_error(page, key) == ""
    assert_no_console_error(page)


def test_a_slider_moved_with_the_keyboard_sets_an_integer_on_the_server(page, server):
    key, entry = ranged(described(server), "integer")
    step = entry.get("step", 1)
    before = tune_values(server)[key]
    open_tunables(page)
    slider = row(page, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-slider"]')
    page.execute_script("arguments[0].focus();", slider)
    up = before + step <= entry["max"]
    ActionChains(page).send_keys(Keys.ARROW_RIGHT if up else Keys.ARROW_LEFT).perform()
    target = before + step if up else before - step
    wait_for(page, lambda _: same(tune_values(server).get(key), target),
             f"{key} is not the integer {target} on the server after one step of its slider: "
             f"{tune_values(server).get(key)!r}")
    wait_for(page, lambda d: control(d, key).get_attribute("value") == str(target),
             f"the field beside the slider of {key} does not show {target}")
    assert_no_console_error(page)


def test_an_out_of_range_value_shows_the_servers_error_and_changes_nothing(page, server):
    key, entry = ranged(described(server), "integer")
    before = tune_values(server)[key]
    too_big = entry["max"] + entry.get("step", 1)
    # The same value through the HTTP API: refused, and its message is the one the page must show.
    refused = http(server, "PUT", f"/tune/{quote(key, safe='')}/{too_big}")
    assert 400 <= refused.status < 500, refused.describe()
    error = refused.json()["error"]
    assert error["code"] == "out_of_range", error
    open_tunables(page)
    type_into(page, key, str(too_big))
    shown = wait_for(page, lambda d: shown_error(d, key), f"no tunable-error on {key} after typing {too_big}")
    assert "out_of_range" in shown and error["message"] in shown, f"{shown!r} is not the server's {error}"
    assert same(tune_values(server)[key], before), f"the refused value changed {key}: {tune_values(server)[key]!r}"
    # The field snaps back to the value the server has.
    wait_for(page, lambda d: control(d, key).get_attribute("value") == str(before),
             f"the field of {key} did not go back to {before}")
    # A refusal is an answer, not a page error.
    assert_no_console_error(page)


def test_reset_brings_back_the_default(page, server):
    panel = described(server)
    key, entry = ranged(panel, "integer")
    default = panel["defaults"][key]
    changed = other_integer(entry, default)
    put_tune(server, key, str(changed))
    assert same(tune_values(server)[key], changed)
    open_tunables(page)
    wait_for(page, lambda d: row(d, key).get_attribute("data-modified") == "true",
             f"{key} = {changed} (default {default}) is not marked modified")
    reset = row(page, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-reset"]')
    assert reset.is_displayed()
    reset.click()
    wait_for(page, lambda _: same(tune_values(server).get(key), default),
             f"{key} is not back to its default {default!r} on the server: {tune_values(server).get(key)!r}")
    wait_for(page, lambda d: row(d, key).get_attribute("data-modified") == "false",
             f"{key} is still marked modified after its reset")
    assert not row(page, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-reset"]').is_displayed()
    assert_no_console_error(page)


def test_a_change_made_through_the_http_api_shows_up_live(page, server):
    key, entry = ranged(described(server), "integer")
    open_tunables(page)
    before = tune_values(server)[key]
    wait_for(page, lambda d: control(d, key).get_attribute("value") == str(before),
             f"the field of {key} does not show {before}")
    target = other_integer(entry, before)
    put_tune(server, key, str(target))
    wait_for(page, lambda d: control(d, key).get_attribute("value") == str(target),
             f"the field of {key} did not follow PUT /tune to {target}")
    slider = row(page, key).find_element(By.CSS_SELECTOR, '[data-testid="tunable-slider"]')
    assert slider.get_attribute("value") == str(target)
    assert_no_console_error(page)

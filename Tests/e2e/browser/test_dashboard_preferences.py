"""The Preferences and Watches panels in a real browser against the real demo server (docs/preferences.md): the
panel lists the demo's suites, status keys and secrets; an edit made on the page reaches the suite; text that is
not of the key's type shows why and changes nothing; a delete asks first; secrets show only their placeholder; a
read-only server offers no edit control; the Watches panel shows the demo's statuses and rules, and a theme the
rule does not allow, set on the page, becomes a violation linked to its change in the log.

What the page claims is checked with `GET /api/preferences` and `GET /api/watches`, not only on screen. Every wait
is an explicit condition.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlparse

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from dashboard import by_testid, console_errors, wait_connected, wait_for
from headless import dashboard_url
from support import http

SERVER_ARGS = ["--rate", "20"]
WAIT = 15

SUITE = "com.keyscope.demo"
STATUS_SUITE = "com.keyscope.demo.status"
SERVICE = "com.keyscope.demo.api"
THEME_RULE = "theme-allowed"
# The demo's keys and their stored types.
DEMO_KEYS = {
    "theme": "string", "fontSize": "integer", "volume": "number", "onboardingDone": "bool", "lastOpened": "date",
    "recentSearches": "array",
}
STATUS_KEYS = ("p_DataDirWritable", "p_PortFree", "p_DebugFlag")
SECRET_KEYS = ("token", "refreshToken")
PLACEHOLDER = re.compile(r"^\u2022{4} \(\d+\)$")


# MARK: - Reading the server and the page


def preferences(server) -> dict:
    response = http(server, "GET", "/api/preferences")
    assert response.status == 200, "the demo scans no preferences:\n" + response.describe()
    return response.json()


def watches(server) -> dict:
    response = http(server, "GET", "/api/watches")
    assert response.status == 200, "the demo watches nothing:\n" + response.describe()
    return response.json()


def item(server, source: str, container: str, key: str) -> dict | None:
    for entry in preferences(server)["items"]:
        if (entry["source"], entry["container"], entry["key"]) == (source, container, key):
            return entry
    return None


def value_of(server, key: str, container: str = SUITE):
    found = item(server, "userDefaults", container, key)
    return None if found is None else found["value"]


def put(server, key: str, value, container: str = SUITE) -> None:
    path = "/api/preferences/" + "/".join(quote(part, safe="") for part in ("userDefaults", container, key))
    response = http(server, "PUT", path, body={"value": value})
    assert 200 <= response.status < 300, response.describe()


def wait_scanned(server) -> dict:
    """The panel once the demo's suites and service are scanned (the demo writes them as it starts)."""
    wanted = {("userDefaults", SUITE, k) for k in DEMO_KEYS} | {("userDefaults", STATUS_SUITE, k) for k in STATUS_KEYS} \
        | {("secrets", SERVICE, k) for k in SECRET_KEYS}
    last: list[dict] = []

    def scanned(_):
        response = http(server, "GET", "/api/preferences")
        if response.status != 200:
            return False
        last[:] = [response.json()]
        return wanted <= {(i["source"], i["container"], i["key"]) for i in last[0]["items"]}

    try:
        WebDriverWait(None, WAIT, poll_frequency=0.2).until(scanned)
    except TimeoutException:
        raise AssertionError(f"the demo's preferences do not list {sorted(wanted)}: {last}") from None
    return last[0]


# Rows found by their data attributes in a script (keys may hold characters a CSS selector would need escaped).
_ROW = """
return [...document.querySelectorAll('[data-testid="preference-row"]')]
  .find((e) => e.dataset.source === arguments[0] && e.dataset.container === arguments[1] && e.dataset.key === arguments[2]) ?? null;
"""
_ROWS = """
return [...document.querySelectorAll('[data-testid="preference-row"]')].map((e) => ({
  id: e.dataset.id, key: e.dataset.key, source: e.dataset.source, container: e.dataset.container, type: e.dataset.type,
  redacted: e.dataset.redacted, value: e.querySelector('[data-testid="preference-value"]')?.textContent ?? null,
  badge: e.querySelector('[data-testid="preference-redacted"]')?.hidden === false}));
"""


def row(driver, key: str, container: str = SUITE, source: str = "userDefaults"):
    return driver.execute_script(_ROW, source, container, key)


def rows(driver) -> list[dict]:
    return driver.execute_script(_ROWS)


def shown_sources(driver) -> set[str]:
    """The sources of the rows on screen. A row that a re-render replaced between the two reads counts as not shown
    (the demo's status keys change on their own, and the panel redraws when they do)."""
    shown = set()
    for found in rows(driver):
        element = row(driver, found["key"], found["container"], found["source"])
        if element is not None and element.is_displayed():
            shown.add(found["source"])
    return shown


def in_row(driver, key: str, testid: str, container: str = SUITE, source: str = "userDefaults"):
    found = row(driver, key, container, source)
    assert found is not None, f"no preference-row for {source}/{container}/{key}"
    return found.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def shown_value(driver, key: str, container: str = SUITE) -> str | None:
    found = row(driver, key, container)
    return None if found is None else found.find_element(By.CSS_SELECTOR, '[data-testid="preference-value"]').text


def open_tab(driver, panel: str) -> None:
    by_testid(driver, f"tab-{panel}").click()
    wait_for(driver, lambda d: by_testid(d, f"tab-{panel}").get_attribute("aria-selected") == "true",
             f"the {panel} tab did not become the selected one")


def open_preferences(driver) -> None:
    open_tab(driver, "preferences")
    wait_for(driver, lambda d: rows(d), "the preferences panel showed no row")


def edit(driver, key: str, text: str, container: str = SUITE) -> None:
    """Opens the key's editor, replaces its text and presses Enter."""
    in_row(driver, key, "preference-edit", container).click()
    field = wait_for(driver, lambda d: in_row(d, key, "preference-input", container), f"no editor opened for {key}")
    driver.execute_script("arguments[0].focus(); arguments[0].select();", field)
    field.send_keys(text, Keys.ENTER)


def displayed(driver, testid: str) -> list:
    return [e for e in driver.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]') if e.is_displayed()]


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


# MARK: - Preferences


def test_the_panel_lists_the_demo_preferences_and_secrets(page, server):
    panel = wait_scanned(server)
    open_preferences(page)
    ids = {i["id"] for i in panel["items"]}
    wait_for(page, lambda d: {r["id"] for r in rows(d)} >= ids,
             f"the panel did not list every item of /api/preferences: {sorted(ids)}")
    shown = {(r["source"], r["container"], r["key"]): r for r in rows(page)}
    for key, type_ in DEMO_KEYS.items():
        assert shown[("userDefaults", SUITE, key)]["type"] == type_, shown[("userDefaults", SUITE, key)]
    for key in STATUS_KEYS:
        assert ("userDefaults", STATUS_SUITE, key) in shown
    for key in SECRET_KEYS:
        assert ("secrets", SERVICE, key) in shown
    groups = {(g.get_attribute("data-source"), g.get_attribute("data-container"))
              for g in page.find_elements(By.CSS_SELECTOR, '[data-testid="preferences-group"]')}
    assert {("userDefaults", SUITE), ("userDefaults", STATUS_SUITE), ("secrets", SERVICE)} <= groups, groups
    assert not by_testid(page, "preferences-empty").is_displayed()
    # The values are the server's, as the log shows them.
    assert shown[("userDefaults", SUITE, "fontSize")]["value"] == str(value_of(server, "fontSize"))
    # Segments and search narrow the rows and are kept in the URL.
    page.find_element(By.CSS_SELECTOR, '[data-testid="preferences-segment"][data-segment="secrets"]').click()
    wait_for(page, lambda d: shown_sources(d) == {"secrets"},
             "the Secrets segment still shows other rows")
    assert parse_qs(urlparse(page.current_url).query).get("pseg") == ["secrets"]
    page.find_element(By.CSS_SELECTOR, '[data-testid="preferences-segment"][data-segment="all"]').click()
    search = by_testid(page, "preferences-search")
    search.send_keys("fontsize")
    wait_for(page, lambda d: [r["key"] for r in rows(d)] == ["fontSize"], "the search for fontsize did not leave only fontSize")
    wait_for(page, lambda d: parse_qs(urlparse(d.current_url).query).get("pq") == ["fontsize"], "the search is not in the URL")
    assert_no_console_error(page)


def test_editing_theme_on_the_page_sets_it_in_the_suite(page, server):
    wait_scanned(server)
    put(server, "theme", "dark")
    open_preferences(page)
    wait_for(page, lambda d: shown_value(d, "theme") == '"dark"', "theme does not show \"dark\"")
    edit(page, "theme", "light")
    wait_for(page, lambda _: value_of(server, "theme") == "light",
             f"theme is not \"light\" on the server after editing it: {value_of(server, 'theme')!r}")
    wait_for(page, lambda d: shown_value(d, "theme") == '"light"', "the row of theme does not show \"light\"")
    assert not in_row(page, "theme", "preference-error").is_displayed()
    assert row(page, "theme").get_attribute("data-type") == "string"
    put(server, "theme", "dark")
    assert_no_console_error(page)


def test_an_invalid_integer_shows_why_and_changes_nothing(page, server):
    wait_scanned(server)
    before = value_of(server, "fontSize")
    assert isinstance(before, int), f"fontSize is not an integer: {before!r}"
    open_preferences(page)
    edit(page, "fontSize", "fourteen")
    check = wait_for(page, lambda d: in_row(d, "fontSize", "preference-check"), "no check line under the editor")
    wait_for(page, lambda _: "check-bad" in check.get_attribute("class") and "integer" in check.text.lower(),
             f"the editor does not say the text is not an integer: {check.text!r}")
    # Still editing, nothing sent: the server has the old value.
    assert in_row(page, "fontSize", "preference-input").get_attribute("value") == "fourteen"
    assert value_of(server, "fontSize") == before
    in_row(page, "fontSize", "preference-input").send_keys(Keys.ESCAPE)
    wait_for(page, lambda d: shown_value(d, "fontSize") == str(before), f"fontSize does not show {before} after Esc")
    assert value_of(server, "fontSize") == before
    assert_no_console_error(page)


def test_a_delete_asks_first_then_removes_the_key(page, server):
    wait_scanned(server)
    key = "e2eDeleteMe"
    put(server, key, "bye")
    open_preferences(page)
    wait_for(page, lambda d: row(d, key) is not None, f"the panel does not list {key}")
    in_row(page, key, "preference-delete").click()
    confirm = wait_for(page, lambda d: in_row(d, key, "preference-confirm"), "no confirmation")
    wait_for(page, lambda _: confirm.is_displayed(), "the confirmation is not shown")
    assert key in confirm.text
    # Keep: nothing happens.
    in_row(page, key, "preference-delete-cancel").click()
    wait_for(page, lambda _: not confirm.is_displayed(), "the confirmation did not close")
    assert value_of(server, key) == "bye"
    in_row(page, key, "preference-delete").click()
    wait_for(page, lambda d: in_row(d, key, "preference-delete-confirm").is_displayed(), "no Delete button in the confirmation")
    in_row(page, key, "preference-delete-confirm").click()
    wait_for(page, lambda _: item(server, "userDefaults", SUITE, key) is None, f"{key} is still in the suite after the delete")
    wait_for(page, lambda d: row(d, key) is None, f"the row of {key} is still there")
    assert_no_console_error(page)


def test_secrets_show_only_their_placeholder(page, server):
    panel = wait_scanned(server)
    secrets = [i for i in panel["items"] if i["source"] == "secrets"]
    assert secrets and all(i["redacted"] for i in secrets), f"the demo's secrets are not redacted: {secrets}"
    open_preferences(page)
    page.find_element(By.CSS_SELECTOR, '[data-testid="preferences-segment"][data-segment="secrets"]').click()
    wait_for(page, lambda d: {r["key"] for r in rows(d) if r["source"] == "secrets"} >= set(SECRET_KEYS),
             "the Secrets segment does not list the demo's secrets")
    # Every secret's value on the page is the placeholder, with a visible "redacted" badge and its length.
    for shown in rows(page):
        if shown["source"] != "secrets":
            continue
        assert PLACEHOLDER.match(shown["value"] or ""), f"{shown['key']} shows {shown['value']!r}, not the placeholder"
        assert shown["redacted"] == "true" and shown["badge"], shown
        badge = in_row(page, shown["key"], "preference-redacted", SERVICE, "secrets")
        assert "redacted" in badge.text and "byte" in badge.text, badge.text
    # Nothing offers to reveal a secret (nor says they are revealed), and a secret's editor starts empty.
    assert not by_testid(page, "preferences-revealed").is_displayed()
    assert [b.text for b in page.find_elements(By.CSS_SELECTOR, "#panel-preferences button")
            if b.is_displayed() and re.search(r"reveal|show secret", b.text, re.IGNORECASE)] == []
    in_row(page, "token", "preference-edit", SERVICE, "secrets").click()
    field = wait_for(page, lambda d: in_row(d, "token", "preference-input", SERVICE, "secrets"), "no editor for token")
    assert field.get_attribute("value") == ""
    assert field.get_attribute("type") == "password"
    field.send_keys(Keys.ESCAPE)
    assert_no_console_error(page)


def test_a_read_only_server_offers_no_edit_control(browser, launch):
    read_only = launch("--read-only")
    wait_scanned(read_only)
    browser.console.mark()
    browser.get(dashboard_url(read_only))
    wait_connected(browser)
    wait_for(browser, lambda d: by_testid(d, "read-only-badge").is_displayed(), "no read-only badge")
    open_preferences(browser)
    note = wait_for(browser, lambda d: by_testid(d, "preferences-readonly"), "no read-only note")
    wait_for(browser, lambda _: note.is_displayed(), "the read-only note is not shown")
    assert "read-only" in note.text
    for testid in ("preference-edit", "preference-delete", "preference-input", "preference-save"):
        assert displayed(browser, testid) == [], f"a read-only server's panel shows {testid}"
    # Refresh only reads: it stays.
    assert by_testid(browser, "preferences-refresh").is_displayed()
    assert_no_console_error(browser)


# MARK: - Watches

_STATUSES = """
return [...document.querySelectorAll('[data-testid="watch-status"]')]
  .map((e) => ({name: e.dataset.name, key: e.dataset.key, inSync: e.dataset.inSync}));
"""
_RULES = """
return [...document.querySelectorAll('[data-testid="watch-rule"]')].map((e) => ({id: e.dataset.id, ok: e.dataset.ok,
  text: e.textContent}));
"""
_VIOLATIONS = """
return [...document.querySelectorAll('[data-testid="watch-violation"]')].map((e) => ({rule: e.dataset.rule,
  seq: e.dataset.seq ?? null}));
"""


def test_the_watches_panel_shows_the_demo_statuses_and_rules(page, server):
    wait_scanned(server)
    panel = watches(server)
    assert {s["key"] for s in panel["statuses"]} >= set(STATUS_KEYS), panel["statuses"]
    assert any(r["id"] == THEME_RULE for r in panel["rules"]), panel["rules"]
    open_tab(page, "watches")
    wait_for(page, lambda d: {s["key"] for s in d.execute_script(_STATUSES)} >= set(STATUS_KEYS),
             f"the Watches panel does not list the statuses {STATUS_KEYS}")
    statuses = {s["key"]: s for s in page.execute_script(_STATUSES)}
    for status in panel["statuses"]:
        assert statuses[status["key"]]["name"] == status["name"]
    rule = wait_for(page, lambda d: next((r for r in d.execute_script(_RULES) if r["id"] == THEME_RULE), None),
                    f"the Watches panel does not list the rule {THEME_RULE}")
    for allowed in ("light", "dark", "system"):
        assert f'"{allowed}"' in rule["text"], rule
    assert "theme" in rule["text"] and f"app/userPrefs:{SUITE}" in rule["text"], rule
    # A status's history opens and closes.
    toggle = next(t for t in page.find_elements(By.CSS_SELECTOR, '[data-testid="watch-status-history"]') if t.is_enabled())
    toggle.click()
    wait_for(page, lambda _: toggle.get_attribute("aria-expanded") == "true", "the history did not open")
    assert not by_testid(page, "watches-empty").is_displayed()
    assert_no_console_error(page)


def test_a_theme_the_rule_does_not_allow_becomes_a_linked_violation(page, server):
    wait_scanned(server)
    put(server, "theme", "dark")
    open_preferences(page)
    wait_for(page, lambda d: shown_value(d, "theme") == '"dark"', "theme does not show \"dark\"")
    edit(page, "theme", "neon")
    wait_for(page, lambda _: value_of(server, "theme") == "neon", "theme is not \"neon\" on the server")
    violation = wait_for(page, lambda _: next((v for v in watches(server)["violations"]
                                               if v["rule"] == THEME_RULE and v["value"] == "neon"), None),
                         f"/api/watches has no violation of {THEME_RULE} for \"neon\"")
    open_tab(page, "watches")
    wait_for(page, lambda d: any(v["rule"] == THEME_RULE and v["seq"] == str(violation["seq"])
                                 for v in d.execute_script(_VIOLATIONS)),
             f"no violation row for {THEME_RULE} at change #{violation['seq']}")
    wait_for(page, lambda d: next((r for r in d.execute_script(_RULES) if r["id"] == THEME_RULE), {}).get("ok") == "false",
             f"the rule {THEME_RULE} is not shown violated")
    # The newest violation is first; its change opens in the log.
    shown = page.execute_script(_VIOLATIONS)
    seqs = [int(v["seq"]) for v in shown if v["seq"]]
    assert seqs == sorted(seqs, reverse=True), f"violations are not newest first: {seqs}"
    link = next(e for e in page.find_elements(By.CSS_SELECTOR, '[data-testid="watch-violation"]')
                if e.get_attribute("data-seq") == str(violation["seq"])).find_element(By.CSS_SELECTOR, '[data-testid="watch-violation-seq"]')
    link.click()
    wait_for(page, lambda d: by_testid(d, "tab-log").get_attribute("aria-selected") == "true", "the link did not open the log")
    assert parse_qs(urlparse(page.current_url).query).get("entry") == [str(violation["seq"])]
    wait_for(page, lambda d: str(violation["seq"]) in by_testid(d, "log-detail").text,
             f"the log does not show change #{violation['seq']}")
    put(server, "theme", "dark")
    assert_no_console_error(page)

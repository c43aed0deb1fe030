"""The fleet dashboard in a real browser (issue 26, docs/dashboard.md "The fleet dashboard"): a real `redis-server`,
four real instances (`keyscope serve --demo --redis … --fleet … --instance …`, one of them `--read-only`, one
stopped so it is gone) and a real `keyscope fleet`. The instance picker, one instance's stores and log, the merged
log with its instance column and filter, a write and a tunable sent to every instance with each one's answer, the
diff of two instances, and a single server without any of it.

What the page claims is checked on the instances themselves (their own `GET /api/snapshot` and `GET /tune`), not
only on screen. Every wait is an explicit condition; nothing asserts on timing.
"""

from __future__ import annotations

import json

import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dashboard import (  # noqa: E402
    CATCH_SAVES, SAVED, by_testid, console_errors, fleet_answers, picker_options, visible, wait_connected, wait_for,
)
from fleet_support import fleet_instances, start_fleet, start_instance, wait_live  # noqa: E402
from headless import dashboard_url  # noqa: E402
from redis_support import RedisServer  # noqa: E402
from support import KeyscopeServer, http, request_http, store_root, unique_key  # noqa: E402
from support import wait_for as wait_until  # noqa: E402

APP = "app/memory"
WAIT = 20


@pytest.fixture(scope="module")
def fleet():
    """shop-1 and shop-2 take writes, shop-3 is read-only, shop-4 has stopped (gone); `dashboard` serves them."""
    with RedisServer(password="fleet-pw") as redis:
        started: list[KeyscopeServer] = []
        try:
            for instance, extra in (("shop-1", ()), ("shop-2", ()), ("shop-3", ("--read-only",)), ("shop-4", ())):
                started.append(start_instance(redis, instance, *extra))
            dashboard = start_fleet(redis)
            started.append(dashboard)
            wait_live(dashboard, "shop-1", "shop-2", "shop-3", "shop-4")
            started[3].stop()
            wait_until(lambda: fleet_instances(dashboard)["shop-4"]["state"] == "gone", "shop-4 gone", WAIT)
            yield {"shop-1": started[0], "shop-2": started[1], "shop-3": started[2], "shop-4": started[3],
                   "dashboard": dashboard}
        finally:
            for server in reversed(started):
                server.stop()


def open_dashboard(browser, request, fleet, query: str = ""):
    browser.console.mark()
    browser.get(dashboard_url(fleet["dashboard"]) + query)
    request.node.browser = browser
    wait_connected(browser)
    return browser


def url_state(driver) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(driver.current_url).query).items()}


def open_tab(driver, name: str) -> None:
    by_testid(driver, f"tab-{name}").click()
    wait_for(driver, lambda d: by_testid(d, f"tab-{name}").get_attribute("aria-selected") == "true",
             f"the {name} tab is not the selected one")


def pick(driver, instance: str) -> None:
    """Picks an instance ("*": all of them) in the picker with the mouse, then waits for its stream."""
    by_testid(driver, "instance-picker").click()
    wait_for(driver, lambda d: by_testid(d, "instance-list").is_displayed(), "the picker's list did not open")
    driver.find_element(By.CSS_SELECTOR, f'[data-testid="instance-option"][data-instance="{instance}"]').click()
    shown = "All instances" if instance == "*" else instance
    wait_for(driver, lambda d: by_testid(d, "instance-picker").text.startswith(shown), f"the picker does not show {shown}")
    wait_connected(driver)


def select_when_listed(driver, testid: str, value: str) -> None:
    """Chooses `value` in a select once it is among its options (they follow the fleet's list)."""

    def chosen(d) -> bool:
        try:
            Select(by_testid(d, testid)).select_by_value(value)
            return by_testid(d, testid).get_attribute("value") == value
        except (StaleElementReferenceException, WebDriverException):
            return False

    wait_for(driver, chosen, f"could not choose {value} in {testid}")


def instance_root(server, store: str = APP) -> dict:
    """A store's state as the instance itself has it (its own inspector, not the fleet)."""
    response = http(server, "GET", "/api/snapshot")
    assert response.status == 200, response.describe()
    return store_root(response.json(), store)


def write_on(server, path: str, value) -> int:
    """A write through the instance's own inspector; returns its seq."""
    response = request_http(server, {"id": 1, "type": "write", "store": APP, "op": "set", "path": path, "value": value})
    reply = response.json()
    assert response.status == 200 and reply["ok"], response.describe()
    return reply["result"]["seq"]


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def test_the_picker_lists_every_instance_live_or_gone(browser, request, fleet):
    page = open_dashboard(browser, request, fleet)
    assert by_testid(page, "instance-picker").text.startswith("All instances")
    by_testid(page, "instance-picker").click()
    options = wait_for(page, lambda d: len(o := picker_options(d)) == 5 and o,
                       "the picker did not list all instances and the four instances")
    assert options["*"]["selected"] is True
    for instance in ("shop-1", "shop-2", "shop-3"):
        cells = options[instance]["cells"]
        assert options[instance]["state"] == "live", options[instance]
        assert cells[0] == instance and cells[4] == "live", cells
        assert cells[2] == str(fleet[instance].pid), cells
        assert cells[3].startswith("v") and cells[1], cells
        assert cells[6].endswith("/s"), cells
    gone = options["shop-4"]
    assert gone["state"] == "gone" and gone["cells"][4] == "gone", gone
    assert gone["cells"][2] == str(fleet["shop-4"].pid)
    # A gone instance is greyed, not disabled: its last state stays readable.
    page.find_element(By.CSS_SELECTOR, '[data-testid="instance-option"][data-instance="shop-4"]').click()
    wait_connected(page)
    wait_for(page, lambda d: "gone" in by_testid(d, "instance-picker").text, "the picker does not say shop-4 is gone")
    open_tab(page, "stores")
    wait_for(page, lambda d: any(s["store"] == APP for s in visible(d, '[data-testid="store-item"]')),
             "shop-4's last state did not show its stores")
    assert url_state(page)["instance"] == "shop-4"
    assert_no_console_error(page)


def test_one_instance_shows_its_stores_and_its_log_with_its_seqs(browser, request, fleet):
    page = open_dashboard(browser, request, fleet)
    # The keyboard: "i" opens the picker, the arrows move, Enter picks.
    ActionChains(page).send_keys("i").perform()
    wait_for(page, lambda d: d.execute_script("return document.activeElement.dataset.instance") == "*",
             "the picker did not open on the instance shown")
    ActionChains(page).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ENTER).perform()
    wait_for(page, lambda d: by_testid(d, "instance-picker").text.startswith("shop-1"), "Enter did not pick shop-1")
    wait_connected(page)
    assert url_state(page)["instance"] == "shop-1"
    open_tab(page, "stores")
    wait_for(page, lambda d: any(s["store"] == APP for s in visible(d, '[data-testid="store-item"]')),
             "shop-1's stores are not listed")
    key = unique_key("fleet_ui")
    seq = write_on(fleet["shop-1"], key, 17)
    open_tab(page, "log")
    row = wait_for(page, lambda d: next((r for r in visible(d, '[data-testid="log-row"]') if r.get("seq") == str(seq)), None),
                   f"shop-1's change #{seq} is not in the log")
    assert row["path"] == key and row["store"] == APP and "instance" not in row
    shown = sorted(int(r["seq"]) for r in visible(page, '[data-testid="log-row"]'))
    assert shown == list(range(shown[0], shown[0] + len(shown))), f"shop-1's seqs are not contiguous: {shown}"
    # A reload (or a shared link) lands on the same instance.
    page.refresh()
    wait_connected(page)
    wait_for(page, lambda d: by_testid(d, "instance-picker").text.startswith("shop-1"), "the reload left shop-1")
    assert_no_console_error(page)


def test_a_link_to_an_instance_the_fleet_does_not_list_lands_on_all(browser, request, fleet):
    browser.console.mark()
    browser.get(dashboard_url(fleet["dashboard"]) + "&instance=shop-9")
    request.node.browser = browser
    wait_for(browser, lambda d: "instance" not in url_state(d), "the URL kept the unknown instance", WAIT)
    wait_connected(browser)
    assert by_testid(browser, "instance-picker").text.startswith("All instances")
    banners = [b["text"] for b in visible(browser, '[data-testid="banner"]')]
    assert any('No instance "shop-9" in this fleet' in text for text in banners), banners
    # The browser logs the refused handshake itself (as for any server that refuses); the page logs nothing else.
    assert all("WebSocket connection to" in str(e) for e in console_errors(browser)), console_errors(browser)


def test_the_merged_log_shows_every_instance_and_filters_by_one(browser, request, fleet):
    page = open_dashboard(browser, request, fleet, "&panel=log")
    instances = wait_for(page, lambda d: {"shop-1", "shop-2", "shop-3"} <= (seen := {r.get("instance") for r in visible(d, '[data-testid="log-row"]')}) and seen,
                         "the merged log does not show the entries of shop-1, shop-2 and shop-3")
    assert None not in instances, "every merged entry names its instance"
    cells = visible(page, '[data-testid="log-row"] .linst')
    assert cells and all(c["text"] in ("shop-1", "shop-2", "shop-3") for c in cells), cells[:5]
    # Stores, History… show one instance: their tabs are off while all are shown.
    assert by_testid(page, "tab-stores").get_attribute("disabled") is not None
    select_when_listed(page, "filter-instance", "shop-2")

    def only_shop_2(d):
        shown = visible(d, '[data-testid="log-row"]')
        return shown if shown and all(r.get("instance") == "shop-2" for r in shown) else None

    wait_for(page, only_shop_2, "the instance filter left entries of other instances")
    assert url_state(page)["finst"] == "shop-2"
    assert_no_console_error(page)


def test_a_write_to_every_instance_shows_each_answer(browser, request, fleet):
    page = open_dashboard(browser, request, fleet, "&instance=shop-1&panel=write")
    key = unique_key("fleet_all")
    select_when_listed(page, "write-target", "*")
    select_when_listed(page, "write-store", APP)
    Select(by_testid(page, "write-op")).select_by_value("set")
    Select(by_testid(page, "write-type")).select_by_value("json")
    for testid, text in (("write-path", key), ("write-value", '"to every instance"')):
        field = by_testid(page, testid)
        field.clear()
        field.send_keys(text)
    by_testid(page, "write-submit").click()
    answers = wait_for(page, lambda d: fleet_answers(d, "write-answers"), "no answer per instance came")
    assert set(answers) == {"shop-1", "shop-2", "shop-3"}, answers
    assert answers["shop-1"]["ok"] and answers["shop-2"]["ok"], answers
    assert not answers["shop-3"]["ok"] and answers["shop-3"]["code"] == "read_only", answers
    assert "read_only:" in answers["shop-3"]["text"]
    for instance in ("shop-1", "shop-2"):
        assert instance_root(fleet[instance])[key] == "to every instance", instance
    assert key not in instance_root(fleet["shop-3"])
    # The instance shown has it too, on the page.
    open_tab(page, "stores")
    page.find_element(By.CSS_SELECTOR, f'[data-testid="store-item"][data-store="{APP}"]').click()
    by_testid(page, "search").send_keys(key)
    wait_for(page, lambda d: any(r.get("path") == key for r in visible(d, '[data-testid="tree-row"]')),
             "the value written to all is not in shop-1's tree")
    assert_no_console_error(page)


def test_a_tunable_sent_to_every_instance_reaches_the_writable_ones(browser, request, fleet):
    page = open_dashboard(browser, request, fleet, "&instance=shop-1&panel=tunables")
    row = wait_for(page, lambda d: next(iter(visible(d, '[data-testid="tunable-row"][data-type="integer"]')), None),
                   "no integer tunable in shop-1's tunables")
    key = row["key"]
    before = {i: http(fleet[i], "GET", "/tune").json()[key] for i in ("shop-1", "shop-2", "shop-3")}
    select_when_listed(page, "tunables-target", "*")
    row_selector = f'[data-testid="tunable-row"][data-key="{key}"]'
    # Found and clicked in one step: the row is drawn again when the instance's own copy of the store arrives.
    wait_for(page, lambda d: d.find_element(By.CSS_SELECTOR, f'{row_selector} [data-testid="tunable-up"]').click()
             or True, f"the up button of {key} could not be clicked")
    answers = wait_for(page, lambda d: fleet_answers(d, "tunable-answers"), f"no answer per instance for {key}")
    assert {i: a["ok"] for i, a in answers.items()} == {"shop-1": True, "shop-2": True, "shop-3": False}, answers
    assert answers["shop-3"]["code"] == "read_only"
    wanted = http(fleet["shop-1"], "GET", "/tune").json()[key]
    assert wanted > before["shop-1"], (wanted, before)
    for instance in ("shop-1", "shop-2"):
        assert http(fleet[instance], "GET", "/tune").json()[key] == wanted, instance
    assert http(fleet["shop-3"], "GET", "/tune").json()[key] == before["shop-3"]
    # The instance's defaults came through the fleet: the changed row reads "modified", and Reset all puts back
    # the picked instance's defaults (carried as POST /tune?instance=shop-1), no other instance's.
    wait_for(page, lambda d: d.find_element(By.CSS_SELECTOR, row_selector).get_attribute("data-modified") == "true",
             f"{key} is not marked modified")
    defaults = http(fleet["shop-1"], "GET", "/api/tunables").json()["defaults"]
    by_testid(page, "tunables-reset-all").click()
    wait_for(page, lambda d: by_testid(d, "tunables-confirm").is_displayed(), "no confirmation of Reset all")
    by_testid(page, "tunables-confirm-apply").click()
    wait_until(lambda: http(fleet["shop-1"], "GET", "/tune").json() == defaults, "shop-1 back at its defaults", WAIT)
    assert http(fleet["shop-2"], "GET", "/tune").json()[key] == wanted, "Reset all reached another instance"
    assert_no_console_error(page)


def test_preferences_and_watches_are_the_picked_instances(browser, request, fleet):
    page = open_dashboard(browser, request, fleet, "&instance=shop-2&panel=preferences")
    own = http(fleet["shop-2"], "GET", "/api/preferences").json()["items"]
    wanted = {(i["source"], i["container"], i["key"]) for i in own}
    assert wanted, "the demo instance scans no preferences"
    rows = """return [...document.querySelectorAll('[data-testid="preference-row"]')]
      .map((e) => [e.dataset.source, e.dataset.container, e.dataset.key]);"""
    shown = wait_for(page, lambda d: (found := {tuple(r) for r in d.execute_script(rows)}) and found,
                     "the Preferences panel lists nothing for shop-2")
    assert shown <= wanted and len(shown) >= min(len(wanted), 5), (shown, wanted)
    open_tab(page, "watches")
    statuses = http(fleet["shop-2"], "GET", "/api/watches").json()["statuses"]
    wait_for(page, lambda d: len(visible(d, '[data-testid="watch-status-value"]')) == len(statuses),
             "the Watches panel does not show shop-2's statuses")
    assert_no_console_error(page)


def test_the_record_button_records_the_instance_shown(browser, request, fleet):
    page = open_dashboard(browser, request, fleet)
    assert not by_testid(page, "record-button").is_displayed(), "Record shows with all instances (none to record)"
    pick(page, "shop-1")
    button = wait_for(page, lambda d: (b := by_testid(d, "record-button")).is_displayed() and b,
                      "the Record button does not show for shop-1")
    page.execute_script(CATCH_SAVES)
    button.click()
    wait_for(page, lambda d: by_testid(d, "record-button").get_attribute("data-state") == "recording",
             "the Record button did not start a recording of shop-1")
    key = unique_key("fleet_recorded")
    write_on(fleet["shop-1"], key, 3)
    active = http(fleet["dashboard"], "GET", "/api/recordings").json()["active"]
    assert any(status["state"] == "recording" for status in active), active
    by_testid(page, "record-button").click()
    saved = wait_for(page, lambda d: d.execute_async_script(SAVED), "Stop did not save the recording")
    lines = [json.loads(line) for line in saved["text"].splitlines()]
    assert lines[0]["format"] == "keyscope-log"
    assert any(patch["path"] == key for event in lines[1:] for patch in event.get("patches", [])), \
        "the recording lacks shop-1's write"
    assert_no_console_error(page)




def test_the_diff_shows_a_path_that_differs_and_opens_it_in_both(browser, request, fleet):
    key = unique_key("fleet_diff")
    write_on(fleet["shop-1"], key, {"a": 1, "same": True})
    write_on(fleet["shop-2"], key, {"a": 2, "same": True})
    page = open_dashboard(browser, request, fleet, "&panel=diff&da=shop-1&db=shop-2")
    by_testid(page, "diff-search").send_keys(key)

    asked = [time.monotonic()]

    def differing(d):
        found = next((r for r in visible(d, '[data-testid="diff-row"]') if r.get("path") == f"{key}.a"), None)
        # The fleet dashboard may not have mirrored both writes when the page first compared: compare again.
        if not found and time.monotonic() - asked[0] > 1:
            asked[0] = time.monotonic()
            by_testid(d, "diff-run").click()
        return found

    row = wait_for(page, differing, f"the diff does not show {key}.a")
    assert row["store"] == APP
    paths = {r.get("path") for r in visible(page, '[data-testid="diff-row"]')}
    assert f"{key}.same" not in paths and key not in paths, paths

    def opened(d) -> bool:
        # A comparison asked for just before may still land and draw the rows anew: click the row as it is now.
        detail = d.find_elements(By.CSS_SELECTOR, '[data-testid="diff-detail"]')
        if detail and detail[0].is_displayed():
            return True
        for row in d.find_elements(By.CSS_SELECTOR, f'[data-testid="diff-row"][data-path="{key}.a"]'):
            row.click()
        return False

    wait_for(page, opened, "the row did not open its detail")
    wait_for(page, lambda d: by_testid(d, "diff-value-a").text == "1" and by_testid(d, "diff-value-b").text == "2",
             "the detail does not show both values")
    for side, instance, value in (("b", "shop-2", "2"), ("a", "shop-1", "1")):
        if side == "a":
            open_tab(page, "diff")
            wait_for(page, lambda d: by_testid(d, "diff-detail").is_displayed(), "the detail closed")
        by_testid(page, f"diff-open-{side}").click()
        wait_for(page, lambda d: by_testid(d, "instance-picker").text.startswith(instance), f"{instance} was not picked")
        wait_connected(page)
        selected = wait_for(page, lambda d: next((r for r in visible(d, '[data-testid="tree-row"][aria-selected="true"]')), None),
                            f"{key}.a is not selected in {instance}'s tree")
        assert selected["path"] == f"{key}.a" and selected["store"] == APP, selected
        wait_for(page, lambda d: by_testid(d, "inspector").is_displayed() and value in by_testid(d, "inspector").text,
                 f"{instance}'s inspector does not show {value}")
        assert url_state(page)["instance"] == instance
    assert_no_console_error(page)


def test_a_single_server_shows_no_picker(browser, request):
    single = KeyscopeServer(["--rate", "20"])
    try:
        browser.console.mark()
        # A link to an instance means nothing to a single server: the page stays on it and drops the instance.
        browser.get(dashboard_url(single) + "&instance=shop-1")
        request.node.browser = browser
        wait_connected(browser)
        wait_for(browser, lambda d: "instance" not in url_state(d), "the single server's URL kept the instance")
        assert not by_testid(browser, "instance-picker").is_displayed()
        assert not by_testid(browser, "tab-diff").is_displayed()
        open_tab(browser, "stores")
        wait_for(browser, lambda d: any(s["store"] == APP for s in visible(d, '[data-testid="store-item"]')),
                 "the single server's stores are not listed")
        assert_no_console_error(browser)
    finally:
        single.stop()

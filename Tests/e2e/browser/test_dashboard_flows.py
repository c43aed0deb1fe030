"""The dashboard's main flows in a real browser against the real demo server (issue 4, "Tests in a real browser"):
the stores' tree, the live log, a manual write, a refused write, a revert, the log filters, and a server restart.

What the page claims to have done is checked through the protocol (`GET /api/snapshot`, `POST /api/request`), not
only on screen. Every wait is an explicit condition (WebDriverWait); nothing asserts on timing.
"""

from __future__ import annotations

import re
import secrets

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from dashboard import connection_state, console_errors, wait_connected
from headless import dashboard_url
from support import http, request_http, store_root, unique_key

# Slow enough that a row stays on screen while a test works with it, fast enough that the log visibly moves.
SERVER_ARGS = ["--rate", "20"]
APP = "app/memory"
CHECKOUT = "scenario:checkout/memory"
WAIT = 15

# Rows of the virtualised lists, read in one script (no stale elements): only those actually laid out on screen.
_ROWS = """
return [...document.querySelectorAll(`[data-testid="${arguments[0]}"]`)]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => ({seq: e.dataset.seq === undefined ? null : Number(e.dataset.seq), store: e.dataset.store ?? null,
                path: e.dataset.path ?? null, op: e.dataset.op ?? null, text: e.textContent,
                revertable: !(e.querySelector('[data-testid="log-revert"]')?.hidden ?? true)}));
"""


def rows(driver, testid: str) -> list[dict]:
    return driver.execute_script(_ROWS, testid)


def by_testid(driver, testid: str):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def wait_for(driver, condition, what: str, timeout: float = WAIT):
    """Waits until `condition(driver)` is truthy and returns it; fails saying what was awaited."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition)
    except TimeoutException:
        raise AssertionError(f"{what} (waited {timeout} s; {connection_state(driver)})") from None


def wait_server(driver, condition, what: str, timeout: float = WAIT):
    """Waits until `condition()` (a question to the server, not to the page) is truthy."""
    return wait_for(driver, lambda _: condition(), what, timeout)


def open_tab(driver, name: str) -> None:
    by_testid(driver, f"tab-{name}").click()
    wait_for(driver, lambda d: by_testid(d, f"tab-{name}").get_attribute("aria-selected") == "true",
             f"the {name} tab did not become the selected one")


def snapshot(server) -> dict:
    response = http(server, "GET", "/api/snapshot")
    assert response.status == 200, response.describe()
    return response.json()


def app_root(server) -> dict:
    return store_root(snapshot(server), APP)


def write_http(server, path: str, value, store: str = APP) -> int:
    response = request_http(server, {"id": 1, "type": "write", "store": store, "op": "set", "path": path,
                                     "value": value})
    reply = response.json()
    assert response.status == 200 and reply["ok"], response.describe()
    return reply["result"]["seq"]


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


def under(path: str, prefix: str) -> bool:
    """The log's key-path prefix: `cart` covers `cart`, `cart.total`, `cart.items[0]`, not `cartel`."""
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def fill_write_form(driver, store: str, path: str, value: str, op: str = "set") -> None:
    open_tab(driver, "write")

    def store_chosen(d) -> bool:
        # The options are rebuilt whenever the list of stores changes (the demo's checkout comes and goes).
        try:
            Select(by_testid(d, "write-store")).select_by_value(store)
            return by_testid(d, "write-store").get_attribute("value") == store
        except (StaleElementReferenceException, WebDriverException):
            return False

    wait_for(driver, store_chosen, f"could not choose the store {store} in the write form")
    Select(by_testid(driver, "write-op")).select_by_value(op)
    Select(by_testid(driver, "write-type")).select_by_value("json")
    for testid, text in (("write-path", path), ("write-value", value)):
        field = by_testid(driver, testid)
        field.clear()
        field.send_keys(text)


# MARK: - Stores


def test_the_stores_tab_shows_the_demo_stores_and_the_tree_of_app_memory(page, server):
    open_tab(page, "stores")
    # The demo removes and registers its checkout scenario again and again: only the other two are always there.
    stores = {s["id"] for s in snapshot(server)["stores"] if s["id"] != CHECKOUT}
    assert APP in stores and any(s.startswith("app/file:") for s in stores), stores
    wait_for(page, lambda d: stores <= {r["store"] for r in rows(d, "store-item")},
             f"the stores list did not show every store of the snapshot: {sorted(stores)}")
    # Top-level keys the demo never removes (it adds and removes `user`).
    top_level = {"cart", "orders", "session"}
    assert top_level <= set(app_root(server))

    def app_tree_shown(d) -> bool:
        if top_level <= {r["path"] for r in rows(d, "tree-row") if r["store"] == APP}:
            return True
        try:  # the list is redrawn as the stores change: click again until the tree shows the store
            d.find_element(By.CSS_SELECTOR, f'[data-testid="store-item"][data-store="{APP}"]').click()
        except (StaleElementReferenceException, WebDriverException):
            pass
        return False

    wait_for(page, app_tree_shown, f"the tree did not show the top-level keys of {APP}: {sorted(top_level)}")
    assert all(r["store"] == APP for r in rows(page, "tree-row")), "the tree mixes rows of other stores"
    assert_no_console_error(page)


# MARK: - Log


def test_log_entries_appear_as_the_demo_changes_its_stores(page, server):
    open_tab(page, "log")
    first = wait_for(page, lambda d: max((r["seq"] for r in rows(d, "log-row")), default=None),
                     "the log showed no entry")
    target = max(first, snapshot(server)["seq"]) + 5
    wait_for(page, lambda d: max(r["seq"] for r in rows(d, "log-row")) >= target,
             f"the log did not show the demo's newer changes (up to #{target})")
    shown = rows(page, "log-row")
    assert len(shown) > 5, f"only {len(shown)} log rows on screen"
    known = {s["id"] for s in snapshot(server)["stores"]} | {CHECKOUT}  # the demo removes it at times
    unknown = [r for r in shown if r["store"] not in known]
    assert not unknown, f"log rows of stores the server does not have: {unknown}"
    assert_no_console_error(page)


# MARK: - Write


def test_a_write_from_the_form_lands_in_the_store(page, server):
    key = unique_key("e2e_browser")
    fill_write_form(page, APP, key, "42")
    wait_for(page, lambda d: by_testid(d, "write-check").text.startswith("Sends 42"),
             "the form did not say it would send 42")
    by_testid(page, "write-submit").click()
    result = wait_for(page, lambda d: (lambda e: e.is_displayed() and e.text)(by_testid(d, "write-result")),
                      "no write-result after Apply")
    match = re.search(r"as change #(\d+)", result)
    assert match, f"write-result does not name the change: {result!r}"
    assert not by_testid(page, "write-error").is_displayed()

    root = app_root(server)
    assert key in root, f"{key} is not in {APP} after the page said {result!r}"
    assert root[key] == 42 and type(root[key]) is int, f"{key} is {root[key]!r}, not the integer 42"
    seq = int(match.group(1))
    assert seq <= snapshot(server)["seq"]
    # The same change, as the page says it: shown in the log with its seq, store and path.
    open_tab(page, "log")
    by_testid(page, "filter-path").send_keys(key)
    wait_for(page, lambda d: [(r["seq"], r["store"], r["path"]) for r in rows(d, "log-row")] == [(seq, APP, key)],
             f"the log filtered on {key} did not show exactly change #{seq}")
    assert_no_console_error(page)


def test_a_refused_write_shows_the_servers_error_and_changes_nothing(page, server):
    key = unique_key("e2e_browser")
    write_http(server, key, {"items": [1]})
    fill_write_form(page, APP, f"{key}.items[999]", "2")
    by_testid(page, "write-submit").click()
    error = wait_for(page, lambda d: (lambda e: e.is_displayed() and e.text)(by_testid(d, "write-error")),
                     "no write-error after a write the server refuses")
    assert error.startswith("out_of_range: "), f"write-error is not the server's out_of_range: {error!r}"
    assert "999" in error, error
    assert not by_testid(page, "write-result").is_displayed()
    history = by_testid(page, "write-history").text
    assert "out_of_range" in history, f"the results list does not show the refusal: {history!r}"
    assert app_root(server)[key] == {"items": [1]}, "the refused write changed the store"
    # A refusal is an answer, not a page error.
    assert_no_console_error(page)


def test_a_value_that_is_not_json_is_refused_on_the_page_and_nothing_is_sent(page, server):
    key = unique_key("e2e_browser")
    fill_write_form(page, APP, key, '{"a": ')
    check = wait_for(page, lambda d: (lambda e: "check-bad" in e.get_attribute("class") and e.text)(
        by_testid(d, "write-check")), "the form did not flag the broken JSON")
    by_testid(page, "write-submit").click()
    error = wait_for(page, lambda d: (lambda e: e.is_displayed() and e.text)(by_testid(d, "write-error")),
                     "no write-error after applying broken JSON")
    assert error == check, f"write-error {error!r} is not the form's check {check!r}"
    assert key not in app_root(server), "broken JSON reached the store"
    assert "Nothing sent yet" in by_testid(page, "write-history").text
    assert_no_console_error(page)


# MARK: - Revert


def _hover_and_click_revert(driver, seq: int) -> bool:
    try:
        row = driver.find_element(By.CSS_SELECTOR, f'[data-testid="log-row"][data-seq="{seq}"]')
        button = row.find_element(By.CSS_SELECTOR, '[data-testid="log-revert"]')
        ActionChains(driver).move_to_element(row).perform()
        if not button.is_displayed():
            return False
        button.click()
        return True
    except (StaleElementReferenceException, WebDriverException):
        return False


def test_revert_on_a_log_row_restores_the_old_value(page, server):
    key = unique_key("e2e_browser")
    write_http(server, key, "before")
    seq = write_http(server, key, "after")
    assert app_root(server)[key] == "after"
    open_tab(page, "log")
    by_testid(page, "filter-path").send_keys(key)
    wait_for(page, lambda d: seq in {r["seq"] for r in rows(d, "log-row")}, f"the log did not show change #{seq}")
    wait_for(page, lambda d: _hover_and_click_revert(d, seq), f"could not click the revert button of change #{seq}")
    wait_server(page, lambda: app_root(server).get(key) == "before",
                f"{key} is not back to 'before' after reverting #{seq}: {app_root(server).get(key)!r}")
    # The revert is a new change of the same key, in the log above the one it reverts.
    wait_for(page, lambda d: any(r["seq"] > seq and r["path"] == key for r in rows(d, "log-row")),
             "the revert's own change did not appear in the log")
    assert_no_console_error(page)


# MARK: - Filters


def test_a_key_path_prefix_filter_narrows_the_log(page, server):
    # A key that starts with "cart" but is not under `cart`: the prefix is by path segment.
    decoy = unique_key("cart")
    write_http(server, decoy, 1)
    open_tab(page, "log")
    wait_for(page, lambda d: any(not under(r["path"], "cart") for r in rows(d, "log-row")),
             "the unfiltered log never showed a change outside cart (nothing for the filter to narrow)")
    by_testid(page, "filter-path").send_keys("cart")

    def only_cart(d):
        shown = rows(d, "log-row")
        return shown and all(under(r["path"], "cart") and r["store"] == APP for r in shown)

    wait_for(page, only_cart, f"the log filtered on 'cart' still shows other paths: "
                              f"{sorted({r['path'] for r in rows(page, 'log-row')})}")
    # It stays narrowed while new cart changes arrive.
    newest = max(r["seq"] for r in rows(page, "log-row"))
    wait_for(page, lambda d: max((r["seq"] for r in rows(d, "log-row")), default=0) > newest,
             "no new cart change appeared in the filtered log", timeout=30)
    leaked = [r for r in rows(page, "log-row") if not under(r["path"], "cart")]
    assert not leaked, f"rows outside cart in the filtered log: {leaked}"

    Select(by_testid(page, "filter-op")).select_by_value("insert")

    def only_cart_inserts(d):
        shown = rows(d, "log-row")
        return shown and all(under(r["path"], "cart") and "insert" in r["op"].split() for r in shown)

    wait_for(page, only_cart_inserts, "the log filtered on cart and insert shows other changes: "
             f"{[(r['path'], r['op']) for r in rows(page, 'log-row')]}", timeout=30)
    assert_no_console_error(page)


# MARK: - Restart


def file_store(driver, server) -> str:
    """The id of the demo's file store (registered a moment after app/memory), which names the server's temp dir."""
    return wait_server(driver, lambda: next((s["id"] for s in snapshot(server)["stores"]
                                             if s["id"].startswith("app/file:")), None),
                       "the demo did not register its file store")


def _websocket_failure(entry, port: int) -> bool:
    """The browser's own message for a failed WebSocket attempt to this server (see Public/README.md)."""
    return entry.message.find(f"WebSocket connection to 'ws://127.0.0.1:{port}/ws") >= 0 and "failed" in entry.message


def test_the_page_reconnects_to_a_restarted_server_and_starts_over_with_its_state(browser, launch):
    token = secrets.token_urlsafe(24)
    # `--token=T`: a token_urlsafe token starts with "-" one time in 64, and `--token -x…` reads as a flag.
    first = launch("--rate", "20", f"--token={token}")
    port = first.port
    old_file_store = file_store(browser, first)
    browser.console.mark()
    browser.get(dashboard_url(first))
    wait_connected(browser)
    open_tab(browser, "stores")
    wait_for(browser, lambda d: old_file_store in {r["store"] for r in rows(d, "store-item")},
             "the stores list did not show the first server's file store")

    first.stop()
    wait_for(browser, lambda d: by_testid(d, "connection-state").get_attribute("data-phase") == "reconnecting",
             "the page did not say it is reconnecting once the server stopped")
    assert "reconnecting" in by_testid(browser, "connection-state").text

    second = launch("--rate", "20", f"--token={token}", "--port", str(port))
    assert second.port == port, f"the second server listens on {second.port}, not {port}"
    new_file_store = file_store(browser, second)
    assert new_file_store != old_file_store
    wait_connected(browser, timeout=30)
    wait_for(browser, lambda d: (lambda s: new_file_store in s and old_file_store not in s)(
        {r["store"] for r in rows(d, "store-item")}),
        "the stores list did not start over with the second server's stores "
        f"(shows {sorted(r['store'] for r in rows(browser, 'store-item'))})")

    # The log keeps the first process's entries (its seqs mean nothing to the second one, so they are not
    # revertable) and goes on with the second's: those are the revertable rows.
    open_tab(browser, "log")
    target = snapshot(second)["seq"] + 5
    wait_for(browser, lambda d: max((r["seq"] for r in rows(d, "log-row") if r["revertable"]), default=0) >= target,
             f"the log did not show the second server's changes up to #{target}")
    key = unique_key("e2e_browser")
    seq = write_http(second, key, "after restart")
    wait_for(browser, lambda d: any((r["seq"], r["path"], r["revertable"]) == (seq, key, True)
                                    for r in rows(d, "log-row")),
             f"the log did not show the second server's change #{seq} as revertable")
    stale = [r for r in rows(browser, "log-row") if r["store"] == old_file_store and r["revertable"]]
    assert not stale, f"changes of the first server process are offered for revert: {stale}"

    errors = [e for e in console_errors(browser) if not _websocket_failure(e, port)]
    assert not errors, "console errors besides failed WebSocket attempts:\n" + "\n".join(map(str, errors))

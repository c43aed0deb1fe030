"""What the browser tests and benchmarks read off the dashboard page, in one place.

The dashboard shows its connection in `[data-testid="connection-state"]`, whose text contains "connected" once its
WebSocket is up ("reconnecting…" or "disconnected" otherwise). The other test hooks are listed in Public/README.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CONNECTION_STATE = '[data-testid="connection-state"]'
# "connected", "Connected to keyscope demo", but not "disconnected", "reconnecting" or "not connected".
CONNECTED_TEXT = re.compile(r"(?<![a-z])connected\b", re.IGNORECASE)
NOT_CONNECTED_TEXT = re.compile(r"\bnot\s+connected\b", re.IGNORECASE)

_READ_STATE = f"""
const dashboard = document.querySelector('{CONNECTION_STATE}');
return dashboard ? ['dashboard', dashboard.textContent.trim()] : ['none', ''];
"""


@dataclass
class ConnectionState:
    page: str  # "dashboard", or "none" when the element is not there
    text: str

    @property
    def connected(self) -> bool:
        if self.page != "dashboard":
            return False
        return bool(CONNECTED_TEXT.search(self.text)) and not NOT_CONNECTED_TEXT.search(self.text)

    def __str__(self) -> str:
        return f"{CONNECTION_STATE} says {self.text!r}" if self.page == "dashboard" else f"no {CONNECTION_STATE}"


def connection_state(driver: WebDriver) -> ConnectionState:
    page, text = driver.execute_script(_READ_STATE)
    return ConnectionState(page, text)


def console_errors(driver: WebDriver) -> list:
    """The console errors since `driver.console.mark()` (see headless.ConsoleLog)."""
    return driver.console.errors()


def wait_connected(driver: WebDriver, timeout: float = 20) -> ConnectionState:
    """Waits until the page shows it is connected; fails with what it showed last."""
    last: list[ConnectionState] = []

    def connected(_: WebDriver) -> bool:
        last[:] = [connection_state(driver)]
        return last[0].connected

    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(connected)
    except TimeoutException:
        raise AssertionError(
            f"the page did not show a connection within {timeout} s: {last[0] if last else '?'}"
        ) from None
    return last[0]


def wait_for(driver: WebDriver, condition, what: str, timeout: float = 15):
    """Waits until `condition(driver)` is truthy and returns it; fails saying what was awaited (and the
    connection's state, the first suspect when a page does not change)."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except TimeoutException:
        raise AssertionError(f"{what} (waited {timeout} s; {connection_state(driver)})") from None


def by_testid(driver: WebDriver, testid: str):
    return driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


# MARK: - The fleet dashboard (Public/README.md, "Test hooks")

_VISIBLE = """
return [...document.querySelectorAll(arguments[0])]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => Object.assign({text: e.textContent.trim()}, e.dataset));
"""


def visible(driver: WebDriver, selector: str) -> list[dict]:
    """The elements matching `selector` that are laid out on screen, each as its `data-*` attributes plus `text`
    (virtualised lists keep hidden rows around; these are left out)."""
    return driver.execute_script(_VISIBLE, selector)


def picker_options(driver: WebDriver) -> dict[str, dict]:
    """The instance picker's options by `data-instance` ("*" for all instances), each with `state` and the text
    of its cells (`cells`: instance, host, pid, version, state, last seen, rate)."""
    return driver.execute_script("""
      return Object.fromEntries([...document.querySelectorAll('[data-testid="instance-option"]')].map((e) =>
        [e.dataset.instance, {state: e.dataset.state, selected: e.getAttribute('aria-selected') === 'true',
                              cells: [...e.children].map((c) => c.textContent.trim())}]));
    """)


def fleet_answers(driver: WebDriver, list_testid: str) -> dict[str, dict]:
    """Each instance's answer in the first visible list with that test id (`write-answers`, `tunable-answers`):
    {instance: {"ok": bool, "code": str, "text": str}}."""
    return driver.execute_script("""
      const list = [...document.querySelectorAll(`[data-testid="${arguments[0]}"]`)]
        .find((e) => e.getClientRects().length > 0);
      if (!list) return null;
      return Object.fromEntries([...list.querySelectorAll('[data-testid="fleet-answer"]')].map((e) =>
        [e.dataset.instance, {ok: e.dataset.ok === 'true', code: e.dataset.code, text: e.textContent.trim()}]));
    """, list_testid)


# Saving a file from the page, caught: CATCH_SAVES (run before the page saves) keeps every Blob given to
# URL.createObjectURL and every download name clicked; SAVED (an async script) answers {name, text} of the first.
CATCH_SAVES = """
window.__keyscopeSaved = [];
const create = URL.createObjectURL.bind(URL);
URL.createObjectURL = (blob) => { window.__keyscopeSaved.push(blob); return create(blob); };
HTMLAnchorElement.prototype.click = function () { window.__keyscopeSaved.push(this.download); };
"""
SAVED = """
const done = arguments[arguments.length - 1];
const saved = window.__keyscopeSaved ?? [];
const blob = saved.find((item) => item instanceof Blob);
const name = saved.find((item) => typeof item === 'string') ?? null;
if (!blob) return done(null);
blob.text().then((text) => done({name, text}));
"""

"""What the browser tests and benchmarks read off the dashboard page, in one place.

The dashboard (issue 4) shows its connection in `[data-testid="connection-state"]`, whose text contains
"connected" once its WebSocket is up ("reconnecting…" or "disconnected" otherwise). Until it replaces the interim
page (Public/index.html and stream.mjs), the interim page's `#status`, which says "live" once connected, is accepted
too: everything about the interim page is in the INTERIM_* names and `connection_state`, to delete when it goes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

CONNECTION_STATE = '[data-testid="connection-state"]'
# "connected", "Connected to keyscope demo", but not "disconnected", "reconnecting" or "not connected".
CONNECTED_TEXT = re.compile(r"(?<![a-z])connected\b", re.IGNORECASE)
NOT_CONNECTED_TEXT = re.compile(r"\bnot\s+connected\b", re.IGNORECASE)

# The interim page (remove with it).
INTERIM_STATUS = "#status"
INTERIM_CONNECTED = "live"
# The interim page names no icon, so Chromium asks for /favicon.ico and logs its 404 as an error. Tolerated there
# only: the dashboard must name its icon (a file in Public/, or `<link rel="icon" href="data:,">`).
INTERIM_TOLERATED_ERROR = re.compile(r"/favicon\.ico - Failed to load resource: .* 404")

_READ_STATE = f"""
const dashboard = document.querySelector('{CONNECTION_STATE}');
if (dashboard) return ['dashboard', dashboard.textContent.trim()];
const interim = document.querySelector('{INTERIM_STATUS}');
if (interim) return ['interim', interim.textContent.trim()];
return ['none', ''];
"""


@dataclass
class ConnectionState:
    page: str  # "dashboard", "interim" (the page the dashboard replaces) or "none" (neither element found)
    text: str

    @property
    def connected(self) -> bool:
        if self.page == "dashboard":
            return bool(CONNECTED_TEXT.search(self.text)) and not NOT_CONNECTED_TEXT.search(self.text)
        if self.page == "interim":
            return self.text == INTERIM_CONNECTED
        return False

    def __str__(self) -> str:
        where = {"dashboard": CONNECTION_STATE, "interim": f"the interim page's {INTERIM_STATUS}"}.get(self.page)
        return f"{where} says {self.text!r}" if where else f"no {CONNECTION_STATE} (nor interim {INTERIM_STATUS})"


def connection_state(driver: WebDriver) -> ConnectionState:
    page, text = driver.execute_script(_READ_STATE)
    return ConnectionState(page, text)


def is_dashboard(driver: WebDriver) -> bool:
    """Whether the page is the dashboard of issue 4 rather than the interim page."""
    return connection_state(driver).page == "dashboard"


def console_errors(driver: WebDriver) -> list:
    """The console errors since `driver.console.mark()` (see headless.ConsoleLog), less the interim page's
    missing-icon error while the page is the interim one."""
    errors = driver.console.errors()
    if connection_state(driver).page == "interim":
        errors = [entry for entry in errors if not INTERIM_TOLERATED_ERROR.search(entry.message)]
    return errors


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

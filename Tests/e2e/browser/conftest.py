"""Fixtures for the dashboard's browser tests: headless Chromium (see headless.py) against the real demo server.

- `server` (from ../conftest.py): one `keyscope serve --demo` per module, args from the module's `SERVER_ARGS`.
- `browser`: one headless Chromium per module, its console kept (`browser.console`).
- `page`: `browser` at the server's dashboard URL, connected, with the console marked just before navigating, so
  `page.console.errors()` is what this page load logged.

A failing test's report gets the page's URL, its connection state and console, and a screenshot's path.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

sys.dont_write_bytecode = True

from dashboard import connection_state, wait_connected  # noqa: E402
from headless import ConsoleLog, dashboard_url, start_chromium  # noqa: E402

# Screenshots of failed tests go here (one per test, overwritten by the next run).
FAILURE_DIR = Path(tempfile.gettempdir()) / "keyscope-browser-failures"


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    driver.console = ConsoleLog(driver)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def page(request: pytest.FixtureRequest, browser, server):
    browser.console.mark()
    browser.get(dashboard_url(server))
    request.node.browser = browser
    wait_connected(browser)
    return browser


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    driver = getattr(item, "browser", None)
    if not report.failed or driver is None:
        return
    lines = [f"url: {driver.current_url}", f"connection: {connection_state(driver)}"]
    try:
        FAILURE_DIR.mkdir(exist_ok=True)
        shot = FAILURE_DIR / f"{item.name}.png"
        driver.save_screenshot(str(shot))
        lines.append(f"screenshot: {shot}")
    except Exception as error:  # a report about a failure must not fail itself
        lines.append(f"no screenshot: {error}")
    lines += ["console:"] + [f"  {entry}" for entry in driver.console.since_mark()]
    report.sections.append(("browser", "\n".join(lines)))

"""Headless Chromium for the dashboard's browser tests and benchmarks: Debian's `chromium` driven through its
`chromium-driver` (both from scripts/install-deps.sh) with selenium, never a browser or driver downloaded at run time.

    driver = start_chromium()
    driver.get(dashboard_url(server))
    ...
    ConsoleLog(driver).errors()   # what the page wrote with console.error, uncaught exceptions, failed loads
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

# One size for every run, so that layouts (and what is visible without scrolling) are the same everywhere.
WINDOW_SIZE = (1280, 900)
# `$CHROMIUM_BIN` and `$CHROMEDRIVER_BIN` override these; the names are where Debian's packages put them.
CHROMIUM_NAMES = ("chromium", "chromium-browser")
DRIVER_NAMES = ("chromedriver",)


class BrowserSetupError(AssertionError):
    pass


def _find(variable: str, names: tuple[str, ...], package: str) -> str:
    given = os.environ.get(variable)
    if given:
        if not Path(given).exists():
            raise BrowserSetupError(f"${variable} is {given}, which does not exist")
        return given
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserSetupError(
        f"no {' or '.join(names)} on PATH: install Debian's {package} (make deps does) or set ${variable}"
    )


def chromium_paths() -> tuple[str, str]:
    """(browser, driver): from $CHROMIUM_BIN and $CHROMEDRIVER_BIN, else found on PATH."""
    return (
        _find("CHROMIUM_BIN", CHROMIUM_NAMES, "chromium"),
        _find("CHROMEDRIVER_BIN", DRIVER_NAMES, "chromium-driver"),
    )


def start_chromium(extra_arguments: tuple[str, ...] = ()) -> WebDriver:
    """A new headless Chromium at `WINDOW_SIZE` whose browser console is kept for `ConsoleLog`.

    `--no-sandbox` because tests run as root in containers, where Chromium's sandbox cannot start;
    `--disable-dev-shm-usage` because a container's /dev/shm is often too small for it; `--disable-gpu` since there
    is none. Giving both paths keeps selenium from looking for (and downloading) a driver of its own.
    """
    browser, driver = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    width, height = WINDOW_SIZE
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        *extra_arguments,
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(options=options, service=Service(executable_path=driver))
    except Exception as error:
        raise BrowserSetupError(f"could not start {browser} through {driver}: {error}") from error


def dashboard_url(server) -> str:
    """The URL `keyscope serve` prints: the dashboard with the token in its query."""
    return f"{server.base_url}/?token={server.token}"


@dataclass
class ConsoleEntry:
    level: str
    message: str
    source: str

    def __str__(self) -> str:
        return f"[{self.level}] {self.message}"


class ConsoleLog:
    """The browser console of one driver. ChromeDriver hands each entry out once, so everything read is kept here;
    `mark()` then `since_mark()` looks at what one step of a test logged."""

    def __init__(self, driver: WebDriver) -> None:
        self.driver = driver
        self.entries: list[ConsoleEntry] = []
        self._mark = 0

    def read(self) -> list[ConsoleEntry]:
        for raw in self.driver.get_log("browser"):
            self.entries.append(ConsoleEntry(raw.get("level", ""), raw.get("message", ""), raw.get("source", "")))
        return self.entries

    def mark(self) -> None:
        self.read()
        self._mark = len(self.entries)

    def since_mark(self) -> list[ConsoleEntry]:
        return self.read()[self._mark :]

    def errors(self) -> list[ConsoleEntry]:
        """SEVERE entries since the mark: console.error, uncaught exceptions and rejections, resources that failed
        to load (a 404 included)."""
        return [entry for entry in self.since_mark() if entry.level == "SEVERE"]

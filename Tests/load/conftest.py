"""Fixtures of the load and fault tests (see README.md).

- `report`: the session's ``loadsupport.Report`` (`.build/load/report.md` unless `$LOAD_REPORT_DIR`); its path
  and sections are printed at the end of the run.
- The servers are the real `keyscope serve --demo` ($KEYSCOPE_BIN) through Tests/e2e/support.py's `KeyscopeServer`;
  the embedding host is Sources/KeyscopeHostProbe ($KEYSCOPE_PROBE_BIN, else beside $KEYSCOPE_BIN).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))  # support.py: the server process and its clients

from loadsupport import REPO, Report  # noqa: E402
from support import KeyscopeServer  # noqa: E402

_report: Report | None = None


@pytest.fixture(scope="session")
def report() -> Report:
    global _report
    if _report is None:
        _report = Report(Path(os.environ.get("LOAD_REPORT_DIR") or REPO / ".build" / "load"))
    return _report


def pytest_terminal_summary(terminalreporter):
    if _report is None:
        return
    terminalreporter.section("load report")
    for title, lines in _report.sections.items():
        terminalreporter.write_line(f"{title}:")
        for line in lines:
            terminalreporter.write_line("  " + line)
    terminalreporter.write_line(f"(written to {_report.folder / 'report.md'})")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report says which servers were running and their last stderr."""
    outcome = yield
    KeyscopeServer.describe_in(outcome.get_result())

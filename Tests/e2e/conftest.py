"""Fixtures: the real `keyscope serve --demo` binary ($KEYSCOPE_BIN, default .build/debug/keyscope).

- `server`: one server per test module, started with the module's `SERVER_ARGS` (a list, default none), or with
  the args of an indirect parametrisation: `@pytest.mark.parametrize("server", [["--read-only"]], indirect=True)`.
- `launch`: a factory for servers that a single test owns (stopped at the end of the test).
- `scratch`: an empty folder of the test's own (a user's home, state or temporary folder), removed after it.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.dont_write_bytecode = True

from support import KeyscopeServer  # noqa: E402


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest):
    args = getattr(request, "param", None)
    if args is None:
        args = getattr(request.module, "SERVER_ARGS", [])
    running = KeyscopeServer(args)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def launch():
    started: list[KeyscopeServer] = []

    def start(*args: str, env: dict[str, str] | None = None) -> KeyscopeServer:
        running = KeyscopeServer(args, env=env)
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()


@pytest.fixture
def scratch(request: pytest.FixtureRequest):
    made = Path(tempfile.mkdtemp(prefix=f"keyscope-{request.module.__name__.removeprefix('test_')}-e2e-"))
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report says which servers were running, whether they still are, and their last stderr."""
    outcome = yield
    KeyscopeServer.describe_in(outcome.get_result())

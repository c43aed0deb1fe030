"""The result table the browser benchmarks print."""

from __future__ import annotations

import sys


class Table:
    """Rows of (what, value), printed as they come (stderr) and together at the end (stdout)."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str]] = []

    def add(self, what: str, value: str) -> None:
        self.rows.append((what, value))
        print(f"  {what}: {value}", file=sys.stderr, flush=True)

    def print(self, title: str) -> None:
        width = max(len(what) for what, _ in self.rows)
        print(title)
        for what, value in self.rows:
            print(f"  {what.ljust(width)}  {value}")

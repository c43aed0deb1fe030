"""The machine-readable side of a benchmark: a part's figures as `<part>.json` in the results folder, in the shape
keyscope-bench writes too (Benchmarks/Sources/keyscope-bench/ResultsFile.swift), so that Benchmarks/report.py can
print every part of `make bench` as one table.

The folder is $KEYSCOPE_BENCH_RESULTS, else `.build-bench/results/` at the root of the checkout (git-ignored).

    results = Results("tunables", "Tunables (release keyscope serve --demo, loopback)", "make bench-tunables")
    results.add("PUT /tune round trip, p50", 0.6, "ms")
    results.write()
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def results_folder() -> Path:
    configured = os.environ.get("KEYSCOPE_BENCH_RESULTS")
    return Path(configured) if configured else REPO / ".build-bench" / "results"


class Results:
    """The figures of one part, written by `write()` when the part is done."""

    def __init__(self, part: str, title: str, command: str) -> None:
        self.part, self.title, self.command = part, title, command
        self.figures: list[dict] = []
        self.started = time.monotonic()

    def add(self, name: str, value: float | None, unit: str, better: str = "lower", *, peer: str | None = None,
            peer_value: float | None = None, no_peer: str | None = None, display: str | None = None) -> None:
        """One figure. `better` is "lower" or "higher"; `display` replaces the formatted value (e.g. "<16 ms");
        without a peer the report shows "—" and `no_peer` (the reason) in its notes."""
        figure = {"name": name, "value": value, "unit": unit, "better": better}
        if peer is not None:
            figure.update(peer=peer, peerValue=peer_value)
        else:
            figure["noPeer"] = no_peer or "no peer"
        if display is not None:
            figure["display"] = display
        self.figures.append(figure)

    def write(self) -> Path:
        """Writes `<part>.json` through a temporary file and a rename (the report never reads half a file)."""
        folder = results_folder()
        folder.mkdir(parents=True, exist_ok=True)
        document = {
            "part": self.part,
            "title": self.title,
            "command": self.command,
            "finished": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seconds": round(time.monotonic() - self.started, 1),
            "cores": os.cpu_count(),
            "figures": self.figures,
        }
        target = folder / f"{self.part}.json"
        temporary = target.with_suffix(".json.tmp")
        temporary.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        os.replace(temporary, target)
        print(f"  figures written to {target}", file=sys.stderr)
        return target

#!/usr/bin/env python3
"""The one table of `make bench`: every part's figures (the `<part>.json` files that keyscope-bench and the Python
benches write to the results folder, see bench_results.py), each beside the peer measured in the same run, with the
ratio Keyscope ÷ peer.

    make bench-report                       (the table again from the last results, nothing re-run)
    python3 Benchmarks/report.py [--folder DIR] [--markdown]

--markdown prints the same table as Markdown, for docs/performance.md. Exits 1 when the folder holds no results.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_results import results_folder  # noqa: E402

# The parts in the order `make bench` runs them, and how to run each one alone.
SWIFT_PART = "swift run -c release --package-path Benchmarks keyscope-bench"
PARTS = {
    "store": f"{SWIFT_PART} store",
    "codec": f"{SWIFT_PART} codec",
    "push": f"{SWIFT_PART} push",
    "latency": f"{SWIFT_PART} latency",
    "set-cost": f"{SWIFT_PART} set-cost",
    "backend": f"{SWIFT_PART} backend",
    "dashboard": "make bench-browser",
    "tunables": "make bench-tunables",
    "recording": "make bench-recording",
    "time-travel": "make bench-recording",
}
# Within this share of 1× the two are called even: closer than this machine's run-to-run noise.
EVEN = 0.05
TIME_UNITS = [("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0)]


def number(value: float) -> str:
    magnitude = abs(value)
    if magnitude >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}" if magnitude >= 10 else f"{value:.2f}"


def amount(value: float | None, unit: str) -> str:
    """A value in its unit, times scaled to read well (12,345 ns → 12.3 µs), rates in k and M."""
    if value is None:
        return "n/a"
    scales = dict(TIME_UNITS)
    if unit in scales:
        nanoseconds = value * scales[unit]
        for name, scale in TIME_UNITS:
            if nanoseconds >= scale or name == "ns":
                return f"{number(nanoseconds / scale)} {name}"
    if unit == "/s":
        if value >= 1e6:
            return f"{value / 1e6:.2f}M/s"
        return f"{value / 1e3:.0f}k/s" if value >= 1e4 else f"{value:,.0f}/s"
    if unit == "%":
        return f"{value:.1f}%"
    return f"{number(value)} {unit}"


def ratio(figure: dict) -> str:
    """Keyscope ÷ peer, and who is ahead (lower is better for times and sizes, higher for rates)."""
    own, peer = figure.get("value"), figure.get("peerValue")
    if figure.get("peer") is None:
        return "—"
    if not own or not peer:
        return "n/a"
    quotient = own / peer
    text = f"{quotient:.0f}×" if quotient >= 100 else f"{quotient:.1f}×" if quotient >= 10 else f"{quotient:.2f}×"
    if abs(quotient - 1) <= EVEN:
        return f"{text} even"
    ahead = (quotient < 1) == (figure.get("better", "lower") == "lower")
    return f"{text} {'Keyscope' if ahead else 'peer'} ahead"


def rows(document: dict) -> list[list[str]]:
    """A part's rows: figure, Keyscope's value, the peer, its value, the ratio. Why a figure has no peer is said on
    the first row that gives that reason; later ones show "—" only."""
    said: set[str] = set()
    out = []
    for figure in document["figures"]:
        unit = figure["unit"]
        own = figure.get("display") or amount(figure.get("value"), unit)
        if figure.get("peer") is None:
            reason = figure.get("noPeer") or "no peer"
            peer, peer_value = ("—" if reason in said or reason == "no peer" else f"— ({reason})"), ""
            said.add(reason)
        else:
            peer, peer_value = figure["peer"], amount(figure.get("peerValue"), unit)
        out.append(["  " + figure["name"], own, peer, peer_value, ratio(figure)])
    return out


def load(folder: Path) -> list[dict]:
    documents = []
    for path in sorted(folder.glob("*.json")):
        try:
            documents.append(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            print(f"report: skipping {path}: {error}", file=sys.stderr)
    order = list(PARTS)
    return sorted(documents, key=lambda d: (order.index(d["part"]) if d["part"] in order else len(order), d["part"]))


def when(document: dict) -> str:
    try:
        finished = datetime.strptime(document["finished"], "%Y-%m-%dT%H:%M:%SZ")
    except (KeyError, ValueError):
        return document.get("finished", "?")
    return finished.strftime("%Y-%m-%d %H:%M UTC")


def section(document: dict) -> str:
    return (f"{document['title']} — {document['part']}.json, {when(document)}, {document.get('seconds', 0):.0f} s, "
            f"{document.get('cores', '?')} cores")


HEADER = ["figure", "Keyscope", "peer (measured in the same run)", "peer", "Keyscope ÷ peer"]


def text_table(documents: list[dict]) -> str:
    body = [(section(d), rows(d)) for d in documents]
    cells = [HEADER] + [row for _, part in body for row in part]
    widths = [max(len(row[column]) for row in cells) for column in range(len(HEADER))]

    def line(row: list[str]) -> str:
        return "  ".join(cell.ljust(width) if column in (0, 2) else cell.rjust(width)
                         for column, (cell, width) in enumerate(zip(row, widths))).rstrip()

    out = [line(HEADER), "  ".join("-" * width for width in widths)]
    for title, part in body:
        out.append(title)
        out.extend(line(row) for row in part)
    return "\n".join(out)


def markdown_table(documents: list[dict]) -> str:
    def escape(cell: str) -> str:
        return cell.strip().replace("|", "\\|")

    out = ["| " + " | ".join(HEADER) + " |", "| --- | ---: | --- | ---: | --- |"]
    for document in documents:
        out.append(f"| **{escape(document['title'])}** | | | | |")
        for row in rows(document):
            name = row[0].strip()
            if row[0].startswith("    "):
                name = "&nbsp;&nbsp;" + name
            out.append("| " + " | ".join([escape(name)] + [escape(cell) for cell in row[1:]]) + " |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, default=results_folder(), help="the results folder")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    options = parser.parse_args()
    documents = load(options.folder)
    if not documents:
        print(f"report: no results in {options.folder}; run `make bench` (or one part of it) first", file=sys.stderr)
        return 1
    if options.markdown:
        print(markdown_table(documents))
    else:
        print(f"\nKeyscope benchmarks: each figure beside its peer from the same run ({options.folder})")
        print("Ratio = Keyscope ÷ peer: times and sizes are better lower, rates higher; \"even\" within "
              f"{EVEN:.0%}.\n")
        print(text_table(documents))
    missing = [f"{part} ({command})" for part, command in PARTS.items()
               if part not in {d["part"] for d in documents}]
    if missing:
        print(f"\nNot in the results yet: {', '.join(missing)}.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The Autobahn WebSocket suite against `KeyscopeConformanceEcho` (the inspector's lws layer with an echo), driven by
kosoku (a native runner of the Autobahn case files). Run by `make conformance`; see docs/conformance.md.

    KEYSCOPE_ECHO_BIN=.build/debug/KeyscopeConformanceEcho .venv-e2e/bin/python Tests/conformance/autobahn.py \
        [--report DIR] [-i CASE]…

Prints the count of each outcome and exits non-zero unless every case is OK, NON-STRICT or INFORMATIONAL (the
message exchange and the closing handshake both), except:
- 12.* and 13.* (permessage-deflate, which the server does not offer): each must be UNIMPLEMENTED, and 13.7.*,
  whose three offers are over what lws 4.1 can answer, must be refused with 431 (see ExtensionOffers.swift);
- the KNOWN_DEVIATIONS below, reported as such (failing or not).
The HTML and JSON reports go to --report (default conformance-report/, which git ignores).
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "e2e"))
from echo_server import EchoServer  # noqa: E402

PASSING = {"OK", "NON-STRICT", "INFORMATIONAL"}
PASSING_CLOSE = {"OK", "INFORMATIONAL"}
# Cases lws 4.1.6 cannot pass, with why. Nothing else may fail.
KNOWN_DEVIATIONS = {
    "2.10": "lws keeps one pong pending and drops pings that arrive before it is sent: of 10 pings sent at once, "
    "the first is answered (RFC 6455 5.5.3 allows answering only the latest; the case says its check goes beyond "
    "the spec; warmcat/libwebsockets#198)",
    "2.11": "the same 10 pings, sent octet by octet: as 2.10",
}
# permessage-deflate is not offered: these cases cannot apply.
NOT_APPLICABLE = ("12.*", "13.*")
REFUSED_OFFERS = "13.7.*"
SUITE_TIMEOUT = 30 * 60


NOT_APPLICABLE_PREFIX = "not applicable: "


def verdict(case: str, entry: dict, details: dict) -> str:
    """`pass`, `not applicable: HOW` (`refused with 431`, or the case's behavior: `UNIMPLEMENTED`), `known
    deviation` or `FAIL: why` for one case of the report."""
    behavior, close = entry["behavior"], entry["behaviorClose"]
    if case in KNOWN_DEVIATIONS:
        return "known deviation"
    if any(fnmatch.fnmatchcase(case, pattern) for pattern in NOT_APPLICABLE):
        if fnmatch.fnmatchcase(case, REFUSED_OFFERS):
            if "got 431" in details.get("result", ""):
                return NOT_APPLICABLE_PREFIX + "refused with 431"
            return f"FAIL: expected a 431 refusal, got {details.get('result')!r}"
        if behavior == "UNIMPLEMENTED":
            return NOT_APPLICABLE_PREFIX + behavior
        return f"FAIL: permessage-deflate is not offered, so UNIMPLEMENTED was expected, got {behavior}"
    if behavior in PASSING and close in PASSING_CLOSE:
        return "pass"
    return f"FAIL: behavior {behavior}, close {close}: {details.get('result')} / {details.get('resultClose')}"


def case_key(case: str) -> tuple[int, ...]:
    return tuple(int(part) for part in case.split("."))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", type=Path, default=REPO / "conformance-report", help="report folder")
    parser.add_argument("-i", "--include", action="append", default=[], help="case or glob (default: all)")
    # The one place this size is set: `make conformance` relies on this default.
    parser.add_argument(
        "--max-message", type=int, default=20 << 20, help="the echo's --max-message in bytes (9.* sends 16 MiB)")
    args = parser.parse_args()

    kosoku = Path(sys.executable).parent / "kosoku"
    report: Path = args.report
    began = time.monotonic()
    with EchoServer("--max-message", str(args.max_message)) as echo:
        command = [str(kosoku), f"127.0.0.1:{echo.port}", "-o", str(report)]
        for case in args.include:
            command += ["-i", case]
        # kosoku exits 1 when a case fails, and lists each on stderr; the verdict below is ours, from its report.
        report.mkdir(parents=True, exist_ok=True)
        with open(report / "kosoku.log", "w") as log:
            subprocess.run(command, stdout=log, stderr=log, timeout=SUITE_TIMEOUT, check=False)
    seconds = time.monotonic() - began

    index_file = report / "index.json"
    if not index_file.exists():
        print(f"conformance: kosoku wrote no {index_file} (see {report / 'kosoku.log'})", file=sys.stderr)
        return 1
    (agent, cases), = json.loads(index_file.read_text()).items()
    applicable: collections.Counter[str] = collections.Counter()
    closing: collections.Counter[str] = collections.Counter()
    not_applicable: collections.Counter[str] = collections.Counter()
    known: list[str] = []
    failures: list[str] = []
    for case in sorted(cases, key=case_key):
        entry = cases[case]
        details = json.loads((report / entry["reportfile"]).read_text())
        result = verdict(case, entry, details)
        if result.startswith(NOT_APPLICABLE_PREFIX):
            not_applicable[result.removeprefix(NOT_APPLICABLE_PREFIX)] += 1
            continue
        applicable[entry["behavior"]] += 1
        closing[entry["behaviorClose"]] += 1
        if result == "known deviation":
            known.append(f"  known deviation {case} ({entry['behavior']}): {KNOWN_DEVIATIONS[case]}")
        elif result != "pass":
            failures.append(f"  {case}: {result[6:]}")

    def counts(counter: collections.Counter[str]) -> str:
        return ", ".join(f"{name} {count}" for name, count in counter.most_common())

    print(f"Autobahn suite against KeyscopeConformanceEcho ({agent}): {len(cases)} cases in {seconds:.0f} s")
    print(f"  {applicable.total()} applicable: {counts(applicable)} (closing: {counts(closing)})")
    if not_applicable:
        print(f"  {not_applicable.total()} not applicable (12.*, 13.*: no permessage-deflate offered): "
              f"{counts(not_applicable)}")
    for line in known:
        print(line)
    print(f"  report: {report / 'index.html'}")
    if failures:
        print(f"conformance: {len(failures)} case(s) failed:", *failures, sep="\n", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

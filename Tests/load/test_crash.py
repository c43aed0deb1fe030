"""Crash consistency (issue 8, "Load and faults"): KeyscopeHostProbe writes its file store (`state.json`, saved
atomically after every change), its tunables (`live-constants.json`, saved atomically) and a recording of its hub
(a `.kslog` written line by line) all at once, and is killed with SIGKILL at a random moment, 1,000 times in a
loop, each start continuing from the files the last one left.

After every kill:
- `state.json` parses, and its `counter` is the last one the probe printed or the one before (a file never holds a
  counter the probe has not announced, nor one older than the last seen), with the `blob` that belongs to it;
- `live-constants.json` parses, keeps its untouched `label`, and its `counter` is in the same window;
- the recording keeps every complete line: each one parses, line 1 is the header, `seq` rises by 1 from 1; only a
  last line without its newline may be torn; `keyscope verify` accepts it (it drops a torn tail with a warning).

Figures: LOAD_CRASH_CYCLES (1000), LOAD_CRASH_EARLY (0.15: the share of kills aimed at the start-up, before the
work loop runs), LOAD_CRASH_SEED (random; printed in the report).
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path

from loadsupport import Probe, number
from support import keyscope_binary

CYCLES = int(number("CRASH_CYCLES", 1000))
EARLY = float(number("CRASH_EARLY", 0.15))
SEED = int(number("CRASH_SEED", random.randrange(1 << 30)))
BLOB_SIZE = 6 * 1024
LABEL = "keyscope host probe"


def blob(counter: int) -> str:
    """The probe's `blob` for `counter` (ProbeWork.blob)."""
    unit = f"{counter}:"
    return (unit * (BLOB_SIZE // len(unit) + 1))[:BLOB_SIZE]


def check_recording(path: Path) -> tuple[int, int]:
    """(complete lines, torn tail bytes) of a recording, after checking every complete line."""
    data = path.read_bytes()
    pieces = data.split(b"\n")
    complete, tail = pieces[:-1], pieces[-1]
    for number_, line in enumerate(complete, start=1):
        try:
            value = json.loads(line)
        except ValueError as error:
            raise AssertionError(f"{path.name}: complete line {number_} does not parse ({error}): {line[:200]!r}")
        if number_ == 1:
            assert value.get("format") == "keyscope-log", f"{path.name}: line 1 is not a header: {line[:200]!r}"
        else:
            assert value.get("seq") == number_ - 1, f"{path.name}: line {number_} has seq {value.get('seq')}"
    return len(complete), len(tail)


def test_kill_9_in_a_loop_leaves_every_file_whole(tmp_path, report):
    rng = random.Random(SEED)
    state = tmp_path / "state"
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    keyscope = str(keyscope_binary())
    seen_store = seen_tunable = 0  # the counters found after the last kill: files only move forward
    counts = {"early": 0, "in the loop": 0, "no store file yet": 0, "no tunables file yet": 0,
              "store at the printed counter": 0, "store one behind": 0, "tunables one behind": 0,
              "recordings with no complete line": 0, "torn tails": 0, "recordings verified": 0}
    lines_total = 0
    started = time.monotonic()
    for cycle in range(CYCLES):
        recording = recordings / f"cycle-{cycle:04d}.kslog"
        printed_before = max(seen_store, seen_tunable)
        probe = Probe(["--state", str(state), "--no-server", "--record", str(recording), "--interval-ms", "0"])
        if rng.random() < EARLY:
            counts["early"] += 1
            time.sleep(rng.uniform(0, 0.06))
        else:
            counts["in the loop"] += 1
            probe.wait_for(lambda p: p.last_work > 0, "the probe's first step", timeout=30)
            time.sleep(rng.uniform(0, 0.03))
        probe.kill()
        assert probe.process.returncode == -9, (
            f"cycle {cycle}: the probe ended by itself ({probe.process.returncode}):\n{probe.log_text()[-2000:]}"
        )
        printed = probe.last_work or printed_before
        where = f"cycle {cycle} (seed {SEED}; printed {printed}, files before {seen_store}/{seen_tunable})"

        store_file = state / "state.json"
        if store_file.exists():
            document = json.loads(store_file.read_bytes())
            root = document["root"]
            counter = root.get("counter", 0)
            assert seen_store <= counter <= printed, f"{where}: state.json holds counter {counter}"
            assert counter >= printed - 1 or counter == seen_store, f"{where}: state.json is stale at {counter}"
            if counter:
                assert root.get("blob") == blob(counter), f"{where}: state.json's blob does not match {counter}"
            counts["store at the printed counter" if counter == printed else "store one behind"] += 1
            seen_store = counter
        else:
            assert seen_store == 0, f"{where}: state.json disappeared"
            counts["no store file yet"] += 1

        tunables_file = state / "live-constants.json"
        if tunables_file.exists():
            values = json.loads(tunables_file.read_bytes())
            assert values.get("label") == LABEL, f"{where}: live-constants.json lost its label: {values}"
            counter = values["counter"]
            assert seen_tunable <= counter <= printed, f"{where}: live-constants.json holds counter {counter}"
            assert counter >= printed - 1 or counter == seen_tunable, f"{where}: tunables stale at {counter}"
            if counter < printed:
                counts["tunables one behind"] += 1
            seen_tunable = counter
        else:
            assert seen_tunable == 0, f"{where}: live-constants.json disappeared"
            counts["no tunables file yet"] += 1

        if recording.exists():
            lines, torn = check_recording(recording)
            lines_total += lines
            counts["torn tails"] += bool(torn)
            if lines == 0:
                counts["recordings with no complete line"] += 1
            else:
                verified = subprocess.run([keyscope, "verify", str(recording)], capture_output=True, text=True)
                assert verified.returncode == 0, f"{where}: keyscope verify: {verified.stdout}{verified.stderr}"
                counts["recordings verified"] += 1
        else:
            counts["recordings with no complete line"] += 1
    elapsed = time.monotonic() - started
    leftovers = sorted(p.name for p in state.iterdir() if p.name not in ("state.json", "live-constants.json", "bundle"))
    report.section(
        "Crash consistency",
        [
            f"- {CYCLES} SIGKILLs in {elapsed:.0f} s ({elapsed / CYCLES * 1000:.0f} ms a cycle), seed {SEED}; "
            f"the last counter on disk: {seen_store} (store), {seen_tunable} (tunables)",
            "- " + ", ".join(f"{name}: {value}" for name, value in counts.items()),
            f"- recordings: {lines_total} complete lines in all, every one parsed; failures: 0",
            f"- files left beside the store and tunables (temporaries of interrupted atomic writes): {len(leftovers)}"
            + (f" ({', '.join(leftovers[:5])}…)" if leftovers else ""),
        ],
    )
    assert counts["in the loop"] and seen_store > 0, "no kill ever landed in the probe's work loop"
    # Each start sweeps the temporaries that killed writers left (of a process that is gone); only the last kill's
    # may remain, one per file.
    assert len(leftovers) <= 2, f"temporaries of killed writers pile up: {leftovers[:10]}"

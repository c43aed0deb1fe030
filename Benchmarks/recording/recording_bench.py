"""Record and replay figures against a release `keyscope`:

- replay speed of a 1M-event recording (`kslog_gen.py`, cached under $TMPDIR and shared with the browser's replay
  bench): `keyscope replay --speed max`, `keyscope verify` and `keyscope state`, each as events/s (by the wall
  clock, and per CPU second of the process) beside its peer, a Python loop that only calls `json.loads` on each line
  of the same file (run interleaved with them, `--rounds` times, medians), and each command's peak memory (max RSS)
  on the file and on one a tenth its size (memory must stay flat whatever the size);
- recording overhead on a busy demo (`serve --demo --rate N`): the server's CPU per 1000 changes with nobody
  recording, with `keyscope record` following it over the WebSocket, and with a recording inside the service
  (`POST /api/recordings`), side by side in one run, each over the same window.

Run by `make bench`; alone: `make bench-recording` (EVENTS=… RATE=… to change the sizes), or this script with
`--no-overhead` for the replay figures only. Prints tables and writes their figures to recording.json in the
results folder (Benchmarks/bench_results.py); nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "Tests" / "e2e"))
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import kslog_gen  # noqa: E402
from bench_results import Results  # noqa: E402
from support import KeyscopeServer, cpu_seconds, http, keyscope_binary  # noqa: E402


def timed_child(args: list[str]) -> tuple[float, float, int, str, str]:
    """Runs a command; its wall seconds, CPU seconds, peak RSS in KiB, stdout and stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.perf_counter()
        process = subprocess.Popen(args, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed ({status}):\n{stderr[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, stdout, stderr


# The peer: what any reader of JSON Lines does at the least, parse each line (CPython's C json decoder).
PYTHON_LOOP = """import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""
PEER = "Python json.loads per line, same file"


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def replay_figures(events: int, rounds: int, results: Results) -> None:
    log = kslog_gen.recording_file(events)
    small_events = max(1, events // 10)
    small = kslog_gen.recording_file(small_events)
    size_mb = log.stat().st_size / 1e6
    binary = str(keyscope_binary())
    commands = [
        ("keyscope replay --speed max", [binary, "replay", "{log}", "--speed", "max"]),
        ("keyscope verify", [binary, "verify", "{log}"]),
        ("keyscope state", [binary, "state", "{log}"]),
        (PEER, [sys.executable, "-c", PYTHON_LOOP, "{log}"]),
    ]

    def run(args: list[str], path: Path) -> tuple[float, float, int]:
        wall, cpu, rss, _, _ = timed_child([str(path) if arg == "{log}" else arg for arg in args])
        return wall, cpu, rss

    print(f"\nReplay of {events:,} events, {size_mb:.0f} MB ({log}); {rounds} rounds, interleaved, medians")
    walls: dict[str, list[float]] = {label: [] for label, _ in commands}
    cpus: dict[str, list[float]] = {label: [] for label, _ in commands}
    rss: dict[str, int] = {}
    for round_number in range(rounds):
        # Each round starts with another command, so that none always runs first (or after the same one).
        shift = round_number % len(commands)
        for label, args in commands[shift:] + commands[:shift]:
            wall, cpu, peak = run(args, log)
            walls[label].append(wall)
            cpus[label].append(cpu)
            rss[label] = max(rss.get(label, 0), peak)
    small_rss = {label: run(args, small)[2] for label, args in commands}
    peer_rate = events / median(walls[PEER])
    peer_cpu_rate = events / median(cpus[PEER])
    print(f"{'command':<40} {'wall s':>7} {'CPU s':>7} {'events/s':>11} {'÷ peer':>7} {'MB/s':>7} "
          f"{'peak RSS MiB':>13} {f'at {small_events:,}':>13}")
    for label, _ in commands:
        wall = median(walls[label])
        print(f"{label:<40} {wall:>7.2f} {median(cpus[label]):>7.2f} {events / wall:>11,.0f} "
              f"{events / wall / peer_rate:>6.2f}× {size_mb / wall:>7.1f} {rss[label] / 1024:>13.1f} "
              f"{small_rss[label] / 1024:>13.1f}")
        if label == PEER:
            continue
        results.add(f"{label}, events", events / wall, "/s", "higher", peer=f"{PEER} (median of {rounds})",
                    peer_value=peer_rate)
        # The CPU time the process used (all its threads): what a loaded machine changes least.
        results.add("  events per CPU second", events / median(cpus[label]), "/s", "higher",
                    peer="the same loop, per CPU second", peer_value=peer_cpu_rate)
        results.add(f"  peak RSS, {events:,} events", rss[label] / 1024, "MiB",
                    peer=f"the same, {small_events:,} events", peer_value=small_rss[label] / 1024)


def last_seq(server: KeyscopeServer) -> int:
    return http(server, "GET", "/api/snapshot").json()["seq"]


def window(server: KeyscopeServer, seconds: float, extra_pids: list[int]) -> tuple[float, float, int]:
    """Server CPU s, helper processes' CPU s and changes made over `seconds`."""
    seq0, cpu0 = last_seq(server), cpu_seconds(server.pid)
    extra0 = sum(cpu_seconds(pid) for pid in extra_pids)
    time.sleep(seconds)
    seq1, cpu1 = last_seq(server), cpu_seconds(server.pid)
    extra1 = sum(cpu_seconds(pid) for pid in extra_pids)
    return cpu1 - cpu0, extra1 - extra0, seq1 - seq0


def overhead_figures(rate: int, seconds: float, results: Results) -> None:
    server = KeyscopeServer(["--rate", str(rate)])
    rows = []
    try:
        time.sleep(1)  # past the start-up
        rows.append(("nobody recording", *window(server, seconds, [])))
        out = server.home / "bench-cli.kslog"
        env = dict(os.environ, KEYSCOPE_HOME=str(server.home))
        recorder = subprocess.Popen([str(keyscope_binary()), "record", "-o", str(out)], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1)
            rows.append(("keyscope record (WebSocket)", *window(server, seconds, [recorder.pid])))
        finally:
            recorder.terminate()
            recorder.wait(10)
        started = http(server, "POST", "/api/recordings", {"name": "bench-inside.kslog"})
        if started.status != 201:
            raise SystemExit(f"POST /api/recordings: {started.describe()}")
        time.sleep(1)
        rows.append(("recording inside the service", *window(server, seconds, [])))
        http(server, "POST", "/api/recordings/recordings/bench-inside.kslog/stop", {})
    finally:
        server.stop()
    base = rows[0][1] / max(rows[0][3], 1)
    print(f"\nRecording overhead, demo at --rate {rate}, {seconds:.0f} s windows (server CPU per 1000 changes)")
    print(f"{'setup':<32} {'changes/s':>10} {'server ms/1k':>13} {'recorder ms/1k':>15} {'server ×':>9}")
    for label, server_cpu, extra_cpu, changes in rows:
        per = server_cpu / max(changes, 1)
        print(f"{label:<32} {changes / seconds:>10,.0f} {per * 1e6:>13.1f} "
              f"{extra_cpu / max(changes, 1) * 1e6:>15.1f} {per / base:>9.2f}")
        if label != rows[0][0]:
            results.add(f"server CPU per 1k changes at {rate:,}/s, {label}", per * 1e6, "ms",
                        peer=f"{rows[0][0]}, same run", peer_value=base * 1e6)
        if extra_cpu:
            results.add("  recorder process CPU per 1k changes", extra_cpu / max(changes, 1) * 1e6, "ms",
                        no_peer="the CLI recorder's own process")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=int(os.environ.get("EVENTS", 1_000_000)))
    parser.add_argument("--rate", type=int, default=int(os.environ.get("RATE", 5000)))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved runs of each replay command (3)")
    parser.add_argument("--no-overhead", action="store_true", help="only the replay figures")
    arguments = parser.parse_args()
    results = Results("recording", f"Record and replay (release keyscope; replay of {arguments.events:,} events, "
                      f"recording on a demo at --rate {arguments.rate:,})", "make bench-recording")
    replay_figures(arguments.events, arguments.rounds, results)
    if not arguments.no_overhead:
        overhead_figures(arguments.rate, arguments.seconds, results)
    results.write()


if __name__ == "__main__":
    main()

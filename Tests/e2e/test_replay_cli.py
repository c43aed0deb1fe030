"""`keyscope verify`, `keyscope state` and `keyscope replay` on recordings written here and on `fixtures/broken/`:
exit codes, what goes to stdout and stderr, `--at`, the state digest, and `replay --serve` seen over HTTP."""

from __future__ import annotations

import hashlib
import json
import os
import queue
import re
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from support import DASHBOARD_LINE, REPO, LoopbackAddress, error_code, http, keyscope_binary, wait_for

BROKEN = REPO / "fixtures" / "broken"
TXN = "6F1C2D3E-4A5B-4C6D-8E7F-901A2B3C4D5E"


def line(value: dict) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def time_at(tenths: int) -> str:
    return f"2026-11-21T10:00:{tenths // 10:02d}.{tenths % 10}00000Z"


HEADER = {
    "format": "keyscope-log",
    "version": 1,
    "createdAt": "2026-11-21T10:00:00.000000Z",
    "source": {"name": "checkout-service"},
    "stores": [{"id": "app/memory", "version": "1.4.0", "root": {"cart": {"items": [], "total": 0}}}],
}
EVENTS = [
    {"store": "app/memory", "txn": TXN, "patches": [
        {"op": "insert", "path": "cart.items[0]", "new": {"sku": "TEA-01", "price": 45}},
        {"op": "set", "path": "cart.total", "old": 0, "new": 45},
    ]},
    {"event": "registered", "store": "scenario:checkout/memory", "version": "1.0.0", "root": {}},
    {"store": "scenario:checkout/memory", "txn": None, "patches": [{"op": "set", "path": "step", "new": "address"}]},
    {"store": "app/memory", "patches": [{"op": "merge", "path": "cart", "old": {}, "new": {"coupon": "WELCOME10"}}]},
    {"event": "removed", "store": "scenario:checkout/memory"},
    {"event": "reset", "store": "app/memory", "version": "2.0.0"},
    {"store": "app/memory", "txn": None, "patches": [{"op": "set", "path": "cart", "new": {"total": 0}}]},
]
# The state after each seq (index), as `keyscope state --at SEQ` must print it.
STATES = [
    {"app/memory": {"cart": {"items": [], "total": 0}}},
    {"app/memory": {"cart": {"items": [{"price": 45, "sku": "TEA-01"}], "total": 45}}},
    {"app/memory": {"cart": {"items": [{"price": 45, "sku": "TEA-01"}], "total": 45}}, "scenario:checkout/memory": {}},
    {
        "app/memory": {"cart": {"items": [{"price": 45, "sku": "TEA-01"}], "total": 45}},
        "scenario:checkout/memory": {"step": "address"},
    },
    {
        "app/memory": {"cart": {"coupon": "WELCOME10", "items": [{"price": 45, "sku": "TEA-01"}], "total": 45}},
        "scenario:checkout/memory": {"step": "address"},
    },
    {"app/memory": {"cart": {"coupon": "WELCOME10", "items": [{"price": 45, "sku": "TEA-01"}], "total": 45}}},
    {"app/memory": {}},
    {"app/memory": {"cart": {"total": 0}}},
]


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """A good recording of seven events, a tenth of a second apart."""
    path = tmp_path_factory.mktemp("replay") / "checkout.kslog"
    lines = [line(HEADER)] + [line(dict(event, seq=seq, time=time_at(seq))) for seq, event in enumerate(EVENTS, 1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(*args: str, stdin: bytes | None = None, timeout: float = 30) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(keyscope_binary()), *args], input=stdin, capture_output=True, timeout=timeout,
        env={k: v for k, v in os.environ.items() if k != "KEYSCOPE_TOKEN"},
    )


def digest_line(stdout: bytes) -> str:
    match = re.search(rb"^digest +([0-9a-f]{64})\b", stdout, re.MULTILINE)
    assert match, stdout.decode()
    return match.group(1).decode()


# MARK: - verify


def test_verify_prints_the_summary_and_a_digest_equal_to_the_hash_of_state(recording):
    verified = run("verify", str(recording))
    assert verified.returncode == 0, verified.stderr.decode()
    out = verified.stdout.decode()
    assert out.startswith(f"{recording}: ok\n")
    assert re.search(r"^events +7 \(4 changes with 5 patches, 3 store events\)$", out, re.MULTILINE), out
    assert re.search(r"^stores +1 at the start, 1 at the end$", out, re.MULTILINE), out
    assert "(0.600 s)" in out
    assert verified.stderr == b""
    state = run("state", str(recording))
    assert digest_line(verified.stdout) == hashlib.sha256(state.stdout).hexdigest()


def test_verify_reads_standard_input(recording):
    verified = run("verify", "-", stdin=recording.read_bytes())
    assert verified.returncode == 0, verified.stderr.decode()
    assert verified.stdout.startswith(b"standard input: ok\n")


def test_a_torn_tail_is_a_warning_not_an_error():
    path = BROKEN / "torn-tail.kslog"
    torn = len(path.read_bytes().rsplit(b"\n", 1)[1])
    verified = run("verify", str(path))
    assert verified.returncode == 0, verified.stderr.decode()
    assert f"the last {torn} bytes after line 4 have no final newline".encode() in verified.stderr
    assert b"events    3 " in verified.stdout


BROKEN_CASES = [
    ("bad-seq.kslog-broken", 4, "bad_seq"),
    ("patch-does-not-apply.kslog-broken", 3, "patch_does_not_apply"),
    ("bad-header.kslog-broken", 1, "bad_header"),
    ("blank-line.kslog-broken", 3, "bad_line"),
]


@pytest.mark.parametrize(("name", "line_number", "code"), BROKEN_CASES)
def test_verify_names_the_first_bad_line_and_exits_1(name, line_number, code):
    verified = run("verify", str(BROKEN / name))
    assert verified.returncode == 1
    assert verified.stdout == b""
    err = verified.stderr.decode()
    assert f"{BROKEN / name}: line {line_number}: " in err, err
    assert f"({code})" in err, err


def test_the_broken_readme_lists_every_broken_fixture():
    readme = (BROKEN / "README.md").read_text(encoding="utf-8")
    for name, line_number, code in BROKEN_CASES:
        assert name in readme and code in readme
    assert "torn-tail.kslog" in readme


# MARK: - state


def test_state_prints_one_canonical_json_line(recording):
    shown = run("state", str(recording))
    assert shown.returncode == 0, shown.stderr.decode()
    assert shown.stdout.endswith(b"\n") and shown.stdout.count(b"\n") == 1
    assert json.loads(shown.stdout) == STATES[-1]
    assert shown.stdout == (line(STATES[-1]) + "\n").encode()


@pytest.mark.parametrize("seq", range(len(STATES)))
def test_state_at_each_seq(recording, seq):
    shown = run("state", str(recording), "--at", str(seq))
    assert shown.returncode == 0, shown.stderr.decode()
    assert json.loads(shown.stdout) == STATES[seq]


def test_state_at_a_seq_beyond_the_end_is_an_error(recording):
    shown = run("state", str(recording), "--at", str(len(EVENTS) + 1))
    assert shown.returncode == 1
    assert shown.stdout == b""
    assert b"out_of_range" in shown.stderr


@pytest.mark.parametrize(("name", "line_number", "code"), BROKEN_CASES)
def test_state_of_a_bad_log_prints_nothing_on_stdout(name, line_number, code):
    for args in ([], ["--at", "1"]):
        shown = run("state", str(BROKEN / name), *args)
        assert shown.returncode == 1
        assert shown.stdout == b""
        assert f"line {line_number}: ".encode() in shown.stderr and code.encode() in shown.stderr


def test_state_reads_standard_input(recording):
    shown = run("state", "-", "--at", "3", stdin=recording.read_bytes())
    assert shown.returncode == 0, shown.stderr.decode()
    assert json.loads(shown.stdout) == STATES[3]


def test_state_of_a_torn_tail_drops_the_last_line():
    shown = run("state", str(BROKEN / "torn-tail.kslog"))
    assert shown.returncode == 0
    assert b"torn tail" in shown.stderr
    assert "cart.coupon" not in json.dumps(json.loads(shown.stdout))
    assert "coupon" not in json.loads(shown.stdout)["app/memory"]["cart"]


# MARK: - replay


def test_replay_at_max_speed_prints_the_summary_with_the_digest(recording):
    replayed = run("replay", str(recording), "--speed", "max")
    assert replayed.returncode == 0, replayed.stderr.decode()
    out = replayed.stdout.decode()
    assert out.startswith(f"{recording}: replayed in ")
    assert "(speed max)" in out.splitlines()[0]
    assert re.search(r"^events +7 ", out, re.MULTILINE)
    state = run("state", str(recording))
    assert digest_line(replayed.stdout) == hashlib.sha256(state.stdout).hexdigest()
    # No terminal: no progress bar.
    assert b"\r" not in replayed.stderr


def test_replay_at_recorded_speed_takes_the_recorded_time(recording):
    began = time.monotonic()
    replayed = run("replay", str(recording), "--speed", "2")
    assert replayed.returncode == 0, replayed.stderr.decode()
    # 0.6 s between the first event and the last, at twice the speed.
    assert time.monotonic() - began >= 0.3


@pytest.mark.parametrize(("name", "line_number", "code"), BROKEN_CASES)
def test_replay_of_a_bad_log_fails_with_the_line(name, line_number, code):
    replayed = run("replay", str(BROKEN / name), "--speed", "max")
    assert replayed.returncode == 1
    assert f"line {line_number}: ".encode() in replayed.stderr and code.encode() in replayed.stderr


def test_replay_refuses_a_bad_speed_and_server_options_without_serve(recording):
    assert run("replay", str(recording), "--speed", "0").returncode != 0
    assert run("replay", str(recording), "--speed", "fast").returncode != 0
    assert run("replay", str(recording), "--port", "0").returncode != 0


class ReplayServer(LoopbackAddress):
    """`keyscope replay FILE --serve --port 0 …` with its own KEYSCOPE_HOME; stdout and stderr drained by threads."""

    def __init__(self, recording: Path, *args: str) -> None:
        super().__init__()
        self.home = Path(tempfile.mkdtemp(prefix="keyscope-replay-e2e-"))
        env = {k: v for k, v in os.environ.items() if k != "KEYSCOPE_TOKEN"}
        env.update({"KEYSCOPE_HOME": str(self.home), "TMPDIR": str(self.home)})
        self.process = subprocess.Popen(
            [str(keyscope_binary()), "replay", str(recording), "--serve", "--port", "0", *args],
            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self.stdout: queue.Queue[str] = queue.Queue()
        self.stderr: list[str] = []
        threading.Thread(target=self._drain, args=(self.process.stdout, self.stdout.put), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stderr, self.stderr.append), daemon=True).start()
        self.port, self.token = 0, ""
        deadline = time.monotonic() + 20
        while not self.port:
            match = DASHBOARD_LINE.match(self.stdout.get(timeout=max(0.1, deadline - time.monotonic())))
            if match:
                self.port, self.token = int(match.group(1)), match.group(2)

    @staticmethod
    def _drain(stream, sink) -> None:
        for raw in iter(stream.readline, b""):
            sink(raw.decode("utf-8", "replace").rstrip("\n"))

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(10)


def snapshot_state(server: ReplayServer) -> dict:
    response = http(server, "GET", "/api/snapshot")
    assert response.status == 200, response.describe()
    return {store["id"]: store["root"] for store in response.json()["stores"]}


def test_replay_serve_shows_the_replayed_state_and_keeps_serving(recording):
    server = ReplayServer(recording, "--speed", "max")
    try:
        wait_for(lambda: snapshot_state(server) == STATES[-1], "the replayed final state in /api/snapshot")
        wait_for(lambda: any("serving" in line for line in server.stderr), "the note that it keeps serving")
        assert server.process.poll() is None
        versions = {s["id"]: s["version"] for s in http(server, "GET", "/api/snapshot").json()["stores"]}
        assert versions == {"app/memory": "2.0.0"}
        # The replay is served read-only: a write would make the stores differ from the recording.
        refused = http(server, "POST", "/api/request", body={"type": "write", "id": 1, "store": "app/memory",
                                                              "op": "set", "path": "x", "value": 1})
        assert error_code(refused) == "read_only", refused.describe()
    finally:
        code = server.stop()
    assert code == 0, "\n".join(server.stderr)


def test_replay_serve_shows_the_replay_as_it_happens(recording):
    # At a tenth of the speed, the seven events take seven seconds: the first change shows well before the last.
    server = ReplayServer(recording, "--speed", "0.1")
    try:
        wait_for(lambda: snapshot_state(server) == STATES[1], "the state after seq 1", timeout=8)
        assert server.process.poll() is None
    finally:
        code = server.stop()
    assert code == 130, "\n".join(server.stderr)


def test_replay_draws_a_progress_bar_only_on_a_terminal(recording):
    import pty

    controller, terminal = pty.openpty()
    try:
        replayed = subprocess.run(
            [str(keyscope_binary()), "replay", str(recording), "--speed", "max"],
            stdout=subprocess.PIPE, stderr=terminal, timeout=30,
        )
        os.close(terminal)
        terminal = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        if terminal >= 0:
            os.close(terminal)
        os.close(controller)
    assert replayed.returncode == 0
    assert b"\r" in drawn and b"seq 1" in drawn and b"%" in drawn, drawn
    # The bar is erased at the end; the summary goes to stdout.
    assert drawn.endswith(b"\r\x1b[K"), drawn
    assert b"\r" not in replayed.stdout

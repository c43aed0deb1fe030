#!/usr/bin/env python3
"""Records the example recordings in fixtures/recordings/ with the real code: `keyscope record` against a running
service that a script drives the way a developer would. `make fixtures` runs it (after building `keyscope` and
`KeyscopeFixtureMaker`); see fixtures/recordings/README.md for what each recording holds.

    scripts/record_fixtures.py --bin .build/debug [--out fixtures/recordings] [--only checkout-session]

- checkout-session: `keyscope serve --demo` (its own seeded story: a cart, checkouts in a scenario store registered and
  removed each time, transactions) recorded for a fixed duration.
- tunables-session: the demo at a low rate while tunables are edited with `PUT /tune/:key/:value`, `keyscope tune
  set` and one `POST /tune`; the recording is ended with SIGINT, as Ctrl-C would.
- preferences-session: KeyscopeFixtureMaker, a small settings app with a UserDefaults suite, a secret store and a
  profile kept in a Keyscope store; preferences are edited and deleted over /api/preferences (a secret among them,
  which stays redacted), the app migrates its profile to a new major version (the factory drops the old data: a
  `reset` event) and writes the new shape, and the profile is edited with `keyscope write` afterwards.

The services and the recorder run with their own KEYSCOPE_HOME, TMPDIR and XDG_CONFIG_HOME in a temporary directory,
so nothing of the machine's own state is read or written. The header's host is "fixtures" (`--host-name`), not this
machine's name. Times, pids, transaction ids and temporary paths differ from run to run; the stories do not.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DASHBOARD = re.compile(r"Keyscope dashboard: http://127\.0\.0\.1:(\d+)/\?token=(\S+)")
TOKEN = "fixtures-token-0123456789abcdef"


class Service:
    """A service process (`keyscope serve --demo …` or KeyscopeFixtureMaker) in a temporary home."""

    def __init__(self, args: list[str], home: Path, stdin: bool = False) -> None:
        self.home = home
        self.env = dict(os.environ)
        self.env.pop("KEYSCOPE_TOKEN", None)
        (home / "config").mkdir(parents=True, exist_ok=True)
        self.env.update({"KEYSCOPE_HOME": str(home), "TMPDIR": str(home), "XDG_CONFIG_HOME": str(home / "config")})
        self.process = subprocess.Popen(
            args, cwd=home, env=self.env, text=True, bufsize=1,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stderr: list[str] = []
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        line = self.process.stdout.readline()
        match = DASHBOARD.search(line)
        if not match:
            self.stop()
            raise SystemExit(f"{args[0]} did not start: {line!r}\n{''.join(self.stderr)}")
        self.port = int(match.group(1))
        self.token = match.group(2)

    def request(self, method: str, target: str, body: object | None = None) -> object:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Authorization": f"Bearer {self.token}", "Host": f"127.0.0.1:{self.port}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, target, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        if response.status >= 300:
            raise SystemExit(f"{method} {target}: {response.status} {text}")
        return json.loads(text) if text else None

    def command(self, line: str) -> None:
        """Sends a command to KeyscopeFixtureMaker and waits for its `ok`."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        if answer != "ok":
            raise SystemExit(f"KeyscopeFixtureMaker: {line!r} → {answer!r}")

    def cli(self, binary: Path, *args: str) -> None:
        """Runs a `keyscope` client command against this service."""
        done = subprocess.run([str(binary), *args, "--port", str(self.port)], env=self.env, capture_output=True,
                              text=True, timeout=30)
        if done.returncode != 0:
            raise SystemExit(f"keyscope {' '.join(args)}: {done.stderr}")

    def stop(self) -> None:
        if self.process.poll() is None:
            if self.process.stdin:
                self.process.stdin.close()
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Recorder:
    """`keyscope record` against a service, started and waited for until its header is written."""

    def __init__(self, binary: Path, service: Service, output: Path, *args: str) -> None:
        output.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [str(binary), "record", "-o", str(output), "--url", f"http://127.0.0.1:{service.port}",
             "--token", service.token, "--host-name", "fixtures", *args],
            env=service.env, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        first = self.process.stderr.readline()
        if "recording" not in first:
            raise SystemExit(f"keyscope record did not start: {first}{self.process.stderr.read()}")

    def finish(self, interrupt: bool) -> None:
        if interrupt:
            self.process.send_signal(signal.SIGINT)
        rest = self.process.stderr.read()
        code = self.process.wait(60)
        print("  " + rest.strip().replace("\n", "\n  "))
        if code != 0:
            raise SystemExit(f"keyscope record exited with {code}")


def checkout_session(binary: Path, maker: Path, out: Path, home: Path) -> None:
    service = Service([str(binary), "serve", "--demo", "--port", "0", "--token", TOKEN, "--seed", "7", "--rate",
                       "25", "--no-preferences", "--no-tunables", "--public", str(REPO / "Public")], home)
    try:
        time.sleep(0.5)
        Recorder(binary, service, out, "--duration", "12s").finish(interrupt=False)
    finally:
        service.stop()


def tunables_session(binary: Path, maker: Path, out: Path, home: Path) -> None:
    service = Service([str(binary), "serve", "--demo", "--port", "0", "--token", TOKEN, "--seed", "11", "--rate",
                       "4", "--no-preferences", "--public", str(REPO / "Public")], home)
    try:
        recorder = Recorder(binary, service, out)
        steps = [
            ("put", "toolbar_height", "52"), ("put", "accent_color", "#FF9F0A"), ("cli", "animation_speed", "1.5"),
            ("put", "checkout_mode", "express"), ("cli", "toolbar_height", "60"), ("put", "show_badges", "false"),
            ("cli", "welcome_text", "Hello again!"), ("put", "corner_radius", "12.5"), ("put", "max_cart_items", "30"),
            ("cli", "accent_color", "#30D158"), ("put", "toolbar_height", "44"),
        ]
        for kind, key, value in steps:
            time.sleep(0.6)
            if kind == "put":
                service.request("PUT", f"/tune/{urllib.parse.quote(key, safe='')}/{urllib.parse.quote(value, safe='')}")
            else:
                service.cli(binary, "tune", "set", key, value)
        time.sleep(0.6)
        current = service.request("GET", "/tune")
        current.update({"animation_speed": 1.0, "checkout_mode": "standard", "welcome_text": "Welcome back!"})
        service.request("POST", "/tune", current)
        time.sleep(0.6)
        recorder.finish(interrupt=True)
    finally:
        service.stop()


def preferences_session(binary: Path, maker: Path, out: Path, home: Path) -> None:
    service = Service([str(maker), "--port", "0", "--token", TOKEN, "--data", str(home / "data")], home, stdin=True)
    suite, service_name = "com.keyscope.fixture.settings", "com.keyscope.fixture.api"
    profile = "app/userPrefs:com.keyscope.fixture.profile"

    def put(source: str, container: str, key: str, value: object, pause: float = 0.25) -> None:
        service.request("PUT", f"/api/preferences/{source}/{container}/{urllib.parse.quote(key, safe='')}",
                        {"value": value})
        time.sleep(pause)

    def delete(source: str, container: str, key: str) -> None:
        service.request("DELETE", f"/api/preferences/{source}/{container}/{urllib.parse.quote(key, safe='')}")
        time.sleep(0.25)

    def app(line: str) -> None:
        service.command(line)
        time.sleep(0.25)

    def write(path: str, value: str) -> None:
        service.cli(binary, "write", profile, path, value)
        time.sleep(0.25)

    try:
        service.command("subscribe displayName ProfileHeader")
        recorder = Recorder(binary, service, out)
        put("userDefaults", suite, "theme", "dark")
        put("userDefaults", suite, "fontSize", 16)
        put("userDefaults", suite, "onboardingDone", True)
        put("userDefaults", suite, "recentSearches", ["tea", "kettle", "gift ideas"])
        put("userDefaults", suite, "betaChannel", "nightly")
        delete("userDefaults", suite, "volume")
        # The app changes a preference on its own; the rescan brings it into the mirror.
        app('app-set lastScreen "orders"')
        service.request("POST", "/api/preferences/refresh", {})
        # A secret: the secret store gets the new token, the mirror only its redacted length.
        put("secrets", service_name, "token", "ks_live_rotated_7d2f90c1aa4e5b3186")
        delete("secrets", service_name, "refreshToken")
        app('profile-set layout.density "compact"')
        app("subscribe layout LayoutPanel")
        # The app ships a new profile format: version 2.0.0 drops the old data (a reset), then writes the new shape.
        app("migrate 2.0.0")
        app('profile-set name {"display": "Ada Lovelace", "initials": "AL"}')
        app('profile-set ui {"sidebar": "right", "density": "compact", "pinned": ["inbox"]}')
        write("ui.pinned[1]", '"reports"')
        write("ui.sidebar", '"left"')
        # A volume slider dragged in the dashboard: one edit per step, the key created again by the first.
        for step in range(12):
            put("userDefaults", suite, "volume", round(0.3 + step * 0.05, 2), pause=0.04)
        put("userDefaults", suite, "theme", "system")
        delete("userDefaults", suite, "betaChannel")
        put("userDefaults", suite, "fontSize", 15)
        recorder.finish(interrupt=True)
    finally:
        service.stop()


SESSIONS = {
    "checkout-session": checkout_session,
    "tunables-session": tunables_session,
    "preferences-session": preferences_session,
}

# What each story must show, so that a change in the demo that breaks one is caught here.
def check(name: str, path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    header, events = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["format"] == "keyscope-log" and header["source"]["host"] == "fixtures", header.get("source")
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1)), "seq must be dense"
    kinds = {event.get("event", "change") for event in events}
    transactions = sum(1 for event in events if event.get("txn"))
    size = path.stat().st_size
    if name == "checkout-session":
        assert {"registered", "removed", "change"} <= kinds and transactions > 0, (kinds, transactions)
    if name == "tunables-session":
        tuned = [event for event in events if event["store"].endswith("live-constants.json")]
        assert len(tuned) >= 10, len(tuned)
    if name == "preferences-session":
        assert "reset" in kinds, kinds
        reset = next(index for index, event in enumerate(events) if event.get("event") == "reset")
        assert any(event["store"].endswith("fixture.profile") for event in events[reset + 1:])
        assert "ks_live" not in path.read_text(encoding="utf-8"), "a secret reached the recording"
    assert size < 300_000, f"{path} is {size} bytes"
    print(f"  {path.name}: {len(events)} events, {size} bytes, kinds {sorted(kinds)}, {transactions} transactions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, default=REPO / ".build" / "debug",
                        help="folder with keyscope and KeyscopeFixtureMaker (default .build/debug)")
    parser.add_argument("--out", type=Path, default=REPO / "fixtures" / "recordings")
    parser.add_argument("--only", choices=sorted(SESSIONS), action="append")
    options = parser.parse_args()
    binary, maker = options.bin.resolve() / "keyscope", options.bin.resolve() / "KeyscopeFixtureMaker"
    for needed in (binary, maker):
        if not needed.exists():
            raise SystemExit(f"no {needed}: build it first (make fixtures does)")
    options.out.mkdir(parents=True, exist_ok=True)
    for name in options.only or SESSIONS:
        print(f"recording {name}")
        home = Path(tempfile.mkdtemp(prefix=f"keyscope-fixture-{name}-"))
        try:
            output = options.out.resolve() / f"{name}.kslog"
            SESSIONS[name](binary, maker, output, home)
            os.chmod(output, 0o644)  # a fixture is meant to be shared (recordings are 0600 when made)
            check(name, output)
        finally:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""The normal client of the hostile tests: while a hostile load runs, it keeps asking the service what a person at
the dashboard would, every 200 ms, and keeps the time each answer took:

- `health`: `GET /api/health` on a fresh connection (status 200);
- `connect`: a fresh WebSocket to `/ws`: its `hello` and `snapshot`;
- `request`: a `resync` request on a WebSocket opened before the load, which reads the stream all along: its
  reply (and the stream stays in order: `StreamClient` checks every `seq`).
"""

from __future__ import annotations

import threading
import time

from support import KeyscopeServer, StreamClient, http, recv_json, ws_connect


class NormalClient:
    def __init__(self, server: KeyscopeServer, period: float = 0.2) -> None:
        self.server = server
        self.period = period
        self.times: dict[str, list[float]] = {"health": [], "connect": [], "request": []}
        self.failures: list[str] = []
        self.stream = StreamClient.open(server)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "NormalClient":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(30)
        self.stream.close()

    def _timed(self, name: str, action) -> None:
        started = time.monotonic()
        try:
            action()
        except Exception as error:  # noqa: BLE001 - any failure is a finding, kept with its kind
            self.failures.append(f"{name}: {type(error).__name__}: {error}"[:300])
        self.times[name].append(time.monotonic() - started)

    def _health(self) -> None:
        response = http(self.server, "GET", "/api/health", timeout=10)
        assert response.status == 200, response.describe()

    def _connect(self) -> None:
        with ws_connect(self.server) as ws:
            assert recv_json(ws, 10)["type"] == "hello"
            assert recv_json(ws, 10)["type"] == "snapshot"

    def _request(self) -> None:
        reply = self.stream.request({"type": "resync"}, timeout=10)
        assert reply["ok"] is True, reply

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            self._timed("health", self._health)
            self._timed("connect", self._connect)
            self._timed("request", self._request)
            # Between rounds the stream is read, so that it never backs up on the server.
            while not self._stop.is_set() and time.monotonic() - began < self.period:
                try:
                    self.stream.read(timeout=max(0.01, self.period - (time.monotonic() - began)))
                except TimeoutError:
                    pass
            # The stream's seqs are checked as it is read; what its messages held is dropped (a wide write's entry
            # is megabytes).
            self.stream.entries.clear()
            self.stream.messages.clear()

    def worst(self) -> dict[str, float]:
        return {name: max(values) if values else float("nan") for name, values in self.times.items()}

    def rounds(self) -> int:
        return min(len(values) for values in self.times.values())

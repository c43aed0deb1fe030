"""docs/protocol.md "Security rules": Host (DNS rebinding), Origin, the token, media types, static files and traversal,
no CORS, nosniff/CORP on every kind of response, and the server record file.

Host edge cases go through raw sockets: http.client and websockets would normalise the Host header.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
from pathlib import Path

import pytest
from websockets.exceptions import InvalidMessage, InvalidStatus

from support import (
    with_known_deviations,
    REPO,
    KeyscopeServer,
    RawWebSocket,
    StreamClient,
    http,
    keyscope_binary,
    raw_request,
    recv_json,
    request_http,
    store_root,
    unique_key,
    ws_connect,
)

SERVER_ARGS = ["--rate", "20"]
ALLOWED_HOST = "devbox.test"
ALLOWED_ORIGIN = "http://localhost:5173"


@pytest.fixture(scope="module")
def allowing_server():
    running = KeyscopeServer(["--rate", "5", "--allow-host", ALLOWED_HOST, "--allow-origin", ALLOWED_ORIGIN])
    yield running
    running.stop()


def error_body(response, code: str) -> None:
    assert (response.header("content-type") or "").startswith("application/json"), response.describe()
    body = response.json()
    assert body["error"]["code"] == code, response.describe()
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]


def key_exists(server: KeyscopeServer, key: str) -> bool:
    return key in store_root(http(server, "GET", "/api/snapshot").json(), "app/memory")


def write_request(key: str) -> dict:
    return {"id": 1, "type": "write", "store": "app/memory", "op": "set", "path": key, "value": 1}


# MARK: - Host


class _SymbolicPort:
    """Stands for the server's port in test ids: formats as PORT, PORT+1…"""

    def __init__(self, offset: int = 0) -> None:
        self.offset = offset

    def __add__(self, other: int) -> "_SymbolicPort":
        return _SymbolicPort(self.offset + other)

    def __sub__(self, other: int) -> "_SymbolicPort":
        return _SymbolicPort(self.offset - other)

    def __format__(self, spec: str) -> str:
        return "PORT" + (f"{self.offset:+d}" if self.offset else "")


PORT = _SymbolicPort()


def allowed_hosts(port: int) -> list[str]:
    return [
        f"127.0.0.1:{port}",
        f"localhost:{port}",
        f"LocalHost:{port}",
        f"LOCALHOST:{port}",
        f"[::1]:{port}",
        "localhost",
        "127.0.0.1",
        "[::1]",
    ]


def forbidden_hosts(port: int) -> list[str]:
    return [
        f"evil.example:{port}",
        "evil.example",
        f"localhost6:{port}",
        f"127.1:{port}",
        f"0x7f.1:{port}",
        f"0x7f000001:{port}",
        f"2130706433:{port}",
        f"127.0.0.2:{port}",
        f"localhost.:{port}",
        "localhost.",
        f"127.0.0.1.:{port}",
        f"[::ffff:127.0.0.1]:{port}",
        f"[0:0:0:0:0:0:0:1]:{port}",
        f"localhost:{port + 1}",
        f"127.0.0.1:{port - 1}",
        "localhost:80",
        f"localhost.evil.example:{port}",
        f"evil@localhost:{port}",
        f"localhost:{port}@evil.example",
        f"localhost:{port}/x",
        f"localhost:{port}:{port}",
        f"localhost:",
        f":{port}",
        "",
    ]


@pytest.mark.parametrize("index", range(len(allowed_hosts(PORT))), ids=allowed_hosts(PORT))
def test_allowed_host(server, index):
    host = allowed_hosts(server.port)[index]
    response = raw_request(server, host=host)
    assert response.status == 200, f"Host {host!r}: {response.describe()}"


@pytest.mark.parametrize("index", range(len(forbidden_hosts(PORT))), ids=[h or "empty" for h in forbidden_hosts(PORT)])
def test_forbidden_host_is_403(server, index):
    host = forbidden_hosts(server.port)[index]
    response = raw_request(server, host=host or [""])
    assert response.status == 403, f"Host {host!r}: {response.describe()}"
    error_body(response, "forbidden")


def test_missing_host_is_403(server):
    response = raw_request(server, host=None)
    assert response.status == 403, response.describe()
    error_body(response, "forbidden")


def test_repeated_host_is_400(server):
    response = raw_request(server, host=[server.host_header, server.host_header])
    assert response.status == 400, response.describe()
    error_body(response, "bad_request")
    response = raw_request(server, host=[server.host_header, "evil.example"])
    assert response.status in (400, 403), response.describe()


@pytest.mark.parametrize(
    "method,path,with_token",
    [
        ("GET", "/api/health", False),  # before the token check
        ("GET", "/no/such/thing", True),  # before routing
        ("GET", "/", False),  # static files too
        ("POST", "/api/request", True),
        ("OPTIONS", "/api/request", False),
    ],
)
def test_host_is_checked_before_anything_else(server, method, path, with_token):
    key = unique_key()
    body = json.dumps(write_request(key)).encode() if method == "POST" else b""
    response = raw_request(
        server, method, path, host=f"evil.example:{server.port}", token=with_token, body=body,
        headers=[("Content-Type", "application/json")] if body else [],
    )
    assert response.status == 403, response.describe()
    if body:
        assert not key_exists(server, key)


def test_allow_host_adds_a_name(allowing_server):
    port = allowing_server.port
    for host in (f"{ALLOWED_HOST}:{port}", f"{ALLOWED_HOST.upper()}:{port}", ALLOWED_HOST, f"127.0.0.1:{port}"):
        response = raw_request(allowing_server, host=host)
        assert response.status == 200, f"Host {host!r}: {response.describe()}"
    for host in (f"{ALLOWED_HOST}:{port + 1}", f"x.{ALLOWED_HOST}:{port}", f"{ALLOWED_HOST}.:{port}"):
        response = raw_request(allowing_server, host=host)
        assert response.status == 403, f"Host {host!r}: {response.describe()}"


@pytest.mark.parametrize("host", ["evil.example", "localhost6", "127.1", "0x7f.1", "localhost.", "wrong-port", None])
def test_websocket_upgrade_with_a_bad_host_is_403(server, host):
    value = {"wrong-port": f"localhost:{server.port + 1}"}.get(host, f"{host}:{server.port}" if host else None)
    ws = RawWebSocket(server, host=value)
    try:
        assert ws.response.status == 403, ws.response.describe()
        error_body(ws.response, "forbidden")
    finally:
        ws.close()


def test_websocket_upgrade_with_a_repeated_host_is_400(server):
    ws = RawWebSocket(server, host=[server.host_header, server.host_header])
    try:
        assert ws.response.status == 400, ws.response.describe()
    finally:
        ws.close()


def test_websocket_upgrade_with_a_good_host_is_accepted(server):
    for host in (f"localhost:{server.port}", f"[::1]:{server.port}", "127.0.0.1"):
        ws = RawWebSocket(server, host=host)
        try:
            assert ws.response.status == 101, ws.response.describe()
            assert ws.response.header("sec-websocket-protocol") == "keyscope.v1"
            assert ws.read_json()["type"] == "hello"
        finally:
            ws.close()


# MARK: - Origin


def evil_origins(port: int) -> list[str]:
    return [
        "http://evil.example",
        f"http://evil.example:{port}",
        "null",
        f"https://localhost:{port}",
        f"http://localhost:{port + 1}",
        "http://localhost",
        f"http://127.1:{port}",
        f"http://localhost.:{port}",
        f"http://localhost:{port}.evil.example",
        f"http://localhost:{port}@evil.example",
        f"http://evil.example/http://localhost:{port}",
        f"ws://localhost:{port}",
        f"http://localhost:{port}/",
        "http://localhost:5174",
    ]


@pytest.mark.parametrize("index", range(len(evil_origins(PORT))), ids=evil_origins(PORT))
def test_post_with_a_foreign_origin_is_403_and_changes_nothing(server, index):
    origin = evil_origins(server.port)[index]
    key = unique_key()
    response = http(server, "POST", "/api/request", body=write_request(key), headers={"Origin": origin})
    assert response.status == 403, f"Origin {origin!r}: {response.describe()}"
    error_body(response, "forbidden")
    assert not key_exists(server, key)


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_other_non_get_methods_check_the_origin_too(server, method):
    response = http(server, method, "/api/request", body=b"{}", headers={"Origin": "http://evil.example"})
    assert response.status == 403, response.describe()


def test_post_with_the_servers_own_origin_is_accepted(server):
    for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}", f"http://[::1]:{server.port}"):
        key = unique_key()
        response = http(server, "POST", "/api/request", body=write_request(key), headers={"Origin": origin})
        assert response.status == 200, f"Origin {origin!r}: {response.describe()}"
        assert key_exists(server, key)


def test_post_without_origin_is_accepted(server):
    key = unique_key()
    response = http(server, "POST", "/api/request", body=write_request(key))
    assert response.status == 200, response.describe()
    assert key_exists(server, key)


@pytest.mark.parametrize("index", range(len(evil_origins(PORT))), ids=evil_origins(PORT))
def test_websocket_with_a_foreign_origin_is_a_real_403(server, index):
    origin = evil_origins(server.port)[index]
    ws = RawWebSocket(server, origin=origin)
    try:
        assert ws.response.status == 403, f"Origin {origin!r}: {ws.response.describe()}"
        error_body(ws.response, "forbidden")
    finally:
        ws.close()


def library_refusal(server: KeyscopeServer, **kwargs) -> InvalidStatus:
    """What the `websockets` client makes of a refused upgrade: it must see the HTTP status."""
    try:
        ws_connect(server, **kwargs).close()
    except InvalidStatus as refused:
        return refused
    except InvalidMessage as unreadable:
        raise AssertionError(
            f"the websockets client cannot read the refusal: {unreadable!r} (cause: {unreadable.__cause__!r})"
        ) from None
    raise AssertionError("the upgrade was accepted")


@pytest.mark.parametrize(
    "case,status,code",
    [("no token", 401, "unauthorized"), ("wrong token", 401, "unauthorized"), ("foreign origin", 403, "forbidden")],
)
def test_websocket_refusals_are_readable_by_a_websockets_client(server, case, status, code):
    kwargs = {"no token": {"token": None}, "wrong token": {"token": "wrong-token-0123456789"},
              "foreign origin": {"origin": "http://evil.example"}}[case]
    refused = library_refusal(server, **kwargs)
    assert refused.response.status_code == status
    assert json.loads(refused.response.body)["error"]["code"] == code

def test_websocket_with_the_servers_own_origin_is_accepted(server):
    with ws_connect(server, origin=f"http://localhost:{server.port}") as ws:
        assert recv_json(ws)["type"] == "hello"


def test_allow_origin_and_allow_host_extend_the_origin_rule(allowing_server):
    port = allowing_server.port
    for origin in (ALLOWED_ORIGIN, f"http://{ALLOWED_HOST}:{port}"):
        with ws_connect(allowing_server, origin=origin) as ws:
            assert recv_json(ws)["type"] == "hello", origin
        key = unique_key()
        response = http(allowing_server, "POST", "/api/request", body=write_request(key), headers={"Origin": origin})
        assert response.status == 200, f"Origin {origin!r}: {response.describe()}"
    for origin in ("http://localhost:5174", f"http://{ALLOWED_HOST}:{port + 1}", "https://localhost:5173"):
        ws = RawWebSocket(allowing_server, origin=origin)
        try:
            assert ws.response.status == 403, f"Origin {origin!r}: {ws.response.describe()}"
        finally:
            ws.close()


# MARK: - Token


@pytest.mark.parametrize("path", ["/api/health", "/api/snapshot", "/api/nope", "/api", "/tune"])
def test_missing_token_is_401(server, path):
    response = http(server, "GET", path, token=None)
    assert response.status == 401, response.describe()
    error_body(response, "unauthorized")


def wrong_tokens(token: str) -> list[str]:
    return [
        "wrong",
        token[:-1],
        token + "x",
        token[:-1] + ("A" if token[-1] != "A" else "B"),
        token.upper() if token.upper() != token else token.lower(),
        " " * len(token),
        "x" * len(token),
    ]


@pytest.mark.parametrize("index", range(7))
def test_wrong_token_is_401(server, index):
    wrong = wrong_tokens(server.token)[index]
    response = http(server, "GET", "/api/snapshot", token=wrong)
    assert response.status == 401, response.describe()
    error_body(response, "unauthorized")
    response = http(server, "GET", f"/api/snapshot?token={wrong.strip() or 'x'}", token=None)
    assert response.status == 401, response.describe()


def test_token_in_header_or_query(server):
    assert http(server, "GET", "/api/health").status == 200
    assert http(server, "GET", f"/api/health?token={server.token}", token=None).status == 200
    response = http(server, "GET", "/api/health", token=None, headers={"Authorization": f"Basic {server.token}"})
    assert response.status == 401, response.describe()


def test_post_without_token_is_401_and_changes_nothing(server):
    key = unique_key()
    response = request_http(server, write_request(key), token=None)
    assert response.status == 401, response.describe()
    error_body(response, "unauthorized")
    response = request_http(server, write_request(key), token="not-the-token-at-all")
    assert response.status == 401, response.describe()
    assert not key_exists(server, key)


@pytest.mark.parametrize("token", [None, "wrong", "WRONG-but-long-enough-0123456789abcdef", ""])
def test_websocket_without_a_valid_token_is_a_real_401(server, token):
    path = "/ws" if token is None else f"/ws?token={token}"
    ws = RawWebSocket(server, path=path)
    try:
        assert ws.response.status == 401, ws.response.describe()
        error_body(ws.response, "unauthorized")
    finally:
        ws.close()


def test_websocket_with_a_wrong_bearer_header_is_401(server):
    ws = RawWebSocket(server, path="/ws", extra=[("Authorization", "Bearer wrong-token-0123456789")])
    try:
        assert ws.response.status == 401, ws.response.describe()
    finally:
        ws.close()


def test_websocket_with_a_bearer_header_is_accepted(server):
    with ws_connect(server, token=None, headers={"Authorization": f"Bearer {server.token}"}) as ws:
        assert recv_json(ws)["type"] == "hello"


def test_static_files_need_no_token(server):
    response = http(server, "GET", "/", token=None)
    if (REPO / "Public" / "index.html").exists():
        assert response.status == 200, response.describe()
        assert response.header("content-type").startswith("text/html")
        assert response.body == (REPO / "Public" / "index.html").read_bytes()
    else:
        assert response.status == 404, response.describe()


def test_token_option_and_environment(launch):
    given = launch("--token", "e2e-token_0123456789.~")
    assert given.token == "e2e-token_0123456789.~"
    assert http(given, "GET", "/api/health").status == 200
    from_env = launch(env={"KEYSCOPE_TOKEN": "env-token-0123456789abcdef"})
    assert from_env.token == "env-token-0123456789abcdef"
    assert http(from_env, "GET", "/api/health").status == 200


def test_random_tokens_are_long_and_differ(server, launch):
    other = launch()
    for token in (server.token, other.token):
        # 128 bits or more: at least 22 base64url characters.
        assert len(token) >= 22, token
    assert server.token != other.token


# MARK: - Media type


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain; charset=utf-8", None, "application/x-www-form-urlencoded", "multipart/form-data",
     "application/jsonx", "application/json-patch+json"],
)
def test_write_with_another_media_type_is_415(server, content_type):
    key = unique_key()
    headers = {"Content-Type": content_type} if content_type else {}
    response = http(server, "POST", "/api/request", body=json.dumps(write_request(key)), headers=headers)
    assert response.status == 415, f"{content_type!r}: {response.describe()}"
    assert not key_exists(server, key)


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"])
def test_write_with_json_media_type_is_accepted(server, content_type):
    key = unique_key()
    response = http(
        server, "POST", "/api/request", body=json.dumps(write_request(key)), headers={"Content-Type": content_type}
    )
    assert response.status == 200, response.describe()
    assert key_exists(server, key)


# MARK: - Static files and traversal


TRAVERSAL = [
    "/../Package.swift",
    "/../../Package.swift",
    "/%2e%2e/Package.swift",
    "/%2E%2E/Package.swift",
    "/.%2e/Package.swift",
    "/..%2fPackage.swift",
    "/..%2FPackage.swift",
    "/%2e%2e%2fPackage.swift",
    "/a\\..\\Package.swift",
    "/..\\Package.swift",
    "/%5c..%5cPackage.swift",
    "/%00",
    "/index.html%00",
    "/index.html%00.txt",
    "/.git/config",
    "/%2egit/config",
    "/%252e%252e/Package.swift",
    "/%252e%252e%252fPackage.swift",
    "/%25%32%65%25%32%65/Package.swift",
    "/%c0%ae%c0%ae/Package.swift",
    "/..;/Package.swift",
    "/./../Package.swift",
    "/README.md/../../Package.swift",
    "/x/../../Package.swift",
    "//etc/passwd",
    "/../../../../../../../../etc/passwd",
    "/%2f%2fetc/passwd",
    "/../.build-e2e/debug/keyscope",
    "/.env",
]

OUTSIDE_MARKERS = [b"swift-tools-version", b"[core]", b"root:x:0:0", b"\x7fELF"]


# The server reads each request head before lws does and refuses an escaped control character itself (lws 4.1
# would drop a lone %00 while decoding and serve Public/index.html), so no path deviates any more.
TRAVERSAL_DEVIATIONS: dict[str, str] = {}
TRAVERSAL_PARAMS = with_known_deviations(TRAVERSAL, TRAVERSAL_DEVIATIONS)


@pytest.mark.parametrize("path", TRAVERSAL_PARAMS)
def test_traversal_never_leaves_public(server, path):
    response = raw_request(server, path=path, token=False)
    assert response.status in (400, 404), f"{path}: {response.describe()}"
    for marker in OUTSIDE_MARKERS:
        assert marker not in response.body, f"{path} served a file from outside Public"
    assert response.header("x-content-type-options") == "nosniff", response.describe()
    assert response.header("cross-origin-resource-policy") == "same-origin", response.describe()


@pytest.mark.parametrize("escape", ["%00", "%09", "%0a", "%1F", "%7f"])
def test_an_escaped_control_character_is_named_as_written(server, escape):
    response = raw_request(server, path=f"/api/snapshot{escape}")
    assert response.status == 400, response.describe()
    assert response.json()["error"]["code"] == "bad_request", response.describe()
    assert f"({escape})" in response.json()["error"]["message"], response.describe()


@pytest.fixture(scope="module")
def public_server(tmp_path_factory):
    """A server on a public directory of our own, with symlinks out of it and hidden files."""
    base = tmp_path_factory.mktemp("public-e2e")
    root = base / "public"
    (root / "sub").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>e2e</title>")
    (root / "sub" / "index.html").write_text("sub index")
    (root / "app.mjs").write_text("export const x = 1;")
    (root / ".hidden").write_text("hidden")
    secret = base / "secret.txt"
    secret.write_text("swift-tools-version secret outside the root")
    (root / "link.txt").symlink_to(secret)
    (root / "linkdir").symlink_to(base)
    (root / "inside-link.txt").symlink_to(root / "app.mjs")
    running = KeyscopeServer(["--rate", "5", "--public", str(root)])
    yield running
    running.stop()


@pytest.mark.parametrize(
    "path,status,content",
    [
        ("/", 200, b"<!doctype html><title>e2e</title>"),
        ("/index.html", 200, b"<!doctype html><title>e2e</title>"),
        ("/sub/", 200, b"sub index"),
        ("/app.mjs", 200, b"export const x = 1;"),
        ("/inside-link.txt", 200, b"export const x = 1;"),
        ("/link.txt", 404, None),
        ("/linkdir/secret.txt", 404, None),
        ("/.hidden", 404, None),
        ("/missing.html", 404, None),
        ("/../secret.txt", 404, None),
        ("/%2e%2e/secret.txt", 404, None),
    ],
)
def test_static_files_from_a_public_directory(public_server, path, status, content):
    response = raw_request(public_server, path=path, token=False)
    assert response.status in ((status,) if status == 200 else (400, 404)), f"{path}: {response.describe()}"
    if content is not None:
        assert response.body == content
    assert b"secret outside the root" not in response.body
    assert response.header("x-content-type-options") == "nosniff", response.describe()
    assert response.header("cross-origin-resource-policy") == "same-origin", response.describe()


def test_module_script_has_a_javascript_type(public_server):
    response = raw_request(public_server, path="/app.mjs", token=False)
    assert response.status == 200
    assert response.header("content-type").split(";")[0] == "text/javascript"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_static_files_answer_get_only(server, method):
    response = http(server, method, "/index.html", body=b"{}", headers={"Content-Type": "application/json"})
    assert response.status in (404, 405), response.describe()


# MARK: - No CORS, and the security headers on every response


def test_preflight_gets_no_cors_headers(server, allowing_server):
    for running, origin in (
        (server, "http://evil.example"),
        (server, f"http://localhost:{server.port}"),
        (allowing_server, ALLOWED_ORIGIN),
    ):
        for path in ("/api/request", "/api/snapshot", "/ws", "/"):
            response = raw_request(
                running, "OPTIONS", path, token=False,
                headers=[("Origin", origin), ("Access-Control-Request-Method", "POST"),
                         ("Access-Control-Request-Headers", "content-type, authorization")],
            )
            cors = [name for name, _ in response.headers if name.startswith("access-control-")]
            assert cors == [], f"OPTIONS {path} from {origin}: {response.describe()}"
            assert response.status not in (200, 204), f"a preflight must not succeed: {response.describe()}"


def response_kinds(server: KeyscopeServer) -> dict:
    """One response of each kind the server sends."""
    big_header = [("X-Filler", "a" * (20 << 10))]
    return {
        "200 json": lambda: raw_request(server),
        "200 snapshot": lambda: raw_request(server, path="/api/snapshot"),
        "200 reply": lambda: raw_request(
            server, "POST", "/api/request", body=b'{"type":"resync"}', headers=[("Content-Type", "application/json")]),
        "400 reply": lambda: raw_request(
            server, "POST", "/api/request", body=b"{", headers=[("Content-Type", "application/json")]),
        "404 api": lambda: raw_request(server, path="/api/nope"),
        "404 static": lambda: raw_request(server, path="/nope.html", token=False),
        "401": lambda: raw_request(server, token=False),
        "403 host": lambda: raw_request(server, host="evil.example"),
        "403 origin": lambda: raw_request(
            server, "POST", "/api/request", body=b"{}", headers=[("Origin", "http://evil.example"),
                                                                 ("Content-Type", "application/json")]),
        "400 repeated host": lambda: raw_request(server, host=[server.host_header, server.host_header]),
        "405": lambda: raw_request(server, "DELETE", "/api/health"),
        "413": lambda: raw_request(
            server, "POST", "/api/request", headers=[("Content-Type", "application/json"),
                                                     ("Content-Length", str(5 << 20))]),
        "415": lambda: raw_request(
            server, "POST", "/api/request", body=b"{}", headers=[("Content-Type", "text/plain")]),
        "431": lambda: raw_request(server, headers=big_header),
        "static file": lambda: raw_request(server, path="/", token=False),
        "options": lambda: raw_request(server, "OPTIONS", "/api/request", token=False),
    }


KINDS = [
    "200 json", "200 snapshot", "200 reply", "400 reply", "404 api", "404 static", "401", "403 host", "403 origin",
    "400 repeated host", "405", "413", "415", "431", "static file", "options",
]


@pytest.mark.parametrize("kind", KINDS)
def test_security_headers_on_every_response(server, kind):
    response = response_kinds(server)[kind]()
    if kind == "413":
        assert response.status == 413, response.describe()
        error_body(response, "too_large")
    if kind == "431":
        assert response.status == 431, response.describe()
    if kind == "static file":
        assert response.status == (200 if (REPO / "Public" / "index.html").exists() else 404), response.describe()
    assert response.header("x-content-type-options") == "nosniff", f"{kind}: {response.describe()}"
    assert response.header("cross-origin-resource-policy") == "same-origin", f"{kind}: {response.describe()}"
    assert not [name for name, _ in response.headers if name.startswith("access-control-")], response.describe()


@pytest.mark.parametrize("case", ["401", "403 origin", "403 host", "404 path"])
def test_security_headers_on_refused_upgrades(server, case):
    handshake = {
        "401": {"path": "/ws"},
        "403 origin": {"origin": "http://evil.example"},
        "403 host": {"host": "evil.example"},
        "404 path": {"path": f"/not-ws?token={server.token}"},
    }[case]
    ws = RawWebSocket(server, **handshake)
    try:
        assert ws.response.status == int(case.split()[0]), ws.response.describe()
        assert ws.response.header("x-content-type-options") == "nosniff", ws.response.describe()
        assert ws.response.header("cross-origin-resource-policy") == "same-origin", ws.response.describe()
        assert not [n for n, _ in ws.response.headers if n.startswith("access-control-")]
    finally:
        ws.close()


# MARK: - The server record


def test_server_record_is_private_and_holds_the_token(server):
    record = server.record_path
    assert record.exists(), f"no record at {record}"
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    assert stat.S_IMODE(record.parent.stat().st_mode) == 0o700
    assert record.stat().st_uid == os.getuid()
    content = json.loads(record.read_text())
    assert content["token"] == server.token
    assert content["port"] == server.port
    assert content["pid"] == server.pid
    others = [p for p in record.parent.iterdir() if p != record]
    assert others == [], f"stray files beside the record: {others}"


def test_server_record_is_removed_on_clean_shutdown(launch):
    running = launch()
    record = running.record_path
    assert record.exists()
    running.settle()
    client = StreamClient.open(running)
    running.interrupt()
    assert running.wait(5) == 0, running.stderr_text()
    client.close()
    assert not record.exists()
    assert list(Path(running.home, "servers").iterdir()) == []


def test_server_record_is_removed_on_sigterm(launch):
    running = launch()
    record = running.record_path
    assert record.exists()
    running.settle()
    running.interrupt(signal.SIGTERM)
    assert running.wait(5) == 0, running.stderr_text()
    assert not record.exists()


def test_signal_right_after_start_is_a_clean_shutdown(tmp_path):
    """A supervisor (or a person) may stop the server as soon as it has announced itself: SIGINT or SIGTERM right
    after the dashboard line must still be a clean shutdown (exit 0, record with the token removed), never a kill
    by the signal's default action or a signal that is lost."""
    outcomes = []
    for attempt in range(10):
        home = tmp_path / f"home{attempt}"
        home.mkdir()
        process = subprocess.Popen(
            [str(keyscope_binary()), "serve", "--demo", "--port", "0"],
            env={**os.environ, "KEYSCOPE_HOME": str(home), "TMPDIR": str(home)},
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=REPO,
        )
        try:
            line = process.stdout.readline().decode()
            assert line.startswith("Keyscope dashboard: "), line
            sig = signal.SIGINT if attempt % 2 == 0 else signal.SIGTERM
            process.send_signal(sig)
            try:
                code = process.wait(5)
            except subprocess.TimeoutExpired:
                code = "still running after 5 s"
            left = sorted(p.name for p in (home / "servers").glob("*.json"))
            outcomes.append((sig.name, code, left))
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
    assert all(code == 0 and not left for _, code, left in outcomes), outcomes


def test_a_too_short_token_is_refused_at_start(tmp_path):
    result = subprocess.run(
        [str(keyscope_binary()), "serve", "--demo", "--port", "0", "--token", "short"],
        env={**os.environ, "KEYSCOPE_HOME": str(tmp_path), "TMPDIR": str(tmp_path)},
        capture_output=True, timeout=20, cwd=REPO,
    )
    assert result.returncode != 0
    assert b"Keyscope dashboard" not in result.stdout
    assert b"token" in result.stderr.lower()

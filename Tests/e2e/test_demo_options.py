"""The demo's options for measuring a dashboard: `--demo-keys N` registers a product catalog of exactly N keys, and
`--rate` takes up to 100,000 changes per second."""

from __future__ import annotations

import subprocess

from support import http, keyscope_binary, store_root

CATALOG = "scenario:catalog/memory"
TAGS = {"$color", "$url", "$number"}


def is_tagged(value) -> bool:
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)) in TAGS


def key_count(value) -> int:
    """Members and elements at any depth; a tagged value (docs/store.md) is one scalar, not an object."""
    if is_tagged(value):
        return 0
    if isinstance(value, dict):
        return len(value) + sum(key_count(member) for member in value.values())
    if isinstance(value, list):
        return len(value) + sum(key_count(element) for element in value)
    return 0


def kinds(value, found: set[str]) -> set[str]:
    if is_tagged(value):
        found.add(next(iter(value)))
    elif isinstance(value, dict):
        found.add("object")
        for member in value.values():
            kinds(member, found)
    elif isinstance(value, list):
        found.add("array")
        for element in value:
            kinds(element, found)
    else:
        found.add("null" if value is None else type(value).__name__)
    return found


def test_demo_keys_registers_a_catalog_of_exactly_that_many_keys(launch):
    server = launch("--demo-keys", "5000", "--seed", "3")
    snapshot = http(server, "GET", "/api/snapshot").json()
    root = store_root(snapshot, CATALOG)
    assert key_count(root) == 5000
    assert sorted(root) == ["catalog", "categories", "products"]
    assert len(root["products"]) > 50, "one large object of products"
    assert kinds(root, set()) >= {"object", "array", "str", "int", "float", "bool", "null", "$color", "$url"}
    first = root["products"]["p000001"]
    assert first["url"] == {"$url": "https://shop.example.com/p/p000001"}


def test_the_same_seed_makes_the_same_catalog(launch):
    roots = [
        store_root(http(launch("--demo-keys", "800", "--seed", "11"), "GET", "/api/snapshot").json(), CATALOG)
        for _ in range(2)
    ]
    assert roots[0] == roots[1]


def test_without_demo_keys_there_is_no_catalog(server):
    snapshot = http(server, "GET", "/api/snapshot").json()
    assert CATALOG not in [store["id"] for store in snapshot["stores"]]


def test_the_top_rate_is_accepted(launch):
    server = launch("--rate", "100000")
    assert server.alive()


def test_a_rate_or_size_beyond_the_ranges_is_refused_before_serving():
    for args, message in [
        (["--rate", "100001"], "--rate must be 1 to 100000"),
        (["--rate", "0"], "--rate must be 1 to 100000"),
        (["--demo-keys", "2000001"], "--demo-keys must be 0 to 2000000"),
    ]:
        run = subprocess.run(
            [str(keyscope_binary()), "serve", "--demo", "--port", "0", *args],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert run.returncode != 0, args
        assert message in run.stderr, (args, run.stderr)
        assert "Keyscope dashboard" not in run.stdout

"""Time travel in a real browser (docs/recording.md "Time travel in the dashboard"): a recording uploaded to the
Replay tab (file input or drop) is read in the page's worker; the scrubber, the steps and playback put the Stores,
Log and Subscriptions panels at any seq of it; writes are off; Exit replay goes back to the live server. A bad file
names its line, a torn tail is reported. Against the server's recording routes: the Replay tab lists the server's
recordings and replays one with its place in the URL, the Record button records and saves a file, and the log's
detail rewinds the live stores.

The recordings here are generated with what each seq must show (a cart's item count and total, a theme, whether
the checkout scenario's store exists, the subscription list), so every check compares the page with the recording's
own truth. Every wait is an explicit condition.
"""

from __future__ import annotations

import copy
import datetime
import json
import random
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from dashboard import CATCH_SAVES, SAVED, by_testid, console_errors, wait_connected, wait_for
from support import http, request_http, store_root, unique_key

SERVER_ARGS = ["--rate", "20"]
APP = "app/memory"
CHECKOUT = "scenario:checkout/memory"
EVENTS = 240
REGISTERED_AT = 5
REMOVED_AT = EVENTS - 3

# Rows of a virtualised list, read in one script (no stale elements): only those laid out on screen.
_ROWS = """
return [...document.querySelectorAll(`[data-testid="${arguments[0]}"]`)]
  .filter((e) => e.getClientRects().length > 0)
  .map((e) => ({seq: e.dataset.seq === undefined ? null : Number(e.dataset.seq), store: e.dataset.store ?? null,
                path: e.dataset.path ?? null, text: e.textContent}));
"""
_SEEK = """
const scrubber = document.querySelector('[data-testid="replay-scrubber"]');
scrubber.value = String(arguments[0]);
scrubber.dispatchEvent(new Event('input', {bubbles: true}));
"""
_DROP = """
const transfer = new DataTransfer();
transfer.items.add(new File([arguments[0]], arguments[1], {type: 'application/x-ndjson'}));
document.querySelector('[data-testid="replay-drop"]')
  .dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
"""
# Keeps every Blob the page saves (the Record button's file), readable later with SAVED.


# MARK: - A recording and what each seq must show


def log_time(ms: int) -> str:
    start = datetime.datetime(2026, 11, 21, 10, 0, 0, tzinfo=datetime.timezone.utc)
    moment = start + datetime.timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def line(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def make_recording(events: int = EVENTS, seed: int = 7) -> tuple[str, list[dict]]:
    """A recording of a checkout service (docs/recording.md) and, for each seq, what the page must show then."""
    rnd = random.Random(seed)
    subscriptions = [
        {"id": 1, "store": APP, "path": "cart.total", "label": "CartBadge", "since": log_time(0), "deliveries": 3},
        {"id": 2, "store": APP, "path": "cart.promo", "label": "PromoBanner", "since": log_time(0), "deliveries": 0},
    ]
    root = {"cart": {"currency": "EUR", "items": [], "total": 0.0}, "user": {"name": "Ada", "theme": "dark"}}
    header = {
        "format": "keyscope-log", "version": 1, "createdAt": log_time(0),
        "source": {"name": "checkout-service", "host": "dev-1", "pid": 4242},
        "stores": [{"id": APP, "version": "1.4.0", "root": root}],
        "liveSeq": 1200, "recorder": {"name": "keyscope", "version": "0.1.0"}, "subscriptions": subscriptions,
    }
    lines = [line(header)]
    state = copy.deepcopy(root)
    checkout = False
    deliveries = 3

    def truth() -> dict:
        return {"items": len(state["cart"]["items"]), "total": state["cart"]["total"], "theme": state["user"]["theme"],
                "checkout": checkout, "deliveries": deliveries}

    expected = [truth()]
    for seq in range(1, events + 1):
        time = log_time(seq * 250)
        cart = state["cart"]
        roll = rnd.random()
        if seq == REGISTERED_AT:
            checkout = True
            event = {"seq": seq, "time": time, "store": CHECKOUT, "event": "registered", "version": "1.0.0",
                     "root": {"step": "cart"}}
        elif seq == REMOVED_AT:
            checkout = False
            event = {"seq": seq, "time": time, "store": CHECKOUT, "event": "removed"}
        elif roll < 0.45:
            item = {"sku": f"SKU-{seq}", "price": round(rnd.uniform(1, 50), 2), "quantity": 1}
            old, cart["total"] = cart["total"], round(cart["total"] + item["price"], 2)
            index = len(cart["items"])
            cart["items"].append(item)
            event = {"seq": seq, "time": time, "store": APP, "txn": f"{seq:08x}-1fbb-4a3b-9bb0-4a0b277e26c4",
                     "patches": [{"op": "insert", "path": f"cart.items[{index}]", "new": item},
                                 {"op": "set", "path": "cart.total", "old": old, "new": cart["total"]}]}
        elif roll < 0.65 and cart["items"]:
            index = rnd.randrange(len(cart["items"]))
            item = cart["items"].pop(index)
            old, cart["total"] = cart["total"], round(cart["total"] - item["price"], 2)
            event = {"seq": seq, "time": time, "store": APP, "txn": f"{seq:08x}-1fbb-4a3b-9bb0-4a0b277e26c4",
                     "patches": [{"op": "remove", "path": f"cart.items[{index}]", "old": item},
                                 {"op": "set", "path": "cart.total", "old": old, "new": cart["total"]}]}
        elif roll < 0.8 and checkout:
            event = {"seq": seq, "time": time, "store": CHECKOUT, "txn": None,
                     "patches": [{"op": "merge", "path": "", "old": {}, "new": {f"visit{seq}": seq}}]}
        else:
            old = state["user"]["theme"]
            state["user"]["theme"] = "light" if old == "dark" else "dark"
            event = {"seq": seq, "time": time, "store": APP, "txn": None,
                     "patches": [{"op": "set", "path": "user.theme", "old": old, "new": state["user"]["theme"]}]}
        if seq % 40 == 0:
            deliveries += 10
            subscriptions[0]["deliveries"] = deliveries
            event["subscriptions"] = subscriptions
            event["liveSeq"] = 1200 + seq
        lines.append(line(event))
        expected.append(truth())
    return "".join(f"{text}\n" for text in lines), expected


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> tuple[Path, list[dict]]:
    text, expected = make_recording()
    path = tmp_path_factory.mktemp("replay") / "checkout-bug.kslog"
    path.write_text(text)
    return path, expected


# MARK: - Helpers


def rows(driver, testid: str) -> list[dict]:
    return driver.execute_script(_ROWS, testid)


def open_tab(driver, name: str) -> None:
    by_testid(driver, f"tab-{name}").click()
    wait_for(driver, lambda d: by_testid(d, f"tab-{name}").get_attribute("aria-selected") == "true",
             f"the {name} tab did not become the selected one")


def upload(driver, path: Path) -> None:
    open_tab(driver, "replay")
    by_testid(driver, "replay-file").send_keys(str(path))
    wait_replaying(driver, path.name)


def wait_replaying(driver, name: str) -> None:
    wait_for(driver, lambda d: by_testid(d, "replay-bar").is_displayed() and by_testid(d, "replay-name").text == name,
             f"the replay bar did not show {name}", timeout=30)


def shown_seq(driver) -> int | None:
    text = by_testid(driver, "replay-seq").text  # "#120 / 240"
    return int(text.split("/")[0].strip().lstrip("#").replace(",", "")) if text.startswith("#") else None


def seek(driver, seq: int) -> None:
    driver.execute_script(_SEEK, seq)
    def moved(d) -> bool:
        return shown_seq(d) == seq and by_testid(d, "replay-scrubber").get_attribute("value") == str(seq)

    wait_for(driver, moved, f"the replay did not move to #{seq}")


def store_ids(driver) -> set[str]:
    return {r["store"] for r in rows(driver, "store-item")}


def tree_text(driver, path: str) -> str:
    found = [r["text"] for r in rows(driver, "tree-row") if r["store"] == APP and r["path"] == path]
    return found[0] if found else ""


def show_app_store(driver) -> None:
    def shown(d) -> bool:
        if tree_text(d, "cart"):
            return True
        items = d.find_elements(By.CSS_SELECTOR, f'[data-testid="store-item"][data-store="{APP}"]')
        if items:
            items[0].click()
        return False

    wait_for(driver, shown, f"the tree did not show {APP}")


def assert_state(driver, seq: int, truth: dict) -> None:
    """The Stores tab shows what the recording held at `seq`: the cart (items, total), the theme, the stores."""
    open_tab(driver, "stores")
    show_app_store(driver)
    total = repr(float(truth["total"]))
    def cart_shown(d) -> bool:
        cart = tree_text(d, "cart")
        return f"items: [{truth['items']}]" in cart and f"total: {total}" in cart

    wait_for(driver, cart_shown,
             f"at #{seq} the cart should hold {truth['items']} items for {total}: {tree_text(driver, 'cart')!r}")
    assert f'theme: "{truth["theme"]}"' in tree_text(driver, "user"), tree_text(driver, "user")
    stores = store_ids(driver)
    assert (CHECKOUT in stores) == truth["checkout"], f"at #{seq} the stores are {sorted(stores)}"


def assert_no_console_error(driver) -> None:
    errors = console_errors(driver)
    assert not errors, "console errors:\n" + "\n".join(map(str, errors))


# MARK: - Uploaded recordings


def test_an_uploaded_recording_shows_its_state_at_any_seq(page, recording):
    path, expected = recording
    upload(page, path)
    assert shown_seq(page) == 0
    state = by_testid(page, "connection-state")
    assert state.get_attribute("data-phase") == "replay" and state.text == "replay", state.text
    assert path.name in page.find_element(By.CSS_SELECTOR, ".server-name").text
    assert by_testid(page, "tab-stores").get_attribute("aria-selected") == "true", "loading ends on the Stores tab"
    for seq in (0, 3, REGISTERED_AT, 97, 160, REMOVED_AT, EVENTS):
        seek(page, seq)
        assert_state(page, seq, expected[seq])
    # Back again: a jump backwards starts from a snapshot and lands on the same truth.
    for seq in (120, 1, 199):
        seek(page, seq)
        assert_state(page, seq, expected[seq])
    assert_no_console_error(page)


def test_the_log_holds_the_events_up_to_the_selected_one(page, recording):
    path, expected = recording
    upload(page, path)
    seek(page, 150)
    open_tab(page, "log")
    wait_for(page, lambda d: max((r["seq"] for r in rows(d, "log-row")), default=0) == 150,
             "the log's newest row is not the selected event #150")
    assert "150 kept" in by_testid(page, "log-counts").text, by_testid(page, "log-counts").text
    assert by_testid(page, "log-limit").get_attribute("disabled") is not None, "the log size is the replay's"
    newest = [r for r in rows(page, "log-row") if r["seq"] == 150][0]
    page.find_element(By.CSS_SELECTOR, '[data-testid="log-row"][data-seq="150"]').click()
    wait_for(page, lambda d: by_testid(d, "log-detail").is_displayed(), "the detail did not open")
    assert by_testid(page, "detail-revert").get_attribute("disabled") is not None or newest["store"] == CHECKOUT
    assert not page.find_elements(By.CSS_SELECTOR, '[data-testid="detail-rewind"]'), "a replay cannot rewind"
    # From the detail, the replay travels to an earlier entry.
    page.find_element(By.CSS_SELECTOR, '[data-testid="log-row"][data-seq="140"]').click()
    wait_for(page, lambda d: "#140" in by_testid(d, "detail-travel").text, "no Travel to #140 in the detail")
    by_testid(page, "detail-travel").click()
    wait_for(page, lambda d: shown_seq(d) == 140, "Travel to #140 did not move the replay")
    wait_for(page, lambda d: max((r["seq"] for r in rows(d, "log-row")), default=0) == 140, "the log did not follow")
    assert_state(page, 140, expected[140])


def test_steps_and_playback_move_through_the_recording(page, recording):
    path, expected = recording
    upload(page, path)
    seek(page, 100)
    by_testid(page, "replay-step-forward").click()
    wait_for(page, lambda d: shown_seq(d) == 101, "step forward did not go to #101")
    by_testid(page, "replay-step-back").click()
    by_testid(page, "replay-step-back").click()
    wait_for(page, lambda d: shown_seq(d) == 99, "two steps back did not go to #99")
    assert_state(page, 99, expected[99])
    # The keyboard: "." forward, "," back.
    page.find_element(By.TAG_NAME, "body").send_keys(".")
    wait_for(page, lambda d: shown_seq(d) == 100, "the . key did not step forward")
    by_testid(page, "replay-speed").find_element(By.CSS_SELECTOR, 'option[value="max"]').click()
    by_testid(page, "replay-play").click()
    def playing(d) -> bool:
        return by_testid(d, "replay-play").get_attribute("aria-pressed") == "true"

    wait_for(page, lambda d: playing(d) or shown_seq(d) == EVENTS, "Play did not start")
    wait_for(page, lambda d: shown_seq(d) == EVENTS and not playing(d),
             "playing at max speed did not reach the end and stop", timeout=30)
    assert_state(page, EVENTS, expected[EVENTS])
    # At 10× the recorded pace (an event every 250 ms), a second of playback moves about 40 events.
    seek(page, 10)
    by_testid(page, "replay-speed").find_element(By.CSS_SELECTOR, 'option[value="10"]').click()
    by_testid(page, "replay-play").click()
    wait_for(page, lambda d: (shown_seq(d) or 0) >= 30, "playing at 10× did not move on")
    by_testid(page, "replay-play").click()
    wait_for(page, lambda d: not playing(d), "Pause did not stop")
    paused = shown_seq(page)
    assert 30 <= paused < EVENTS, paused


def test_subscriptions_are_the_recorded_lists(page, recording):
    path, expected = recording
    upload(page, path)
    open_tab(page, "subscriptions")
    for seq in (0, 39, 40, 170):
        seek(page, seq)
        deliveries = str(expected[seq]["deliveries"])

        def badge_row(d):
            found = [r for r in rows(d, "subscription-row") if r["path"] == "cart.total"]
            return found and deliveries in found[0]["text"]

        wait_for(page, badge_row, f"at #{seq} the CartBadge subscription should show {deliveries} deliveries")
        paths = sorted(r["path"] for r in rows(page, "subscription-row"))
        assert paths == ["cart.promo", "cart.total"], paths
    missing = page.find_element(By.CSS_SELECTOR, '[data-testid="subscription-row"][data-path="cart.promo"]')
    assert missing.get_attribute("data-missing") == "true", "cart.promo is not in the recorded store"


def test_writes_are_off_while_replaying_and_exit_goes_back_to_live(page, recording, server):
    path, _ = recording
    upload(page, path)
    for tab in ("write", "tunables", "preferences", "watches"):
        assert by_testid(page, f"tab-{tab}").get_attribute("disabled") is not None, f"the {tab} tab is on in replay"
    assert not by_testid(page, "record-button").is_displayed(), "the Record button shows while replaying"
    assert not by_testid(page, "read-only-badge").is_displayed(), "replay says replay, not read-only"
    show_app_store(page)
    cart = page.find_element(By.CSS_SELECTOR, f'[data-testid="tree-row"][data-store="{APP}"][data-path="cart"]')
    cart.click()
    cart.find_element(By.CSS_SELECTOR, '[data-testid="tree-edit"]').click()
    def refused(d) -> bool:
        return any("replay is read-only" in t.text for t in d.find_elements(By.CSS_SELECTOR, '[data-testid="toast"]'))

    wait_for(page, refused, "editing a value in replay did not say the replay is read-only")
    assert not page.find_elements(By.CSS_SELECTOR, '[data-testid="tree-edit-input"]'), "an editor opened in replay"
    by_testid(page, "replay-exit").click()
    wait_for(page, lambda d: not by_testid(d, "replay-bar").is_displayed(), "the replay bar stayed after Exit replay")
    wait_connected(page)
    live = {s["id"] for s in http(server, "GET", "/api/snapshot").json()["stores"] if s["id"] != CHECKOUT}
    wait_for(page, lambda d: live <= store_ids(d), f"the live stores did not come back: {sorted(live)}")
    assert by_testid(page, "tab-write").get_attribute("disabled") is None
    assert "demo" in page.find_element(By.CSS_SELECTOR, ".server-name").text
    assert_no_console_error(page)


def test_a_dropped_file_is_replayed(page, recording):
    path, expected = recording
    open_tab(page, "replay")
    page.execute_script(_DROP, path.read_text(), "dropped.kslog")
    wait_replaying(page, "dropped.kslog")
    seek(page, 77)
    assert_state(page, 77, expected[77])


def test_a_bad_line_is_named_and_a_torn_tail_reported(page, recording, tmp_path):
    path, _ = recording
    lines = path.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.kslog"
    # Line 12 (seq 11) claims another seq.
    broken = json.loads(lines[11])
    broken["seq"] = 99
    bad.write_text("".join(lines[:11]) + line(broken) + "\n" + "".join(lines[12:]))
    open_tab(page, "replay")
    by_testid(page, "replay-file").send_keys(str(bad))
    error = wait_for(page, lambda d: by_testid(d, "replay-error").is_displayed() and by_testid(d, "replay-error").text,
                     "no error for a recording with a bad seq")
    assert "line 12" in error and '"seq" is 99, expected 11' in error, error
    assert not by_testid(page, "replay-bar").is_displayed()
    # A crash's last partial line: kept out, and said how many bytes.
    torn = tmp_path / "torn.kslog"
    torn.write_text("".join(lines[:101]) + lines[101][:40])
    by_testid(page, "replay-file").send_keys(str(torn))
    wait_replaying(page, "torn.kslog")
    open_tab(page, "replay")
    note = wait_for(page, lambda d: by_testid(d, "replay-torn").is_displayed() and by_testid(d, "replay-torn").text,
                    "no torn-tail note")
    assert "40 bytes" in note and "#100" in note, note
    assert by_testid(page, "replay-seq").text.endswith("/ 100"), by_testid(page, "replay-seq").text


# MARK: - Against the server's recording routes (docs/recording.md "HTTP", "Rewind")


def test_the_servers_recordings_are_listed_and_replayed_with_their_place_in_the_url(page, server):
    listing = http(server, "GET", "/api/recordings")
    assert listing.status == 200, "the server lists no recordings:\n" + listing.describe()
    offered = listing.json()["recordings"]
    assert offered, "the server offers no recording to replay (fixtures/recordings/)"
    open_tab(page, "replay")

    def listed(d) -> set[str]:
        rows_shown = d.find_elements(By.CSS_SELECTOR, '[data-testid="replay-recording"]')
        return {row.get_attribute("data-id") for row in rows_shown}

    wait_for(page, lambda d: listed(d) >= {r["id"] for r in offered},
             "the Replay tab does not list the server's recordings")
    chosen = offered[0]
    row = page.find_element(By.CSS_SELECTOR, f'[data-testid="replay-recording"][data-id="{chosen["id"]}"]')
    row.find_element(By.CSS_SELECTOR, '[data-testid="replay-open"]').click()
    wait_replaying(page, chosen["name"])
    events = int(by_testid(page, "replay-seq").text.split("/")[1].strip().replace(",", ""))
    target = events // 2
    seek(page, target)
    wait_for(page, lambda d: f"seq={target}" in d.current_url and "replay=" in d.current_url,
             f"the URL did not keep the replay's place: {page.current_url}")
    page.refresh()
    wait_replaying(page, chosen["name"])
    wait_for(page, lambda d: shown_seq(d) == target, f"after a reload the replay is not at #{target} again")
    by_testid(page, "replay-exit").click()
    wait_for(page, lambda d: "replay=" not in d.current_url, "Exit replay left the replay in the URL")


def test_the_record_button_records_the_service_and_saves_the_file(page, server):
    page.execute_script(CATCH_SAVES)
    button = by_testid(page, "record-button")
    assert button.is_displayed() and button.text == "Record", button.text
    button.click()
    wait_for(page, lambda d: by_testid(d, "record-button").get_attribute("data-state") == "recording",
             "the Record button did not start a recording")

    def counted(d) -> int:
        text = by_testid(d, "record-button").text  # "Stop (12 events)"
        return int(text.split("(")[1].split()[0].replace(",", "")) if text.startswith("Stop (") else -1

    wait_for(page, lambda d: counted(d) >= 20, "the Stop button did not count the recording's events")
    active = http(server, "GET", "/api/recordings").json()["active"]
    assert any(status["state"] == "recording" for status in active), active
    by_testid(page, "record-button").click()
    saved = wait_for(page, lambda d: d.execute_async_script(SAVED), "Stop did not save the recording")
    assert saved["name"].endswith(".kslog"), saved["name"]
    lines = saved["text"].splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "keyscope-log" and header["version"] == 1, header
    assert len(lines) - 1 >= 20 and json.loads(lines[1])["seq"] == 1
    wait_for(page, lambda d: by_testid(d, "record-button").text == "Record", "the button did not go back to Record")


# Slow, so that the demo seldom changes a store between the rewind's confirmation and the server's answer.
@pytest.mark.parametrize("server", [["--rate", "2"]], indirect=True)
def test_rewind_from_the_log_detail_puts_the_live_stores_back(page, server):
    key = unique_key("e2e_rewind")
    seqs = []
    for value in (1, 2, 3):
        write = {"id": 1, "type": "write", "store": APP, "op": "set", "path": key, "value": value}
        reply = request_http(server, write).json()
        assert reply["ok"], reply
        seqs.append(reply["result"]["seq"])
    open_tab(page, "log")
    by_testid(page, "filter-path").send_keys(key)
    wait_for(page, lambda d: sorted(r["seq"] for r in rows(d, "log-row")) == seqs, f"the log did not show {seqs}")
    page.find_element(By.CSS_SELECTOR, f'[data-testid="log-row"][data-seq="{seqs[0]}"]').click()
    wait_for(page, lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="detail-rewind"]'),
             f"the detail of #{seqs[0]} offers no Rewind stores to here")
    by_testid(page, "detail-rewind").click()
    def confirming(d):
        return by_testid(d, "rewind-confirm").is_displayed() and by_testid(d, "rewind-summary").text

    summary = wait_for(page, confirming, "no rewind confirmation")
    assert f"#{seqs[0] + 1}" in summary and "will be undone" in summary, summary
    by_testid(page, "rewind-apply").click()
    def answered(d) -> bool:
        return not by_testid(d, "rewind-confirm").is_displayed() or by_testid(d, "rewind-error").is_displayed()

    wait_for(page, answered, "the rewind got no answer")
    assert not by_testid(page, "rewind-error").is_displayed(), by_testid(page, "rewind-error").text
    root = store_root(http(server, "GET", "/api/snapshot").json(), APP)
    assert root[key] == 1, f"{key} is {root.get(key)!r} after rewinding to #{seqs[0]}, not 1"


# MARK: - Read-only


@pytest.mark.parametrize("server", [["--read-only", "--rate", "20"]], indirect=True)
def test_a_read_only_server_offers_no_rewind(page):
    open_tab(page, "log")
    wait_for(page, lambda d: rows(d, "log-row"), "the log showed no entry")
    page.find_element(By.CSS_SELECTOR, '[data-testid="log-row"]').click()
    wait_for(page, lambda d: by_testid(d, "log-detail").is_displayed(), "the detail did not open")
    rewind = page.find_elements(By.CSS_SELECTOR, '[data-testid="detail-rewind"]')
    assert not rewind, "rewind offered on a read-only server"
    # Nor recording: the server refuses to start one (a recording writes a file).
    button = by_testid(page, "record-button")
    wait_for(page, lambda d: not button.is_enabled(), "the Record button is enabled on a read-only server")
    assert "read-only" in (button.get_attribute("title") or "")

import { test } from "node:test";
import assert from "node:assert/strict";
import { firstDelay, maxDelay, reconnectDelay } from "../../Public/lib/backoff.mjs";
import { RecentChanges } from "../../Public/lib/recent.mjs";
import { revertRequest, transactionRequest, writeRequest } from "../../Public/lib/requests.mjs";
import { SubscriptionRates, quietAfterMs, subscriptionKey, subscriptionRows } from "../../Public/lib/subscriptions.mjs";
import { refusalReason } from "../../Public/app/worker/connection.mjs";
import { formatAge, formatClock, parseTime } from "../../Public/lib/time.mjs";
import { defaultLogLimit, readViewState, writeViewState } from "../../Public/lib/url-state.mjs";

test("the view survives a trip through the URL, token included", () => {
  const state = {
    token: "t0k3n-abc", panel: "log", store: "app/file:/tmp/x y.json", path: 'prefs["a.b"]', search: "eur",
    filter: { store: "app/memory", path: "cart", op: "set", text: "Tea & co", instance: "shop-2" }, order: "oldest", limit: 1_000_000, entry: 42,
    instance: "shop-1", diffA: "shop-1", diffB: "shop-3",
  };
  assert.deepEqual(readViewState(writeViewState(state)), state);
});

test("defaults stay out of the URL and bad values fall back", () => {
  const state = readViewState("?token=abc");
  assert.equal(writeViewState(state), "?token=abc");
  assert.equal(state.panel, "stores");
  assert.equal(state.limit, defaultLogLimit);
  const odd = readViewState("?panel=nope&order=sideways&limit=-5&entry=x");
  assert.deepEqual([odd.panel, odd.order, odd.limit, odd.entry], ["stores", "newest", defaultLogLimit, null]);
});

test("reconnect delays grow, stay capped and jitter", () => {
  assert.equal(reconnectDelay(0, () => 0.5), firstDelay);
  assert.equal(reconnectDelay(1, () => 0.5), firstDelay * 2);
  assert.equal(reconnectDelay(30, () => 0.5), maxDelay);
  assert.ok(reconnectDelay(30, () => 0.999) <= maxDelay * 1.2);
  assert.ok(reconnectDelay(0, () => 0) >= firstDelay * 0.8);
});

test("times", () => {
  assert.equal(parseTime("2026-11-21T13:52:51.270208Z"), Date.UTC(2026, 10, 21, 13, 52, 51, 270));
  assert.equal(formatClock("2026-11-21T13:52:51.270208Z", { utc: true }), "13:52:51.270");
  assert.equal(formatClock("not a time"), "not a time");
  assert.equal(formatAge(0, 4000), "4 s");
  assert.equal(formatAge(0, 3 * 3600 * 1000), "3 h");
});

test("requests carry StoreValue JSON as given", () => {
  assert.equal(writeRequest(1, "app/memory", { op: "set", path: "cart.total", json: "3.0" }), '{"id":1,"type":"write","store":"app/memory","op":"set","path":"cart.total","value":3.0}');
  assert.equal(writeRequest(2, "app/memory", { op: "remove", path: "cart.note" }), '{"id":2,"type":"write","store":"app/memory","op":"remove","path":"cart.note"}');
  const txn = JSON.parse(transactionRequest(3, "s/a", [{ op: "set", path: "a", json: "1" }, { op: "remove", path: "b" }]));
  assert.deepEqual(txn.ops, [{ op: "set", path: "a", value: 1 }, { op: "remove", path: "b" }]);
  assert.equal(revertRequest(4, 1435), '{"id":4,"type":"revert","seq":1435}');
});

test("deliveries per second come from successive lists", () => {
  const rates = new SubscriptionRates();
  const item = (deliveries) => ({ id: 1, store: "app/memory", path: "cart.total", label: "X", since: "t", deliveries });
  assert.equal(rates.update([item(10)], 1000).get(subscriptionKey(item(10))), null);
  assert.equal(rates.update([item(30)], 3000).get(subscriptionKey(item(30))), 10);
  // The server re-sends the list within a second while counts move: an older list means nothing was delivered.
  assert.equal(rates.current(3000 + quietAfterMs - 1).get(subscriptionKey(item(30))), 10);
  assert.equal(rates.current(3000 + quietAfterMs + 1).get(subscriptionKey(item(30))), 0);
  // Lists a moment apart do not make one delivery look like many per second; the window averages them.
  const close = new SubscriptionRates();
  close.update([item(0)], 0);
  assert.equal(close.update([item(1)], 300).get(subscriptionKey(item(1))), null);
  assert.equal(close.update([item(4)], 2000).get(subscriptionKey(item(4))), 2);
  assert.equal(close.update([item(40)], 9000).get(subscriptionKey(item(40))), 36 / 7, "samples older than the window are dropped");
  const fresh = new SubscriptionRates();
  fresh.update([item(1)], 0);
  assert.equal(fresh.current(60_000).get(subscriptionKey(item(1))), null, "one list alone has no rate, stale or not");
});

test("hot paths and missing paths are marked", () => {
  const list = [1, 2, 3].map((id) => ({ id, store: "app/memory", path: "cart.items", label: null, since: "t", deliveries: 1 }))
    .concat([{ id: 4, store: "app/memory", path: "cart.promo", label: "Promo", since: "t", deliveries: 1 }]);
  const rows = subscriptionRows(list, new Map(), (store, path) => path !== "cart.promo");
  assert.deepEqual(rows.map((r) => [r.hot, r.missing, r.watchers]), [[true, false, 3], [true, false, 3], [true, false, 3], [false, true, 1]]);
});

test("recent changes light a path and its ancestors for a while", () => {
  const recent = new RecentChanges(1000);
  recent.record("app/memory", ["cart", "items", 0], 5000);
  assert.equal(recent.at("app/memory", "cart.items[0]"), 5000);
  assert.equal(recent.at("app/memory", "cart"), 5000);
  assert.equal(recent.at("app/memory", ""), 5000);
  assert.equal(recent.at("app/memory", "user"), 0);
  recent.prune(6500);
  assert.equal(recent.at("app/memory", "cart"), 0);
});

test("a refused WebSocket is explained by what /api/health answered with the same token", () => {
  assert.match(refusalReason(401), /token/);
  assert.match(refusalReason(403), /address/);
  assert.match(refusalReason(null), /not reachable/);
  assert.match(refusalReason(200), /refused the WebSocket/);
  assert.match(refusalReason(500), /500/);
});

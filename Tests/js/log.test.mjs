import { test } from "node:test";
import assert from "node:assert/strict";
import { FilteredLog, compileFilter, pathsMatchPrefix, textMatcher } from "../../Public/lib/log-filter.mjs";
import { LogRing, opBits } from "../../Public/lib/log-ring.mjs";
import { LogView } from "../../Public/lib/log-view.mjs";

/** A change entry as the protocol decoder gives it (values do not matter to the ring). */
function change(seq, store, ...patches) {
  const list = patches.map(([op, path]) => ({ op, path }));
  return { seq, time: "2026-11-21T10:00:00.000000Z", store, txn: list.length > 1 ? `txn-${seq}` : null, event: null, patches: list, raw: JSON.stringify({ seq, store, patches: list }) };
}

function ringOf(capacity, count) {
  const ring = new LogRing(capacity);
  for (let seq = 1; seq <= count; seq++) ring.push(change(seq, seq % 2 ? "app/memory" : "app/file", ["set", `k${seq % 5}`]), 1);
  return ring;
}

test("the ring keeps the newest entries and drops the oldest", () => {
  const ring = ringOf(4, 10);
  assert.equal(ring.size, 4);
  assert.equal(ring.first, 6);
  assert.equal(ring.end, 10);
  assert.deepEqual([6, 7, 8, 9].map((n) => ring.seq(n)), [7, 8, 9, 10]);
  assert.equal(ring.has(5), false);
  assert.equal(ring.store(9), "app/file");
});

test("flags, patch counts and paths are kept per entry", () => {
  const ring = new LogRing(10);
  ring.push(change(1, "app/memory", ["set", "a"], ["remove", "b[0]"]), 1);
  ring.push({ seq: 2, time: "t", store: "app/memory", txn: null, event: "registered", patches: [], raw: "{}" }, 1);
  assert.equal(ring.flag(0), opBits.set | opBits.remove);
  assert.equal(ring.patchCount(0), 2);
  assert.equal(ring.pathList(0), "a\nb[0]");
  assert.equal(ring.txn(0), "txn-1");
  assert.equal(ring.flag(1), opBits.event);
});

test("resize keeps the newest entries; clear keeps numbering", () => {
  const ring = ringOf(8, 8);
  ring.resize(3);
  assert.equal(ring.size, 3);
  assert.deepEqual([5, 6, 7].map((n) => ring.seq(n)), [6, 7, 8]);
  ring.resize(10);
  assert.equal(ring.size, 3);
  ring.push(change(9, "app/memory", ["set", "x"]), 1);
  assert.equal(ring.seq(8), 9);
  ring.clear();
  assert.equal(ring.size, 0);
  assert.equal(ring.push(change(10, "app/memory", ["set", "x"]), 1), 9);
  assert.equal(ring.size, 1);
});

test("find looks entries up by (epoch, seq)", () => {
  const ring = new LogRing(10);
  ring.push(change(5, "s/a", ["set", "x"]), 1);
  ring.push(change(6, "s/a", ["set", "x"]), 1);
  ring.push(change(1, "s/a", ["set", "x"]), 2); // a restarted server numbers from 1 again
  assert.equal(ring.find(6, 1), 1);
  assert.equal(ring.find(1, 2), 2);
  assert.equal(ring.find(1, 1), -1);
});

test("path prefixes match at segment boundaries", () => {
  assert.ok(pathsMatchPrefix("cart.total", "cart"));
  assert.ok(pathsMatchPrefix("user.name\ncart.items[0]", "cart.items"));
  assert.ok(!pathsMatchPrefix("cartel", "cart"));
  assert.ok(!pathsMatchPrefix("", "cart"));
});

test("text filters are smart-case", () => {
  assert.ok(textMatcher("eur").test('"EUR"'));
  assert.ok(!textMatcher("Eur").test('"EUR"'));
  assert.ok(textMatcher("a.b[").test("x a.b[0]"), "special characters are literal");
});

test("compiled filters combine store, op, path and text", () => {
  const ring = new LogRing(10);
  ring.push(change(1, "app/memory", ["set", "cart.total"]), 1);
  ring.push(change(2, "app/memory", ["remove", "cart.coupon"]), 1);
  ring.push(change(3, "app/file", ["set", "cart.total"]), 1);
  ring.push(change(4, "app/memory", ["merge", "user"]), 1);
  const matching = (filter) => [0, 1, 2, 3].filter(compileFilter({ store: "", path: "", op: "", text: "", ...filter }, ring) ?? (() => true)).map((n) => ring.seq(n));
  assert.deepEqual(matching({}), [1, 2, 3, 4]);
  assert.equal(compileFilter({ store: "", path: "", op: "", text: "" }, ring), null);
  assert.deepEqual(matching({ store: "app/memory" }), [1, 2, 4]);
  assert.deepEqual(matching({ path: "cart" }), [1, 2, 3]);
  assert.deepEqual(matching({ op: "remove" }), [2]);
  assert.deepEqual(matching({ store: "app/memory", path: "cart.total" }), [1]);
  assert.deepEqual(matching({ text: "coupon" }), [2]);
});

test("the filtered log follows arrivals and evictions", () => {
  const ring = new LogRing(5);
  const filtered = new FilteredLog(ring);
  filtered.rebuild(compileFilter({ store: "app/memory", path: "", op: "", text: "" }, ring));
  for (let seq = 1; seq <= 8; seq++) {
    const n = ring.push(change(seq, seq % 2 ? "app/memory" : "app/file", ["set", "x"]), 1);
    filtered.dropEvicted();
    filtered.offer(n);
  }
  // The ring holds entries 3..7 (seqs 4..8); the odd seqs 5 and 7 match.
  assert.equal(filtered.size, 2);
  assert.deepEqual([filtered.head, filtered.head + 1].map((p) => ring.seq(filtered.at(p))), [5, 7]);
  assert.equal(filtered.positionOf(6), filtered.head + 1);
  assert.equal(filtered.positionOf(5), -1);
  assert.equal(filtered.positionAfter(5), filtered.head + 1, "entries up to n=5 are the first match");
});

test("the filtered log grows past its first allocation", () => {
  const ring = new LogRing(100);
  const filtered = new FilteredLog(ring);
  for (let seq = 1; seq <= 40; seq++) filtered.offer(ring.push(change(seq, "s/a", ["set", "x"]), 1));
  assert.equal(filtered.size, 40);
  assert.equal(ring.seq(filtered.at(filtered.tail - 1)), 40);
});

test("the log view: order, pause and anchors", () => {
  const ring = new LogRing(100);
  const filtered = new FilteredLog(ring);
  const view = new LogView(filtered);
  const add = (count) => { for (let i = 0; i < count; i++) filtered.offer(ring.push(change(ring.end + 1, "s/a", ["set", "x"]), 1)); };
  add(10);
  assert.equal(view.count, 10);
  assert.equal(ring.seq(filtered.at(view.positionAt(0))), 10, "newest first");
  view.order = "oldest";
  assert.equal(ring.seq(filtered.at(view.positionAt(0))), 1);
  view.order = "newest";

  view.scrollTo(4, 3); // the reader scrolled down to row 4: seq 6 stays at the top as entries arrive
  add(5);
  assert.equal(ring.seq(filtered.at(view.positionAt(view.firstRow(3)))), 6);
  view.scrollTo(0, 3);
  assert.deepEqual(view.anchor, { pinned: true });
  assert.equal(view.firstRow(3), 0);

  view.pausedAt = ring.end;
  add(7);
  assert.equal(view.count, 15);
  assert.equal(view.waiting, 7);
  view.pausedAt = null;
  assert.equal(view.count, 22);
  view.order = "oldest";
  assert.equal(view.firstRow(5), 17, "pinned oldest-first shows the end");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { historySteps } from "../../Public/lib/history.mjs";
import { decodeStoredEntry } from "../../Public/lib/protocol.mjs";

const entry = (...patches) => decodeStoredEntry(JSON.stringify({ patches, seq: 1, store: "app/memory", time: "t", txn: null }));

test("a write to the path itself", () => {
  const [step] = historySteps(entry({ op: "set", path: "cart.total", old: 90, new: 100 }), "cart.total");
  assert.deepEqual({ ...step }, { relation: "self", op: "set", path: "cart.total", before: 90, after: 100, known: true });
});

test("a write to a parent gives the values at the watched path", () => {
  const [step] = historySteps(entry({ op: "set", path: "cart", old: { total: 90, x: 1 }, new: { total: 100 } }), "cart.total");
  assert.equal(step.relation, "ancestor");
  assert.equal(step.before, 90);
  assert.equal(step.after, 100);
  const [removed] = historySteps(entry({ op: "remove", path: "cart", old: { total: 5 } }), "cart.total");
  assert.equal(removed.before, 5);
  assert.equal(removed.after, undefined);
});

test("an insert at a parent index does not know what was there", () => {
  const [step] = historySteps(entry({ op: "insert", path: "items[0]", new: { price: 3 } }), "items[0].price");
  assert.equal(step.known, false);
  assert.equal(step.after, 3);
});

test("a merge into a parent concerns the path only when it merged that key", () => {
  const merge = entry({ op: "merge", path: "user", old: { name: "A" }, new: { name: "B", age: 3 } });
  assert.deepEqual(historySteps(merge, "user.name").map((s) => [s.before, s.after]), [["A", "B"]]);
  assert.deepEqual(historySteps(merge, "user.age").map((s) => [s.before, s.after]), [[undefined, 3]]);
  assert.deepEqual(historySteps(merge, "user.email"), []);
});

test("writes below the path are its children; unrelated patches are left out", () => {
  const steps = historySteps(entry({ op: "set", path: "cart.items[0].quantity", old: 1, new: 2 }, { op: "set", path: "user.name", old: "a", new: "b" }), "cart");
  assert.equal(steps.length, 1);
  assert.equal(steps[0].relation, "descendant");
  assert.equal(steps[0].path, "cart.items[0].quantity");
});

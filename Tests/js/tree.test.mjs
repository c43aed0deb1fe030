import { test } from "node:test";
import assert from "node:assert/strict";
import { completePath } from "../../Public/lib/complete.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { searchTree } from "../../Public/lib/search.mjs";
import { flattenTree, rowIndexOf } from "../../Public/lib/tree.mjs";

const root = parseJSON('{"cart":{"items":[{"sku":"A"},{"sku":"B"}],"total":3.5},"prefs":{"com.app.theme":"dark"},"n":1}');
const paths = (rows) => rows.map((r) => (r.kind === "more" ? `more:${r.path}:${r.shown}/${r.total}` : r.path));

test("only expanded containers show their children", () => {
  assert.deepEqual(paths(flattenTree(root, { expanded: () => false })), ["cart", "prefs", "n"]);
  const open = new Set(["cart", "cart.items", "prefs"]);
  const rows = flattenTree(root, { expanded: (p) => open.has(p) });
  assert.deepEqual(paths(rows), ["cart", "cart.items", "cart.items[0]", "cart.items[1]", "cart.total", "prefs", 'prefs["com.app.theme"]', "n"]);
  assert.deepEqual(rows.map((r) => r.depth), [0, 1, 2, 2, 1, 0, 1, 0]);
  assert.equal(rowIndexOf(rows, "cart.total"), 4);
});

test("large containers are paged", () => {
  const big = parseJSON(JSON.stringify({ list: Array.from({ length: 1000 }, (_, i) => i) }));
  const rows = flattenTree(big, { expanded: () => true, shownChildren: (p) => (p === "list" ? 3 : 200) });
  assert.deepEqual(paths(rows), ["list", "list[0]", "list[1]", "list[2]", "more:list:3/1000"]);
});

test("search finds keys and values and keeps the ancestors", () => {
  const result = searchTree(root, "sku");
  assert.deepEqual([...result.matches], ["cart.items[0].sku", "cart.items[1].sku"]);
  assert.ok(result.ancestors.has("cart.items[0]") && result.ancestors.has("cart") && result.ancestors.has(""));
  assert.deepEqual([...searchTree(root, "dark").matches], ['prefs["com.app.theme"]']);
  assert.deepEqual([...searchTree(root, "3.5").matches], ["cart.total"]);
  const limited = searchTree(root, "a", 1);
  assert.equal(limited.matches.size, 1);
  assert.equal(limited.truncated, true);
});

test("search results as a tree: matches and their ancestors only", () => {
  const result = searchTree(root, "sku");
  const rows = flattenTree(root, {
    expanded: (p) => result.ancestors.has(p),
    shownChildren: () => Infinity,
    include: (p) => (result.matches.has(p) ? "all" : result.ancestors.has(p)),
  });
  assert.deepEqual(paths(rows), ["cart", "cart.items", "cart.items[0]", "cart.items[0].sku", "cart.items[1]", "cart.items[1].sku"]);
});

test("key-path completion", () => {
  assert.deepEqual(completePath(root, "ca"), ["cart"]);
  assert.deepEqual(completePath(root, "cart"), ["cart", "cart.items", "cart.total"]);
  assert.deepEqual(completePath(root, "cart."), ["cart.items", "cart.total"]);
  assert.deepEqual(completePath(root, "cart.items["), ["cart.items[0]", "cart.items[1]"]);
  assert.deepEqual(completePath(root, "cart.t"), ["cart.total"]);
  assert.deepEqual(completePath(root, "prefs.c"), ['prefs["com.app.theme"]']);
  assert.deepEqual(completePath(root, "nothing.here"), []);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadVectors } from "./fixtures.mjs";
import {
  KeyPathError, appendSegment, formatKeyPath, isSameOrBelow, parseKeyPath, pathPrefixes, pathRelation,
} from "../../Public/lib/keypath.mjs";

const vectors = loadVectors("keypaths.json");

/** A fixture segment ({key} or {index} as a string) as the parser's segment. */
function expected(segment) {
  if ("key" in segment) return segment.key;
  const big = BigInt(segment.index);
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

test("every valid key path parses to its segments and prints canonically", () => {
  assert.ok(vectors.valid.length >= 49);
  for (const { path, segments, canonical } of vectors.valid) {
    const parsed = parseKeyPath(path);
    assert.deepEqual(parsed, segments.map(expected), path);
    assert.equal(formatKeyPath(parsed), canonical, path);
    assert.deepEqual(parseKeyPath(canonical), parsed, `${path}: canonical parses the same`);
  }
});

test("every invalid key path fails at its exact column", () => {
  assert.ok(vectors.invalid.length >= 42);
  for (const { path, column, reason } of vectors.invalid) {
    assert.throws(() => parseKeyPath(path), (error) => {
      assert.ok(error instanceof KeyPathError, path);
      assert.equal(error.column, column, `${JSON.stringify(path)} (${reason})`);
      return true;
    });
  }
});

test("appendSegment builds canonical child paths", () => {
  assert.equal(appendSegment("", "cart"), "cart");
  assert.equal(appendSegment("cart", "items"), "cart.items");
  assert.equal(appendSegment("cart.items", 0), "cart.items[0]");
  assert.equal(appendSegment("prefs", "com.app.theme"), 'prefs["com.app.theme"]');
  assert.equal(appendSegment("", ""), '[""]');
  assert.equal(appendSegment("m", 'a"b'), 'm["a\\"b"]');
});

test("isSameOrBelow respects segment boundaries", () => {
  assert.ok(isSameOrBelow("cart.total", "cart"));
  assert.ok(isSameOrBelow("cart.items[0]", "cart.items"));
  assert.ok(isSameOrBelow("cart", "cart"));
  assert.ok(isSameOrBelow("anything", ""));
  assert.ok(!isSameOrBelow("cartel", "cart"));
  assert.ok(!isSameOrBelow("cart", "cart.total"));
  assert.ok(isSameOrBelow('prefs["a.b"]', "prefs"));
});

test("pathRelation tells self, ancestor and descendant apart", () => {
  assert.equal(pathRelation("cart.total", "cart.total"), "self");
  assert.equal(pathRelation("cart.total", "cart"), "ancestor");
  assert.equal(pathRelation("cart", "cart.items[2]"), "descendant");
  assert.equal(pathRelation("cart.total", "cart.items"), null);
  assert.equal(pathRelation("cart.total", ""), "ancestor");
});

test("pathPrefixes lists every ancestor", () => {
  assert.deepEqual(pathPrefixes(parseKeyPath("a.b[0]")), ["", "a", "a.b", "a.b[0]"]);
  assert.deepEqual(pathPrefixes([]), [""]);
});

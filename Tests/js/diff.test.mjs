import { test } from "node:test";
import assert from "node:assert/strict";
import { alignSequences, diffValues } from "../../Public/lib/diff.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";

const diff = (a, b, limit) => diffValues(a === undefined ? undefined : parseJSON(a), b === undefined ? undefined : parseJSON(b), limit);
const summary = (result) => result.rows.map((r) => `${r.change} ${r.path}`);

test("objects: added, removed and changed keys, nested", () => {
  const result = diff('{"a":1,"b":{"c":2,"d":3},"e":4}', '{"a":1,"b":{"c":5,"d":3},"f":6}');
  assert.deepEqual(summary(result).sort(), ["added f", "changed b.c", "removed e"]);
  assert.equal(result.truncated, false);
});

test("integer 3 and number 3.0 are a change", () => {
  assert.deepEqual(summary(diff('{"x":3}', '{"x":3.0}')), ["changed x"]);
  assert.deepEqual(summary(diff('{"x":3}', '{"x":3}')), []);
});

test("an element inserted into an array is one addition, not a shift of every later element", () => {
  const result = diff('[{"id":1},{"id":2},{"id":3}]', '[{"id":1},{"id":9},{"id":2},{"id":3}]');
  assert.deepEqual(summary(result), ["added [1]"]);
});

test("an element removed from an array is one removal", () => {
  assert.deepEqual(summary(diff("[1,2,3,4]", "[1,3,4]")), ["removed [1]"]);
});

test("a replaced element is compared in depth", () => {
  const result = diff('[{"id":1,"q":1},{"id":2}]', '[{"id":1,"q":2},{"id":2}]');
  assert.deepEqual(summary(result), ["changed [0].q"]);
});

test("absent on one side", () => {
  assert.deepEqual(summary(diff(undefined, '{"a":1}')), ["added "]);
  assert.deepEqual(summary(diff('{"a":1}', undefined)), ["removed "]);
  assert.deepEqual(summary(diff("1", '"one"')), ["changed "]);
});

test("the row limit is kept and reported", () => {
  const a = JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])));
  const b = JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i + 1])));
  const result = diffValues(parseJSON(a), parseJSON(b), 10);
  assert.equal(result.rows.length, 10);
  assert.equal(result.truncated, true);
});

test("large arrays fall back to index-by-index comparison", () => {
  const a = parseJSON(JSON.stringify(Array.from({ length: 200 }, (_, i) => i)));
  const b = parseJSON(JSON.stringify(Array.from({ length: 200 }, (_, i) => i * 2)));
  assert.equal(diffValues(a, b, 1000).rows.length, 199);
});

test("alignSequences", () => {
  const kinds = alignSequences([1, 2, 3], [1, 4, 3]).map((s) => s.kind);
  assert.deepEqual(kinds, ["same", "replaced", "same"]);
  assert.deepEqual(alignSequences([1], [1, 2]).map((s) => s.kind), ["same", "added"]);
  assert.deepEqual(alignSequences([1, 2], [2]).map((s) => s.kind), ["removed", "same"]);
});

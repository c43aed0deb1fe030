// The state a recording is read into (recording-state.mjs): patches applied with their `old` checked against what
// they replace, alike whether their values come built (the general way) or raw from the file's bytes (the fast
// path, raw-value.mjs), and the snapshot text kept between snapshots.

import { test } from "node:test";
import assert from "node:assert/strict";
import { JSONBytes } from "../../Public/lib/json-bytes.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { parseKeyPath } from "../../Public/lib/keypath.mjs";
import { valueAt } from "../../Public/lib/mirror.mjs";
import { RawValue, leaf, plain, sameValue } from "../../Public/lib/raw-value.mjs";
import { PatchError, RecordingState } from "../../Public/lib/recording-state.mjs";
import { random } from "./recording-generator.mjs";

/** A value's JSON text as the fast path hands it over: raw, an integer or a literal as itself; built when the scanner gives up. */
function rawOf(text) {
  const bytes = new TextEncoder().encode(`${text}\n`);
  const scan = new JSONBytes();
  scan.bytes = bytes;
  const end = scan.value(0, 0);
  if (end !== bytes.length - 1) return parseJSON(text);
  return leaf(bytes, 0, end, scan.kind, scan.integer);
}

/**
 * Applies patches ({op, path, old, new}, values as JSON text) to a root written as JSON, with their values raw or
 * built: the root's canonical text after them, or the first error's reason.
 */
function apply(rootText, patches, raw) {
  const state = new RecordingState();
  const store = { id: "app/memory", version: "1.0.0", root: parseJSON(rootText) };
  const value = (text) => (text === undefined ? undefined : raw ? rawOf(text) : parseJSON(text));
  try {
    for (const { op, path, old, new: fresh } of patches) {
      state.apply(store, { op, path, segments: parseKeyPath(path), old: value(old), new: value(fresh) });
    }
  } catch (error) {
    assert.ok(error instanceof PatchError, `not a PatchError: ${error}`);
    return `error: ${error.message}`;
  }
  return stringifyValue(plain(store.root));
}

/** Both ways give the same; returns it. */
function bothWays(rootText, ...patches) {
  const built = apply(rootText, patches, false);
  assert.equal(apply(rootText, patches, true), built, JSON.stringify(patches));
  return built;
}

const set = (path, old, value) => ({ op: "set", path, old, new: value });

test("a patch's old must be the value it replaces, presence included; the same reasons either way", () => {
  assert.equal(bothWays('{"a":1}', set("a", "1", "3")), '{"a":3}');
  assert.equal(bothWays('{"a":1}', set("a", "2", "3")), 'error: "a" is 1, the patch expected 2');
  assert.equal(bothWays('{"a":[1]}', { op: "remove", path: "a[0]", old: "1.0" }), 'error: "a[0]" is 1, the patch expected 1.0');
  assert.equal(bothWays('{"m":{"k":1}}', { op: "merge", path: "m", old: "{}", new: '{"k":2}' }), 'error: key "k" of "m" is 1, the patch expected absent');
  assert.equal(bothWays('{"m":{"k":1},"a":[1]}', { op: "merge", path: "m", old: '{"k":1}', new: '{"k":2,"j":"x"}' }), '{"a":[1],"m":{"j":"x","k":2}}');
  assert.equal(bothWays('{"a":[1]}', { op: "insert", path: "a[0]", new: "0" }), '{"a":[0,1]}');
  assert.equal(bothWays('{"a":1}', set("b", "1", "2")), 'error: "b" is absent, the patch expected 1');
  assert.equal(bothWays('{"a":1}', set("a", undefined, "2")), 'error: "a" is 1, the patch expected absent');
  assert.equal(bothWays('{"a":1}', set("x.y", undefined, "2")), "error: nothing is at the parent");
  assert.equal(bothWays('{"a":1}', set("a.y", undefined, "2")), "error: the parent is not an object");
  assert.equal(bothWays('{"a":{}}', set("a[0]", undefined, "2")), "error: the parent is not an array");
  assert.equal(bothWays('{"a":[]}', set("a[1]", undefined, "2")), "error: index past the end (0 elements)");
  assert.equal(bothWays('{"a":"s"}', { op: "merge", path: "a", old: "{}", new: '{"k":1}' }), 'error: a merge needs an object there, it is "s"');
  assert.equal(bothWays('{"a":1}', set("", '{"a":1}', '{"b":[2]}')), '{"b":[2]}');
  assert.equal(bothWays('{"a":1}', set("", '{"a":2}', '{"b":2}')), 'error: the root is {"a":1}, the patch expected {"a":2}');
  assert.equal(bothWays('{"a":1}', { op: "merge", path: "", old: "{}", new: '{"b":{"c":[1]}}' }), '{"a":1,"b":{"c":[1]}}');
});

test("raw values: reached into, compared by value where their text differs, and named in reasons", () => {
  const item = '{"sku":"A-1","title":"Lamp \\u00e9","price":12.50,"tags":["x",{"y":null}],"qty":1}';
  // A raw object is opened where a patch reaches inside it, a level at a time.
  assert.equal(
    bothWays('{"items":[]}', { op: "insert", path: "items[0]", new: item }, set("items[0].qty", "1", "2"), set("items[0].tags[1].y", "null", "true")),
    '{"items":[{"price":12.5,"qty":2,"sku":"A-1","tags":["x",{"y":true}],"title":"Lamp é"}]}',
  );
  // The same value in other words (key order, escapes, 12.5, spaces) is the same value.
  const same = '{ "qty" : 1, "tags" : ["\\u0078", {"y": null}], "title": "Lamp é", "sku": "A\\u002d1", "price": 12.5 }';
  assert.equal(bothWays('{"items":[]}', { op: "insert", path: "items[0]", new: item }, { op: "remove", path: "items[0]", old: same }), '{"items":[]}');
  assert.equal(bothWays('{"items":[]}', { op: "insert", path: "items[0]", new: item }, set("items[0].qty", "1", "2"), { op: "remove", path: "items[0]", old: same }),
    'error: "items[0]" is {"price":12.5,"qty":2,"sku":"A-1","tags":["x",{"y":null}],"title":"Lamp é"}, the patch expected {"price":12.5,"qty":1,"sku":"A-1","tags":["x",{"y":null}],"title":"Lamp é"}');
  // Integer and number differ, -0 is the integer 0, 1.50 is 1.5, large integers are exact.
  assert.equal(bothWays('{}', set("n", undefined, "1.50"), set("n", "1.5", "-0"), set("n", "0", "9007199254740993"), set("n", "9007199254740993", "2")), '{"n":2}');
  assert.equal(bothWays('{}', set("n", undefined, "3"), set("n", "3.0", "4")), 'error: "n" is 3, the patch expected 3.0');
  assert.equal(bothWays('{}', set("n", undefined, '{"$number":"nan"}'), set("n", '{"$number":"nan"}', '"s"')), '{"n":"s"}');
});

test("sameValue: raw and built values, bytes first, then value by value", () => {
  const bytes = new TextEncoder().encode('"ab" "a\\u0062" [1,"ab"] [1,"a\\u0062"] {"k":1.5} {"k":1.50}\n');
  const scan = new JSONBytes();
  scan.bytes = bytes;
  const raws = [];
  for (let pos = 0; bytes[pos] !== 0x0a; pos = scan.space(pos)) {
    const end = scan.value(pos, 0);
    raws.push(leaf(bytes, pos, end, scan.kind, scan.integer));
    pos = end;
  }
  assert.ok(raws.every((raw) => raw instanceof RawValue));
  const [ab, escaped, list, escapedList, object, longer] = raws;
  assert.ok(sameValue(ab, escaped) && sameValue(list, escapedList) && sameValue(object, longer));
  assert.ok(sameValue(ab, "ab") && sameValue("ab", escaped) && sameValue(list, [1, "ab"]) && sameValue(object.open(), longer));
  assert.ok(!sameValue(ab, list) && !sameValue(list, [1, "ab", 2]) && !sameValue(object, undefined) && sameValue(undefined, undefined));
  assert.deepEqual(plain(list.open()), [1, "ab"]);
});

test("the kept snapshot text follows every kind of patch, raw values pasted as they are", () => {
  const r = random(5);
  const state = new RecordingState();
  const store = { id: "app/memory", version: "1.0.0", root: parseJSON('{"a":{"b":[1,{"c":2}],"d":{"e":"x"}},"f":[[1],[2]],"$g":{"h":1.5}}') };
  state.stores.set(store.id, store);
  let applied = 0;
  for (let step = 0; step < 1500; step++) {
    const expected = `[{"id":"app/memory","version":"1.0.0","root":${stringifyValue(plain(store.root), { sortKeys: false })}}]`;
    assert.equal(state.snapshotText(), expected, `step ${step}`);
    const path = r.pick(["a", "a.b", "a.b[0]", "a.b[1].c", "a.d", "a.d.e", "f[0]", "f[1][0]", "f[0][1]", "$g.h", "$g", "a.k", "a.k[0]", "a.k[1]"]);
    const segments = parseKeyPath(path);
    const op = r.pick(["set", "insert", "remove", "merge"]);
    const text = r.pick(["1", '"s"', '{"k":[1,2]}', "[3]", "2.5"]);
    const value = r.chance(0.5) ? rawOf(text) : parseJSON(text);
    const current = valueAt(plain(store.root), segments);
    const old = op === "merge" && current instanceof Map ? new Map(current.has("m") ? [["m", current.get("m")]] : []) : current;
    const patch = { op, path, segments, old: op === "insert" ? undefined : old, new: op === "merge" ? rawOf(`{"m":${text}}`) : op === "remove" ? undefined : value };
    try {
      state.apply(store, patch);
      applied++;
    } catch (error) {
      assert.ok(error instanceof PatchError, String(error)); // a patch that does not fit this state changes nothing
    }
  }
  assert.ok(applied > 150, `${applied} patches applied`);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { parseKeyPath } from "../../Public/lib/keypath.mjs";
import { Mirror, MirrorError, PathCache, applyPatch, valueAt } from "../../Public/lib/mirror.mjs";
import { decodeServerMessage } from "../../Public/lib/protocol.mjs";

/** Applies a patch written as JSON text to a root written as JSON text; returns the canonical result. */
function apply(rootText, patchText) {
  const patch = parseJSON(patchText);
  const decoded = { op: patch.get("op"), path: patch.get("path"), old: patch.get("old"), new: patch.get("new") };
  return stringifyValue(applyPatch(parseJSON(rootText), decoded, parseKeyPath(decoded.path)));
}

test("set, insert, remove and merge, as docs/store.md records them", () => {
  assert.equal(apply('{"cart":{"total":90}}', '{"op":"set","path":"cart.total","old":90,"new":100}'), '{"cart":{"total":100}}');
  assert.equal(apply('{"cart":{}}', '{"op":"set","path":"cart.note","new":"hi"}'), '{"cart":{"note":"hi"}}');
  assert.equal(apply('{}', '{"op":"set","path":"a","new":{"b":{"c":1}}}'), '{"a":{"b":{"c":1}}}');
  assert.equal(apply('{"items":[{"t":"x"}]}', '{"op":"insert","path":"items[0]","new":{"t":"y"}}'), '{"items":[{"t":"y"},{"t":"x"}]}');
  assert.equal(apply('{"items":[1,2,3]}', '{"op":"remove","path":"items[1]","old":2}'), '{"items":[1,3]}');
  assert.equal(apply('{"items":[1]}', '{"op":"set","path":"items[1]","new":2}'), '{"items":[1,2]}', "an index equal to the count appends");
  assert.equal(apply('{"user":{"name":"A","x":1}}', '{"op":"merge","path":"user","old":{"name":"A"},"new":{"name":"B","age":3}}'), '{"user":{"age":3,"name":"B","x":1}}');
  assert.equal(apply('{"a":1}', '{"op":"set","path":"","old":{"a":1},"new":{"b":2}}'), '{"b":2}', "the root itself");
  assert.equal(apply('{"a":1}', '{"op":"merge","path":"","old":{},"new":{"b":2}}'), '{"a":1,"b":2}');
  assert.equal(apply('{"flags":{}}', '{"op":"set","path":"flags.$beta","new":true}'), '{"flags":{"$$beta":true}}', "paths use real keys");
});

test("patches that do not fit the mirror are MirrorErrors", () => {
  assert.throws(() => apply('{"a":1}', '{"op":"set","path":"a.b","new":1}'), MirrorError);
  assert.throws(() => apply('{"a":[]}', '{"op":"insert","path":"a[2]","new":1}'), MirrorError);
  assert.throws(() => apply('{"a":[]}', '{"op":"remove","path":"a[0]","old":1}'), MirrorError);
  assert.throws(() => apply('{"a":1}', '{"op":"set","path":"a","new":2}'), MirrorError, "a value is there but the patch has no old");
  assert.throws(() => apply('{}', '{"op":"set","path":"a","old":1,"new":2}'), MirrorError, "nothing is there but the patch has an old");
  assert.throws(() => apply('{}', '{"op":"remove","path":"a","old":1}'), MirrorError);
});

test("the mirror does not compare a patch's old with the value it replaces (a recording's reader does)", () => {
  assert.equal(apply('{"a":1}', '{"op":"set","path":"a","old":2,"new":3}'), '{"a":3}');
  assert.equal(apply('{"m":{"k":1}}', '{"op":"merge","path":"m","old":{},"new":{"k":2}}'), '{"m":{"k":2}}');
});

test("valueAt reads through objects and arrays", () => {
  const root = parseJSON('{"a":{"b":[10,{"c":"x"}]}}');
  assert.equal(valueAt(root, parseKeyPath("a.b[1].c")), "x");
  assert.equal(valueAt(root, parseKeyPath("a.b[0]")), 10);
  assert.equal(valueAt(root, parseKeyPath("a.b[5]")), undefined);
  assert.equal(valueAt(root, parseKeyPath("a.b.c")), undefined);
  assert.equal(valueAt(root, []), root);
});

test("the mirror follows docs/protocol.md's demo frames", () => {
  const mirror = new Mirror();
  mirror.load(decodeServerMessage('{"type":"snapshot","seq":153,"stores":[{"id":"app/memory","root":{"cart":{"items":[],"total":0.0}},"scope":"app","storage":"memory","version":"2.0.0"}],"subscriptions":[]}'));
  const frame = decodeServerMessage('{"type":"changes","entries":[{"patches":[{"new":{"price":11.99,"quantity":1,"sku":"CBL-USBC-2M","title":"USB-C cable, 2 m"},"op":"insert","path":"cart.items[0]"},{"new":11.99,"old":0.0,"op":"set","path":"cart.total"}],"seq":154,"store":"app/memory","time":"2026-11-21T13:52:51.270208Z","txn":"1813aaf0-1fbb-4a3b-9bb0-4a0b277e26c4"},{"event":"registered","root":{},"seq":155,"store":"scenario:checkout/memory","time":"2026-11-21T13:52:51.620096Z","version":"2.0.0"}]}');
  const touched = mirror.apply(frame.entries[0]);
  assert.deepEqual(touched.map((segments) => segments.join("/")), ["cart/items/0", "cart/total"]);
  assert.equal(mirror.apply(frame.entries[1]), null);
  assert.equal(mirror.seq, 155);
  assert.equal(stringifyValue(mirror.stores.get("app/memory").root), '{"cart":{"items":[{"price":11.99,"quantity":1,"sku":"CBL-USBC-2M","title":"USB-C cable, 2 m"}],"total":11.99}}');
  assert.deepEqual([...mirror.stores.keys()], ["app/memory", "scenario:checkout/memory"]);
  assert.equal(mirror.stores.get("scenario:checkout/memory").scope, "scenario:checkout");
});

test("store events: reset empties the root, removed drops the store", () => {
  const mirror = new Mirror();
  mirror.load({ seq: 1, stores: [{ id: "app/memory", scope: "app", storage: "memory", version: "1.0.0", root: parseJSON('{"a":1}') }] });
  mirror.apply({ seq: 2, store: "app/memory", event: "reset", version: "2.0.0", patches: [] });
  assert.equal(mirror.stores.get("app/memory").root.size, 0);
  assert.equal(mirror.stores.get("app/memory").version, "2.0.0");
  mirror.apply({ seq: 3, store: "app/memory", event: "removed", patches: [] });
  assert.equal(mirror.stores.size, 0);
});

test("an entry out of sequence, or for an unknown store, is refused", () => {
  const mirror = new Mirror();
  mirror.load({ seq: 10, stores: [] });
  assert.throws(() => mirror.apply({ seq: 12, store: "app/x", event: "removed", patches: [] }), /expected entry 11/);
  assert.throws(() => mirror.apply({ seq: 11, store: "app/x", event: null, patches: [{ op: "set", path: "a", new: 1 }] }), MirrorError);
});

test("the path cache parses each path once", () => {
  const cache = new PathCache();
  const first = cache.segments("a.b[0]");
  assert.equal(cache.segments("a.b[0]"), first);
  assert.deepEqual(first, ["a", "b", 0]);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { Num } from "../../Public/lib/values.mjs";
import { ProtocolError, decodeServerMessage, decodeStoredEntry, splitStoreId } from "../../Public/lib/protocol.mjs";

test("hello", () => {
  const hello = decodeServerMessage('{"protocol":1,"readOnly":true,"resumed":false,"server":{"name":"keyscope demo","pid":21444,"version":"0.1.0"},"type":"hello"}');
  assert.deepEqual(hello, { type: "hello", protocol: 1, readOnly: true, resumed: false, instance: null, fleet: null, server: { name: "keyscope demo", version: "0.1.0", pid: 21444 } });
});

test("snapshot with stores and subscriptions; a file store keeps its slashes", () => {
  const snapshot = decodeServerMessage('{"type":"snapshot","seq":114,"stores":[{"id":"app/file:/tmp/x/state.json","root":{"n":1.0},"scope":"app","storage":"file:/tmp/x/state.json","version":"2.0.0"}],"subscriptions":[{"deliveries":10,"id":6,"label":"ThemeProvider","path":"settings.theme","since":"2026-11-21T13:52:44.219729Z","store":"app/memory"}]}');
  assert.equal(snapshot.seq, 114);
  assert.equal(snapshot.stores[0].storage, "file:/tmp/x/state.json");
  assert.ok(snapshot.stores[0].root.get("n") instanceof Num);
  assert.deepEqual(snapshot.subscriptions[0], { id: 6, store: "app/memory", path: "settings.theme", label: "ThemeProvider", since: "2026-11-21T13:52:44.219729Z", deliveries: 10 });
  assert.deepEqual(splitStoreId("app/file:/a/b"), ["app", "file:/a/b"]);
});

test("changes keep each entry's exact text", () => {
  const text = '{"type":"changes","entries":[{"patches":[{"new":3.0,"old":3,"op":"set","path":"a"}],"seq":7,"store":"app/memory","time":"2026-11-21T13:52:51.270208Z","txn":null},{"event":"removed","seq":8,"store":"app/x","time":"2026-11-21T13:52:52.000000Z"}]}';
  const { entries } = decodeServerMessage(text);
  assert.equal(entries[0].raw, '{"patches":[{"new":3.0,"old":3,"op":"set","path":"a"}],"seq":7,"store":"app/memory","time":"2026-11-21T13:52:51.270208Z","txn":null}');
  assert.ok(entries[0].patches[0].new instanceof Num);
  assert.equal(entries[0].patches[0].old, 3);
  assert.equal(entries[1].event, "removed");
  assert.deepEqual(decodeStoredEntry(entries[0].raw).patches[0].path, "a");
});

test("gap, subscriptions, replies and unknown types", () => {
  assert.deepEqual(decodeServerMessage('{"type":"gap","from":410,"to":514}'), { type: "gap", from: 410, to: 514 });
  assert.equal(decodeServerMessage('{"type":"subscriptions","list":[]}').list.length, 0);
  assert.deepEqual(decodeServerMessage('{"id":1,"ok":true,"result":{"seq":1851},"type":"reply"}'), { type: "reply", id: 1, ok: true, seq: 1851 });
  assert.deepEqual(decodeServerMessage('{"id":2,"ok":true,"result":{"seq":null},"type":"reply"}').seq, null);
  const refused = decodeServerMessage('{"error":{"code":"bad_path","message":"invalid key path"},"id":4,"ok":false,"type":"reply"}');
  assert.deepEqual(refused.error, { code: "bad_path", message: "invalid key path" });
  assert.deepEqual(decodeServerMessage('{"type":"tunables","x":1}'), { type: "unknown", name: "tunables" });
});

test("bad server input is one ProtocolError, never a crash", () => {
  for (const text of ["not json", "[1,2]", '{"type":1}', '{"type":"hello"}', '{"type":"snapshot","seq":"x","stores":[],"subscriptions":[]}',
    '{"type":"changes","entries":[{"seq":1}]}', '{"type":"changes","entries":[{"seq":1,"time":"t","store":"s","patches":[{"op":"jump","path":"a"}]}]}',
    '{"type":"changes","entries":[{"seq":1,"time":"t","store":"s","event":"exploded"}]}', '{"type":"gap","from":1}', '{"a":1,"a":2}']) {
    assert.throws(() => decodeServerMessage(text), ProtocolError, text);
  }
});

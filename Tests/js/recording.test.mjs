import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { isStoreId, parseLogTime } from "../../Public/lib/log-line.mjs";
import { RecordingError, RecordingIndexer, readRecording } from "../../Public/lib/recording-indexer.mjs";
import { changeLine, fileOf, headerLine, randomRecording, timeOf } from "./recording-generator.mjs";

const header = headerLine([["app/memory", '{"cart":{"items":[],"total":90}}']]);
const set = (seq, path, old, value) => changeLine(seq, "app/memory", [`{${old === undefined ? "" : `"old":${old},`}"new":${value},"op":"set","path":"${path}"}`]);

/** The error a file gives: [line, reason]. */
function failure(lines, tail = "") {
  try {
    readRecording(fileOf(lines, tail));
  } catch (error) {
    assert.ok(error instanceof RecordingError, `not a RecordingError: ${error}`);
    return [error.line, error.reason];
  }
  assert.fail("the file was read without an error");
}

/** A store after the whole file (read with a snapshot after every event). */
function finalStore(lines, id = "app/memory") {
  const recording = readRecording(fileOf(lines), { checkpointEvery: 1 });
  return JSON.parse(recording.checkpoints.at(-1).stores).find((s) => s.id === id);
}

test("a valid recording is read whole: events, offsets, times, the first snapshot", () => {
  const lines = [header, set(1, "cart.total", 90, 100), set(2, "cart.note", undefined, '"hi"')];
  const recording = readRecording(fileOf(lines), { checkpointEvery: 2 });
  assert.equal(recording.events, 2);
  assert.equal(recording.tornBytes, 0);
  assert.equal(recording.linesText(1, 2), `${lines[1]}\n${lines[2]}`);
  assert.equal(recording.linesText(2, 2), lines[2]);
  assert.equal(recording.times[0], parseLogTime("2026-11-21T10:00:00.000000Z"));
  assert.equal(recording.times[2] - recording.times[1], 10_000, "microseconds");
  assert.deepEqual(recording.checkpoints.map((c) => c.seq), [0, 2]);
  assert.equal(recording.checkpoints[1].stores, '[{"id":"app/memory","version":"1.0.0","root":{"cart":{"items":[],"total":100,"note":"hi"}}}]');
  assert.equal(recording.header.source.pid, 42);
  assert.deepEqual(recording.storeIds, ["app/memory"]);
});

test("a header alone is a recording of no events", () => {
  const recording = readRecording(fileOf([header]));
  assert.equal(recording.events, 0);
  assert.equal(recording.checkpoints.length, 1);
  assert.equal(recording.linesText(1, 0), "");
});

test("a last line without its newline is a torn tail: kept out and reported in bytes, even when it parses", () => {
  const torn = set(2, "cart.total", 100, 110);
  const recording = readRecording(fileOf([header, set(1, "cart.total", 90, 100)], torn));
  assert.equal(recording.events, 1);
  assert.equal(recording.tornBytes, new TextEncoder().encode(torn).length);
  const half = readRecording(fileOf([header, set(1, "cart.total", 90, 100)], '{"seq":2,"ti'));
  assert.equal(half.tornBytes, 12);
  assert.equal(half.offsets[2], fileOf([header, set(1, "cart.total", 90, 100)]).length);
});

test("a file without a complete header is an error on line 1", () => {
  assert.deepEqual(failure([]), [1, "the file is empty: a recording starts with its header line"]);
  assert.equal(failure([], header)[0], 1);
  assert.match(failure([], header)[1], /incomplete/);
});

test("header rules: format, the integer version 1, createdAt, stores", () => {
  const bad = (text) => failure([text]);
  assert.match(bad(header.replace('"keyscope-log"', '"other"'))[1], /"format" is "other"/);
  assert.match(bad(header.replace('"version":1}', '"version":2}'))[1], /unknown log format version 2/);
  assert.match(bad(header.replace('"version":1}', '"version":1.0}'))[1], /the integer 1/);
  assert.match(bad(header.replace('"createdAt":"2026-11-21T10:00:00.000000Z"', '"createdAt":"2026-11-21T10:00:00Z"'))[1], /createdAt/);
  assert.match(bad(header.replace('"2026-11-21T10:00:00.000000Z"', '"2026-02-30T10:00:00.000000Z"'))[1], /createdAt/);
  assert.match(bad(header.replace(/"stores":\[.*\]/, '"stores":{}'))[1], /"stores" as an array/);
  assert.match(bad(headerLine([["app/memory", "{}"], ["app/memory", "{}"]]))[1], /listed twice/);
  assert.match(bad(headerLine([["nope", "{}"]]))[1], /store id/);
  assert.match(bad(headerLine([["app/memory", "[]"]]))[1], /must be an object/);
  assert.match(bad(headerLine([["app/memory", "{}", "1.0"]]))[1], /major\.minor\.patch/);
  assert.match(bad(header.replace('"source":{"name":"test","pid":42}', '"source":{"pid":"42"}'))[1], /source\.pid/);
  assert.equal(readRecording(fileOf([header.replace('"source":{"name":"test","pid":42},', "")])).header.source, null, "source is optional");
});

test("seq starts at 1 and rises by exactly 1", () => {
  assert.deepEqual(failure([header, set(2, "cart.total", 90, 100)]), [2, '"seq" is 2, expected 1 (seq starts at 1 and rises by exactly 1 per line)']);
  assert.equal(failure([header, set(1, "cart.total", 90, 100), set(1, "cart.total", 100, 110)])[0], 3);
  assert.equal(failure([header, set(1, "cart.total", 90, 100), set(3, "cart.total", 100, 110)])[0], 3);
  assert.match(failure([header, set(1, "cart.total", 90, 100).replace('"seq":1', '"seq":1.0')])[1], /integer/);
});

test("a blank line, invalid JSON, a line that is not an object, bad UTF-8: errors with their line number", () => {
  assert.deepEqual(failure([header, set(1, "cart.total", 90, 100), "", set(2, "cart.total", 100, 110)]), [3, "a blank line (every line is one JSON object)"]);
  const [line, reason] = failure([header, '{"seq":1,']);
  assert.equal(line, 2);
  assert.match(reason, /^invalid JSON: /);
  assert.equal(failure([header, "[1]"])[1], "a line must be a JSON object");
  assert.match(failure([header, '{"a":1,"a":2}'])[1], /duplicate key/);
  const bytes = fileOf([header, set(1, "cart.note", undefined, '"xx"')]);
  bytes[bytes.length - 60] = 0xff;
  assert.throws(() => readRecording(bytes), (error) => error.line === 2 && /UTF-8/.test(error.reason));
});

test("wrong types in an event line are errors", () => {
  const line = set(1, "cart.total", 90, 100);
  assert.match(failure([header, line.replace(`"time":"${timeOf(1)}"`, '"time":"yesterday"')])[1], /"time"/);
  assert.match(failure([header, line.replace('"store":"app/memory"', '"store":"memory"')])[1], /not a store id/);
  assert.match(failure([header, line.replace('"txn":null', '"txn":"not-a-uuid"')])[1], /UUID/);
  assert.match(failure([header, line.replace('"patches":[', '"patchez":[')])[1], /"patches" as an array/);
  assert.match(failure([header, line.replace('"op":"set"', '"op":"put"')])[1], /patch 1: "op"/);
  assert.match(failure([header, line.replace('"path":"cart.total"', '"path":"cart..total"')])[1], /patch 1: invalid key path/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"op":"remove","path":"cart.total"}'])])[1], /remove patch has "old"/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":1,"op":"insert","path":"cart.x"}'])])[1], /index path/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":{},"op":"merge","path":"cart"}'])])[1], /merge patch needs/);
  assert.match(failure([header, changeLine(1, "app/other", [])])[1], /not a store id|not in the state/);
  assert.match(failure([header, changeLine(1, "scenario:x/memory", [])])[1], /not in the state/);
  assert.match(failure([header, `{"event":"renamed","seq":1,"store":"app/memory","time":"${timeOf(1)}"}`])[1], /unknown store event/);
  assert.match(failure([header, `{"event":"reset","seq":1,"store":"app/memory","time":"${timeOf(1)}"}`])[1], /"version"/);
  assert.match(failure([header, `{"event":"registered","seq":1,"store":"app/x","time":"${timeOf(1)}","version":"1.0.0"}`])[1], /not a store id/);
  assert.match(failure([header, `{"event":"registered","seq":1,"store":"scenario:x/memory","time":"${timeOf(1)}","version":"1.0.0","root":[]}`])[1], /"root" as an object/);
});

test("unknown keys are ignored, an absent txn reads as null, txn UUIDs in either case", () => {
  const line = set(1, "cart.total", 90, 100).replace('"seq":1', '"seq":1,"liveSeq":4411,"future":{"x":[1,2]}').replace(',"txn":null', "");
  const upper = changeLine(2, "app/memory", ['{"new":2,"op":"set","path":"a"}'], "1813AAF0-1FBB-4A3B-9BB0-4A0B277E26C4");
  const lower = changeLine(3, "app/memory", ['{"new":3,"old":2,"op":"set","path":"a"}'], "1813aaf0-1fbb-4a3b-9bb0-4a0b277e26c4");
  const lines = [header.replace('"format"', '"unknown":true,"format"'), line, upper, lower];
  assert.equal(readRecording(fileOf(lines)).events, 3);
  assert.deepEqual(finalStore(lines).root, { cart: { items: [], total: 100 }, a: 3 });
});

test("a patch that does not apply is an error naming the line and the patch", () => {
  const [line, reason] = failure([header, set(1, "cart.total", 90, 100), set(2, "cart.total", 90, 110)]);
  assert.equal(line, 3);
  assert.equal(reason, 'patch 1 (set "cart.total") does not apply: "cart.total" is 100, the patch expected 90');
  // The integer 90 and the number 90.0 differ (StoreValue equality).
  assert.match(failure([header, set(1, "cart.total", "90.0", 100)])[1], /is 90, the patch expected 90\.0/);
  // Presence: a value is there but the patch has no old; nothing is there but the patch has one.
  assert.match(failure([header, set(1, "cart.total", undefined, 100)])[1], /is 90, the patch expected absent/);
  assert.match(failure([header, set(1, "cart.note", '"x"', '"y"')])[1], /is absent, the patch expected "x"/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"old":91,"op":"remove","path":"cart.total"}'])])[1], /is 90/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"old":1,"op":"remove","path":"cart.nope"}'])])[1], /is absent/);
  // Structure: a missing parent, an index past the end, a name into an array, a merge into a scalar.
  assert.match(failure([header, set(1, "a.b", undefined, 1)])[1], /nothing is at the parent/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":1,"op":"insert","path":"cart.items[1]"}'])])[1], /past the end/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":1,"op":"set","path":"cart.items[1]"}'])])[1], /past the end/);
  assert.match(failure([header, set(1, "cart.items.x", undefined, 1)])[1], /not an object/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":{"a":1},"old":{},"op":"merge","path":"cart.total"}'])])[1], /merge needs an object/);
  // A merge checks the previous value of every key it sets, absent ones included.
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":{"total":1},"old":{},"op":"merge","path":"cart"}'])])[1], /key "total" of "cart" is 90, the patch expected absent/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":{"x":1},"old":{"x":0},"op":"merge","path":"cart"}'])])[1], /key "x" of "cart" is absent/);
  // The root: set needs the old root, and only an object.
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":{},"old":{},"op":"set","path":""}'])])[1], /the root is/);
  assert.match(failure([header, changeLine(1, "app/memory", ['{"new":1,"op":"set","path":""}'])])[1], /root must be an object/);
  // A later patch of the same change sees the earlier ones.
  const txn = changeLine(1, "app/memory", ['{"new":{"a":1},"op":"set","path":"x"}', '{"new":2,"old":1,"op":"set","path":"x.a"}'], "1813aaf0-1fbb-4a3b-9bb0-4a0b277e26c4");
  assert.deepEqual(finalStore([header, txn]).root.x, { a: 2 });
});

test("every op applies as docs/store.md says: set appends at the count, insert shifts, remove shifts, merge sets keys", () => {
  const lines = [
    header,
    changeLine(1, "app/memory", ['{"new":"a","op":"set","path":"cart.items[0]"}']),
    changeLine(2, "app/memory", ['{"new":"b","op":"insert","path":"cart.items[0]"}']),
    changeLine(3, "app/memory", ['{"new":"c","old":"a","op":"set","path":"cart.items[1]"}']),
    changeLine(4, "app/memory", ['{"old":"b","op":"remove","path":"cart.items[0]"}']),
    changeLine(5, "app/memory", ['{"new":{"total":1.5,"cur":"EUR"},"old":{"total":90},"op":"merge","path":"cart"}']),
    changeLine(6, "app/memory", ['{"new":{"z":true},"old":{},"op":"merge","path":""}']),
    changeLine(7, "app/memory", ['{"new":{"w":1},"old":{"cart":{"cur":"EUR","items":["c"],"total":1.5},"z":true},"op":"set","path":""}']),
  ];
  const recording = readRecording(fileOf(lines), { checkpointEvery: 1 });
  const root = (seq) => JSON.parse(recording.checkpoints[seq].stores)[0].root;
  assert.deepEqual(root(1).cart.items, ["a"]);
  assert.deepEqual(root(2).cart.items, ["b", "a"]);
  assert.deepEqual(root(3).cart.items, ["b", "c"]);
  assert.deepEqual(root(4).cart.items, ["c"]);
  assert.equal(recording.checkpoints[5].stores, '[{"id":"app/memory","version":"1.0.0","root":{"cart":{"items":["c"],"total":1.5,"cur":"EUR"}}}]');
  assert.deepEqual(root(6).z, true);
  assert.deepEqual(root(7), { w: 1 });
});

test("registered adds a store, reset empties it with its new version, removed ends it", () => {
  const lines = [
    header,
    `{"event":"registered","root":{"step":"cart"},"seq":1,"store":"scenario:checkout/memory","time":"${timeOf(1)}","version":"1.0.0"}`,
    changeLine(2, "scenario:checkout/memory", ['{"new":"pay","old":"cart","op":"set","path":"step"}']),
    `{"event":"reset","seq":3,"store":"scenario:checkout/memory","time":"${timeOf(3)}","version":"2.0.0"}`,
    changeLine(4, "scenario:checkout/memory", ['{"new":"again","op":"set","path":"step"}']),
    `{"event":"removed","seq":5,"store":"scenario:checkout/memory","time":"${timeOf(5)}"}`,
  ];
  const recording = readRecording(fileOf(lines), { checkpointEvery: 1 });
  const stores = (seq) => JSON.parse(recording.checkpoints[seq].stores);
  assert.deepEqual(stores(1)[1], { id: "scenario:checkout/memory", version: "1.0.0", root: { step: "cart" } });
  assert.deepEqual(stores(3)[1], { id: "scenario:checkout/memory", version: "2.0.0", root: {} });
  assert.deepEqual(stores(4)[1].root, { step: "again" });
  assert.deepEqual(stores(5).map((s) => s.id), ["app/memory"]);
  assert.deepEqual(recording.storeIds, ["app/memory", "scenario:checkout/memory"]);
  // After `removed`, the store is no longer part of the state: a change to it is an error.
  assert.match(failure([...lines, changeLine(6, "scenario:checkout/memory", ['{"new":1,"op":"set","path":"x"}'])])[1], /not in the state/);
  assert.match(failure([...lines, `{"event":"removed","seq":6,"store":"scenario:checkout/memory","time":"${timeOf(6)}"}`])[1], /not in the state/);
});

test("subscription lists come from the header and from events, and a malformed one is ignored", () => {
  const list = (n) => `[{"deliveries":${n},"id":"s1","label":null,"path":"cart","since":"2026-11-21T10:00:00.000000Z","store":"app/memory"}]`;
  const lines = [
    headerLine([["app/memory", '{"cart":{}}']], `"subscriptions":${list(0)},`),
    changeLine(1, "app/memory", ['{"new":1,"op":"set","path":"a"}']),
    changeLine(2, "app/memory", ['{"new":2,"old":1,"op":"set","path":"a"}']).replace('"txn":null', `"txn":null,"subscriptions":${list(5)}`),
    changeLine(3, "app/memory", ['{"new":3,"old":2,"op":"set","path":"a"}']).replace('"txn":null', '"txn":null,"subscriptions":"oops"'),
  ];
  const recording = readRecording(fileOf(lines));
  assert.deepEqual(recording.subscriptionSeqs, [0, 2]);
  assert.deepEqual([0, 1, 2, 3].map((seq) => recording.subscriptionsAt(seq)), [0, 0, 1, 1]);
  assert.equal(JSON.parse(recording.subscriptionLists[1])[0].deliveries, 5);
  const none = readRecording(fileOf([header]));
  assert.equal(none.subscriptionsAt(0), -1);
});

test("snapshots are kept every K events, and thinned (K doubles) when they pass their budget", () => {
  const { bytes } = randomRecording(7, 500);
  const recording = readRecording(bytes, { checkpointEvery: 10 });
  assert.deepEqual(recording.checkpoints.slice(0, 3).map((c) => c.seq), [0, 10, 20]);
  assert.equal(recording.checkpoints.length, 51);
  const small = readRecording(bytes, { checkpointEvery: 10, checkpointBudget: 4000 });
  assert.ok(small.checkpointEvery > 10, `the interval grew to ${small.checkpointEvery}`);
  const chars = small.checkpoints.reduce((sum, c) => sum + c.stores.length, 0);
  assert.ok(chars <= 4000, `${chars} characters kept`);
  assert.ok(small.checkpoints.every((c) => c.seq % small.checkpointEvery === 0));
  assert.equal(small.checkpoints[0].seq, 0, "the header's state is always kept");
  assert.equal(recording.checkpointAtOrBefore(37).seq, 30);
  assert.equal(recording.checkpointAtOrBefore(40).seq, 40);
});

test("the indexer reads a slice at a time and reports its progress", () => {
  const { bytes } = randomRecording(3, 300);
  const indexer = new RecordingIndexer({ size: bytes.length });
  indexer.add(bytes);
  indexer.end();
  const seen = [];
  while (!indexer.done) {
    indexer.step(50);
    seen.push(indexer.progress.events);
  }
  assert.deepEqual(seen.slice(0, 3), [49, 99, 149], "the header is the first line of the first slice");
  assert.equal(indexer.progress.bytes, bytes.length);
  assert.equal(indexer.result().events, 300);
});

test("the generator's recordings are valid, and the last snapshot is the final state", () => {
  for (const seed of [1, 2, 3]) {
    const { bytes, states } = randomRecording(seed, 400);
    const recording = readRecording(bytes, { checkpointEvery: 400 });
    const stores = JSON.parse(recording.checkpoints.at(-1).stores);
    const canonical = new Map(stores.map((s) => [s.id, s]));
    assert.equal(recording.checkpoints.at(-1).seq, 400);
    assert.equal(states[400].split("\n").length, canonical.size, `seed ${seed}`);
  }
});

test("times and store ids", () => {
  assert.equal(parseLogTime("1970-01-01T00:00:01.000002Z"), 1_000_002);
  assert.equal(parseLogTime("2024-02-29T00:00:00.000000Z") / 1000, Date.UTC(2024, 1, 29));
  assert.throws(() => parseLogTime("2023-02-29T00:00:00.000000Z"));
  assert.throws(() => parseLogTime("2023-01-01T24:00:00.000000Z"));
  assert.throws(() => parseLogTime("2023-01-01T00:00:00.000000+01:00"));
  for (const id of ["app/memory", "scenario:checkout/memory", "app/userPrefs", "app/userPrefs:suite", "app/file:/var/x.json", "app/backend:ns", "app/secrets:com.shop.api", "app/backend:secrets.com.shop.api"]) assert.ok(isStoreId(id), id);
  for (const id of ["app", "memory", "app/", "other/memory", "scenario:/memory", "app/userPrefs:", "app/file:", "app/disk", "app/secrets:", "app/secrets:a/b"]) assert.ok(!isStoreId(id), id);
  assert.equal(stringifyValue(new Map()), "{}");
});

test("every recording in fixtures/ loads (docs/recording.md: every one of them must load)", () => {
  const root = new URL("../../fixtures/", import.meta.url);
  const found = [];
  const walk = (url) => {
    for (const entry of readdirSync(url, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(new URL(`${entry.name}/`, url));
      else if (entry.name.endsWith(".kslog")) found.push(new URL(entry.name, url));
    }
  };
  if (existsSync(root)) walk(root);
  for (const url of found) {
    const recording = readRecording(new Uint8Array(readFileSync(url)));
    assert.ok(recording.events >= 0, url.pathname);
  }
});

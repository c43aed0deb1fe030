// The recording reader's fast paths against its general ones: change lines read in one pass (change-line.mjs),
// lines decoded a chunk at a time (line-texts.mjs) and snapshot text kept between snapshots (snapshot-text.mjs)
// give exactly what reading every line in full gives, errors and all.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ChangeLineReader } from "../../Public/lib/change-line.mjs";
import { maxMessageDepth, parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { LineTexts } from "../../Public/lib/line-texts.mjs";
import { PathCache, applyPatch } from "../../Public/lib/mirror.mjs";
import { RecordingError, RecordingIndexer, readRecording } from "../../Public/lib/recording.mjs";
import { SnapshotText } from "../../Public/lib/snapshot-text.mjs";
import { valuesEqual } from "../../Public/lib/values.mjs";
import { changeLine, fileOf, headerLine, random, randomRecording } from "./recording-generator.mjs";

/** Everything a read gives: the recording's index, or the error's line and reason. */
function outcome(bytes, options) {
  try {
    const r = readRecording(bytes, options);
    return {
      events: r.events, offsets: [...r.offsets], times: [...r.times], checkpoints: r.checkpoints, every: r.checkpointEvery,
      lists: r.subscriptionLists, listSeqs: r.subscriptionSeqs, torn: r.tornBytes, storeIds: r.storeIds,
    };
  } catch (error) {
    assert.ok(error instanceof RecordingError, `not a RecordingError: ${error}`);
    return { line: error.line, reason: error.reason };
  }
}

const bothWays = (bytes, options = {}) => {
  const fast = outcome(bytes, { ...options, fastLines: true });
  assert.deepEqual(fast, outcome(bytes, { ...options, fastLines: false }));
  return fast;
};

test("random recordings read alike both ways, with a snapshot after every event", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const { bytes } = randomRecording(seed, 300);
    const read = bothWays(bytes, { checkpointEvery: 1 });
    assert.equal(read.events, 300, `seed ${seed}`);
  }
});

test("snapshots kept between events are the state's text, written whole", () => {
  // The generator keeps each event's state; the snapshot text, read back, must be that state.
  const { bytes, states } = randomRecording(11, 400);
  const recording = readRecording(bytes, { checkpointEvery: 7 });
  for (const checkpoint of recording.checkpoints) {
    const stores = parseJSON(checkpoint.stores);
    const text = stores.map((s) => `${s.get("id")}=${s.get("version")}:${stringifyValue(s.get("root"))}`).sort().join("\n");
    assert.equal(text, states[checkpoint.seq], `seq ${checkpoint.seq}`);
  }
});

test("damaged recordings give the same error, at the same line, both ways", () => {
  const r = random(7);
  const { bytes } = randomRecording(8, 200);
  const interesting = [...'{}[],:"\\-.0123456789eE+$untfl '].map((c) => c.charCodeAt(0)).concat([0x00, 0x1f, 0x80, 0xc3, 0xff]);
  for (let round = 0; round < 400; round++) {
    const damaged = Array.from(bytes);
    for (let edits = 1 + r.int(3); edits > 0; edits--) {
      const at = r.int(damaged.length);
      const byte = r.chance(0.6) ? r.pick(interesting) : r.int(256);
      if (r.chance(0.5)) damaged[at] = byte;
      else damaged.splice(at, r.chance(0.5) ? 0 : 1, ...(r.chance(0.5) ? [byte] : []));
    }
    bothWays(Uint8Array.from(damaged));
  }
});

const header = headerLine([["app/memory", '{"cart":{"items":[],"total":0.0},"n":1}']]);
const set = (seq, path, old, value, extra = "") =>
  changeLine(seq, "app/memory", [`{"new":${value},${old === undefined ? "" : `"old":${old},`}"op":"set","path":"${path}"${extra}}`]);

test("lines of other shapes are read in full, to the same end", () => {
  const lines = [
    set(1, "n", 1, 2),
    set(2, "n", 2, 3).replace('"seq":2', '"$x":9,"seq":2'),
    set(3, "n", 3, 4).replace('"op":"set"', '"$op":"set"').replace('"op"', '"opx"'),
    set(4, "cart.note", undefined, '"a\\"b"'),
    set(5, "n", 4, 5).replace('"seq":5', ' "seq" : 5 '),
    set(6, "n", 5, 6).replace('"txn":null', '"txn":null,"liveSeq":1,"subscriptions":[]'),
  ];
  const read = bothWays(fileOf([header, ...lines]), { checkpointEvery: 1 });
  assert.equal(read.events, 6);
});

test("bad lines the fast path gives up on get the general error", () => {
  for (const bad of [
    set(1, "n", 2, 3), // old differs: does not apply
    set(1, "n", 1, 2).replace('"seq":1', '"seq":1,"seq":1'),
    set(1, "n", 1, 2).replace('"seq":1', '"$seq":1,"seq":1'), // one `$` is dropped from every key: a second "seq"
    set(1, "n", 1, 2).replace('"txn":null', '"txn":"nope"'),
    set(1, "n", 1, 2).replace('"op":"set"', '"op":"put"'),
    set(1, "n", 1, 2, ',"new":4'),
    set(1, "n", 1, 2).replace('"store":"app/memory"', '"store":"app/disk"'),
    set(1, "n[0", 1, 2),
    set(1, "n", 1, "1e999"),
    set(1, "n", 1, 2).replace('"seq":1', '"seq":2'),
  ]) {
    const read = bothWays(fileOf([header, bad]));
    assert.equal(read.line, 2, bad);
  }
});

test("the change line reader reads only what parsing the line in full reads the same way", () => {
  const reader = new ChangeLineReader(new PathCache());
  const { bytes } = randomRecording(21, 300);
  const lines = new TextDecoder().decode(bytes).split("\n").slice(1, -1);
  let read = 0;
  for (const text of lines) {
    const change = reader.read(text);
    if (change === null) continue;
    read++;
    const full = parseJSON(text, maxMessageDepth);
    assert.equal(change.seq, full.get("seq"));
    assert.equal(change.id, full.get("store"));
    const patches = full.get("patches");
    assert.equal(change.patches.length, patches.length);
    change.patches.forEach(({ patch }, i) => {
      for (const field of ["op", "path", "old", "new"]) assert.ok(valuesEqual(patch[field] ?? null, patches[i].get(field) ?? null), text);
    });
  }
  assert.ok(read > 200, `only ${read} lines took the fast path`);
});

test("lines decoded a chunk at a time are the lines decoded one by one, and a bad one is found", () => {
  const lines = ["{\"a\":\"é😀\"}", "plain", "", "\uFEFFbom", "x".repeat(3000)];
  const bytes = new TextEncoder().encode(lines.map((l) => `${l}\n`).join(""));
  const texts = new LineTexts(bytes);
  let start = 0;
  for (const line of lines) {
    const end = bytes.indexOf(10, start);
    assert.equal(texts.text(start, end), line);
    start = end + 1;
  }
  const bad = Uint8Array.from([...new TextEncoder().encode("ok\n"), 0xc3, 0x0a, ...new TextEncoder().encode("fine\n")]);
  const badTexts = new LineTexts(bad);
  assert.equal(badTexts.text(0, 2), "ok");
  assert.equal(badTexts.text(3, 4), null);
  assert.equal(badTexts.text(5, 9), "fine");
});

test("the kept snapshot text follows every kind of patch", () => {
  const r = random(5);
  const paths = new PathCache();
  const texts = new SnapshotText();
  let root = parseJSON('{"a":{"b":[1,{"c":2}],"d":{"e":"x"}},"f":[[1],[2]],"$g":{"h":1.5}}');
  for (let step = 0; step < 500; step++) {
    assert.equal(texts.text(root), stringifyValue(root, { sortKeys: false }), `step ${step}`);
    const path = r.pick(["a", "a.b", "a.b[0]", "a.b[1].c", "a.d", "a.d.e", "f[0]", "f[1][0]", "f[0][1]", "$g.h", "$g"]);
    const segments = paths.segments(path);
    const op = r.pick(["set", "insert", "remove", "merge"]);
    const value = r.pick([1, "s", parseJSON('{"k":[1,2]}'), parseJSON("[3]")]);
    const patch = { op, path, old: undefined, new: op === "merge" ? new Map([["m", value]]) : value };
    texts.changed(root, segments, op === "merge" ? segments.length : segments.length - 1);
    try {
      root = applyPatch(root, patch, segments);
    } catch {
      // A patch that does not fit this state changes nothing.
    }
  }
});

/** Reads `bytes` as a file that arrives in pieces of random sizes, stepping after each. */
function arriving(bytes, seed) {
  const r = random(seed);
  const filled = new Uint8Array(bytes.length);
  const indexer = new RecordingIndexer(filled);
  indexer.received(0);
  try {
    for (let size = 0; size < bytes.length;) {
      const next = Math.min(bytes.length, size + 1 + r.int(700));
      filled.set(bytes.subarray(size, next), size);
      size = next;
      indexer.received(size);
      while (indexer.ready) indexer.step(1 + r.int(5));
    }
    const read = indexer.result();
    return { events: read.events, offsets: [...read.offsets], times: [...read.times], checkpoints: read.checkpoints, torn: read.tornBytes };
  } catch (error) {
    return { line: error.line, reason: error.reason };
  }
}

test("a file read while it arrives is read as the whole file, torn tail and errors included", () => {
  const { bytes } = randomRecording(31, 200);
  const whole = (b) => {
    try {
      const read = readRecording(b);
      return { events: read.events, offsets: [...read.offsets], times: [...read.times], checkpoints: read.checkpoints, torn: read.tornBytes };
    } catch (error) {
      return { line: error.line, reason: error.reason };
    }
  };
  const torn = Uint8Array.from([...bytes, ...new TextEncoder().encode('{"patches":[],"se')]);
  const bad = Uint8Array.from(bytes);
  bad[Math.floor(bad.length / 2)] = 0x7b;
  for (const [name, b] of [["whole", bytes], ["torn", torn], ["bad", bad]]) {
    for (const seed of [1, 2, 3]) assert.deepEqual(arriving(b, seed), whole(b), `${name}, seed ${seed}`);
  }
});

// The recording reader's fast path against its general way: change lines read where they lie in the bytes
// (change-bytes.mjs), their values left raw (raw-value.mjs) and applied to the same state, give what reading every
// line in full gives (the same index, the same state in every snapshot), errors and all, whatever the lines'
// style (whitespace, key order, escapes, number forms).

import { test } from "node:test";
import assert from "node:assert/strict";
import { ChangeBytes } from "../../Public/lib/change-bytes.mjs";
import { maxMessageDepth, parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { parseLogTime } from "../../Public/lib/log-line.mjs";
import { plain } from "../../Public/lib/raw-value.mjs";
import { RecordingError, RecordingIndexer, readRecording } from "../../Public/lib/recording-indexer.mjs";
import { valuesEqual } from "../../Public/lib/values.mjs";
import { changeLine, fileOf, headerLine, random, randomRecording, restyled } from "./recording-generator.mjs";

/** A snapshot's stores as canonical text: the state it holds, whatever the form of its text. */
const storesState = (text) => parseJSON(text).map((s) => `${s.get("id")}=${s.get("version")}:${stringifyValue(s.get("root"))}`).join("\n");

/** Everything a read gives: the recording's index, or the error's line and reason. */
function outcome(bytes, options) {
  try {
    const r = readRecording(bytes, options);
    return {
      events: r.events, offsets: [...r.offsets], times: [...r.times], every: r.checkpointEvery,
      checkpoints: r.checkpoints.map((c) => ({ ...c, stores: storesState(c.stores) })),
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

test("random recordings read alike both ways, with a snapshot after every event, in any style", () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const { bytes } = randomRecording(seed, 300);
    assert.equal(bothWays(bytes, { checkpointEvery: 1 }).events, 300, `seed ${seed}`);
    assert.equal(bothWays(restyled(bytes, seed), { checkpointEvery: 1 }).events, 300, `seed ${seed}, restyled`);
  }
});

test("snapshots kept between events hold the state, whatever path read the lines", () => {
  // The generator keeps each event's state; the snapshot text, read back, must be that state.
  const { bytes, states } = randomRecording(11, 400);
  for (const file of [bytes, restyled(bytes, 11)]) {
    const recording = readRecording(file, { checkpointEvery: 7 });
    for (const checkpoint of recording.checkpoints) {
      assert.equal(storesState(checkpoint.stores).split("\n").sort().join("\n"), states[checkpoint.seq], `seq ${checkpoint.seq}`);
    }
  }
});

test("damaged recordings give the same error, at the same line, both ways", () => {
  const r = random(7);
  const { bytes } = randomRecording(8, 200);
  const interesting = [...'{}[],:"\\-.0123456789eE+$untfl '].map((c) => c.charCodeAt(0)).concat([0x00, 0x0a, 0x1f, 0x80, 0xc3, 0xff]);
  for (const file of [bytes, restyled(bytes, 8)]) {
    for (let round = 0; round < 400; round++) {
      const damaged = Array.from(file);
      for (let edits = 1 + r.int(3); edits > 0; edits--) {
        const at = r.int(damaged.length);
        const byte = r.chance(0.6) ? r.pick(interesting) : r.int(256);
        if (r.chance(0.5)) damaged[at] = byte;
        else damaged.splice(at, r.chance(0.5) ? 0 : 1, ...(r.chance(0.5) ? [byte] : []));
      }
      bothWays(Uint8Array.from(damaged));
    }
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

const change = (seq, patch) => changeLine(seq, "app/memory", [patch]);

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
    set(1, "n", 1, 2).replace('"time":"2026', '"time":"2026 '),
    set(1, "n", 1, 2).replace('"txn":null', '"txn":"1813aaf0-1fbb-4a3b-9bb0-4a0b277e26cZ"'),
    set(1, "n", 1, 2).replace(',"txn":null', ',"txn":null,"x":1,"x":2'),
    set(1, "n", 1, 2).replace('"patches"', '"event":"nope","patches"'),
    // Every rule log-line.mjs `patchOf` checks.
    change(1, '{"new":1,"old":1,"op":"insert","path":"cart.items[0]"}'),
    change(1, '{"new":1,"op":"insert","path":"cart.x"}'),
    change(1, '{"op":"remove","path":"n"}'),
    change(1, '{"new":2,"old":1,"op":"remove","path":"n"}'),
    change(1, '{"new":{},"old":1,"op":"merge","path":"cart"}'),
    change(1, '{"new":[],"old":{},"op":"merge","path":"cart"}'),
    change(1, '{"new":{}, "op":"merge","path":"cart"}'),
    change(1, '{"old":1,"op":"set","path":"n"}'),
    change(1, '{"new":1,"op":"insert","path":""}'),
    change(1, '{"old":{},"op":"remove","path":""}'),
    change(1, '{"new":1,"old":{},"op":"set","path":""}'),
    change(1, '{"new":1,"old":1,"path":"n"}'),
    change(1, '{"new":1,"old":1,"op":"set"}'),
    change(1, '{"new":1,"old":1,"op":"set","path":"n","path":"n"}'),
    change(1, '{"new":1,"old":1,"op":"set","path":"n","new":1}'),
    change(1, '{"new":1,"old":1,"op":"set","path":7}'),
  ]) {
    const read = bothWays(fileOf([header, bad]));
    assert.equal(read.line, 2, bad);
  }
});

test("the fast path reads a change line as parsing it in full reads it, and most lines take it", () => {
  const reader = new ChangeBytes();
  const { bytes: canonical } = randomRecording(21, 300);
  for (const [bytes, least] of [[canonical, 250], [restyled(canonical, 21), 120]]) {
    let start = bytes.indexOf(10) + 1;
    let read = 0;
    for (let seq = 1; start < bytes.length; seq++) {
      const end = bytes.indexOf(10, start);
      const text = new TextDecoder().decode(bytes.subarray(start, end));
      const found = reader.read(bytes, start, seq);
      if (found >= 0) {
        read++;
        assert.equal(found, end, text);
        const full = parseJSON(text, maxMessageDepth);
        assert.equal(reader.store, full.get("store"));
        assert.equal(reader.micros, parseLogTime(full.get("time")));
        const patches = full.get("patches");
        assert.equal(reader.patchCount, patches.length);
        patches.forEach((patch, i) => {
          const slot = reader.patches[i];
          assert.equal(slot.op, patch.get("op"));
          assert.equal(slot.path, patch.get("path"));
          for (const field of ["old", "new"]) assert.ok(valuesEqual(plain(slot[field]) ?? null, patch.get(field) ?? null), text);
        });
        assert.equal(reader.read(bytes, start, seq + 1), -1, "a line of another seq is the general way's");
      }
      start = end + 1;
    }
    assert.ok(read > least, `only ${read} lines took the fast path`);
  }
});

/** What a read gives, the text of every event as the recording gives it back included; or the error. */
function whole(read) {
  try {
    const r = read();
    const lines = r.events > 0 ? r.linesText(1, r.events) : "";
    return { events: r.events, offsets: [...r.offsets], times: [...r.times], checkpoints: r.checkpoints, torn: r.tornBytes, lines };
  } catch (error) {
    assert.ok(error instanceof RecordingError, `not a RecordingError: ${error}`);
    return { line: error.line, reason: error.reason };
  }
}

/** Reads `bytes` as a file that arrives in pieces of random sizes (a few bytes to a few lines), stepping after each. */
function arriving(bytes, seed) {
  const r = random(seed);
  const indexer = new RecordingIndexer({ size: bytes.length });
  return whole(() => {
    for (let size = 0; size < bytes.length;) {
      const next = Math.min(bytes.length, size + 1 + r.int(r.chance(0.3) ? 8 : 700));
      indexer.add(bytes.slice(size, next));
      size = next;
      while (indexer.ready) indexer.step(1 + r.int(5));
    }
    indexer.end();
    while (!indexer.done) indexer.step(1 + r.int(5));
    return indexer.result();
  });
}

test("a file read while it arrives, in pieces, is read as the whole file, torn tail and errors included", () => {
  const { bytes } = randomRecording(31, 200);
  const torn = Uint8Array.from([...bytes, ...new TextEncoder().encode('{"patches":[],"se')]);
  const bad = Uint8Array.from(bytes);
  bad[Math.floor(bad.length / 2)] = 0x7b;
  const utf8 = restyled(randomRecording(32, 100).bytes, 5);
  for (const [name, b] of [["whole", bytes], ["torn", torn], ["bad", bad], ["restyled", utf8], ["header only", fileOf([header])], ["torn header", fileOf([], header)], ["empty", new Uint8Array(0)]]) {
    for (const seed of [1, 2, 3]) assert.deepEqual(arriving(b, seed), whole(() => readRecording(b)), `${name}, seed ${seed}`);
  }
  assert.equal(whole(() => readRecording(utf8)).lines, new TextDecoder().decode(utf8).split("\n").slice(1, -1).join("\n"));
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { Session } from "../../Public/app/worker/session.mjs";
import { decodeServerMessage } from "../../Public/lib/protocol.mjs";
import { readRecording } from "../../Public/lib/recording-indexer.mjs";
import {
  changesFrame, formatLogTime, formatOffset, helloFrame, playbackTarget, seekFrames, stepFrames,
} from "../../Public/lib/timeline.mjs";
import { random, randomRecording, stateText } from "./recording-generator.mjs";

/** A replay Session: read-only, fed only by frames made from the recording. */
function replaySession(recording) {
  const session = new Session({ limit: 100_000, send: () => false, now: () => 0 });
  session.receive(helloFrame(recording, "test.kslog"));
  return session;
}

const mirrorState = (session) => stateText(session.mirror.stores);
const subscriptionText = (session) => JSON.stringify(session.subscriptions.map((s) => s.deliveries));
const expectedSubscriptions = (text) => JSON.stringify(JSON.parse(text).map((s) => s.deliveries));

test("the hello of a replay is read-only and named after the file", () => {
  const { bytes } = randomRecording(1, 10);
  const session = replaySession(readRecording(bytes));
  assert.equal(session.readOnly, true);
  assert.deepEqual(session.server, { name: "test.kslog", version: "recording", pid: 42 });
  assert.equal(session.problems.length, 0);
});

test("a seek is a snapshot, one changes frame of the raw lines, and the subscription list when it differs", () => {
  const { bytes } = randomRecording(2, 100);
  const recording = readRecording(bytes, { checkpointEvery: 10 });
  const frames = seekFrames(recording, 57, 20);
  assert.equal(frames.length >= 2, true);
  const snapshot = decodeServerMessage(frames[0]);
  assert.equal(snapshot.type, "snapshot");
  assert.equal(snapshot.seq, 30, "the checkpoint at or before 57 - 20");
  const changes = decodeServerMessage(frames[1]);
  assert.deepEqual(changes.entries.map((e) => e.seq), Array.from({ length: 27 }, (_, i) => 31 + i));
  assert.equal(changes.entries[0].raw, recording.linesText(31, 31), "each entry keeps its line's text");
  assert.equal(seekFrames(recording, 0, 20).length, 1, "seq 0 is the header's snapshot alone");
  assert.equal(decodeServerMessage(changesFrame(recording, 5, 5)).entries.length, 1);
});

test("seeking to any seq gives the state the recording had there (seeded property)", () => {
  for (const seed of [11, 12, 13, 14]) {
    const events = 600;
    const { bytes, states, subscriptions } = randomRecording(seed, events);
    const recording = readRecording(bytes, { checkpointEvery: 1 + (seed % 5) * 13 });
    const r = random(seed * 7);
    const window = r.int(40);
    const session = replaySession(recording);
    const targets = [0, events, ...Array.from({ length: 60 }, () => r.int(events + 1))];
    for (const seq of targets) {
      session.clearLog();
      for (const frame of seekFrames(recording, seq, window)) session.receive(frame);
      assert.equal(session.problems.length, 0, `seed ${seed} seq ${seq}: ${session.problems[0]?.message}`);
      assert.equal(session.mirror.seq, seq);
      assert.equal(mirrorState(session), states[seq], `seed ${seed}: the state at ${seq}`);
      assert.equal(subscriptionText(session), expectedSubscriptions(subscriptions[seq]), `seed ${seed}: subscriptions at ${seq}`);
      assert.ok(session.ring.size >= Math.min(seq, window), "the log window is in the log");
      if (session.ring.size > 0) assert.equal(session.ring.seq(session.ring.end - 1), seq, "the log ends at the selected seq");
    }
  }
});

test("stepping forward from any seq equals seeking there", () => {
  const events = 400;
  const { bytes, states, subscriptions } = randomRecording(21, events);
  const recording = readRecording(bytes, { checkpointEvery: 25 });
  const r = random(5);
  const session = replaySession(recording);
  let at = 0;
  for (const frame of seekFrames(recording, 0)) session.receive(frame);
  while (at < events) {
    const next = Math.min(events, at + 1 + r.int(30));
    for (const frame of stepFrames(recording, at, next)) session.receive(frame);
    at = next;
    assert.equal(session.problems.length, 0, session.problems[0]?.message);
    assert.equal(mirrorState(session), states[at], `the state at ${at}`);
    assert.equal(subscriptionText(session), expectedSubscriptions(subscriptions[at]));
  }
});

test("a jump replays at most one snapshot interval plus the log window", () => {
  const { bytes } = randomRecording(4, 1000);
  const recording = readRecording(bytes, { checkpointEvery: 50 });
  for (let seq = 0; seq <= 1000; seq += 37) {
    const frames = seekFrames(recording, seq, 100);
    const applied = frames.length > 1 && frames[1].includes('"changes"') ? decodeServerMessage(frames[1]).entries.length : 0;
    assert.ok(applied <= 100 + 50, `seq ${seq}: ${applied} events`);
    assert.ok(applied >= Math.min(seq, 100), `seq ${seq}: the window of ${Math.min(seq, 100)} events is there`);
  }
});

test("playback follows the recorded times at the chosen speed", () => {
  const recording = { events: 5, times: new Float64Array([0, 10_000, 20_000, 20_000, 1_000_000, 1_010_000]) };
  assert.equal(playbackTarget(recording, 0, 0, 1), 0);
  assert.equal(playbackTarget(recording, 0, 10, 1), 1, "10 ms in, the event at 10 ms");
  assert.equal(playbackTarget(recording, 0, 10, 2), 3, "at twice the pace, both events at 20 ms");
  assert.equal(playbackTarget(recording, 1, 500, 1), 3, "a quiet spell is waited out");
  assert.equal(playbackTarget(recording, 1, 99, 10), 4);
  assert.equal(playbackTarget(recording, 2, 1e9, 1), 5, "never past the end");
  assert.equal(playbackTarget(recording, 4, 0, 0.5), 4, "never before the anchor");
});

test("times are shown as the log writes them, and as offsets into the recording", () => {
  assert.equal(formatLogTime(Date.UTC(2026, 10, 21, 10, 0, 0, 125) * 1000 + 250), "2026-11-21T10:00:00.125250Z");
  assert.equal(formatOffset(62_125_000, 0), "+1:02.125");
  assert.equal(formatOffset(3_723_000_000, 0), "+1:02:03.000");
  assert.equal(formatOffset(0, 5), "+0:00.000");
});

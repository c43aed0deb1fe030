// Time travel over a recording (recording.mjs): the server frames that put a dashboard Session at any seq, and
// where playback stands at a given moment. A jump is the snapshot nearest before the log window, then the raw
// lines up to the target joined into one `changes` frame, so the panels fed by a Session show the recording as
// they show a live server, and a jump costs at most one snapshot interval plus the log window.

import { lastAtOrBefore } from "./recording.mjs";

/** The events before the selected one that the Log and History panels keep in replay. */
export const defaultLogWindow = 5000;

/** The playback speeds offered; "max" plays as fast as the worker can draw. */
export const speeds = ["0.5", "1", "2", "10", "max"];

/**
 * The `hello` a replay starts with: read-only, named after the file.
 * @param {import("./recording.mjs").Recording} recording
 * @param {string} name the file's name
 */
export function helloFrame(recording, name) {
  const server = { name, version: recording.header.recorder ?? "recording", pid: recording.header.source?.pid ?? 0 };
  return JSON.stringify({ type: "hello", protocol: 1, server, readOnly: true });
}

/**
 * The `snapshot` of a checkpoint.
 * @param {import("./recording.mjs").Recording} recording
 * @param {import("./recording.mjs").Checkpoint} checkpoint
 */
export function snapshotFrame(recording, checkpoint) {
  const list = checkpoint.subscriptions >= 0 ? recording.subscriptionLists[checkpoint.subscriptions] : "[]";
  return `{"type":"snapshot","seq":${checkpoint.seq},"stores":${checkpoint.stores},"subscriptions":${list}}`;
}

/**
 * The `changes` frame of events `from`…`to` (inclusive): their lines as they are in the file, joined.
 * @param {import("./recording.mjs").Recording} recording
 * @param {number} from
 * @param {number} to
 */
export function changesFrame(recording, from, to) {
  // A JSON text holds no raw newline (strings escape it), so every "\n" in the range ends a line.
  return `{"type":"changes","entries":[${recording.linesText(from, to).replaceAll("\n", ",")}]}`;
}

/**
 * The `subscriptions` frame of list `index` (-1: none).
 * @param {import("./recording.mjs").Recording} recording
 * @param {number} index
 */
export function subscriptionsFrame(recording, index) {
  return `{"type":"subscriptions","list":${index >= 0 ? recording.subscriptionLists[index] : "[]"}}`;
}

/**
 * The frames that take a fresh (or cleared) Session to event `seq`: the snapshot at or before
 * `max(0, seq - logWindow)`, the changes from there, and the subscription list in force at `seq`.
 * @param {import("./recording.mjs").Recording} recording
 * @param {number} seq 0 … recording.events
 * @param {number} [logWindow]
 * @returns {string[]}
 */
export function seekFrames(recording, seq, logWindow = defaultLogWindow) {
  const checkpoint = recording.checkpointAtOrBefore(Math.max(0, seq - logWindow));
  const frames = [snapshotFrame(recording, checkpoint)];
  if (seq > checkpoint.seq) frames.push(changesFrame(recording, checkpoint.seq + 1, seq));
  const list = recording.subscriptionsAt(seq);
  if (list !== checkpoint.subscriptions) frames.push(subscriptionsFrame(recording, list));
  return frames;
}

/**
 * The frames that take a Session at event `from` forward to event `to`.
 * @param {import("./recording.mjs").Recording} recording
 * @param {number} from
 * @param {number} to greater than `from`
 * @returns {string[]}
 */
export function stepFrames(recording, from, to) {
  const frames = [changesFrame(recording, from + 1, to)];
  const list = recording.subscriptionsAt(to);
  if (list !== recording.subscriptionsAt(from)) frames.push(subscriptionsFrame(recording, list));
  return frames;
}

/**
 * Where playback is `elapsedMs` of wall time after it started at event `anchor`, at `speed` times the recorded
 * pace: the last event recorded no later than that (never before `anchor`).
 * @param {{events: number, times: Float64Array}} recording
 * @param {number} anchor
 * @param {number} elapsedMs
 * @param {number} speed
 */
export function playbackTarget(recording, anchor, elapsedMs, speed) {
  const target = recording.times[anchor] + elapsedMs * 1000 * speed;
  const count = recording.events - anchor + 1;
  const found = lastAtOrBefore(count, (i) => recording.times[anchor + i], target);
  return anchor + Math.max(0, found);
}

/**
 * A time in microseconds since 1970 as the log writes it (`2026-11-21T10:00:00.125000Z`).
 * @param {number} micros
 */
export function formatLogTime(micros) {
  const millis = Math.floor(micros / 1000);
  const iso = new Date(millis).toISOString(); // …T10:00:00.125Z
  return `${iso.slice(0, -1)}${String(Math.round(micros - millis * 1000)).padStart(3, "0")}Z`;
}

/**
 * How far into a recording a time is: `+1:02.125` (minutes, seconds, milliseconds), `+2:03:04.000` past an hour.
 * @param {number} micros
 * @param {number} startMicros
 */
export function formatOffset(micros, startMicros) {
  const total = Math.max(0, Math.round((micros - startMicros) / 1000));
  const ms = String(total % 1000).padStart(3, "0");
  const seconds = Math.floor(total / 1000);
  const two = (x) => String(x).padStart(2, "0");
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  return hours > 0 ? `+${hours}:${two(minutes)}:${two(seconds % 60)}.${ms}` : `+${minutes}:${two(seconds % 60)}.${ms}`;
}

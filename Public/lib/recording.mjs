// Reading a recording (`.kslog`, docs/recording.md) for time travel: every line checked and applied in order, as the
// contract's reading rules say, while an index is built: where each line starts in the file, each event's time,
// the subscription lists the recorder wrote, and a snapshot of every store every few thousand events. The file's
// bytes stay as they are; an event's text is read again from them when it is shown.
//
//   const indexer = new RecordingIndexer(bytes);
//   while (!indexer.done) indexer.step(10_000);   // throws RecordingError: line number and reason
//   const recording = indexer.result();

import { ChangeLineReader } from "./change-line.mjs";
import { maxMessageDepth, parseJSON } from "./json-reader.mjs";
import { stringifyValue } from "./json-writer.mjs";
import { LineTexts } from "./line-texts.mjs";
import { isStoreId, parseLogTime, readPatch, versionPattern } from "./log-line.mjs";
import { MirrorError, PathCache, applyPatch, describe } from "./mirror.mjs";
import { decodeSubscriptions, isInteger, storeEvents } from "./protocol.mjs";
import { SnapshotText } from "./snapshot-text.mjs";

/** A line that breaks the log format's rules; `line` counts from 1, the header is line 1. */
export class RecordingError extends Error {
  /**
   * @param {number} line
   * @param {string} reason
   */
  constructor(line, reason) {
    super(`line ${line}: ${reason}`);
    this.line = line;
    this.reason = reason;
  }
}

/** A snapshot is kept at least every this many events… */
export const defaultCheckpointEvery = 2000;
/** …unless the snapshots' text would pass this many characters; the interval then doubles (and half are dropped). */
export const defaultCheckpointBudget = 48 * 1024 * 1024;

/**
 * The state of every store after event `seq`: its stores as the JSON text of a snapshot's `stores` array, and
 * the subscription list in force then (an index into `subscriptionLists`, -1 for none).
 * @typedef {{seq: number, stores: string, subscriptions: number}} Checkpoint
 */

const uuidPattern = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** Reads the recorder's `subscriptions` member (docs/recording.md); null when it is absent or not a list. */
function readSubscriptions(value) {
  if (!Array.isArray(value)) return null;
  try {
    decodeSubscriptions(value);
  } catch {
    return null; // an extra member a reader may ignore
  }
  return stringifyValue(value);
}

/** A recording read whole: the bytes, the header, and the index that time travel seeks with. */
export class Recording {
  constructor(fields) {
    /** @type {Uint8Array} the file */
    this.bytes = fields.bytes;
    /** @type {{createdAt: string, source: {name?: string, host?: string, pid?: number}|null, stores: string[], recorder: string|null}} */
    this.header = fields.header;
    /** How many events (lines after the header) it holds. */
    this.events = fields.events;
    /** @type {Float64Array} where the line of event `seq` starts; `offsets[events + 1]` is one past the last "\n" */
    this.offsets = fields.offsets;
    /** @type {Float64Array} microseconds since 1970 of event `seq`; `times[0]` is the header's `createdAt` */
    this.times = fields.times;
    /** @type {Checkpoint[]} by seq, the first at seq 0 */
    this.checkpoints = fields.checkpoints;
    this.checkpointEvery = fields.checkpointEvery;
    /** @type {string[]} the subscription lists the recorder wrote, as JSON text, oldest first */
    this.subscriptionLists = fields.subscriptionLists;
    /** @type {number[]} the seq from which each list holds (0 for the header's) */
    this.subscriptionSeqs = fields.subscriptionSeqs;
    /** Bytes of a last line without its "\n" (a torn tail), which are not part of the recording. */
    this.tornBytes = fields.tornBytes;
    /** Store ids that appear in the recording, in order of appearance. */
    this.storeIds = fields.storeIds;
  }

  /**
   * The text of the lines of events `from`…`to` (inclusive), separated by "\n", without the last one's "\n".
   * @param {number} from
   * @param {number} to
   */
  linesText(from, to) {
    if (to < from) return "";
    return new TextDecoder().decode(this.bytes.subarray(this.offsets[from], this.offsets[to + 1] - 1));
  }

  /**
   * The last checkpoint at or before `seq`.
   * @param {number} seq
   * @returns {Checkpoint}
   */
  checkpointAtOrBefore(seq) {
    return this.checkpoints[lastAtOrBefore(this.checkpoints.length, (i) => this.checkpoints[i].seq, seq)];
  }

  /**
   * Which subscription list holds at `seq` (an index into `subscriptionLists`), -1 when the recording has none yet.
   * @param {number} seq
   */
  subscriptionsAt(seq) {
    return lastAtOrBefore(this.subscriptionSeqs.length, (i) => this.subscriptionSeqs[i], seq);
  }

  /** An estimate of the memory the index and snapshots take beside the file, in bytes. */
  get indexBytes() {
    const text = this.checkpoints.reduce((sum, c) => sum + c.stores.length, 0) + this.subscriptionLists.reduce((sum, s) => sum + s.length, 0);
    return this.offsets.byteLength + this.times.byteLength + text;
  }
}

/**
 * The last index `i` in 0..<count whose key(i) is at most `value` (keys rising), or -1.
 * @param {number} count
 * @param {(i: number) => number} key
 * @param {number} value
 */
export function lastAtOrBefore(count, key, value) {
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (key(mid) <= value) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * Reads a recording a slice at a time (so a worker can report progress between slices): checks every rule of
 * docs/recording.md, applies every event to the stores' state, and builds the index.
 */
export class RecordingIndexer {
  /**
   * @param {Uint8Array} bytes the whole file
   * @param {{checkpointEvery?: number, checkpointBudget?: number, fastLines?: boolean}} [options] `fastLines`
   *   false reads every line in full (tests compare both ways)
   */
  constructor(bytes, { checkpointEvery = defaultCheckpointEvery, checkpointBudget = defaultCheckpointBudget, fastLines = true } = {}) {
    this.bytes = bytes;
    this.pos = 0;
    this.line = 0; // the last line read
    this.checkpointEvery = checkpointEvery;
    this.checkpointBudget = checkpointBudget;
    this.checkpointChars = 0;
    /** @type {Checkpoint[]} */
    this.checkpoints = [];
    this.texts = new LineTexts(bytes);
    this.paths = new PathCache();
    this.changeLines = fastLines ? new ChangeLineReader(this.paths) : null;
    this.snapshotTexts = new SnapshotText();
    /** @type {Map<string, {id: string, version: string, root: Map<string, any>}>} */
    this.state = new Map();
    this.storeIds = new Set();
    const guess = Math.max(1024, Math.ceil(bytes.length / 120));
    this.offsets = new Float64Array(guess);
    this.times = new Float64Array(guess);
    this.subscriptionLists = [];
    this.subscriptionSeqs = [];
    this.tornBytes = 0;
    this.header = null;
    this.done = false;
    /** The bytes there so far, and where the last complete line of them ends (see `received`). */
    this.available = bytes.length;
    this.linesEnd = bytes.length;
  }

  /**
   * For a file that arrives while it is read (`bytes` is its whole size, filled from the start): the first
   * `count` bytes are there now. `step` reads only complete lines until `count` is the whole size. The rest of
   * `bytes` must still be zeros (never a "\n"), so a search for the end of a line never stops there.
   * @param {number} count
   */
  received(count) {
    this.available = count;
    this.linesEnd = count === this.bytes.length ? count : this.bytes.lastIndexOf(10, count - 1) + 1;
  }

  /** Whether `step` has lines to read now (or the end to reach). */
  get ready() { return !this.done && (this.pos < this.linesEnd || this.available === this.bytes.length); }

  /** The number of events read so far. */
  get events() { return Math.max(0, this.line - 1); }

  /** How far the reading is: bytes read of the file's, events so far. */
  get progress() {
    return { bytes: this.pos, total: this.bytes.length, events: this.events };
  }

  /**
   * Reads up to `lines` more lines.
   * @param {number} lines
   * @throws {RecordingError}
   */
  step(lines) {
    const { bytes } = this;
    for (let n = 0; n < lines && !this.done; n++) {
      // A file still arriving: wait for the rest of the line.
      if (this.pos >= this.linesEnd && this.available < bytes.length) break;
      if (this.pos >= bytes.length) {
        if (this.line === 0) throw new RecordingError(1, "the file is empty: a recording starts with its header line");
        this.finish();
        break;
      }
      const end = bytes.indexOf(10, this.pos);
      if (end < 0) {
        // A last line without its "\n" is a torn tail, even if it parses.
        if (this.line === 0) throw new RecordingError(1, "the header line is incomplete (no final newline)");
        this.tornBytes = bytes.length - this.pos;
        this.pos = bytes.length;
        this.finish();
        break;
      }
      const start = this.pos;
      this.line++;
      this.pos = end + 1;
      const text = this.texts.text(start, end);
      if (text === null) throw new RecordingError(this.line, "the line is not valid UTF-8");
      if (this.line === 1) this.readHeader(text);
      else this.readEvent(text, start);
    }
  }

  finish() {
    this.done = true;
    this.offsets = grow(this.offsets, this.line + 1);
    this.offsets[this.line] = this.pos - this.tornBytes;
  }

  /** The recording, once `done`. */
  result() {
    if (!this.done) throw new Error("the recording is not read to its end yet");
    const events = this.events;
    return new Recording({
      bytes: this.bytes,
      header: this.header,
      events,
      offsets: this.offsets.slice(0, events + 2),
      times: this.times.slice(0, events + 1),
      checkpoints: this.checkpoints,
      checkpointEvery: this.checkpointEvery,
      subscriptionLists: this.subscriptionLists,
      subscriptionSeqs: this.subscriptionSeqs,
      tornBytes: this.tornBytes,
      storeIds: [...this.storeIds],
    });
  }

  parseLine(text) {
    if (text === "" || text === "\r") throw new RecordingError(this.line, "a blank line (every line is one JSON object)");
    let value;
    try {
      value = parseJSON(text, maxMessageDepth);
    } catch (error) {
      throw new RecordingError(this.line, `invalid JSON: ${error.message}`);
    }
    if (!(value instanceof Map)) throw new RecordingError(this.line, "a line must be a JSON object");
    return value;
  }

  readHeader(text) {
    const fail = (reason) => new RecordingError(1, reason);
    const header = this.parseLine(text);
    if (typeof header.get("format") !== "string") throw fail('the header needs "format": "keyscope-log"');
    if (header.get("format") !== "keyscope-log") throw fail(`"format" is "${header.get("format")}", not "keyscope-log"`);
    const version = header.get("version");
    if (!isInteger(version)) throw fail('the header needs "version" as the integer 1');
    if (version !== 1) throw fail(`unknown log format version ${version} (this reader knows version 1)`);
    const createdAt = header.get("createdAt");
    if (typeof createdAt !== "string") throw fail('the header needs "createdAt" as an RFC 3339 time string');
    try {
      this.times[0] = parseLogTime(createdAt);
    } catch (error) {
      throw fail(`"createdAt": ${error.message}`);
    }
    const source = readSource(header.get("source"), fail);
    const stores = header.get("stores");
    if (!Array.isArray(stores)) throw fail('the header needs "stores" as an array');
    stores.forEach((store, i) => {
      if (!(store instanceof Map)) throw fail(`stores[${i}] must be an object`);
      const id = store.get("id");
      if (typeof id !== "string" || !isStoreId(id)) throw fail(`stores[${i}] needs "id" as a store id (<scope>/<storage>)`);
      const storeVersion = store.get("version");
      if (typeof storeVersion !== "string" || !versionPattern.test(storeVersion)) throw fail(`store ${id} needs "version" as a major.minor.patch string`);
      const root = store.get("root");
      if (root === undefined) throw fail(`store ${id} needs "root"`);
      if (!(root instanceof Map)) throw fail(`the root of store ${id} must be an object`);
      if (this.state.has(id)) throw fail(`store ${id} is listed twice in "stores"`);
      this.state.set(id, { id, version: storeVersion, root });
      this.storeIds.add(id);
    });
    const recorder = header.get("recorder");
    this.header = {
      createdAt,
      source,
      stores: [...this.state.keys()],
      recorder: recorder instanceof Map && typeof recorder.get("version") === "string" ? recorder.get("version") : null,
    };
    const list = readSubscriptions(header.get("subscriptions"));
    if (list !== null) {
      this.subscriptionLists.push(list);
      this.subscriptionSeqs.push(0);
    }
    this.offsets[1] = this.pos;
    this.checkpoint(0);
  }

  /** One event line: a change of the common shape read in one pass (change-line.mjs), any other line in full. */
  readEvent(text, start) {
    const seq = this.line - 1;
    const change = this.changeLines?.read(text) ?? null;
    const store = change === null || change.seq !== seq ? undefined : this.state.get(change.id);
    if (store === undefined) return this.readEventInFull(text, start);
    this.applyPatches(store, change.patches, null);
    this.storeIds.add(change.id);
    this.indexEvent(seq, start, change.micros, readSubscriptions(change.subscriptions));
  }

  readEventInFull(text, start) {
    const seq = this.line - 1;
    const fail = (reason) => new RecordingError(this.line, reason);
    const line = this.parseLine(text);
    const seqValue = line.get("seq");
    if (!isInteger(seqValue) || seqValue < 1) throw fail('"seq" must be an integer of at least 1');
    if (seqValue !== seq) throw fail(`"seq" is ${seqValue}, expected ${seq} (seq starts at 1 and rises by exactly 1 per line)`);
    const time = line.get("time");
    if (typeof time !== "string") throw fail('"time" must be a string');
    let micros;
    try {
      micros = parseLogTime(time);
    } catch (error) {
      throw fail(`"time": ${error.message}`);
    }
    const id = line.get("store");
    if (typeof id !== "string") throw fail('"store" must be a string');
    if (!isStoreId(id)) throw fail(`"store" is not a store id (<scope>/<storage>): "${id}"`);
    if (line.has("event")) this.applyStoreEvent(line, id, fail);
    else this.applyChange(line, id, fail);
    this.storeIds.add(id);
    this.indexEvent(seq, start, micros, readSubscriptions(line.get("subscriptions")));
  }

  /** Notes where event `seq` is and when it happened, a subscription list it carries, and a snapshot when due. */
  indexEvent(seq, start, micros, list) {
    if (seq + 1 >= this.offsets.length) {
      this.offsets = grow(this.offsets, this.offsets.length * 2);
      this.times = grow(this.times, this.times.length * 2);
    }
    this.offsets[seq] = start;
    this.offsets[seq + 1] = this.pos;
    this.times[seq] = micros;
    if (list !== null) {
      this.subscriptionLists.push(list);
      this.subscriptionSeqs.push(seq);
    }
    if (seq % this.checkpointEvery === 0) this.checkpoint(seq);
  }

  applyStoreEvent(line, id, fail) {
    const event = line.get("event");
    if (!storeEvents.has(event)) throw fail(`unknown store event ${describe(event)} (registered, reset or removed)`);
    let version;
    if (event !== "removed") {
      version = line.get("version");
      if (typeof version !== "string" || !versionPattern.test(version)) throw fail(`a ${event} event needs "version" as a major.minor.patch string`);
    }
    if (event === "registered") {
      const root = line.get("root");
      if (!(root instanceof Map)) throw fail('a registered event needs "root" as an object');
      // Registered again: it moves to the end of the snapshots' list (the mirror's Map.set keeps its place; the
      // Stores panel sorts stores by id, so both show the same).
      this.state.delete(id);
      this.state.set(id, { id, version, root });
      return;
    }
    const store = this.state.get(id);
    if (!store) throw fail(`a ${event} event for store ${id}, which is not in the state`);
    if (event === "reset") {
      store.version = version;
      store.root = new Map();
    } else {
      this.state.delete(id);
    }
  }

  applyChange(line, id, fail) {
    const txn = line.get("txn");
    if (txn !== undefined && txn !== null && (typeof txn !== "string" || !uuidPattern.test(txn))) throw fail('"txn" must be a UUID string or null');
    const patches = line.get("patches");
    if (!Array.isArray(patches)) throw fail('a change needs "patches" as an array (or an "event" key for a store event)');
    const read = patches.map((value, i) => {
      try {
        return readPatch(value, i, this.paths);
      } catch (error) {
        throw fail(error.message);
      }
    });
    const store = this.state.get(id);
    if (!store) throw fail(`a change to store ${id}, which is not in the state`);
    this.applyPatches(store, read, fail);
  }

  /**
   * Applies a change's patches to its store, each checked against the state (`old` included).
   * @param {((reason: string) => RecordingError)|null} fail the error for a reason (null: on the line being read)
   */
  applyPatches(store, patches, fail) {
    patches.forEach(({ patch, segments }, i) => {
      // The text kept for the snapshots is stale wherever the patch writes: its parent, or (merge) its target.
      this.snapshotTexts.changed(store.root, segments, patch.op === "merge" ? segments.length : segments.length - 1);
      try {
        store.root = applyPatch(store.root, patch, segments, true);
      } catch (error) {
        if (!(error instanceof MirrorError)) throw error;
        const reason = `patch ${i + 1} (${patch.op} "${patch.path}") does not apply: ${error.reason}`;
        throw fail ? fail(reason) : new RecordingError(this.line, reason);
      }
    });
  }

  /** Keeps the state after `seq` as snapshot text, thinning the snapshots when they pass their budget. */
  checkpoint(seq) {
    const parts = [];
    for (const store of this.state.values()) {
      parts.push(`{"id":${JSON.stringify(store.id)},"version":${JSON.stringify(store.version)},"root":${this.snapshotTexts.text(store.root)}}`);
    }
    const stores = `[${parts.join(",")}]`;
    this.checkpoints.push({ seq, stores, subscriptions: this.subscriptionLists.length - 1 });
    this.checkpointChars += stores.length;
    while (this.checkpointChars > this.checkpointBudget && this.checkpoints.length > 1) {
      this.checkpointEvery *= 2;
      this.checkpoints = this.checkpoints.filter((c) => c.seq % this.checkpointEvery === 0);
      this.checkpointChars = this.checkpoints.reduce((sum, c) => sum + c.stores.length, 0);
    }
  }
}

function readSource(value, fail) {
  if (value === undefined) return null;
  if (!(value instanceof Map)) throw fail('"source" must be an object');
  const source = {};
  for (const key of ["name", "host"]) {
    if (!value.has(key)) continue;
    if (typeof value.get(key) !== "string") throw fail(`"source.${key}" must be a string`);
    source[key] = value.get(key);
  }
  if (value.has("pid")) {
    if (!isInteger(value.get("pid"))) throw fail('"source.pid" must be an integer');
    source.pid = value.get("pid");
  }
  return source;
}

/** A copy of `array` with room for `length` elements. */
function grow(array, length) {
  if (array.length >= length) return array;
  const next = new Float64Array(length);
  next.set(array);
  return next;
}

/**
 * Reads a whole recording at once (tests, small files).
 * @param {Uint8Array} bytes
 * @param {{checkpointEvery?: number, checkpointBudget?: number, fastLines?: boolean}} [options]
 * @returns {Recording}
 * @throws {RecordingError}
 */
export function readRecording(bytes, options) {
  const indexer = new RecordingIndexer(bytes, options);
  while (!indexer.done) indexer.step(100_000);
  return indexer.result();
}

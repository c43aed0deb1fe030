// Reading a recording (`.kslog`, docs/recording.md) for time travel: every line checked and applied in order, as the
// contract's reading rules say, while an index is built: where each line starts in the file, each event's time,
// the subscription lists the recorder wrote, and a snapshot of every store every few thousand events. The file's
// bytes stay as they are; an event's text is read again from them when it is shown.
//
//   const indexer = new RecordingIndexer(bytes);
//   while (!indexer.done) indexer.step(10_000);   // throws RecordingError: line number and reason
//   const recording = indexer.result();

import { ChangeBytes } from "./change-bytes.mjs";
import { maxMessageDepth, parseJSON } from "./json-reader.mjs";
import { PathCache } from "./mirror.mjs";
import { RecordingError, readEvent, readHeader, readSubscriptions } from "./recording-lines.mjs";
import { PatchError, RecordingState } from "./recording-state.mjs";

export { RecordingError };

/** A snapshot is kept at least every this many events… */
export const defaultCheckpointEvery = 2000;
/** …unless the snapshots' text would pass this many characters; the interval then doubles (and half are dropped). */
export const defaultCheckpointBudget = 48 * 1024 * 1024;

/**
 * The state of every store after event `seq`: its stores as the JSON text of a snapshot's `stores` array, and
 * the subscription list in force then (an index into `subscriptionLists`, -1 for none).
 * @typedef {{seq: number, stores: string, subscriptions: number}} Checkpoint
 */

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
 *
 * A change line of the common shape is read where it lies in the bytes (change-bytes.mjs), its values left raw;
 * the header, store events, lines of other shapes and every bad line are decoded and read the general way
 * (recording-lines.mjs), which gives every error. Both apply their patches to the same state
 * (recording-state.mjs).
 */
export class RecordingIndexer {
  /**
   * @param {Uint8Array} bytes the whole file
   * @param {{checkpointEvery?: number, checkpointBudget?: number, fastLines?: boolean}} [options] `fastLines`
   *   false reads every line the general way (tests compare both ways)
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
    this.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    this.paths = new PathCache();
    this.changeLines = fastLines ? new ChangeBytes() : null;
    this.state = new RecordingState();
    this.storeIds = new Set();
    this.lastStoreId = "";
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
      const start = this.pos;
      if (this.line > 0 && this.readChange(start)) continue;
      const end = bytes.indexOf(10, start);
      if (end < 0) {
        // A last line without its "\n" is a torn tail, even if it parses.
        if (this.line === 0) throw new RecordingError(1, "the header line is incomplete (no final newline)");
        this.tornBytes = bytes.length - start;
        this.pos = bytes.length;
        this.finish();
        break;
      }
      this.line++;
      this.pos = end + 1;
      if (this.line === 1) this.readHeader(this.text(start, end));
      else this.readEventInFull(start, end);
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

  /** The text of the line at bytes start..<end, decoded alone (the general way), or an error when it is not UTF-8. */
  text(start, end) {
    try {
      return this.decoder.decode(this.bytes.subarray(start, end));
    } catch {
      throw new RecordingError(this.line, "the line is not valid UTF-8");
    }
  }

  readHeader(text) {
    const header = readHeader(text);
    this.state.stores = header.stores;
    for (const id of header.stores.keys()) this.storeIds.add(id);
    this.times[0] = header.micros;
    this.header = { createdAt: header.createdAt, source: header.source, stores: [...header.stores.keys()], recorder: header.recorder };
    if (header.subscriptions !== null) {
      this.subscriptionLists.push(header.subscriptions);
      this.subscriptionSeqs.push(0);
    }
    this.offsets[1] = this.pos;
    this.checkpoint(0);
  }

  /**
   * Reads the next line when it is a change of the common shape, from its bytes (change-bytes.mjs), and applies
   * it; false when the line is for the general way (nothing is read then).
   * @param {number} start where the line starts
   */
  readChange(start) {
    const lines = this.changeLines;
    if (lines === null) return false;
    const seq = this.line;
    const end = lines.read(this.bytes, start, seq);
    const store = end < 0 ? undefined : this.state.stores.get(lines.store);
    if (store === undefined) return false;
    this.line++;
    this.pos = end + 1;
    this.applyPatches(store, lines.patches, lines.patchCount);
    this.noteStore(lines.store);
    const list = lines.subscriptionsStart < 0 ? null : this.subscriptionsIn(lines.subscriptionsStart, lines.subscriptionsEnd);
    this.indexEvent(seq, start, lines.micros, list);
    return true;
  }

  readEventInFull(start, end) {
    const seq = this.line - 1;
    const event = readEvent(this.text(start, end), this.line, this.paths);
    const { id } = event;
    const stores = this.state.stores;
    if (event.event === "registered") {
      // Registered again: it moves to the end of the snapshots' list (the mirror's Map.set keeps its place; the
      // Stores panel sorts stores by id, so both show the same).
      stores.delete(id);
      stores.set(id, { id, version: event.version, root: event.root });
    } else {
      const store = stores.get(id);
      if (!store) throw new RecordingError(this.line, event.event ? `a ${event.event} event for store ${id}, which is not in the state` : `a change to store ${id}, which is not in the state`);
      if (event.event === "reset") {
        store.version = event.version;
        store.root = new Map();
      } else if (event.event === "removed") {
        stores.delete(id);
      } else {
        this.applyPatches(store, event.patches, event.patches.length);
      }
    }
    this.noteStore(id);
    this.indexEvent(seq, start, event.micros, event.subscriptions);
  }

  noteStore(id) {
    if (id === this.lastStoreId) return;
    this.storeIds.add(id);
    this.lastStoreId = id;
  }

  /** The subscription list whose JSON is at bytes start..<end (checked already), as readSubscriptions reads it. */
  subscriptionsIn(start, end) {
    return readSubscriptions(parseJSON(this.text(start, end), maxMessageDepth));
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

  /**
   * Applies a change's patches to its store in order, each checked against the state (`old` included).
   * @param {import("./recording-state.mjs").StatePatch[]} patches the first `count` are the change's
   */
  applyPatches(store, patches, count) {
    for (let i = 0; i < count; i++) {
      const patch = patches[i];
      try {
        this.state.apply(store, patch);
      } catch (error) {
        if (!(error instanceof PatchError)) throw error;
        throw new RecordingError(this.line, `patch ${i + 1} (${patch.op} "${patch.path}") does not apply: ${error.message}`);
      }
    }
  }

  /** Keeps the state after `seq` as snapshot text, thinning the snapshots when they pass their budget. */
  checkpoint(seq) {
    const stores = this.state.snapshotText();
    this.checkpoints.push({ seq, stores, subscriptions: this.subscriptionLists.length - 1 });
    this.checkpointChars += stores.length;
    while (this.checkpointChars > this.checkpointBudget && this.checkpoints.length > 1) {
      this.checkpointEvery *= 2;
      this.checkpoints = this.checkpoints.filter((c) => c.seq % this.checkpointEvery === 0);
      this.checkpointChars = this.checkpoints.reduce((sum, c) => sum + c.stores.length, 0);
    }
  }
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

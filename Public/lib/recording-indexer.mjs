// Reading a recording (`.kslog`, docs/recording.md) for time travel: every line checked and applied in order, as the
// contract's reading rules say, while the index of a Recording (recording.mjs) is built. The file can be read
// while it arrives, a piece at a time, and the reading goes a slice at a time, so that a worker can report
// progress between slices.
//
//   const indexer = new RecordingIndexer({ size });
//   indexer.add(piece);                          // as pieces arrive; indexer.end() after the last
//   while (indexer.ready) indexer.step(10_000);  // throws RecordingError: line number and reason
//   const recording = indexer.result();          // once indexer.done

import { ChangeBytes } from "./change-bytes.mjs";
import { FilePieces, PieceCursor } from "./file-pieces.mjs";
import { maxMessageDepth, parseJSON } from "./json-reader.mjs";
import { PathCache } from "./mirror.mjs";
import { Recording, defaultCheckpointBudget, defaultCheckpointEvery } from "./recording.mjs";
import { RecordingError, readEvent, readHeader, readSubscriptions } from "./recording-lines.mjs";
import { PatchError, RecordingState } from "./recording-state.mjs";

export { RecordingError };

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
   * @param {{size?: number, checkpointEvery?: number, checkpointBudget?: number, fastLines?: boolean}} [options]
   *   `size` the file's size when it is known (for progress and a first guess of the index's size); `fastLines`
   *   false reads every line the general way (tests compare both ways)
   */
  constructor({ size = 0, checkpointEvery = defaultCheckpointEvery, checkpointBudget = defaultCheckpointBudget, fastLines = true } = {}) {
    this.size = size;
    this.file = new FilePieces();
    this.cursor = new PieceCursor(this.file);
    this.line = 0; // the last line read
    this.checkpointEvery = checkpointEvery;
    this.checkpointBudget = checkpointBudget;
    this.checkpointChars = 0;
    /** @type {import("./recording.mjs").Checkpoint[]} */
    this.checkpoints = [];
    this.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    this.paths = new PathCache();
    this.changeLines = fastLines ? new ChangeBytes() : null;
    this.state = new RecordingState();
    this.storeIds = new Set();
    this.lastStoreId = "";
    const guess = Math.max(1024, Math.ceil(size / 120));
    this.offsets = new Float64Array(guess);
    this.times = new Float64Array(guess);
    this.subscriptionLists = [];
    this.subscriptionSeqs = [];
    this.tornBytes = 0;
    this.header = null;
    this.done = false;
  }

  /**
   * The next bytes of the file, as they arrive (the indexer keeps them: they are the recording's bytes).
   * @param {Uint8Array} piece
   */
  add(piece) {
    this.file.add(piece);
  }

  /** The file is whole: `step` reads to its end (a last line without its "\n" is a torn tail). */
  end() {
    this.file.end();
  }

  /** Whether `step` has bytes to read now (or the end to reach). */
  get ready() { return !this.done && (this.file.ended || this.cursor.hasMore); }

  /** The number of events read so far. */
  get events() { return Math.max(0, this.line - 1); }

  /** How far the reading is: bytes read of the file's, events so far. */
  get progress() {
    return { bytes: this.cursor.position, total: Math.max(this.size, this.file.length), events: this.events };
  }

  /**
   * Reads up to `lines` more lines, as far as the pieces there allow.
   * @param {number} lines
   * @throws {RecordingError}
   */
  step(lines) {
    const { cursor } = this;
    for (let n = 0; n < lines && !this.done;) {
      if (!cursor.hasLine) {
        // What is left of these bytes is the start of a line that goes on in the next piece.
        if (cursor.pos < cursor.bytes.length) cursor.carry();
        if (!cursor.next()) {
          if (this.file.ended) this.finish();
          break;
        }
        continue;
      }
      n++;
      const start = cursor.pos;
      if (this.line > 0 && this.readChange(start)) continue;
      const end = cursor.bytes.indexOf(10, start);
      this.line++;
      cursor.pos = end + 1;
      if (this.line === 1) this.readHeader(this.text(start, end));
      else this.readEventInFull(start, end);
    }
  }

  /** At the end of the file: a line without its "\n" is a torn tail, even if it parses. */
  finish() {
    this.tornBytes = this.cursor.carriedBytes;
    if (this.line === 0) {
      throw new RecordingError(1, this.tornBytes > 0 ? "the header line is incomplete (no final newline)" : "the file is empty: a recording starts with its header line");
    }
    this.done = true;
    this.offsets = grow(this.offsets, this.line + 1);
    this.offsets[this.line] = this.file.length - this.tornBytes;
  }

  /** The recording, once `done`. */
  result() {
    if (!this.done) throw new Error("the recording is not read to its end yet");
    const events = this.events;
    return new Recording({
      file: this.file,
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

  /**
   * The text of the bytes being read at start..<end (a line, decoded alone for the general way), or an error when
   * it is not UTF-8.
   */
  text(start, end) {
    try {
      return this.decoder.decode(this.cursor.bytes.subarray(start, end));
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
    this.offsets[1] = this.cursor.position;
    this.checkpoint(0);
  }

  /**
   * Reads the next line when it is a change of the common shape, from its bytes (change-bytes.mjs), and applies
   * it; false when the line is for the general way (nothing is read then).
   * @param {number} start where the line starts in the bytes being read
   */
  readChange(start) {
    const lines = this.changeLines;
    if (lines === null) return false;
    const seq = this.line;
    const end = lines.read(this.cursor.bytes, start, seq);
    const store = end < 0 ? undefined : this.state.stores.get(lines.store);
    if (store === undefined) return false;
    this.line++;
    this.cursor.pos = end + 1;
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

  /**
   * Notes where event `seq` is and when it happened (`start` in the bytes being read, the line read to its end),
   * a subscription list it carries, and a snapshot when due.
   */
  indexEvent(seq, start, micros, list) {
    if (seq + 1 >= this.offsets.length) {
      this.offsets = grow(this.offsets, this.offsets.length * 2);
      this.times = grow(this.times, this.times.length * 2);
    }
    this.offsets[seq] = this.cursor.base + start;
    this.offsets[seq + 1] = this.cursor.position;
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
  const indexer = new RecordingIndexer({ ...options, size: bytes.length });
  indexer.add(bytes);
  indexer.end();
  while (!indexer.done) indexer.step(100_000);
  return indexer.result();
}

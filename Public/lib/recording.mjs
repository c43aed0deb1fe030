// A recording (`.kslog`, docs/recording.md) read for time travel (recording-indexer.mjs reads it): the file's bytes
// as they arrived, and the index built while every line was checked and applied: where each line starts in the
// file, each event's time, the subscription lists the recorder wrote, and a snapshot of every store every few
// thousand events. An event's text is read again from the bytes when it is shown.
//
//   const recording = readRecording(bytes);   // recording-indexer.mjs
//   recording.linesText(10, 20);               // events 10…20 as the file has them
//   recording.checkpointAtOrBefore(15);        // the snapshot to start from

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
    /** @type {import("./file-pieces.mjs").FilePieces} the file, in the pieces it was read in */
    this.file = fields.file;
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
    return this.file.text(this.offsets[from], this.offsets[to + 1] - 1);
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

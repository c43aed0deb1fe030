// The dashboard's log: the newest `capacity` entries in a ring of parallel columns, so that a million entries
// cost a few typed arrays plus each entry's own JSON text (kept as the server sent it and read again only when
// shown). Entries are numbered `n` = 0, 1, 2, … as they arrive; the ring holds n in [first, end). On a fleet
// dashboard's merged stream each entry also names its instance (the `instance` column, "" elsewhere).

/**
 * Bits of an entry's `flags` column: the ops of its patches, or that it is a store event, or that it marks a gap
 * (entries the server did not send; its `seq` is the last one missed).
 */
export const opBits = { set: 1, insert: 2, remove: 4, merge: 8, event: 16, gap: 32 };

/** Store ids (and instance ids) as small numbers, so their columns are typed arrays. */
class StoreCodes {
  constructor() {
    /** @type {Map<string, number>} */
    this.codes = new Map();
    /** @type {string[]} */
    this.ids = [];
  }

  /** @param {string} id */
  code(id) {
    let code = this.codes.get(id);
    if (code === undefined) {
      code = this.ids.length;
      this.codes.set(id, code);
      this.ids.push(id);
    }
    return code;
  }

  /** @param {number} code */
  id(code) { return this.ids[code]; }
}

export class LogRing {
  /**
   * @param {number} capacity the most entries kept; older ones are dropped
   * @param {number} [firstNumber] the first entry's number (a replay's ring numbers its entries apart from the live one's)
   */
  constructor(capacity, firstNumber = 0) {
    this.stores = new StoreCodes();
    this.instances = new StoreCodes();
    this.instances.code(""); // code 0: no instance (every entry of a single server)
    this.end = firstNumber;
    this.floor = firstNumber; // entries before it are gone (cleared by the user, or dropped by a resize)
    this.allocate(capacity);
  }

  allocate(capacity) {
    this.capacity = capacity;
    this.seqs = new Float64Array(capacity);
    this.storeColumn = new Uint32Array(capacity);
    this.instanceColumn = new Uint32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.epochs = new Uint16Array(capacity);
    this.patchCounts = new Uint32Array(capacity);
    this.raws = new Array(capacity).fill("");
    this.paths = new Array(capacity).fill("");
    this.times = new Array(capacity).fill("");
    this.txns = new Array(capacity).fill(null);
  }

  /** The oldest entry still kept. */
  get first() { return Math.max(this.floor, this.end - this.capacity); }

  /** How many entries are kept. */
  get size() { return this.end - this.first; }

  /** @param {number} n */
  has(n) { return n >= this.first && n < this.end; }

  /**
   * Adds an entry, dropping the oldest when full.
   * @param {import("./protocol.mjs").Entry} entry
   * @param {number} epoch which server process the entry came from (its seq means nothing to another one)
   * @returns {number} the entry's number
   */
  push(entry, epoch) {
    const n = this.end++;
    const i = n % this.capacity;
    this.seqs[i] = entry.seq;
    this.storeColumn[i] = this.stores.code(entry.store);
    this.instanceColumn[i] = entry.instance ? this.instances.code(entry.instance) : 0;
    this.epochs[i] = epoch;
    this.raws[i] = entry.raw;
    this.times[i] = entry.time;
    this.txns[i] = entry.txn;
    if (entry.event) {
      this.flags[i] = entry.event === "gap" ? opBits.gap : opBits.event;
      this.patchCounts[i] = 0;
      this.paths[i] = "";
    } else {
      let flags = 0;
      let paths = "";
      for (let k = 0; k < entry.patches.length; k++) {
        const patch = entry.patches[k];
        flags |= opBits[patch.op];
        paths = k === 0 ? patch.path : `${paths}\n${patch.path}`;
      }
      this.flags[i] = flags;
      this.patchCounts[i] = entry.patches.length;
      this.paths[i] = paths;
    }
    return n;
  }

  /**
   * Keeps the newest `capacity` entries in storage of that size.
   * @param {number} capacity
   */
  resize(capacity) {
    if (capacity === this.capacity) return;
    const old = { ...this };
    const keepFrom = Math.max(this.first, this.end - capacity);
    this.allocate(capacity);
    this.floor = keepFrom; // what a smaller ring dropped stays dropped when it grows again
    for (let n = keepFrom; n < this.end; n++) {
      const from = n % old.capacity;
      const to = n % capacity;
      this.seqs[to] = old.seqs[from];
      this.storeColumn[to] = old.storeColumn[from];
      this.instanceColumn[to] = old.instanceColumn[from];
      this.flags[to] = old.flags[from];
      this.epochs[to] = old.epochs[from];
      this.patchCounts[to] = old.patchCounts[from];
      this.raws[to] = old.raws[from];
      this.paths[to] = old.paths[from];
      this.times[to] = old.times[from];
      this.txns[to] = old.txns[from];
    }
  }

  /** Drops every entry (numbering goes on, so entry numbers stay unique). */
  clear() {
    this.allocate(this.capacity);
    this.floor = this.end;
  }

  /** @param {number} n */
  slot(n) { return n % this.capacity; }
  seq(n) { return this.seqs[this.slot(n)]; }
  store(n) { return this.stores.id(this.storeColumn[this.slot(n)]); }
  storeCode(n) { return this.storeColumn[this.slot(n)]; }
  /** The instance the entry came from on a fleet dashboard's merged stream, else "". */
  instance(n) { return this.instances.id(this.instanceColumn[this.slot(n)]); }
  instanceCode(n) { return this.instanceColumn[this.slot(n)]; }
  flag(n) { return this.flags[this.slot(n)]; }
  epoch(n) { return this.epochs[this.slot(n)]; }
  patchCount(n) { return this.patchCounts[this.slot(n)]; }
  raw(n) { return this.raws[this.slot(n)]; }
  pathList(n) { return this.paths[this.slot(n)]; }
  time(n) { return this.times[this.slot(n)]; }
  txn(n) { return this.txns[this.slot(n)]; }

  /**
   * The entry number holding change `seq` from server process `epoch`, or -1. Entries are ordered by (epoch, seq),
   * so this is a binary search.
   * @param {number} seq
   * @param {number} epoch
   */
  find(seq, epoch) {
    let low = this.first;
    let high = this.end - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const e = this.epoch(mid);
      const s = this.seq(mid);
      if (e === epoch && s === seq) return mid;
      if (e < epoch || (e === epoch && s < seq)) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

// A change line of a recording (LOG-FORMAT.md) read in one pass over its text: the fast path of the recording
// reader (recording.mjs), which reads every other line, and every bad one, the general way.
//
// The general way parses the whole line into Maps (the line, each patch), then takes its members from them. Here
// the members the reader needs are found by their text (`seq`, `time`, `store`, `txn`, `patches`, and a patch's
// `op`, `path`, `old`, `new`); only `old`, `new` and members beyond the contract's are parsed as values, by the
// same JSON reader (`parseJSONValueAt`), and store ids are checked once each. The fast path reads only the common
// shape: no escape in a key or in `time`, `store`, `txn`, `op` or `path`; no `event` (a store event); no member of
// a patch beyond those four; values no deeper than `fastDepth`. It returns null for anything else, and for any
// line it would have to refuse, so every error, and its message, comes from the general way.
//
//   const lines = new ChangeLineReader(paths);
//   const change = lines.read(text);   // {seq, micros, id, txn, patches: [{patch, segments}], subscriptions} or null

import { parseJSONValueAt } from "./json-reader.mjs";
import { isStoreId, parseLogTime, patchOf } from "./log-line.mjs";

/** The deepest value the fast path reads itself. */
const fastDepth = 64;

/** Thrown inside the reader to give the line up to the general way. */
const giveUp = Symbol("give up");

/** The keys the reader looks for, by length. */
const names = [];
for (const name of ["seq", "time", "store", "txn", "patches", "event", "op", "path", "old", "new"]) {
  (names[name.length] ??= []).push(name);
}

// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f]/;

const isSpace = (code) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

export class ChangeLineReader {
  /** @param {import("./mirror.mjs").PathCache} paths */
  constructor(paths) {
    this.paths = paths;
    /** @type {Map<string, boolean>} whether each store id seen is one */
    this.storeIds = new Map();
    this.text = "";
    this.pos = 0;
    this.escapes = false;
  }

  /**
   * The parts of a change line of the common shape; null when the line must be read the general way.
   * @param {string} text
   * @returns {{seq: number, micros: number, id: string, patches: Array<{patch: any, segments: any[]}>,
   *   subscriptions: any}|null}
   */
  read(text) {
    // A raw control character is never valid JSON (the general way says where); without a backslash in the line,
    // no string in it has an escape, and plain strings need no look beyond their closing quote.
    if (controlCharacter.test(text)) return null;
    this.escapes = text.includes("\\");
    this.text = text;
    this.pos = 0;
    try {
      return this.line();
    } catch {
      // The shape is not the common one, or something is wrong (a value, a patch `patchOf` refuses): the general
      // way reads the line again and gives its error.
      return null;
    }
  }

  line() {
    this.expect(0x7b); // {
    let seq = -1;
    let micros = -1;
    let id = null;
    let txn = false;
    let patches = null;
    let subscriptions;
    let unknown = null;
    do {
      const key = this.key();
      this.expect(0x3a); // :
      switch (key) {
        case "seq":
          if (seq >= 0) throw giveUp;
          seq = this.seq();
          break;
        case "time":
          if (micros >= 0) throw giveUp;
          try {
            micros = parseLogTime(this.plainString());
          } catch {
            throw giveUp;
          }
          break;
        case "store":
          if (id !== null) throw giveUp;
          id = this.storeId(this.plainString());
          break;
        case "txn":
          if (txn) throw giveUp;
          txn = true;
          this.txn();
          break;
        case "patches":
          if (patches !== null) throw giveUp;
          patches = this.patches();
          break;
        case "event":
          throw giveUp;
        default: {
          // The general way drops one leading `$` from every key, so "$seq" would be a second "seq" there.
          if (key.charCodeAt(0) === 0x24 || unknown?.includes(key)) throw giveUp;
          (unknown ??= []).push(key);
          const value = this.value();
          if (key === "subscriptions") subscriptions = value;
        }
      }
    } while (this.next(0x7d));
    if (this.pos !== this.text.length || seq < 0 || micros < 0 || id === null || patches === null) throw giveUp;
    return { seq, micros, id, patches, subscriptions };
  }

  /** Steps over `code` and the whitespace around it. */
  expect(code) {
    const { text } = this;
    while (isSpace(text.charCodeAt(this.pos))) this.pos++;
    if (text.charCodeAt(this.pos) !== code) throw giveUp;
    this.pos++;
    while (isSpace(text.charCodeAt(this.pos))) this.pos++;
  }

  /** After a member or element: true past a ",", false past `close`. */
  next(close) {
    const { text } = this;
    while (isSpace(text.charCodeAt(this.pos))) this.pos++;
    const code = text.charCodeAt(this.pos);
    if (code !== 0x2c && code !== close) throw giveUp;
    this.pos++;
    while (isSpace(text.charCodeAt(this.pos))) this.pos++;
    return code === 0x2c;
  }

  /**
   * An object key: one of the names the reader looks for (the constant, no new string), or the key's text.
   * @returns {string}
   */
  key() {
    const { text } = this;
    const start = this.pos + 1;
    const end = text.indexOf('"', start);
    const candidates = text.charCodeAt(this.pos) === 0x22 && end > start ? names[end - start] : undefined;
    if (candidates !== undefined) {
      for (const name of candidates) {
        if (!text.startsWith(name, start)) continue;
        this.pos = end + 1;
        return name;
      }
    }
    return this.plainString();
  }

  /**
   * A string with no escape (the line has no control character, and no lone surrogate, which `TextDecoder` never
   * gives).
   */
  plainString() {
    const { text } = this;
    if (text.charCodeAt(this.pos) !== 0x22) throw giveUp;
    const start = this.pos + 1;
    const end = text.indexOf('"', start);
    if (end < 0) throw giveUp;
    if (this.escapes) {
      const backslash = text.indexOf("\\", start);
      if (backslash >= 0 && backslash < end) throw giveUp;
    }
    this.pos = end + 1;
    return text.slice(start, end);
  }

  /** A `seq`: an integer from 1, of at most 15 digits, without sign, fraction or exponent. */
  seq() {
    const { text } = this;
    const start = this.pos;
    let value = 0;
    let code = text.charCodeAt(this.pos);
    while (code >= 0x30 && code <= 0x39) {
      value = value * 10 + (code - 0x30);
      code = text.charCodeAt(++this.pos);
    }
    const digits = this.pos - start;
    if (digits === 0 || digits > 15 || text.charCodeAt(start) === 0x30 || code === 0x2e || code === 0x65 || code === 0x45) {
      throw giveUp;
    }
    return value;
  }

  storeId(id) {
    let valid = this.storeIds.get(id);
    if (valid === undefined) {
      valid = isStoreId(id);
      if (this.storeIds.size < 256) this.storeIds.set(id, valid);
    }
    if (!valid) throw giveUp;
    return id;
  }

  /** `null` or a UUID in either case. */
  txn() {
    const { text } = this;
    if (text.startsWith("null", this.pos)) {
      this.pos += 4;
      return;
    }
    const uuid = this.plainString();
    if (uuid.length !== 36) throw giveUp;
    for (let i = 0; i < 36; i++) {
      const code = uuid.charCodeAt(i);
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (code !== 0x2d) throw giveUp;
      } else if (!((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66))) {
        throw giveUp;
      }
    }
  }

  value() {
    const [value, end] = parseJSONValueAt(this.text, this.pos, fastDepth);
    this.pos = end;
    return value;
  }

  patches() {
    const patches = [];
    this.expect(0x5b); // [
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return patches;
    }
    do {
      patches.push(this.patch(patches.length));
    } while (this.next(0x5d));
    return patches;
  }

  patch(index) {
    this.expect(0x7b); // {
    let op;
    let path;
    let old;
    let value;
    let seen = 0;
    do {
      const key = this.key();
      this.expect(0x3a);
      let bit;
      if (key === "op") {
        bit = 1;
        op = this.plainString();
      } else if (key === "path") {
        bit = 2;
        path = this.plainString();
      } else if (key === "old") {
        bit = 4;
        old = this.value();
      } else if (key === "new") {
        bit = 8;
        value = this.value();
      } else {
        throw giveUp;
      }
      if (seen & bit) throw giveUp;
      seen |= bit;
    } while (this.next(0x7d));
    return patchOf(op, path, old, value, index, this.paths);
  }
}

// A change line of a recording (docs/recording.md) read where it lies, in the file's UTF-8 bytes: the fast path of
// the recording reader (recording-indexer.mjs), which reads every other line, and every bad one, the general way.
//
// Nothing is decoded or built for the members the reader needs: `seq`, `time`, `store`, `txn` and each patch's
// `op` and `path` are checked by their bytes (store ids and paths are decoded and checked once each, then known by
// their bytes: byte-strings.mjs), and `old` and `new` are checked as JSON (json-bytes.mjs) and kept raw
// (raw-value.mjs), except integers and literals, which cost nothing to build. Every rule the general way checks before it applies a change is checked here too; for a line of
// another shape (a store event, an escape in a key or in those members, a `$` key, a member of a patch beyond the
// four, a value past what json-bytes.mjs reads itself) or one that breaks a rule, `read` returns false, and the
// general way reads the line again and gives the error, so every message comes from one place.
//
//   const lines = new ChangeBytes();
//   const end = lines.read(bytes, start, seq);   // -1, or where the line's "\n" is
//   if (end >= 0) use(lines.micros, lines.store, lines.patches.slice(0, lines.patchCount));

import { ByteStrings } from "./byte-strings.mjs";
import { JSONBytes, Kind, asciiText } from "./json-bytes.mjs";
import { parseKeyPath } from "./keypath.mjs";
import { isStoreId, parseLogTime } from "./log-line.mjs";
import {
  EVENT, NEW, OLD, OP, OTHER, PATCHES, PATH, SEQ, STORE, SUBSCRIPTIONS, TIME, TXN, is, lineNames, opAt, patchNames, required,
  uuidByte, uuidShape,
} from "./line-names.mjs";
import { leaf } from "./raw-value.mjs";

/** What `read` keeps of one patch (the objects are reused from line to line). */
class PatchSlot {
  constructor() {
    /** @type {string|null} */
    this.op = null;
    this.path = "";
    /** @type {import("./keypath.mjs").Segment[]} */
    this.segments = [];
    this.old = undefined;
    this.new = undefined;
    // Where `old` and `new` are, and what they are, until the patch is complete.
    this.oldStart = 0;
    this.oldEnd = 0;
    this.oldKind = 0;
    this.oldInteger = 0;
    this.newStart = 0;
    this.newEnd = 0;
    this.newKind = 0;
    this.newInteger = 0;
  }
}

export class ChangeBytes {
  constructor() {
    this.scan = new JSONBytes();
    this.paths = new ByteStrings((text) => {
      try {
        return parseKeyPath(text);
      } catch {
        return null; // the general way says what is wrong with it
      }
    });
    this.storeIds = new ByteStrings((text) => isStoreId(text));
    /** Where the last string `string` found ends. */
    this.end = 0;
    /** The last whole second of a `time` read, as its bytes (`YYYY-MM-DDTHH:MM:SS`), and its microseconds. */
    this.second = new Uint8Array(19);
    this.secondMicros = NaN;
    /** Where the keys of members the reader does not know are, for the duplicate check. */
    this.others = new Int32Array(32);
    this.otherCount = 0;
    // What the last line that was read gave.
    this.micros = 0;
    this.store = "";
    /** @type {PatchSlot[]} the first `patchCount` are the line's */
    this.patches = [];
    this.patchCount = 0;
    /** Where the line's `subscriptions` value is (start and end), -1 when it has none. */
    this.subscriptionsStart = -1;
    this.subscriptionsEnd = -1;
  }

  /**
   * Reads the line that starts at `start` when it is a change of the common shape that keeps every rule the
   * general way checks before applying it, and finds where it ends: no line is searched for its end twice.
   * @param {Uint8Array} bytes
   * @param {number} start
   * @param {number} seq the seq the line must have
   * @returns {number} where its "\n" is; -1: read it the general way (a torn last line included)
   */
  read(bytes, start, seq) {
    const { scan } = this;
    scan.bytes = bytes;
    this.otherCount = 0;
    this.subscriptionsStart = -1;
    let pos = scan.space(start);
    if (bytes[pos] !== 0x7b) return -1;
    pos = scan.space(pos + 1);
    let seen = 0;
    for (;;) {
      let bit = this.key(bytes, pos, lineNames);
      // Store events are the general way's; so is any `$` key (one `$` is dropped: "$seq" is a second "seq").
      if (bit < 0 || bit === EVENT || (bit === 0 && !this.other(bytes, pos + 1, this.end - 1))) return -1;
      pos = scan.space(this.end);
      if (bytes[pos] !== 0x3a) return -1;
      pos = scan.space(pos + 1);
      const valueStart = pos;
      switch (bit) {
        case SEQ:
          pos = scan.number(pos);
          if (scan.kind !== Kind.integer || scan.integer !== seq) return -1;
          break;
        case TIME: pos = this.time(bytes, pos); break;
        case STORE: pos = this.storeId(bytes, pos); break;
        case TXN: pos = this.txn(bytes, pos); break;
        case PATCHES: pos = this.patchList(bytes, pos); break;
        default:
          pos = scan.value(pos, 1);
          if (bit === SUBSCRIPTIONS) {
            this.subscriptionsStart = valueStart;
            this.subscriptionsEnd = pos;
          }
          bit = bit || OTHER;
      }
      if (pos < 0 || (seen & bit & ~OTHER) !== 0) return -1;
      seen |= bit;
      pos = scan.space(pos);
      if (bytes[pos] === 0x7d) break;
      if (bytes[pos] !== 0x2c) return -1;
      pos = scan.space(pos + 1);
    }
    // The scanner never steps over a "\n": the first one after the object ends the line.
    const end = scan.space(pos + 1);
    return bytes[end] === 0x0a && (seen & required) === required ? end : -1;
  }

  /**
   * The key at `pos`: the bit of a name in `names` (recognized by its bytes, quotes included), 0 for another key
   * (checked as a string), -1 when there is no key there or it has an escape; `end` is set past it.
   */
  key(bytes, pos, names) {
    if (bytes[pos] !== 0x22) return -1;
    const candidates = names[bytes[pos + 1]];
    if (candidates !== undefined) {
      for (let i = 0; i < candidates.length; i += 2) {
        const name = candidates[i];
        if (is(bytes, pos + 1, name)) {
          this.end = pos + 1 + name.length;
          return candidates[i + 1];
        }
      }
    }
    this.end = this.scan.string(pos);
    return this.end < 0 || this.scan.escaped ? -1 : 0;
  }

  /** Notes a key the reader does not know; false when it starts with `$` or is there already. */
  other(bytes, start, end) {
    if (bytes[start] === 0x24) return false;
    const { others } = this;
    for (let k = 0; k < this.otherCount; k += 2) {
      if (others[k + 1] - others[k] !== end - start) continue;
      let i = 0;
      while (i < end - start && bytes[others[k] + i] === bytes[start + i]) i++;
      if (i === end - start) return false;
    }
    if (this.otherCount === others.length) return false;
    others[this.otherCount++] = start;
    others[this.otherCount++] = end;
    return true;
  }

  /** A `time` (`"YYYY-MM-DDTHH:MM:SS.ffffffZ"`): its microseconds in `micros`; the end, or -1. */
  time(bytes, pos) {
    if (bytes[pos] !== 0x22 || bytes[pos + 28] !== 0x22 || bytes[pos + 20] !== 0x2e || (bytes[pos + 27] | 0x20) !== 0x7a) return -1;
    let fraction = 0;
    for (let i = pos + 21; i < pos + 27; i++) {
      const digit = bytes[i] - 0x30;
      if (!(digit >= 0 && digit <= 9)) return -1;
      fraction = fraction * 10 + digit;
    }
    const { second } = this;
    let i = 0;
    while (i < 19 && bytes[pos + 1 + i] === second[i]) i++;
    if (i < 19) {
      // Another second: its date and time of day checked (and read) once.
      for (let j = pos + 1; j < pos + 27; j++) if (bytes[j] < 0x20 || bytes[j] >= 0x7f || bytes[j] === 0x5c) return -1;
      try {
        this.secondMicros = parseLogTime(asciiText(bytes, pos + 1, pos + 28)) - fraction;
      } catch {
        return -1;
      }
      second.set(bytes.subarray(pos + 1, pos + 20));
    }
    this.micros = this.secondMicros + fraction;
    return pos + 29;
  }

  /** A `store`: a store id, in `store`; the end, or -1. */
  storeId(bytes, pos) {
    const entry = this.string(bytes, pos, this.storeIds);
    if (entry === null || !entry.data) return -1;
    this.store = entry.text;
    return this.end;
  }

  /**
   * The entry in `strings` of the JSON string at `pos` (found in one pass when it is plain, else checked first),
   * with `end` past it; null when there is no string there or it has an escape.
   * @template T
   * @param {ByteStrings<T>} strings
   */
  string(bytes, pos, strings) {
    if (bytes[pos] !== 0x22) return null;
    const plain = strings.quoted(bytes, pos);
    if (plain !== null) {
      this.end = strings.end;
      return plain;
    }
    this.end = this.scan.string(pos);
    return this.end < 0 || this.scan.escaped ? null : strings.get(bytes, pos + 1, this.end - 1);
  }

  /** A `txn`: null, or a UUID string in either case; the end, or -1. */
  txn(bytes, pos) {
    if (bytes[pos] === 0x6e) return this.scan.word(pos, 0x75, 0x6c, 0x6c, Kind.null);
    if (bytes[pos] !== 0x22 || bytes[pos + 37] !== 0x22) return -1;
    for (let i = 0; i < 36; i++) if (uuidByte[bytes[pos + 1 + i]] !== uuidShape[i]) return -1;
    return pos + 38;
  }

  /** The `patches` array; the end, or -1. */
  patchList(bytes, pos) {
    const { scan } = this;
    this.patchCount = 0;
    if (bytes[pos] !== 0x5b) return -1;
    pos = scan.space(pos + 1);
    if (bytes[pos] === 0x5d) return pos + 1;
    for (;;) {
      if (this.patchCount === this.patches.length) this.patches.push(new PatchSlot());
      pos = this.patch(bytes, pos, this.patches[this.patchCount++]);
      if (pos < 0) return -1;
      pos = scan.space(pos);
      if (bytes[pos] === 0x5d) return pos + 1;
      if (bytes[pos] !== 0x2c) return -1;
      pos = scan.space(pos + 1);
    }
  }

  /** One patch, into `slot`, checked as log-line.mjs `patchOf` checks it; the end, or -1. */
  patch(bytes, pos, slot) {
    const { scan } = this;
    if (bytes[pos] !== 0x7b) return -1;
    pos = scan.space(pos + 1);
    let seen = 0;
    for (;;) {
      const bit = this.key(bytes, pos, patchNames);
      if (bit <= 0 || (seen & bit) !== 0) return -1;
      seen |= bit;
      pos = scan.space(this.end);
      if (bytes[pos] !== 0x3a) return -1;
      pos = scan.space(pos + 1);
      const start = pos;
      if (bit === OP) {
        pos = bytes[pos] === 0x22 ? scan.string(pos) : -1;
        slot.op = pos < 0 ? null : opAt(bytes, start + 1, pos - 1);
        if (slot.op === null) return -1;
      } else if (bit === PATH) {
        const entry = this.string(bytes, pos, this.paths);
        if (entry === null || entry.data === null) return -1;
        pos = this.end;
        slot.path = entry.text;
        slot.segments = entry.data;
      } else {
        pos = scan.value(pos, 3);
        if (pos < 0) return -1;
        if (bit === OLD) {
          slot.oldStart = start;
          slot.oldEnd = pos;
          slot.oldKind = scan.kind;
          slot.oldInteger = scan.integer;
        } else {
          slot.newStart = start;
          slot.newEnd = pos;
          slot.newKind = scan.kind;
          slot.newInteger = scan.integer;
        }
      }
      pos = scan.space(pos);
      if (bytes[pos] === 0x7d) break;
      if (bytes[pos] !== 0x2c) return -1;
      pos = scan.space(pos + 1);
    }
    return this.complete(bytes, slot, seen) ? pos + 1 : -1;
  }

  /** Checks a patch's members as `patchOf` does, then makes its values; false when a rule is broken. */
  complete(bytes, slot, seen) {
    const { op, segments } = slot;
    const hasOld = (seen & OLD) !== 0;
    const hasNew = (seen & NEW) !== 0;
    if ((seen & (OP | PATH)) !== (OP | PATH)) return false;
    if ((op === "set" || op === "insert") && !hasNew) return false;
    if (op === "insert" && (hasOld || typeof segments[segments.length - 1] !== "number")) return false;
    if (op === "remove" && (!hasOld || hasNew)) return false;
    if (op === "merge" && (!hasOld || !hasNew || slot.oldKind !== Kind.object || slot.newKind !== Kind.object)) return false;
    if (segments.length === 0 && (op === "insert" || op === "remove")) return false;
    if (segments.length === 0 && op === "set" && slot.newKind !== Kind.object) return false;
    slot.old = hasOld ? leaf(bytes, slot.oldStart, slot.oldEnd, slot.oldKind, slot.oldInteger) : undefined;
    slot.new = hasNew ? leaf(bytes, slot.newStart, slot.newEnd, slot.newKind, slot.newInteger) : undefined;
    return true;
  }
}

// JSON checked where it lies, in UTF-8 bytes, without building its value: the fast path of the recording reader
// (change-bytes.mjs), which needs to know that a line's `old` and `new` are valid StoreValue JSON, where they are
// and what kind of value they are, but builds them only when it must (recording-state.mjs).
//
// It accepts only what the strict reader (json-reader.mjs) accepts, and gives up (returns -1) on everything it does
// not check itself, so that the caller reads the line the general way, which accepts or refuses it with its
// reason: an escape in an object key, a one-member object whose key starts with `$` (perhaps a tagged value), an
// integer of more than 18 digits (the Int64 range), nesting deeper than `maxDepth`, an object of more than
// `maxMembers` members. What it checks itself: the
// grammar, duplicate keys (after the `$`-escape, as the reader compares them), control characters and escapes in
// strings, and UTF-8 (which also rules out lone surrogates). A raw "\n" is never whitespace here: a line ends at
// its "\n", so a scan can never run on into the next line.
//
//   const scan = new JSONBytes();
//   scan.bytes = bytes;
//   const end = scan.value(pos, 0);   // -1: give up; else one past the value, with scan.kind (and scan.integer)

/** The kinds of value `JSONBytes.value` reports in `kind`. */
export const Kind = Object.freeze({ object: 1, array: 2, string: 3, integer: 4, number: 5, true: 6, false: 7, null: 8 });

/** The deepest nesting the scanner reads itself. */
const maxDepth = 64;
/** The most members an object may have for the scanner (duplicate keys are compared pairwise). */
const maxMembers = 512;

/** 1 for the bytes a string holds as they are: printable ASCII but `"` and `\`. */
const plainByte = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) plainByte[c] = c === 0x22 || c === 0x5c ? 0 : 1;

const isHex = (c) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const hexValue = (c) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);

export class JSONBytes {
  constructor() {
    /** @type {Uint8Array} the bytes scanned; set before scanning */
    this.bytes = new Uint8Array(0);
    /** The kind of the last value scanned (`Kind`). */
    this.kind = 0;
    /** The value of the last integer scanned (at most 15 digits: exact). */
    this.integer = 0;
    /** Whether the last string scanned had an escape (its bytes are not its text). */
    this.escaped = false;
    /** Where each key of the objects being scanned starts and ends (pairs), for the duplicate check. */
    this.keys = new Int32Array(2 * maxMembers * 4);
    this.keyCount = 0;
  }

  /** The first position at or after `pos` that is not JSON whitespace (a "\n" is not whitespace here). */
  space(pos) {
    const { bytes } = this;
    if (bytes[pos] > 0x20) return pos; // compact JSON: nothing to skip
    for (;;) {
      const c = bytes[pos];
      if (c === 0x20 || c === 0x09 || c === 0x0d) pos++;
      else return pos;
    }
  }

  /**
   * Checks the value that starts at `pos` (no whitespace before it).
   * @param {number} pos
   * @param {number} depth how deep the value is nested already
   * @returns {number} one past its end, or -1 to give up
   */
  value(pos, depth) {
    const { bytes } = this;
    switch (bytes[pos]) {
      case 0x7b: return this.object(pos, depth + 1);
      case 0x5b: return this.array(pos, depth + 1);
      case 0x22:
        this.kind = Kind.string;
        return this.string(pos);
      case 0x74: return this.word(pos, 0x72, 0x75, 0x65, Kind.true); // true
      case 0x66: return bytes[pos + 1] === 0x61 ? this.word(pos + 1, 0x6c, 0x73, 0x65, Kind.false) : -1; // false
      case 0x6e: return this.word(pos, 0x75, 0x6c, 0x6c, Kind.null); // null
      default: return this.number(pos);
    }
  }

  /** A literal: the byte at `pos`, then `a`, `b`, `c`. */
  word(pos, a, b, c, kind) {
    const { bytes } = this;
    if (bytes[pos + 1] !== a || bytes[pos + 2] !== b || bytes[pos + 3] !== c) return -1;
    this.kind = kind;
    return pos + 4;
  }

  /** A string (at its opening quote); `escaped` says whether it had an escape. */
  string(pos) {
    const { bytes } = this;
    this.escaped = false;
    for (pos++; ;) {
      while (plainByte[bytes[pos]] === 1) pos++;
      const c = bytes[pos];
      if (c === 0x22) return pos + 1;
      if (c >= 0x80) pos = this.utf8(pos);
      else if (c === 0x5c) pos = this.escape(pos);
      else return -1; // a control character (or the end of the line)
      if (pos < 0) return -1;
    }
  }

  /** One UTF-8 sequence at `pos` (its lead byte is 0x80 or more): the position after it, or -1 when it is not. */
  utf8(pos) {
    const { bytes } = this;
    const lead = bytes[pos];
    const cont = (at) => (bytes[at] & 0xc0) === 0x80;
    if (lead >= 0xc2 && lead <= 0xdf) return cont(pos + 1) ? pos + 2 : -1;
    const second = bytes[pos + 1];
    if (lead >= 0xe0 && lead <= 0xef) {
      // E0 needs A0..BF (no overlong form); ED needs 80..9F (no surrogate).
      const ok = lead === 0xe0 ? second >= 0xa0 && second <= 0xbf : lead === 0xed ? second >= 0x80 && second <= 0x9f : cont(pos + 1);
      return ok && cont(pos + 2) ? pos + 3 : -1;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
      // F0 needs 90..BF (no overlong form); F4 needs 80..8F (nothing past U+10FFFF).
      const ok = lead === 0xf0 ? second >= 0x90 && second <= 0xbf : lead === 0xf4 ? second >= 0x80 && second <= 0x8f : cont(pos + 1);
      return ok && cont(pos + 2) && cont(pos + 3) ? pos + 4 : -1;
    }
    return -1;
  }

  /** An escape at `pos` (its backslash): the position after it, or -1; a `\u` surrogate must come in a pair. */
  escape(pos) {
    const { bytes } = this;
    this.escaped = true;
    const c = bytes[pos + 1];
    if (c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) return pos + 2;
    if (c !== 0x75) return -1;
    const unit = this.hex4(pos + 2);
    if (unit < 0xd800 || unit > 0xdfff) return unit < 0 ? -1 : pos + 6;
    if (unit > 0xdbff || bytes[pos + 6] !== 0x5c || bytes[pos + 7] !== 0x75) return -1;
    const low = this.hex4(pos + 8);
    return low >= 0xdc00 && low <= 0xdfff ? pos + 12 : -1;
  }

  /** Four hex digits at `pos` as a number, or -1. */
  hex4(pos) {
    const { bytes } = this;
    let unit = 0;
    for (let i = pos; i < pos + 4; i++) {
      if (!isHex(bytes[i])) return -1;
      unit = unit * 16 + hexValue(bytes[i]);
    }
    return unit;
  }

  /**
   * A number: `integer` (its value in `integer`, NaN past 15 digits, where a double is not exact) or `number`.
   * Gives up where a range must be checked: an integer of 19 digits or more (Int64), a number whose exponent
   * could take it past a double's range.
   */
  number(pos) {
    const { bytes } = this;
    const start = pos;
    const negative = bytes[pos] === 0x2d;
    if (negative) pos++;
    let c = bytes[pos];
    if (!(c >= 0x30 && c <= 0x39)) return -1;
    let value = 0;
    let digits = 0;
    if (c === 0x30) {
      c = bytes[++pos];
      digits = 1;
      if (c >= 0x30 && c <= 0x39) return -1; // a leading zero
    } else {
      while (c >= 0x30 && c <= 0x39) {
        value = value * 10 + (c - 0x30);
        digits++;
        c = bytes[++pos];
      }
    }
    if (c !== 0x2e && c !== 0x65 && c !== 0x45) {
      // 18 digits always fit an Int64; 15 always fit a double exactly.
      if (digits > 18) return -1;
      this.kind = Kind.integer;
      this.integer = digits > 15 ? NaN : (negative ? -value : value) + 0; // -0 is the integer 0
      return pos;
    }
    if (c === 0x2e) {
      c = bytes[++pos];
      if (!(c >= 0x30 && c <= 0x39)) return -1;
      while (c >= 0x30 && c <= 0x39) c = bytes[++pos];
    }
    this.kind = Kind.number;
    // Without an exponent, fewer than 309 whole digits always fit a double.
    if (c !== 0x65 && c !== 0x45) return digits < 309 ? pos : -1;
    c = bytes[++pos];
    if (c === 0x2b || c === 0x2d) c = bytes[++pos];
    if (!(c >= 0x30 && c <= 0x39)) return -1;
    while (c >= 0x30 && c <= 0x39) c = bytes[++pos];
    return Number.isFinite(Number(asciiText(bytes, start, pos))) ? pos : -1;
  }

  array(pos, depth) {
    if (depth > maxDepth) return -1;
    pos = this.space(pos + 1);
    if (this.bytes[pos] === 0x5d) {
      this.kind = Kind.array;
      return pos + 1;
    }
    for (;;) {
      pos = this.value(pos, depth);
      if (pos < 0) return -1;
      pos = this.space(pos);
      const c = this.bytes[pos];
      if (c === 0x5d) break;
      if (c !== 0x2c) return -1;
      pos = this.space(pos + 1);
    }
    this.kind = Kind.array;
    return pos + 1;
  }

  object(pos, depth) {
    const { bytes } = this;
    if (depth > maxDepth) return -1;
    pos = this.space(pos + 1);
    if (bytes[pos] === 0x7d) {
      this.kind = Kind.object;
      return pos + 1;
    }
    const base = this.keyCount;
    for (;;) {
      if (bytes[pos] !== 0x22) return this.abandon(base);
      const end = this.string(pos);
      if (end < 0 || this.escaped || !this.addKey(base, pos + 1, end - 1)) return this.abandon(base);
      pos = this.space(end);
      if (bytes[pos] !== 0x3a) return this.abandon(base);
      pos = this.value(this.space(pos + 1), depth);
      if (pos < 0) return this.abandon(base);
      pos = this.space(pos);
      const c = bytes[pos];
      if (c === 0x7d) break;
      if (c !== 0x2c) return this.abandon(base);
      pos = this.space(pos + 1);
    }
    // `{"$number": …}` and its kind are tagged values, which the general way reads (and checks).
    const tagged = this.keyCount - base === 2 && bytes[this.keys[base]] === 0x24;
    this.keyCount = base;
    if (tagged) return -1;
    this.kind = Kind.object;
    return pos + 1;
  }

  abandon(base) {
    this.keyCount = base;
    return -1;
  }

  /** Notes the key at bytes start..<end of the object whose keys start at `base`; false when it is there already. */
  addKey(base, start, end) {
    const { bytes, keys } = this;
    if (this.keyCount >= keys.length) return false;
    // One leading `$` is an escape: "$$a" is the key "$a", and "$a" the key "a".
    const from = bytes[start] === 0x24 ? start + 1 : start;
    const length = end - from;
    for (let k = base; k < this.keyCount; k += 2) {
      const other = bytes[keys[k]] === 0x24 ? keys[k] + 1 : keys[k];
      if (keys[k + 1] - other !== length) continue;
      let i = 0;
      while (i < length && bytes[from + i] === bytes[other + i]) i++;
      if (i === length) return false;
    }
    if (this.keyCount - base >= 2 * maxMembers) return false;
    keys[this.keyCount] = start;
    keys[this.keyCount + 1] = end;
    this.keyCount += 2;
    return true;
  }
}

/**
 * Whether `a[aStart..<aEnd]` and `b[bStart..<bEnd]` are the same bytes.
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function sameBytes(a, aStart, aEnd, b, bStart, bEnd) {
  const length = aEnd - aStart;
  if (bEnd - bStart !== length) return false;
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/**
 * The text of bytes start..<end that are ASCII (a number, a key path the scanner checked), without a decoder.
 * @param {Uint8Array} bytes
 */
export function asciiText(bytes, start, end) {
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

// A value of a recording left as its JSON text in the file until something needs it built (recording-state.mjs).
//
// Most values a recording's patches carry are written once and overwritten before anything looks inside them:
// a cart's total, a route, an item put in the cart and taken out again. Reading the recording needs only to know
// that each is valid JSON (json-bytes.mjs checked it), to compare it with the next patch's `old`, and to write it
// into the next snapshot; all three work on its bytes. It is built (parsed into Maps and Arrays) only when a
// patch reaches inside it or its `old` has to be compared value by value.

import { ByteStrings } from "./byte-strings.mjs";
import { JSONBytes, Kind, sameBytes } from "./json-bytes.mjs";
import { maxMessageDepth, parseJSON } from "./json-reader.mjs";
import { valuesEqual } from "./values.mjs";

const decoder = new TextDecoder();

/** The scanner that opens raw values, and their object keys (without the `$`-escape) known by their bytes. */
const scan = new JSONBytes();
const noBytes = new Uint8Array(0);
const keys = new ByteStrings((text) => (text.charCodeAt(0) === 0x24 ? text.slice(1) : text));

export class RawValue {
  /**
   * @param {Uint8Array} bytes the bytes it is in (a piece of the file)
   * @param {number} start where the value's text starts
   * @param {number} end one past its end
   * @param {number} kind its kind (json-bytes.mjs `Kind`)
   */
  constructor(bytes, start, end, kind) {
    this.bytes = bytes;
    this.start = start;
    this.end = end;
    this.kind = kind;
    /** @type {string|undefined} its text, once asked for */
    this.json = undefined;
  }

  /** Whether it is an array or an object. */
  get isContainer() { return this.kind === Kind.object || this.kind === Kind.array; }

  /** Its JSON text as the file has it (valid StoreValue JSON of this value, not necessarily the canonical form). */
  text() {
    this.json ??= decoder.decode(this.bytes.subarray(this.start, this.end));
    return this.json;
  }

  /** @returns {import("./values.mjs").StoreValue} the value, built all the way down */
  value() {
    return parseJSON(this.text(), maxMessageDepth);
  }

  /**
   * A raw array or object built one level deep, from its bytes: an Array or a Map whose members are leaves (see
   * `leaf`). Cheaper than `value` by far: nothing is decoded but keys not seen before.
   * @returns {Array<any>|Map<string, any>}
   */
  open() {
    const members = this.members();
    if (this.kind === Kind.array) return members;
    const map = new Map();
    for (let i = 0; i < members.length; i += 2) map.set(members[i], members[i + 1]);
    return map;
  }

  /**
   * The members of a raw array (its elements) or object (key, value, key, value…: no Map to build), as leaves.
   * @returns {any[]}
   */
  members() {
    const members = this.scanMembers();
    scan.bytes = noBytes; // the module's scanner keeps no piece of a file alive
    return members;
  }

  scanMembers() {
    const { bytes } = this;
    scan.bytes = bytes;
    const array = this.kind === Kind.array;
    const members = [];
    let pos = scan.space(this.start + 1);
    if (bytes[pos] === (array ? 0x5d : 0x7d)) return members;
    for (;;) {
      if (!array) {
        // The keys were checked (no escape) when the value was: a plain one is found in one pass.
        let key = keys.quoted(bytes, pos);
        let keyEnd = keys.end;
        if (key === null) {
          keyEnd = scan.string(pos);
          key = keys.get(bytes, pos + 1, keyEnd - 1);
        }
        members.push(key.data);
        pos = scan.space(scan.space(keyEnd) + 1);
      }
      const start = pos;
      pos = scan.value(start, 0);
      members.push(leaf(bytes, start, pos, scan.kind, scan.integer));
      pos = scan.space(pos);
      if (bytes[pos] !== 0x2c) return members;
      pos = scan.space(pos + 1);
    }
  }
}

/**
 * A value json-bytes.mjs has just checked at bytes start..<end (its `kind` and `integer`): an integer that is
 * exact in a double, or a literal, as itself (they cost nothing to build); anything else raw.
 * @param {Uint8Array} bytes
 */
export function leaf(bytes, start, end, kind, integer) {
  switch (kind) {
    case Kind.integer: return Number.isNaN(integer) ? new RawValue(bytes, start, end, kind) : integer;
    case Kind.true: return true;
    case Kind.false: return false;
    case Kind.null: return null;
    default: return new RawValue(bytes, start, end, kind);
  }
}

/**
 * A value that may still be raw, built: a container one level deep (its members may be raw), a scalar whole.
 * @param {any} value a StoreValue, a RawValue or undefined
 */
export function real(value) {
  if (!(value instanceof RawValue)) return value;
  return value.isContainer ? value.open() : value.value();
}

/**
 * A value built all the way down: a copy where raw values are inside it (for messages, which are rare).
 * @param {any} value
 * @returns {import("./values.mjs").StoreValue|undefined}
 */
export function plain(value) {
  if (value instanceof RawValue) return value.value();
  if (Array.isArray(value)) return value.map(plain);
  if (value instanceof Map) return new Map([...value].map(([key, member]) => [key, plain(member)]));
  return value;
}

/** Whether `value` is an object: a Map, or a raw object. */
export function isObject(value) {
  return value instanceof Map || (value instanceof RawValue && value.kind === Kind.object);
}

/**
 * Whether `current` is what a patch's `old` says is there: both absent, or equal StoreValues (values.mjs
 * `valuesEqual`: key order aside). The same text is the same value, so two raw values with the same bytes are
 * equal unread; others are built as far as they are compared.
 * @param {any} current
 * @param {any} old
 */
export function sameValue(current, old) {
  if (current === undefined || old === undefined) return current === old;
  if (current === old) return true;
  if (current instanceof RawValue && old instanceof RawValue && sameBytes(current.bytes, current.start, current.end, old.bytes, old.start, old.end)) return true;
  const a = real(current);
  const b = real(old);
  // Two containers are compared member by member (a raw one opened a level at a time).
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [key, member] of a) if (!sameValue(member, b.get(key))) return false;
    return true;
  }
  return valuesEqual(a, b);
}

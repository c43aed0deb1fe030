// Strings known by their UTF-8 bytes: the recording reader meets the same few store ids, key paths and object keys
// a million times, and decoding each of them again (a `TextDecoder` call costs far more than the bytes it
// decodes) would be most of its work. Here a string's bytes are hashed where they lie and compared with the
// bytes kept for the hash; only a string seen for the first time is decoded, once, and what the caller makes of
// it (a parsed key path, whether it is a store id) is kept beside it.
//
//   const paths = new ByteStrings((text) => parseKeyPath(text));
//   const entry = paths.get(bytes, start, end);   // {text, data}, `data` from the function, the first time only
//   const plain = paths.quoted(bytes, pos);       // the same for a JSON string at `pos`, in one pass; null: not plain

const decoder = new TextDecoder();

/** 1 for the bytes a plain string is made of: printable ASCII but `"` and `\`. */
const plainByte = new Uint8Array(256);
for (let c = 0x20; c < 0x7f; c++) plainByte[c] = c === 0x22 || c === 0x5c ? 0 : 1;

/** Entries kept at most; past it the table starts again (a recording with that many distinct strings is rare). */
const limit = 1 << 16;

/**
 * @template T
 * @typedef {{text: string, data: T, bytes: Uint8Array, hash: number}} Entry
 */

/** @template T */
export class ByteStrings {
  /** @param {(text: string) => T} make what to keep beside each string, made once per string */
  constructor(make) {
    this.make = make;
    /** @type {Entry<T>[]} */
    this.entries = [];
    /** Open addressing: each slot holds an index into `entries` plus one, 0 when empty; twice `limit` slots. */
    this.slots = new Int32Array(2 * limit);
    /** Where the last string `quoted` found ends (after its closing quote). */
    this.end = 0;
  }

  /**
   * The entry of the JSON string whose opening quote is at `pos`, when it is plain (printable ASCII, no escape),
   * hashed as it is read; `end` is then set past its closing quote. Null for any other string: the caller checks
   * it and uses `get`.
   * @param {Uint8Array} bytes
   * @param {number} pos
   * @returns {Entry<T>|null}
   */
  quoted(bytes, pos) {
    const start = pos + 1;
    let end = start;
    let hash = 0;
    for (let c = bytes[end]; plainByte[c] === 1; c = bytes[++end]) hash = (Math.imul(hash, 31) + c) | 0;
    if (bytes[end] !== 0x22) return null;
    this.end = end + 1;
    return this.find(bytes, start, end, (Math.imul(end - start, 0x9e3779b1) ^ hash) | 0);
  }

  /**
   * The entry of the string whose UTF-8 bytes are `bytes[start..<end]` (valid UTF-8, no escapes).
   * @param {Uint8Array} bytes
   * @param {number} start
   * @param {number} end
   * @returns {Entry<T>}
   */
  get(bytes, start, end) {
    let hash = 0;
    for (let i = start; i < end; i++) hash = (Math.imul(hash, 31) + bytes[i]) | 0;
    return this.find(bytes, start, end, (Math.imul(end - start, 0x9e3779b1) ^ hash) | 0);
  }

  /** The entry of bytes start..<end, whose hash is `hash`; made when there is none. */
  find(bytes, start, end, hash) {
    const length = end - start;
    const { slots, entries } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let index = slots[slot]; index !== 0; index = slots[slot]) {
      const entry = entries[index - 1];
      const kept = entry.bytes;
      if (entry.hash === hash && kept.length === length) {
        let i = 0;
        while (i < length && kept[i] === bytes[start + i]) i++;
        if (i === length) return entry;
      }
      slot = (slot + 1) & mask;
    }
    if (entries.length >= limit) {
      entries.length = 0;
      slots.fill(0);
      return this.find(bytes, start, end, hash);
    }
    const text = decoder.decode(bytes.subarray(start, end));
    const entry = { text, data: this.make(text), bytes: bytes.slice(start, end), hash };
    entries.push(entry);
    slots[slot] = entries.length;
    return entry;
  }
}

// The text of a file's lines, one after the other, decoded from UTF-8 a large chunk at a time: a `TextDecoder`
// call costs far more than the few hundred bytes of a line it decodes. A chunk ends at a "\n", which is never part
// of a multi-byte UTF-8 sequence, so each line's text is exactly what decoding that line alone gives. A chunk that
// is not UTF-8 somewhere is decoded line by line instead, so that the bad line is the one refused.
//
//   const texts = new LineTexts(bytes);
//   const text = texts.text(start, end);   // bytes start..<end ("\n" at end), null when they are not UTF-8

/** How many bytes a chunk takes at most (at least one whole line). */
const chunkBytes = 1 << 20;

export class LineTexts {
  /** @param {Uint8Array} bytes */
  constructor(bytes) {
    this.bytes = bytes;
    this.decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    /** @type {string|null} the chunk's text; null when it is not UTF-8 */
    this.chunk = "";
    /** Where the chunk ends in the bytes (after its last "\n"), and where the next line starts in its text. */
    this.chunkEnd = 0;
    this.index = 0;
  }

  /**
   * The text of the line at bytes `start`..<`end` (a "\n" is at `end`): the line after the one asked for before.
   * @param {number} start
   * @param {number} end
   * @returns {string|null} null when the line is not UTF-8
   */
  text(start, end) {
    if (start >= this.chunkEnd) this.load(start, end);
    if (this.chunk === null) {
      try {
        return this.decoder.decode(this.bytes.subarray(start, end));
      } catch {
        return null;
      }
    }
    const newline = this.chunk.indexOf("\n", this.index);
    // A copy of the line, not a slice of the chunk: strings read from it can end up in the state, and a slice
    // would keep the whole chunk alive with them.
    const text = `${this.chunk.slice(this.index, newline)}\n`.slice(0, -1);
    this.index = newline + 1;
    return text;
  }

  load(start, end) {
    let last = this.bytes.lastIndexOf(10, start + chunkBytes - 1);
    if (last < end) last = end;
    this.chunkEnd = last + 1;
    this.index = 0;
    try {
      this.chunk = this.decoder.decode(this.bytes.subarray(start, last + 1));
    } catch {
      this.chunk = null;
    }
  }
}

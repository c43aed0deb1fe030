// A recording's file held as the pieces it arrived in (a stream's chunks), and a cursor that reads it line by line
// across them. Copying a 200 MB upload into one buffer as it arrives cost a tenth of loading it (every page of the
// new buffer is touched for the first time, on the worker's thread), so the pieces are kept as they are: a line
// lies inside one piece, except the few that cross from one piece into the next, which the cursor joins into a
// buffer of their own.
//
//   const file = new FilePieces();
//   const cursor = new PieceCursor(file);
//   file.add(chunk);                       // as pieces arrive; then file.end()
//   if (!cursor.hasLine && cursor.pos < cursor.bytes.length) cursor.carry();
//   if (cursor.hasLine || cursor.next()) read(cursor.bytes, cursor.pos);   // then move cursor.pos past the line

const empty = new Uint8Array(0);

export class FilePieces {
  constructor() {
    /** @type {Uint8Array[]} the pieces, in order (none empty) */
    this.pieces = [];
    /** @type {number[]} where each piece starts in the file */
    this.starts = [];
    /** The bytes added so far. */
    this.length = 0;
    /** Whether the file is whole (no piece will follow). */
    this.ended = false;
  }

  /** @param {Uint8Array} piece the next bytes of the file */
  add(piece) {
    if (this.ended) throw new Error("the file was ended already");
    if (piece.length === 0) return;
    this.pieces.push(piece);
    this.starts.push(this.length);
    this.length += piece.length;
  }

  /** No more pieces: the file is whole. */
  end() {
    this.ended = true;
  }

  /**
   * The text of the file's bytes `start`..<`end` (UTF-8, decoded across pieces).
   * @param {number} start
   * @param {number} end
   */
  text(start, end) {
    const decoder = new TextDecoder();
    let text = "";
    // The last piece that starts at or before `start`.
    let low = 0;
    for (let high = this.starts.length - 1; low < high;) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid] <= start) low = mid;
      else high = mid - 1;
    }
    for (let i = low; start < end; i++) {
      const stop = Math.min(end, this.starts[i] + this.pieces[i].length);
      text += decoder.decode(this.pieces[i].subarray(start - this.starts[i], stop - this.starts[i]), { stream: stop < end });
      start = stop;
    }
    return text;
  }
}

/** Where reading stands in a FilePieces: the bytes being read, and lines carried over from one piece to the next. */
export class PieceCursor {
  /** @param {FilePieces} file */
  constructor(file) {
    this.file = file;
    /** @type {Uint8Array} the bytes being read: a piece, or one line that crossed pieces, joined */
    this.bytes = empty;
    /** Where `bytes` starts in the file. */
    this.base = 0;
    /** Where reading is in `bytes` (the caller moves it past each line it reads). */
    this.pos = 0;
    /**
     * Where the last complete line of `bytes` ends (after its "\n"). Lines before it are read where they lie; the
     * rest is carried over. So no reader ever looks past the end of a piece: a typed array read out of bounds
     * makes V8 drop its optimized code, and at the end of every piece that halved the reading speed.
     */
    this.end = 0;
    /** The next piece to read, and where in it (after a line that crossed into it). */
    this.index = 0;
    this.offset = 0;
    /** @type {Uint8Array[]} the start of a line that has no "\n" yet in the pieces read */
    this.carried = [];
    this.carriedStart = 0;
  }

  /** Where reading is in the file. */
  get position() { return this.base + this.pos; }

  /** The bytes of an unfinished line carried over (at the file's end: a torn tail). */
  get carriedBytes() { return this.carried.reduce((sum, piece) => sum + piece.length, 0); }

  /** Whether `bytes` holds a complete line from `pos`. */
  get hasLine() { return this.pos < this.end; }

  /** Whether there are bytes not read yet (perhaps only an unfinished line). */
  get hasMore() { return this.pos < this.bytes.length || this.index < this.file.pieces.length; }

  /**
   * The rest of `bytes` (from `pos`) is the start of a line whose "\n" is in a later piece: it is carried over
   * (`next` adds the pieces that follow until one has the "\n").
   */
  carry() {
    this.carriedStart = this.position;
    this.carried = [this.bytes.subarray(this.pos)];
    this.pos = this.bytes.length;
  }

  /**
   * Moves on to the next bytes to read, once `bytes` is read: the next piece, or first the line carried over,
   * joined with the start of the pieces that finish it. False when that needs a piece not there yet.
   */
  next() {
    const { pieces, starts } = this.file;
    while (this.carried.length > 0) {
      if (this.index >= pieces.length) return false;
      const piece = pieces[this.index].subarray(this.offset);
      const newline = piece.indexOf(10);
      if (newline < 0) {
        this.carried.push(piece);
        this.index++;
        this.offset = 0;
        continue;
      }
      const parts = [...this.carried, piece.subarray(0, newline + 1)];
      const line = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        line.set(part, at);
        at += part.length;
      }
      this.offset += newline + 1;
      if (this.offset === pieces[this.index].length) {
        this.index++;
        this.offset = 0;
      }
      this.carried = [];
      return this.read(line, this.carriedStart);
    }
    if (this.index >= pieces.length) return false;
    const piece = this.offset === 0 ? pieces[this.index] : pieces[this.index].subarray(this.offset);
    const base = starts[this.index] + this.offset;
    this.index++;
    this.offset = 0;
    return this.read(piece, base);
  }

  read(bytes, base) {
    this.bytes = bytes;
    this.base = base;
    this.pos = 0;
    this.end = bytes.lastIndexOf(10) + 1;
    return true;
  }
}

// What the log panel shows of the filtered log: its order (newest or oldest first), the pause (the view stops at
// the entries it had; new ones are counted), and which rows are on screen. The screen is described by an anchor:
// either pinned to the live end (the newest entry stays in view) or a filtered position to keep at the top, so
// that rows arriving or leaving never make the list jump under the reader's eyes.

/** @typedef {{pinned: true} | {pinned: false, position: number}} Anchor */

export class LogView {
  /** @param {import("./log-filter.mjs").FilteredLog} filtered */
  constructor(filtered) {
    this.filtered = filtered;
    /** @type {"newest"|"oldest"} */
    this.order = "newest";
    /** @type {number|null} the ring's end when the view was paused */
    this.pausedAt = null;
    /** @type {Anchor} */
    this.anchor = { pinned: true };
  }

  /** The filtered position just past the last one shown. */
  get end() {
    const { filtered } = this;
    return this.pausedAt === null ? filtered.tail : filtered.positionAfter(this.pausedAt - 1);
  }

  /** How many rows the view has. */
  get count() { return Math.max(0, this.end - this.filtered.head); }

  /** Matching entries that arrived since the pause (0 when live). */
  get waiting() { return this.pausedAt === null ? 0 : this.filtered.tail - this.end; }

  /**
   * The filtered position shown at row `row`.
   * @param {number} row
   */
  positionAt(row) {
    return this.order === "newest" ? this.end - 1 - row : this.filtered.head + row;
  }

  /**
   * The row showing filtered position `position` (may be outside 0..count-1 when it is not shown).
   * @param {number} position
   */
  rowOf(position) {
    return this.order === "newest" ? this.end - 1 - position : position - this.filtered.head;
  }

  /**
   * The first row on screen for a screen of `visible` rows: the live end when pinned, else the anchor's row,
   * kept within the list.
   * @param {number} visible
   */
  firstRow(visible) {
    const last = Math.max(0, this.count - visible);
    if (this.anchor.pinned) return this.order === "newest" ? 0 : last;
    return Math.min(last, Math.max(0, this.rowOf(this.anchor.position)));
  }

  /**
   * Records where the reader scrolled: row `row` at the top, pinned when that is the live end.
   * @param {number} row
   * @param {number} visible
   */
  scrollTo(row, visible) {
    const atLiveEnd = this.order === "newest" ? row <= 0 : row >= this.count - visible;
    this.anchor = atLiveEnd ? { pinned: true } : { pinned: false, position: this.positionAt(row) };
  }
}

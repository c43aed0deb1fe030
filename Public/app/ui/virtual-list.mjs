// A virtualised list of fixed-height rows: only the rows on screen (plus a margin) exist in the DOM, recycled from
// a pool. The data comes from the worker as {count, start, rows}; the list reports scrolling so the worker can
// send the rows for the new position.

import { h, setProp } from "./dom.mjs";
import { scrollGeometry, scrollTopFor, scrollTopToReveal, visibleRows } from "../../lib/virtual.mjs";

export class VirtualList {
  /**
   * @param {{rowHeight: number, className: string, label: string, createRow: () => HTMLElement,
   *   updateRow: (element: HTMLElement, row: any, index: number) => void,
   *   onScroll: (first: number, visible: number) => void, empty?: () => Node}} options
   */
  constructor({ rowHeight, className, label, createRow, updateRow, onScroll, empty }) {
    this.rowHeight = rowHeight;
    this.createRow = createRow;
    this.updateRow = updateRow;
    this.onScroll = onScroll;
    this.emptyContent = empty;
    this.spacer = h("div", { className: "vlist-spacer" });
    this.layer = h("div", { className: "vlist-rows", attrs: { role: "presentation" } });
    this.emptyBox = h("div", { className: "vlist-empty", hidden: true });
    this.element = h("div", { className: `vlist ${className}`, tabIndex: 0, attrs: { role: "list", "aria-label": label } },
      this.spacer, this.layer, this.emptyBox);
    /** @type {HTMLElement[]} */
    this.pool = [];
    this.data = { count: 0, start: 0, rows: [] };
    // Scroll position and height are cached from events, so drawing never has to read layout back.
    this.viewport = 0;
    this.scrollTop = 0;
    /** @type {number|null} a scroll position set by the list itself, not to be reported as the reader's */
    this.ownScrollTop = null;
    this.element.addEventListener("scroll", () => {
      this.scrollTop = this.element.scrollTop;
      const own = this.ownScrollTop !== null && Math.abs(this.scrollTop - this.ownScrollTop) < 1;
      this.ownScrollTop = null;
      this.layout();
      if (own) return;
      this.onScroll(this.first(), this.visibleCount());
    }, { passive: true });
    new ResizeObserver(([entry]) => {
      this.viewport = entry.contentRect.height;
      this.layout();
      this.onScroll(this.first(), this.visibleCount());
    }).observe(this.element);
  }

  /** Rows that fit on screen. */
  visibleCount() {
    return Math.max(1, Math.ceil(this.viewport / this.rowHeight));
  }

  geometry() {
    return { scrollTop: this.scrollTop, viewport: this.viewport, rowHeight: this.rowHeight, count: this.data.count };
  }

  /** The top visible row for the current scroll position. */
  first() {
    return visibleRows(this.geometry()).first;
  }

  /**
   * Shows new data.
   * @param {{count: number, start: number, rows: any[]}} data
   */
  render(data) {
    this.data = data;
    const { height } = scrollGeometry(data.count, this.rowHeight, this.viewport);
    const heightText = `${height}px`;
    if (this.spacer.style.height !== heightText) this.spacer.style.height = heightText;
    setProp(this.emptyBox, "hidden", data.count > 0 || !this.emptyContent);
    if (data.count === 0 && this.emptyContent) this.emptyBox.replaceChildren(this.emptyContent());
    this.layout();
  }

  /** Places the rows of the current data for the current scroll position. */
  layout() {
    const { rows, start } = this.data;
    while (this.pool.length < rows.length) {
      const element = this.createRow();
      element.style.height = `${this.rowHeight}px`;
      this.pool.push(element);
      this.layer.append(element);
    }
    const { first, offset } = visibleRows(this.geometry());
    const transform = `translateY(${offset + (start - first) * this.rowHeight}px)`;
    if (this.layer.style.transform !== transform) this.layer.style.transform = transform;
    for (let i = 0; i < this.pool.length; i++) {
      const element = this.pool[i];
      if (i < rows.length) {
        if (element.hidden) element.hidden = false;
        this.updateRow(element, rows[i], start + i);
      } else if (!element.hidden) {
        element.hidden = true;
      }
    }
  }

  /**
   * Scrolls so that row `row` is at the top (the worker chose it: the list follows without reporting back).
   * @param {number} row
   */
  scrollToRow(row) {
    const top = scrollTopFor(row, this.geometry());
    if (Math.abs(this.scrollTop - top) >= 1) {
      this.element.scrollTop = top;
      this.scrollTop = top;
      this.ownScrollTop = top;
    }
  }

  /** Scrolls the least needed to show row `row`. @param {number} row */
  reveal(row) {
    const top = scrollTopToReveal(row, this.geometry());
    if (Math.abs(this.scrollTop - top) >= 1) this.element.scrollTop = top;
  }
}

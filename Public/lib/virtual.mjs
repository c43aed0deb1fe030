// Virtual list maths: which rows of a long fixed-height list are on screen, and where to draw them. Browsers
// cap an element's height (Firefox near 17.9 million pixels), so past `maxScrollHeight` the scrollable height is
// scaled down and a scroll position maps to a row proportionally.

/** The tallest scroll area used; taller lists are scaled. */
export const maxScrollHeight = 8_000_000;

/**
 * The scroll geometry of a list.
 * @param {number} count rows
 * @param {number} rowHeight pixels
 * @param {number} viewport visible height in pixels
 * @returns {{height: number, ratio: number}} the scroll area's height and virtual pixels per scrolled pixel
 */
export function scrollGeometry(count, rowHeight, viewport) {
  const full = count * rowHeight;
  const height = Math.min(full, maxScrollHeight);
  const scrollable = height - viewport;
  const ratio = full > height && scrollable > 0 ? (full - viewport) / scrollable : 1;
  return { height, ratio };
}

/**
 * The rows to draw for a scroll position, with `overscan` extra rows on each side.
 * @param {{scrollTop: number, viewport: number, rowHeight: number, count: number, overscan?: number}} list
 * @returns {{first: number, start: number, end: number, offset: number}} `first` is the top visible row,
 *   rows start..end-1 are drawn, and row r sits at `offset + (r - first) * rowHeight` inside the scroll area
 */
export function visibleRows({ scrollTop, viewport, rowHeight, count, overscan = 0 }) {
  const { ratio } = scrollGeometry(count, rowHeight, viewport);
  const virtualTop = Math.max(0, scrollTop) * ratio;
  const first = Math.min(Math.max(0, count - 1), Math.floor(virtualTop / rowHeight));
  const visible = Math.ceil(viewport / rowHeight) + 1;
  return {
    first: Math.max(0, first),
    start: Math.max(0, first - overscan),
    end: Math.min(count, first + visible + overscan),
    offset: scrollTop - (virtualTop - first * rowHeight),
  };
}

/**
 * The scroll position that puts row `row` at the top.
 * @param {number} row
 * @param {{viewport: number, rowHeight: number, count: number}} list
 */
export function scrollTopFor(row, { viewport, rowHeight, count }) {
  const { ratio } = scrollGeometry(count, rowHeight, viewport);
  return (row * rowHeight) / ratio;
}

/**
 * The scroll position that brings row `row` into view with the least movement (unchanged when it is visible).
 * @param {number} row
 * @param {{scrollTop: number, viewport: number, rowHeight: number, count: number}} list
 */
export function scrollTopToReveal(row, list) {
  const { first } = visibleRows(list);
  const fullyVisible = Math.floor(list.viewport / list.rowHeight);
  if (row < first) return scrollTopFor(row, list);
  if (row >= first + fullyVisible) return scrollTopFor(row - fullyVisible + 1, list);
  return list.scrollTop;
}

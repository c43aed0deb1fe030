import { test } from "node:test";
import assert from "node:assert/strict";
import { maxScrollHeight, scrollGeometry, scrollTopFor, scrollTopToReveal, visibleRows } from "../../Public/lib/virtual.mjs";

test("small lists scroll one to one", () => {
  assert.deepEqual(scrollGeometry(100, 20, 400), { height: 2000, ratio: 1 });
  const rows = visibleRows({ scrollTop: 105, viewport: 400, rowHeight: 20, count: 100, overscan: 5 });
  assert.deepEqual(rows, { first: 5, start: 0, end: 31, offset: 100 });
});

test("a million rows are scaled under the browser's height limit and still reach the last row", () => {
  const list = { viewport: 800, rowHeight: 26, count: 1_000_000 };
  const { height, ratio } = scrollGeometry(list.count, list.rowHeight, list.viewport);
  assert.equal(height, maxScrollHeight);
  assert.ok(ratio > 3);
  const bottom = visibleRows({ ...list, scrollTop: height - list.viewport });
  assert.equal(bottom.first, Math.floor((list.count * list.rowHeight - list.viewport) / list.rowHeight));
  assert.equal(bottom.end, list.count);
  const middle = visibleRows({ ...list, scrollTop: scrollTopFor(500_000, list) });
  assert.equal(middle.first, 500_000);
});

test("row positions follow the scroll position exactly within a row", () => {
  const list = { viewport: 500, rowHeight: 25, count: 1000 };
  for (const scrollTop of [0, 12, 25, 401.5]) {
    const { first, offset } = visibleRows({ ...list, scrollTop });
    assert.equal(offset + (scrollTop - offset), scrollTop);
    assert.ok(first * 25 <= scrollTop && scrollTop < (first + 1) * 25);
    assert.equal(offset, first * 25);
  }
});

test("scrollTopFor and visibleRows agree, scaled or not", () => {
  for (const count of [50, 5_000_000]) {
    const list = { viewport: 600, rowHeight: 24, count };
    for (const row of [0, 7, Math.floor(count / 3)]) {
      assert.equal(visibleRows({ ...list, scrollTop: scrollTopFor(row, list) }).first, row, `count ${count} row ${row}`);
    }
  }
});

test("reveal scrolls the least needed", () => {
  const list = { scrollTop: 200, viewport: 200, rowHeight: 20, count: 100 };
  assert.equal(scrollTopToReveal(12, list), 200, "visible: unchanged");
  assert.equal(scrollTopToReveal(5, list), 100, "above: to the top");
  assert.equal(scrollTopToReveal(30, list), 420, "below: to the bottom edge");
});

test("empty lists", () => {
  assert.deepEqual(visibleRows({ scrollTop: 0, viewport: 300, rowHeight: 20, count: 0 }), { first: 0, start: 0, end: 0, offset: 0 });
});

// Log filters (store, key-path prefix, op, text, and the instance on a fleet dashboard's merged log) and the filtered view over the ring: a deque of the entry
// numbers that match, kept up to date as entries arrive and leave, rebuilt only when the filter changes.

import { isSameOrBelow } from "./keypath.mjs";
import { opBits } from "./log-ring.mjs";

/**
 * @typedef {{store: string, path: string, op: string, text: string, instance?: string}} LogFilter  empty strings
 *   (and an absent instance) match everything
 */

/** The filter that matches every entry. */
export const noFilter = Object.freeze({ store: "", path: "", op: "", text: "", instance: "" });

/**
 * Whether one of `paths` (newline-separated canonical paths) is `prefix` or lies below it.
 * @param {string} paths
 * @param {string} prefix
 */
export function pathsMatchPrefix(paths, prefix) {
  if (paths === "") return false;
  if (paths.indexOf("\n") < 0) return isSameOrBelow(paths, prefix);
  for (const path of paths.split("\n")) if (isSameOrBelow(path, prefix)) return true;
  return false;
}

/**
 * A regular expression that finds `text` literally; case-insensitive unless `text` has an upper-case letter
 * ("smart case", as in ripgrep).
 * @param {string} text
 */
export function textMatcher(text) {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(escaped, text === text.toLowerCase() ? "i" : "");
}

/**
 * Compiles a filter into a test on entry numbers of `ring`.
 * @param {LogFilter} filter
 * @param {import("./log-ring.mjs").LogRing} ring
 * @returns {((n: number) => boolean) | null} null when the filter matches everything
 */
export function compileFilter(filter, ring) {
  const tests = [];
  if (filter.store) {
    const code = ring.stores.code(filter.store);
    tests.push((n) => ring.storeCode(n) === code);
  }
  if (filter.instance) {
    const code = ring.instances.code(filter.instance);
    tests.push((n) => ring.instanceCode(n) === code);
  }
  if (filter.op) {
    const bit = opBits[filter.op] ?? 0;
    tests.push((n) => (ring.flag(n) & bit) !== 0);
  }
  if (filter.path) {
    const prefix = filter.path;
    tests.push((n) => pathsMatchPrefix(ring.pathList(n), prefix));
  }
  if (filter.text) {
    const pattern = textMatcher(filter.text);
    tests.push((n) => pattern.test(ring.raw(n)));
  }
  if (tests.length === 0) return null;
  return (n) => tests.every((t) => t(n));
}

/**
 * The entry numbers that match a filter, oldest first. Positions are absolute: the k-th match ever appended has
 * position k, so a position keeps naming the same entry while others arrive and leave.
 */
export class FilteredLog {
  /** @param {import("./log-ring.mjs").LogRing} ring */
  constructor(ring) {
    this.ring = ring;
    this.test = null;
    this.rebuild(null);
  }

  /**
   * Replaces the filter and scans the ring again.
   * @param {((n: number) => boolean) | null} test
   */
  rebuild(test) {
    this.test = test;
    this.numbers = new Float64Array(Math.max(16, this.ring.capacity));
    this.head = 0;
    this.tail = 0;
    this.generation = (this.generation ?? 0) + 1;
    for (let n = this.ring.first; n < this.ring.end; n++) this.offer(n);
  }

  get size() { return this.tail - this.head; }

  /** Adds entry `n` when it matches. @param {number} n */
  offer(n) {
    if (this.test !== null && !this.test(n)) return;
    if (this.size === this.numbers.length) this.grow();
    this.numbers[this.tail % this.numbers.length] = n;
    this.tail++;
  }

  grow() {
    const bigger = new Float64Array(this.numbers.length * 2);
    for (let p = this.head; p < this.tail; p++) bigger[p % bigger.length] = this.numbers[p % this.numbers.length];
    this.numbers = bigger;
  }

  /** Forgets matches the ring no longer holds (they are always the oldest). */
  dropEvicted() {
    const first = this.ring.first;
    while (this.head < this.tail && this.numbers[this.head % this.numbers.length] < first) this.head++;
  }

  /**
   * The entry number at absolute position `position`.
   * @param {number} position
   */
  at(position) { return this.numbers[position % this.numbers.length]; }

  /**
   * The absolute position of entry `n`, or -1 when it does not match or is gone.
   * @param {number} n
   */
  positionOf(n) {
    let low = this.head;
    let high = this.tail - 1;
    while (low <= high) {
      const mid = Math.floor((low + high) / 2);
      const value = this.at(mid);
      if (value === n) return mid;
      if (value < n) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /**
   * The absolute position of the newest match at or before entry `n` (the view's end while paused).
   * @param {number} n
   */
  positionAfter(n) {
    let low = this.head;
    let high = this.tail;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if (this.at(mid) <= n) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

// A structural diff of two values for the log's detail view: which paths were added, removed or changed.
// Objects are compared key by key; arrays element by element after their common start and end are set aside, with
// a longest-common-subsequence match in between when it is small, so one inserted element reads as one addition
// rather than every later element "changed".

import { appendSegment } from "./keypath.mjs";
import { valuesEqual } from "./values.mjs";

/**
 * @typedef {{path: string, change: "added"|"removed"|"changed", old?: any, new?: any}} DiffRow
 *   `path` is relative to the compared values ("" is the value itself)
 */

/** The largest middle section (old × new elements) matched by LCS; larger ones are compared index by index. */
const lcsLimit = 4096;

/**
 * The differences between `before` and `after` (undefined stands for "absent"), at most `limit` rows.
 * @param {any} before
 * @param {any} after
 * @param {number} [limit]
 * @returns {{rows: DiffRow[], truncated: boolean}}
 */
export function diffValues(before, after, limit = 500) {
  const rows = [];
  let truncated = false;
  const add = (row) => {
    if (rows.length < limit) rows.push(row);
    else truncated = true;
  };
  const compare = (a, b, path) => {
    if (a === undefined && b === undefined) return;
    if (a === undefined) return add({ path, change: "added", new: b });
    if (b === undefined) return add({ path, change: "removed", old: a });
    if (a instanceof Map && b instanceof Map) return compareObjects(a, b, path);
    if (Array.isArray(a) && Array.isArray(b)) return compareArrays(a, b, path);
    if (!valuesEqual(a, b)) add({ path, change: "changed", old: a, new: b });
  };
  const compareObjects = (a, b, path) => {
    for (const [key, value] of a) compare(value, b.get(key), appendSegment(path, key));
    for (const [key, value] of b) if (!a.has(key)) add({ path: appendSegment(path, key), change: "added", new: value });
  };
  const compareArrays = (a, b, path) => {
    let start = 0;
    while (start < a.length && start < b.length && valuesEqual(a[start], b[start])) start++;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && valuesEqual(a[endA - 1], b[endB - 1])) {
      endA--;
      endB--;
    }
    const middleA = endA - start;
    const middleB = endB - start;
    if (middleA * middleB > lcsLimit || middleA === 0 || middleB === 0) {
      for (let i = 0; i < Math.max(middleA, middleB); i++) {
        const k = start + i;
        compare(i < middleA ? a[k] : undefined, i < middleB ? b[k] : undefined, appendSegment(path, k));
      }
      return;
    }
    for (const step of alignSequences(a.slice(start, endA), b.slice(start, endB))) {
      if (step.kind === "removed") add({ path: appendSegment(path, start + step.i), change: "removed", old: a[start + step.i] });
      else if (step.kind === "added") add({ path: appendSegment(path, start + step.j), change: "added", new: b[start + step.j] });
      else if (step.kind === "replaced") compare(a[start + step.i], b[start + step.j], appendSegment(path, start + step.j));
    }
  };
  compare(before, after, "");
  return { rows, truncated };
}

/**
 * Aligns two short sequences by their longest common subsequence. A removal right before an addition becomes one
 * "replaced" step (compared in depth), which reads better than a removal and an addition of similar elements.
 * @param {any[]} a
 * @param {any[]} b
 * @returns {Array<{kind: "same"|"removed"|"added"|"replaced", i: number, j: number}>}
 */
export function alignSequences(a, b) {
  const n = a.length;
  const m = b.length;
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i][j] = valuesEqual(a[i], b[j]) ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const steps = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && valuesEqual(a[i], b[j])) steps.push({ kind: "same", i: i++, j: j++ });
    else if (i < n && j < m && lengths[i][j] === lengths[i + 1][j + 1]) {
      steps.push({ kind: "replaced", i: i++, j: j++ });
    } else if (j >= m || (i < n && lengths[i + 1][j] >= lengths[i][j + 1])) steps.push({ kind: "removed", i: i++, j });
    else steps.push({ kind: "added", i, j: j++ });
  }
  return steps;
}

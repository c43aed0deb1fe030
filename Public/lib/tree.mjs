// The key-path tree as a flat list of rows: a container's children appear only when it is expanded, and a large
// container shows them a page at a time (a "show more" row stands for the rest), so a store of 100,000 keys costs
// one page until someone asks for more.

import { appendSegment } from "./keypath.mjs";

/** Children shown per container until "show more" is used. */
export const pageSize = 200;

/**
 * @typedef {{kind: "node", path: string, depth: number, key: string|number|null, value: any}
 *   | {kind: "more", path: string, depth: number, shown: number, total: number}} TreeRow
 *   a "node" row is one value (`key` null for the root); a "more" row stands for `total - shown` hidden children
 *   of the container at `path`
 */

/**
 * Flattens a store's root into rows, in order.
 * @param {Map<string, any>} root
 * @param {{expanded: (path: string) => boolean, shownChildren?: (path: string) => number,
 *   include?: (path: string) => boolean|"all"}} options `include` limits the rows (search results and their
 *   ancestors); "all" includes a row and everything below it
 * @returns {TreeRow[]}
 */
export function flattenTree(root, { expanded, shownChildren = () => pageSize, include = () => "all" }) {
  const rows = [];
  const everything = () => "all";
  const visit = (value, path, depth, includeChild) => {
    const isMap = value instanceof Map;
    if (!isMap && !Array.isArray(value)) return;
    const total = isMap ? value.size : value.length;
    const limit = Math.min(total, shownChildren(path));
    let shown = 0;
    const emit = (key, child) => {
      const childPath = appendSegment(path, key);
      const included = includeChild(childPath);
      if (!included) return;
      rows.push({ kind: "node", path: childPath, depth, key, value: child });
      if (expanded(childPath)) visit(child, childPath, depth + 1, included === "all" ? everything : includeChild);
    };
    if (isMap) {
      for (const [key, child] of value) {
        if (shown++ === limit) break;
        emit(key, child);
      }
    } else {
      for (; shown < limit; shown++) emit(shown, value[shown]);
    }
    if (limit < total) rows.push({ kind: "more", path, depth, shown: limit, total });
  };
  visit(root, "", 0, include);
  return rows;
}

/**
 * The index of the row for `path`, or -1.
 * @param {TreeRow[]} rows
 * @param {string} path
 */
export function rowIndexOf(rows, path) {
  for (let i = 0; i < rows.length; i++) if (rows[i].kind === "node" && rows[i].path === path) return i;
  return -1;
}

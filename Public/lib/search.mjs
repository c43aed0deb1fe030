// Search across keys and values of a store: the paths whose key or scalar value contains the query, plus their
// ancestors so the tree can show each match in place.

import { appendSegment } from "./keypath.mjs";
import { textMatcher } from "./log-filter.mjs";
import { previewText } from "./format.mjs";
import { Color, Num, Url } from "./values.mjs";

/** Text a scalar is found by: strings by their content, the rest as they are shown. */
function scalarText(value) {
  if (typeof value === "string") return value;
  if (value instanceof Color) return value.hex;
  if (value instanceof Url) return value.href;
  if (value instanceof Num) return previewText(value, 40);
  return String(value);
}

/**
 * Finds up to `limit` matching paths in `root`.
 * @param {Map<string, any>} root
 * @param {string} query
 * @param {number} [limit]
 * @returns {{matches: Set<string>, ancestors: Set<string>, count: number, truncated: boolean}}
 *   `ancestors` holds every ancestor of a match (the root "" included)
 */
export function searchTree(root, query, limit = 1000) {
  const pattern = textMatcher(query);
  const matches = new Set();
  const ancestors = new Set();
  let count = 0;
  const visit = (value, path, key) => {
    const isContainer = value instanceof Map || Array.isArray(value);
    const keyMatches = typeof key === "string" && pattern.test(key);
    if (keyMatches || (!isContainer && pattern.test(scalarText(value)))) {
      count++;
      if (matches.size < limit) matches.add(path);
    }
    if (value instanceof Map) for (const [k, child] of value) visit(child, appendSegment(path, k), k);
    else if (Array.isArray(value)) value.forEach((child, i) => visit(child, appendSegment(path, i), i));
  };
  for (const [key, child] of root) visit(child, appendSegment("", key), key);
  for (const path of matches) addAncestors(path, ancestors);
  return { matches, ancestors, count, truncated: count > matches.size };
}

/** Adds every ancestor of canonical `path` (cut at "." and "[" outside quoted keys) to `into`. */
function addAncestors(path, into) {
  into.add("");
  let quoted = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') {
      quoted = true;
    } else if ((c === "." || c === "[") && i > 0) {
      into.add(path.slice(0, i));
    }
  }
}

// Key-path completion for the write form: from what is typed so far, the existing paths it can continue to.

import { appendSegment, formatKeyPath, parseKeyPath } from "./keypath.mjs";
import { valueAt } from "./mirror.mjs";

/** The children of the container at `segments`, as full canonical paths, whose key starts with `partial`. */
function childPaths(root, segments, partial, limit) {
  const parent = segments.length ? valueAt(root, segments) : root;
  const base = formatKeyPath(segments);
  const out = [];
  if (parent instanceof Map) {
    for (const key of parent.keys()) {
      if (out.length === limit) break;
      if (key.startsWith(partial)) out.push(appendSegment(base, key));
    }
  } else if (Array.isArray(parent)) {
    for (let i = 0; i < parent.length && out.length < limit; i++) {
      if (String(i).startsWith(partial)) out.push(appendSegment(base, i));
    }
  }
  return out;
}

/**
 * Paths that complete `text` in `root`: the children of what it names, or the siblings its last name starts.
 * @param {Map<string, any>} root
 * @param {string} text
 * @param {number} [limit]
 * @returns {string[]}
 */
export function completePath(root, text, limit = 50) {
  let segments;
  try {
    segments = parseKeyPath(text);
  } catch {
    // Unfinished: complete the part after the last "." or "[".
    const cut = Math.max(text.lastIndexOf("."), text.lastIndexOf("["));
    try {
      segments = parseKeyPath(cut < 0 ? "" : text.slice(0, cut));
    } catch {
      return [];
    }
    return childPaths(root, segments, text.slice(cut + 1).replace(/^"/, ""), limit);
  }
  const results = new Set(childPaths(root, segments, "", limit));
  const last = segments[segments.length - 1];
  if (typeof last === "string") {
    for (const path of childPaths(root, segments.slice(0, -1), last, limit)) results.add(path);
  }
  return [...results].slice(0, limit).sort();
}

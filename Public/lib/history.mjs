// Key history: the writes that touched a watched path, its ancestors or its descendants. For a write to an
// ancestor, the value at the watched path before and after is read out of the patch's own old and new values, so
// "who changed this?" has an answer even when the change replaced a whole object.

import { parseKeyPath, pathRelation } from "./keypath.mjs";
import { valueAt } from "./mirror.mjs";

/**
 * @typedef {{relation: "self"|"ancestor"|"descendant", op: string, path: string, before: any, after: any,
 *   known: boolean}} HistoryStep  `before`/`after` are the values at the watched path (at the patch's own path for
 *   descendants); undefined means absent; `known` is false when the patch does not say what was there before
 */

/**
 * The steps of one change that concern `watched`.
 * @param {import("./protocol.mjs").Entry} entry
 * @param {string} watched a canonical path
 * @returns {HistoryStep[]}
 */
export function historySteps(entry, watched) {
  const steps = [];
  const watchedSegments = parseKeyPath(watched);
  for (const patch of entry.patches) {
    const relation = pathRelation(watched, patch.path);
    if (relation === null) continue;
    if (relation !== "ancestor") {
      steps.push({ relation, op: patch.op, path: patch.path, before: patch.old, after: patch.new, known: true });
      continue;
    }
    const inside = watchedSegments.slice(parseKeyPath(patch.path).length);
    const step = valuesInside(patch, inside);
    if (step) steps.push({ relation, op: patch.op, path: patch.path, ...step });
  }
  return steps;
}

/** The values at `inside` (a path below the patch's) before and after an ancestor patch; null when untouched. */
function valuesInside(patch, inside) {
  const read = (value) => (value === undefined ? undefined : valueAt(value, inside));
  switch (patch.op) {
    case "set": return { before: read(patch.old), after: read(patch.new), known: true };
    case "remove": return { before: read(patch.old), after: undefined, known: true };
    // An insert shifts what was at its index; the patch does not say what that was.
    case "insert": return { before: undefined, after: read(patch.new), known: false };
    default: {
      // merge: only the merged keys change; `old` lists the previous values of those that existed.
      const key = inside[0];
      if (!(patch.new instanceof Map) || !patch.new.has(key)) return null;
      const before = patch.old instanceof Map && patch.old.has(key) ? read(patch.old) : undefined;
      return { before, after: read(patch.new), known: true };
    }
  }
}

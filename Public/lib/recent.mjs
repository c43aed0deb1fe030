// Which paths changed a moment ago, so the tree can flash them: every path a patch touched and each of its
// ancestors (a collapsed parent flashes when something inside it changed), per store, for `window` milliseconds.

import { pathPrefixes } from "./keypath.mjs";

export class RecentChanges {
  /** @param {number} window how long a change counts as recent, in milliseconds */
  constructor(window = 1500) {
    this.window = window;
    /** @type {Map<string, Map<string, number>>} */
    this.byStore = new Map();
  }

  /**
   * @param {string} store
   * @param {import("./keypath.mjs").Segment[]} segments
   * @param {number} now milliseconds
   */
  record(store, segments, now) {
    let paths = this.byStore.get(store);
    if (!paths) this.byStore.set(store, (paths = new Map()));
    for (const prefix of pathPrefixes(segments)) paths.set(prefix, now);
  }

  /**
   * When `path` (or something below it) last changed, or 0.
   * @param {string} store
   * @param {string} path
   */
  at(store, path) {
    return this.byStore.get(store)?.get(path) ?? 0;
  }

  /** Forgets changes older than the window. @param {number} now */
  prune(now) {
    const oldest = now - this.window;
    for (const [store, paths] of this.byStore) {
      for (const [path, time] of paths) if (time < oldest) paths.delete(path);
      if (paths.size === 0) this.byStore.delete(store);
    }
  }

  clear() {
    this.byStore.clear();
  }
}

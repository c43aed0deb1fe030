// The client-side mirror of every store: a snapshot plus the log entries after it, applied as docs/protocol.md
// says ("Applying an entry to a state"). A patch that does not fit the mirror means the mirror is out of step with
// the server; it throws MirrorError and the caller asks for a fresh snapshot.

import { parseKeyPath } from "./keypath.mjs";
import { splitStoreId } from "./protocol.mjs";

/** The mirror and the server disagree (or an entry is inconsistent); a resync fixes it. */
export class MirrorError extends Error {}

const pathCacheLimit = 50_000;

/** Parsed key paths, reused: the same few paths change again and again. */
export class PathCache {
  constructor() { this.map = new Map(); }

  /**
   * @param {string} path
   * @returns {import("./keypath.mjs").Segment[]}
   */
  segments(path) {
    let segments = this.map.get(path);
    if (segments === undefined) {
      if (this.map.size >= pathCacheLimit) this.map.clear();
      segments = parseKeyPath(path);
      this.map.set(path, segments);
    }
    return segments;
  }
}

/**
 * The value at `segments` inside `value`, or undefined when there is none.
 * @param {any} value
 * @param {import("./keypath.mjs").Segment[]} segments
 */
export function valueAt(value, segments) {
  for (const segment of segments) {
    if (typeof segment === "string") {
      if (!(value instanceof Map)) return undefined;
      value = value.get(segment);
    } else {
      if (!Array.isArray(value) || typeof segment !== "number") return undefined;
      value = value[segment];
    }
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * The value at a key path given as text, or undefined when there is none or the path does not parse.
 * @param {any} root
 * @param {string} path
 */
export function valueAtPath(root, path) {
  try {
    return valueAt(root, parseKeyPath(path));
  } catch {
    return undefined;
  }
}

/**
 * Applies one patch to a store's root and returns the root (a new one when the patch replaced it).
 * @param {Map<string, any>} root
 * @param {import("./protocol.mjs").Patch} patch
 * @param {import("./keypath.mjs").Segment[]} segments the patch's parsed path
 * @returns {Map<string, any>}
 */
export function applyPatch(root, patch, segments) {
  const { op } = patch;
  const fail = (reason) => new MirrorError(`${op} at "${patch.path}": ${reason}`);
  if (segments.length === 0) {
    if (!(patch.new instanceof Map)) throw fail("the root can only be set or merged with an object");
    if (op === "set") return patch.new;
    if (op === "merge") {
      for (const [key, value] of patch.new) root.set(key, value);
      return root;
    }
    throw fail("the root cannot be removed or inserted into");
  }
  const parent = valueAt(root, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if (typeof last === "string") {
    if (!(parent instanceof Map)) throw fail("the parent is not an object");
    const present = parent.has(last);
    switch (op) {
      case "set":
        if (present !== (patch.old !== undefined)) throw fail(present ? "a value is there, the patch has no old" : "nothing is there, the patch has an old value");
        parent.set(last, patch.new);
        return root;
      case "remove":
        if (!present) throw fail("nothing is there to remove");
        parent.delete(last);
        return root;
      case "merge": {
        const target = parent.get(last);
        if (!(target instanceof Map) || !(patch.new instanceof Map)) throw fail("merge needs objects");
        for (const [key, value] of patch.new) target.set(key, value);
        return root;
      }
      default:
        throw fail("insert needs an index");
    }
  }
  if (!Array.isArray(parent) || typeof last !== "number") throw fail("the parent is not an array");
  switch (op) {
    case "set":
      if (last > parent.length) throw fail("index past the end");
      parent[last] = patch.new;
      return root;
    case "insert":
      if (last > parent.length) throw fail("index past the end");
      parent.splice(last, 0, patch.new);
      return root;
    case "remove":
      if (last >= parent.length) throw fail("index past the end");
      parent.splice(last, 1);
      return root;
    default: {
      const target = parent[last];
      if (!(target instanceof Map) || !(patch.new instanceof Map)) throw fail("merge needs objects");
      for (const [key, value] of patch.new) target.set(key, value);
      return root;
    }
  }
}

/** Every store's id, scope, storage, version and root, as of `seq`. */
export class Mirror {
  constructor() {
    /** @type {Map<string, import("./protocol.mjs").StoreState>} */
    this.stores = new Map();
    /** @type {number|null} the last change applied; null before the first snapshot */
    this.seq = null;
    this.paths = new PathCache();
  }

  /** @param {{seq: number, stores: import("./protocol.mjs").StoreState[]}} snapshot */
  load(snapshot) {
    this.stores = new Map(snapshot.stores.map((store) => [store.id, store]));
    this.seq = snapshot.seq;
  }

  /**
   * Applies one entry. Returns the parsed paths it touched (for the "just changed" flash), or null for a store
   * event that replaced a whole store.
   * @param {import("./protocol.mjs").Entry} entry
   * @returns {import("./keypath.mjs").Segment[][] | null}
   */
  apply(entry) {
    if (this.seq !== null && entry.seq !== this.seq + 1) {
      throw new MirrorError(`expected entry ${this.seq + 1}, got ${entry.seq}`);
    }
    const touched = this.applyUnchecked(entry);
    this.seq = entry.seq;
    return touched;
  }

  applyUnchecked(entry) {
    const { store: id, event } = entry;
    if (event === "registered") {
      const [scope, storage] = splitStoreId(id);
      this.stores.set(id, { id, scope, storage, version: entry.version, root: entry.root });
      return null;
    }
    if (event === "reset") {
      const store = this.stores.get(id);
      if (!store) throw new MirrorError(`reset of unknown store ${id}`);
      store.version = entry.version;
      store.root = new Map();
      return null;
    }
    if (event === "removed") {
      this.stores.delete(id);
      return null;
    }
    const store = this.stores.get(id);
    if (!store) throw new MirrorError(`change ${entry.seq} is for unknown store ${id}`);
    const touched = [];
    for (const patch of entry.patches) {
      const segments = this.paths.segments(patch.path);
      store.root = applyPatch(store.root, patch, segments);
      touched.push(segments);
    }
    return touched;
  }
}

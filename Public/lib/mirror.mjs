// The client-side mirror of every store: a snapshot plus the log entries after it, applied as docs/protocol.md
// says ("Applying an entry to a state"). A patch that does not fit the mirror means the mirror is out of step with
// the server; it throws MirrorError and the caller asks for a fresh snapshot.

import { stringifyValue } from "./json-writer.mjs";
import { parseKeyPath } from "./keypath.mjs";
import { splitStoreId } from "./protocol.mjs";

/** The mirror and the server disagree (or an entry is inconsistent); a resync fixes it. */
export class MirrorError extends Error {
  /**
   * @param {string} message
   * @param {string} [reason] why a patch does not fit, without the patch's op and path
   */
  constructor(message, reason = message) {
    super(message);
    this.reason = reason;
  }
}

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
 * The value at `segments` (the first `count` of them) inside `value`, or undefined when there is none.
 * @param {any} value
 * @param {import("./keypath.mjs").Segment[]} segments
 * @param {number} [count]
 */
export function valueAt(value, segments, count = segments.length) {
  for (let i = 0; i < count; i++) {
    const segment = segments[i];
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

/** A short text of a value (or "absent") for error messages. */
export function describe(value) {
  return value === undefined ? "absent" : stringifyValue(value, { maxLength: 80 });
}

/**
 * Applies one patch to a store's root and returns the root (a new one when the patch replaced it). The mirror does
 * not compare a patch's `old` with what it replaces (the server's entries are its own); a recording's reader does
 * (recording-state.mjs).
 * @param {Map<string, any>} root
 * @param {import("./protocol.mjs").Patch} patch
 * @param {import("./keypath.mjs").Segment[]} segments the patch's parsed path
 * @returns {Map<string, any>}
 * @throws {MirrorError} when the patch does not fit (`reason` says why)
 */
export function applyPatch(root, patch, segments) {
  const { op } = patch;
  const fail = (reason) => new MirrorError(`${op} at "${patch.path}": ${reason}`, reason);
  if (segments.length === 0) {
    if (!(patch.new instanceof Map)) throw fail("the root can only be set or merged with an object");
    if (op === "set") return patch.new;
    if (op === "merge") return merge(root, patch, fail, root);
    throw fail("the root cannot be removed or inserted into");
  }
  const parent = valueAt(root, segments, segments.length - 1);
  const last = segments[segments.length - 1];
  if (parent === undefined) throw fail("nothing is at the parent");
  if (typeof last === "string") {
    if (!(parent instanceof Map)) throw fail("the parent is not an object");
    if (op === "merge") return merge(parent.get(last), patch, fail, root);
    if (op !== "set" && op !== "remove") throw fail("insert needs an index");
    const present = parent.has(last);
    if (op === "set") {
      if (present !== (patch.old !== undefined)) throw fail(present ? "a value is there, the patch has no old" : "nothing is there, the patch has an old value");
      parent.set(last, patch.new);
    } else {
      if (!present) throw fail("nothing is there to remove");
      parent.delete(last);
    }
    return root;
  }
  if (!Array.isArray(parent) || typeof last !== "number") throw fail("the parent is not an array");
  if (last > (op === "set" || op === "insert" ? parent.length : parent.length - 1)) throw fail(`index past the end (${parent.length} elements)`);
  if (op === "merge") return merge(parent[last], patch, fail, root);
  if (op === "set") parent[last] = patch.new;
  else if (op === "insert") parent.splice(last, 0, patch.new);
  else if (op === "remove") parent.splice(last, 1);
  else throw fail(`unknown op ${op}`);
  return root;
}

/** Sets a merge patch's keys in `target`; returns `root`. */
function merge(target, patch, fail, root) {
  if (!(target instanceof Map)) throw fail(`a merge needs an object there, it is ${describe(target)}`);
  if (!(patch.new instanceof Map)) throw fail("a merge needs an object as its new value");
  for (const [key, value] of patch.new) target.set(key, value);
  return root;
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

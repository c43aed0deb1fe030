// The state of a recording's stores while the recording is read (recording-indexer.mjs): every patch applied as
// docs/protocol.md says ("Applying an entry to a state"), with its `old` checked against the value it replaces,
// presence included, as `keyscope replay` checks a log; and the state's JSON text for the snapshots.
//
// Values may still be raw (raw-value.mjs): the fast path of the reader hands them over that way, and they go into
// the state so. A raw array or object is built, in place, only when a patch reaches inside it; a raw value is
// compared with an `old` by its bytes first. The reasons a patch does not apply are mirror.mjs `applyPatch`'s, so
// the dashboard says the same of a bad recording whichever path read its line.
//
//   const state = new RecordingState();
//   state.stores.set(id, { id, version, root });
//   state.apply(state.stores.get(id), { op, path, segments, old, new: value });   // throws PatchError
//   const text = state.snapshotText();

import { describe } from "./mirror.mjs";
import { RawValue, isObject, plain, real, sameValue } from "./raw-value.mjs";
import { SnapshotText } from "./snapshot-text.mjs";

/** A patch that does not apply to the state; `message` is the reason. */
export class PatchError extends Error {}

/**
 * A patch with its path parsed; `old` and `new` are StoreValues or RawValues (merge: Maps), undefined when absent.
 * @typedef {{op: string, path: string, segments: import("./keypath.mjs").Segment[], old: any, new: any}} StatePatch
 */

/**
 * A store in the state.
 * @typedef {{id: string, version: string, root: Map<string, any>}} StoreState
 */

/** The value of `key` in a list of members (key, value, …), or undefined. */
function memberOf(members, key) {
  for (let i = 0; i < members.length; i += 2) if (members[i] === key) return members[i + 1];
  return undefined;
}

const fail = (reason) => new PatchError(reason);

const notOld = (what, current, old) => new PatchError(`${what} is ${describe(plain(current))}, the patch expected ${describe(plain(old))}`);

export class RecordingState {
  constructor() {
    /** @type {Map<string, StoreState>} every store in the state, in the order of the snapshots */
    this.stores = new Map();
    this.texts = new SnapshotText();
  }

  /**
   * Applies one patch to `store`, checking its `old` first. The containers it changes lose their kept text.
   * @param {StoreState} store
   * @param {StatePatch} patch
   * @throws {PatchError}
   */
  apply(store, patch) {
    const { op, segments } = patch;
    const value = patch.new;
    this.texts.forget(store.root);
    if (segments.length === 0) {
      if (!isObject(value)) throw fail("the root can only be set or merged with an object");
      if (op === "set") {
        if (!sameValue(store.root, patch.old)) throw notOld("the root", store.root, patch.old);
        store.root = real(value);
        return;
      }
      if (op === "merge") return this.merge(store.root, patch);
      throw fail("the root cannot be removed or inserted into");
    }
    const parent = this.walk(store.root, segments);
    const last = segments[segments.length - 1];
    if (parent === undefined) throw fail("nothing is at the parent");
    if (typeof last === "string") {
      if (!(parent instanceof Map)) throw fail("the parent is not an object");
      if (op === "merge") return this.merge(this.open(parent, last), patch);
      if (op !== "set" && op !== "remove") throw fail("insert needs an index");
      const current = parent.get(last);
      if (!sameValue(current, patch.old)) throw notOld(`"${patch.path}"`, current, patch.old);
      if (op === "set") parent.set(last, value);
      else if (current === undefined) throw fail("nothing is there to remove");
      else parent.delete(last);
      return;
    }
    if (!Array.isArray(parent) || typeof last !== "number") throw fail("the parent is not an array");
    if (last > (op === "set" || op === "insert" ? parent.length : parent.length - 1)) throw fail(`index past the end (${parent.length} elements)`);
    if (op === "merge") return this.merge(this.open(parent, last), patch);
    // An insert replaces nothing: there is no old value to compare.
    if (op !== "insert" && !sameValue(parent[last], patch.old)) throw notOld(`"${patch.path}"`, parent[last], patch.old);
    if (op === "set") parent[last] = value;
    else if (op === "insert") parent.splice(last, 0, value);
    else if (op === "remove") parent.splice(last, 1);
    else throw fail(`unknown op ${op}`);
  }

  /**
   * The container a patch at `segments` changes (its parent), or undefined when there is none; raw containers on
   * the way are built in place, and every container on the way loses its kept text.
   */
  walk(root, segments) {
    let value = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i];
      if (typeof segment === "string") {
        if (!(value instanceof Map)) return undefined;
        value = this.open(value, segment);
      } else {
        if (!Array.isArray(value) || typeof segment !== "number") return undefined;
        value = this.open(value, segment);
      }
      if (value === undefined) return undefined;
    }
    return value;
  }

  /** The child `key` of `parent` (a Map or an Array), built in place when it is a raw container, its text forgotten. */
  open(parent, key) {
    let child = parent instanceof Map ? parent.get(key) : parent[key];
    if (child instanceof RawValue && child.isContainer) {
      child = child.open();
      if (parent instanceof Map) parent.set(key, child);
      else parent[key] = child;
    }
    this.texts.forget(child);
    return child;
  }

  /** Sets a merge patch's keys in `target`, each key's old value checked first. */
  merge(target, patch) {
    if (!(target instanceof Map)) throw new PatchError(`a merge needs an object there, it is ${describe(plain(target))}`);
    if (!isObject(patch.new)) throw new PatchError("a merge needs an object as its new value");
    // Raw objects are read as lists of members (key, value, …), which a merge of a few keys needs no Map for.
    const members = patch.new instanceof RawValue ? patch.new.members() : [...patch.new].flat(1);
    const old = patch.old instanceof RawValue ? patch.old.members() : patch.old;
    for (let i = 0; i < members.length; i += 2) {
      const key = members[i];
      const current = target.get(key);
      const before = old instanceof Map ? old.get(key) : memberOf(old, key);
      if (!sameValue(current, before)) throw notOld(`key "${key}" of "${patch.path}"`, current, before);
    }
    for (let i = 0; i < members.length; i += 2) target.set(members[i], members[i + 1]);
  }

  /** The JSON text of every store's id, version and root, as a snapshot's `stores` array. */
  snapshotText() {
    const parts = [];
    for (const store of this.stores.values()) {
      parts.push(`{"id":${JSON.stringify(store.id)},"version":${JSON.stringify(store.version)},"root":${this.texts.text(store.root)}}`);
    }
    return `[${parts.join(",")}]`;
  }
}

// The JSON text of a recording's state for its snapshots (recording.mjs), with the text of every container that did
// not change since the last snapshot kept and reused.
//
// A snapshot is written every few thousand events, and a state is mostly what it was at the last one: a catalog
// of 400 products where a handful of stocks moved. Writing it whole each time was a tenth of reading a recording.
// Here each array and object (Map) keeps its text until a patch changes it; `changed` forgets the text of every
// container on a patch's way down (each of them is mutated in place or holds one that is), so what is written
// again is the changed containers, with their unchanged children's text pasted in. The text is exactly
// `stringifyValue(value, { sortKeys: false })`: compact, members in their order.
//
//   const texts = new SnapshotText();
//   texts.changed(root, segments, segments.length - 1);   // before a patch at `segments` changes its parent
//   const text = texts.text(root);

import { jsonKey, scalarJSON } from "./json-writer.mjs";

export class SnapshotText {
  constructor() {
    /** @type {WeakMap<object, string>} the text of each container, until it changes */
    this.cache = new WeakMap();
  }

  /**
   * Forgets the text of `root` and of the containers at the first `count` segments below it (as far as they are
   * there): call it before a patch changes the container at that depth.
   * @param {any} root
   * @param {import("./keypath.mjs").Segment[]} segments
   * @param {number} count
   */
  changed(root, segments, count) {
    let value = root;
    this.cache.delete(value);
    for (let i = 0; i < count; i++) {
      const segment = segments[i];
      if (value instanceof Map) value = value.get(segment);
      else if (Array.isArray(value) && typeof segment === "number") value = value[segment];
      else return;
      if (!(value instanceof Map) && !Array.isArray(value)) return;
      this.cache.delete(value);
    }
  }

  /**
   * The compact JSON of `value`, members in their order.
   * @param {import("./values.mjs").StoreValue} value
   * @returns {string}
   */
  text(value) {
    const scalar = scalarJSON(value);
    if (scalar !== undefined) return scalar;
    let text = this.cache.get(value);
    if (text !== undefined) return text;
    const parts = [];
    if (Array.isArray(value)) {
      for (const element of value) parts.push(this.text(element));
      text = `[${parts.join(",")}]`;
    } else {
      for (const [key, member] of value) parts.push(`${jsonKey(key)}:${this.text(member)}`);
      text = `{${parts.join(",")}}`;
    }
    this.cache.set(value, text);
    return text;
  }
}

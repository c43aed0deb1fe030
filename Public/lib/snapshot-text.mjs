// The JSON text of a recording's state for its snapshots (recording-state.mjs), with the text of every container
// that did not change since the last snapshot kept and reused.
//
// A snapshot is written every few thousand events, and a state is mostly what it was at the last one: a catalog
// of 400 products where a handful of stocks moved. Writing it whole each time was a tenth of reading a recording.
// Here each array and object (Map) keeps its text until a patch changes it: the state calls `forget` on every
// container on a patch's way down (each of them is mutated in place or holds one that is), so what is written
// again is the changed containers, with their unchanged children's text pasted in; numbers (Num) and keys keep
// their text too, as the same few are written again and again. The text is `stringifyValue(value, { sortKeys:
// false })` (compact, members in their order), except that a value still raw (raw-value.mjs) is pasted as the
// file has it: the same value, in the writer's form.
//
// The text is kept on the container itself, under a symbol of this SnapshotText's own: a WeakMap, asked on every
// container every patch passes through, cost a twentieth of reading a recording. The containers are the reader's
// own (built from the file, never handed out), so nothing else sees the property.
//
//   const texts = new SnapshotText();
//   texts.forget(container);   // before a patch changes it
//   const text = texts.text(root);

import { jsonKey, scalarJSON } from "./json-writer.mjs";
import { RawValue } from "./raw-value.mjs";

/** Keys whose text is kept at most (past it, the kept keys start again). */
const keyLimit = 10_000;

export class SnapshotText {
  constructor() {
    /** The property under which a container (or a Num, Color, Url) keeps its text, until it changes. */
    this.kept = Symbol("snapshot text");
    /** @type {Map<string, string>} the text of object keys */
    this.keys = new Map();
  }

  /**
   * Forgets the text of one container (call it before it changes); anything else is ignored.
   * @param {any} value
   */
  forget(value) {
    if (typeof value === "object" && value !== null && value[this.kept] !== undefined) value[this.kept] = undefined;
  }

  /**
   * The compact JSON of `value`, members in their order.
   * @param {import("./values.mjs").StoreValue|RawValue} value
   * @returns {string}
   */
  text(value) {
    if (typeof value !== "object" || value === null) return scalarJSON(value);
    if (value instanceof RawValue) return value.text();
    let text = value[this.kept];
    if (text !== undefined) return text;
    if (Array.isArray(value)) {
      const parts = [];
      for (const element of value) parts.push(this.text(element));
      text = `[${parts.join(",")}]`;
    } else if (value instanceof Map) {
      const parts = [];
      for (const [key, member] of value) parts.push(`${this.key(key)}:${this.text(member)}`);
      text = `{${parts.join(",")}}`;
    } else {
      text = scalarJSON(value);
    }
    value[this.kept] = text;
    return text;
  }

  /** The text of an object key (quoted, `$`-escaped). */
  key(key) {
    let text = this.keys.get(key);
    if (text === undefined) {
      if (this.keys.size >= keyLimit) this.keys.clear();
      text = jsonKey(key);
      this.keys.set(key, text);
    }
    return text;
  }
}

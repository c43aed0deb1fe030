// The Tunables panel's model, without DOM: the panel description the server sends (`GET /api/tunables`), the
// control each tunable gets (from its schema entry, else from its value's type), and the rows the page draws:
// grouped, sorted, searchable, each marked modified when its value is not its default by StoreValue equality.

import { compareScalars, stringifyValue } from "./json-writer.mjs";
import { numberText } from "./format.mjs";
import { Color, Num, typeName, valuesEqual } from "./values.mjs";

/** The schema's types (TunablesSchema.ValueType). */
export const tunableTypes = ["number", "integer", "string", "bool", "color", "url"];

/** The heading of tunables whose schema entry names no group. */
export const otherGroup = "Other";

/**
 * @typedef {{type: string|null, min: any, max: any, step: any, options: any[]|null, description: string,
 *   group: string, required: boolean}} SchemaEntry   min, max, step and options are StoreValues (or undefined/null)
 * @typedef {{store: string, values: Map<string, any>, defaults: Map<string, any>,
 *   schema: Map<string, SchemaEntry>|null, additionalKeys: boolean}} TunablesPanel   additionalKeys: whether new
 *   keys may be created (false under a schema closed with "additionalKeys": false)
 * @typedef {{kind: "slider"|"stepper"|"number"|"toggle"|"select"|"color"|"text"|"url"|"json",
 *   type: string, min?: number, max?: number, step?: number, options?: Array<{json: string, label: string}>}} Control
 * @typedef {{present: boolean, json: string, text: string, number?: number, checked?: boolean,
 *   picker?: string, alpha?: string, selected?: number}} ValueShown   what a control shows for a value
 * @typedef {{key: string, group: string, description: string, allowed: string, control: Control,
 *   value: ValueShown, defaultValue: ValueShown|null, modified: boolean, isNew: boolean, removable: boolean}} TunableRow
 *   isNew: the defaults lack the key (someone added it); removable: it has a value the schema does not require
 */

/**
 * Reads the body of `GET /api/tunables` (already read by the StoreValue JSON reader) into a panel description.
 * @param {any} body
 * @returns {TunablesPanel}
 * @throws {TypeError} with a message naming the member that is wrong
 */
export function readTunablesPanel(body) {
  if (!(body instanceof Map)) throw new TypeError("the answer is not a JSON object");
  const store = body.get("store");
  const values = body.get("values");
  const defaults = body.get("defaults") ?? new Map();
  const schema = body.get("schema") ?? null;
  if (typeof store !== "string") throw new TypeError('"store" should be a string');
  if (!(values instanceof Map)) throw new TypeError('"values" should be an object');
  if (!(defaults instanceof Map)) throw new TypeError('"defaults" should be an object');
  if (schema !== null && !(schema instanceof Map)) throw new TypeError('"schema" should be an object or null');
  // Servers from before open tunables do not send it; they refused new keys.
  const additionalKeys = body.has("additionalKeys") ? body.get("additionalKeys") === true : false;
  let entries = null;
  if (schema) {
    entries = new Map();
    for (const [key, raw] of schema) {
      if (!(raw instanceof Map)) throw new TypeError(`schema entry "${key}" should be an object`);
      entries.set(key, readEntry(raw));
    }
  }
  return { store, values, defaults, schema: entries, additionalKeys };
}

/** @returns {SchemaEntry} */
function readEntry(raw) {
  const text = (name) => (typeof raw.get(name) === "string" ? raw.get(name) : "");
  const type = raw.get("type");
  const options = raw.get("options");
  return {
    type: tunableTypes.includes(type) ? type : null,
    min: raw.get("min"),
    max: raw.get("max"),
    step: raw.get("step"),
    options: Array.isArray(options) && options.length > 0 ? options : null,
    description: text("description"),
    group: text("group"),
    required: raw.get("required") !== false,
  };
}

/**
 * The type a control edits when no schema says: the value's own docs/store.md type ("json" for null and containers).
 * @param {any} value a StoreValue or undefined
 */
export function inferType(value) {
  if (value === undefined) return "json";
  const type = typeName(value);
  return tunableTypes.includes(type) ? type : "json";
}

/** A schema bound as a JS number, or null when absent or unusable (non-finite, beyond 2^53). */
function bound(value) {
  if (typeof value === "number") return value;
  if (value instanceof Num && Number.isFinite(value.value)) return value.value;
  return null;
}

/**
 * A slider step when the schema gives none: a round 1, 2 or 5 × 10^n that cuts the range into about 100 steps.
 * @param {number} min
 * @param {number} max
 */
export function defaultStep(min, max) {
  const span = max - min;
  if (!(span > 0) || !Number.isFinite(span)) return 1;
  const rough = span / 100;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  return Number(step.toPrecision(12));
}

/**
 * The control for a tunable: options → select; a number or integer with both min and max → slider (with a
 * number field); another integer → stepper; another number → number field; bool → toggle; color → picker and
 * hex field; url → URL field; string → text field; anything else → a JSON field.
 * @param {SchemaEntry|undefined} entry
 * @param {any} value the current value (used when the schema does not say)
 * @returns {Control}
 */
export function controlFor(entry, value) {
  const type = entry?.type ?? inferType(value);
  if (entry?.options) {
    return { kind: "select", type, options: entry.options.map((option) => ({ json: stringifyValue(option), label: shownText(option) })) };
  }
  if (type === "integer" || type === "number") {
    const min = bound(entry?.min);
    const max = bound(entry?.max);
    let step = bound(entry?.step);
    if (type === "integer" && step === null) step = 1;
    if (min !== null && max !== null && max > min) return { kind: "slider", type, min, max, step: step ?? defaultStep(min, max) };
    const control = { kind: type === "integer" ? "stepper" : "number", type };
    if (min !== null) control.min = min;
    if (max !== null) control.max = max;
    if (step !== null) control.step = step;
    return control;
  }
  const kinds = { bool: "toggle", color: "color", url: "url", string: "text" };
  return { kind: kinds[type] ?? "json", type };
}

/**
 * A value as the text a field shows for it: integers bare, numbers always with a fraction (`3.0`), strings
 * unquoted, colors and urls as their text; the rest as JSON.
 * @param {any} value
 */
export function shownText(value) {
  switch (typeName(value)) {
    case "string": return value;
    case "integer": case "bool": return String(value);
    case "number": return numberText(value.value);
    case "color": return value.hex;
    case "url": return value.href;
    default: return stringifyValue(value);
  }
}

/**
 * What a control shows for a value (plain data, safe to post from the worker to the page).
 * @param {any} value a StoreValue, or undefined when the tunable has no value
 * @param {Control} control
 * @returns {ValueShown}
 */
export function showValue(value, control) {
  if (value === undefined) return { present: false, json: "", text: "" };
  const shown = { present: true, json: stringifyValue(value), text: shownText(value) };
  const type = typeName(value);
  if (type === "integer") shown.number = Number(value);
  if (type === "number") shown.number = value.value;
  if (type === "bool") shown.checked = value;
  if (value instanceof Color) {
    shown.picker = value.hex.slice(0, 7).toLowerCase();
    shown.alpha = value.hex.slice(7);
  }
  if (control.kind === "select") shown.selected = control.options.findIndex((o) => o.json === shown.json || sameOption(value, o.json));
  return shown;
}

/** As the server matches options: numbers by value (`1` is the option `1.0`), colors ignoring case. */
function sameOption(value, optionJSON) {
  const type = typeName(value);
  if (type === "integer" || type === "number") {
    const x = type === "integer" ? Number(value) : value.value;
    return /^-?[0-9]/.test(optionJSON) && Number(optionJSON) === x;
  }
  if (value instanceof Color) return optionJSON.toUpperCase() === stringifyValue(value).toUpperCase();
  return false;
}

/**
 * In words, what the schema allows: `24 to 120, steps of 4`, `at least 0`, `one of 3`.
 * @param {SchemaEntry|undefined} entry
 */
export function allowedText(entry) {
  if (!entry) return "";
  if (entry.options) return `one of ${entry.options.length}`;
  const show = (v) => (v === undefined || v === null ? null : shownText(v));
  const [min, max, step] = [show(entry.min), show(entry.max), show(entry.step)];
  const parts = [];
  if (min !== null && max !== null) parts.push(`${min} to ${max}`);
  else if (min !== null) parts.push(`at least ${min}`);
  else if (max !== null) parts.push(`at most ${max}`);
  if (step !== null) parts.push(`steps of ${step}`);
  return parts.join(", ");
}

/**
 * Every tunable as a row: the keys of the schema, the defaults and the live values together.
 * @param {TunablesPanel} panel
 * @param {Map<string, any>} values the live values (the store's root in the mirror, else the panel's own)
 * @returns {TunableRow[]} sorted by group, then key
 */
export function tunableRows(panel, values) {
  const keys = new Set([...values.keys(), ...panel.defaults.keys(), ...(panel.schema?.keys() ?? [])]);
  const rows = [...keys].map((key) => {
    const entry = panel.schema?.get(key);
    const value = values.get(key);
    const fallback = panel.defaults.get(key);
    const control = controlFor(entry, value ?? fallback);
    return {
      key,
      group: entry?.group || otherGroup,
      description: entry?.description ?? "",
      allowed: allowedText(entry),
      control,
      value: showValue(value, control),
      defaultValue: fallback === undefined ? null : showValue(fallback, control),
      // A tunable without a default has nothing to be reset to, so it is never "modified".
      modified: fallback !== undefined && (value === undefined || !valuesEqual(value, fallback)),
      isNew: fallback === undefined,
      removable: value !== undefined && entry?.required !== true,
    };
  });
  return rows.sort(compareRows);
}

/** Groups in name order with "Other" last; keys in canonical (scalar) order within a group. */
function compareRows(a, b) {
  if (a.group !== b.group) {
    if (a.group === otherGroup) return 1;
    if (b.group === otherGroup) return -1;
    return compareScalars(a.group, b.group);
  }
  return compareScalars(a.key, b.key);
}

/**
 * Whether a row matches a search: every word of the query (case-insensitive) is in its key, description or group.
 * @param {TunableRow} row
 * @param {string} query
 */
export function rowMatches(row, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${row.key}\n${row.description}\n${row.group}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * The rows that match a search, as groups in display order.
 * @param {TunableRow[]} rows already sorted (see tunableRows)
 * @param {string} query
 * @returns {Array<{name: string, rows: TunableRow[]}>}
 */
export function groupRows(rows, query = "") {
  const groups = [];
  for (const row of rows) {
    if (!rowMatches(row, query)) continue;
    if (groups.length === 0 || groups[groups.length - 1].name !== row.group) groups.push({ name: row.group, rows: [] });
    groups[groups.length - 1].rows.push(row);
  }
  return groups;
}

/**
 * The header's counts: `12 tunables · 3 modified` (`· 5 shown` while a search hides some).
 * @param {TunableRow[]} rows
 * @param {number} [shown] how many rows the search leaves
 */
export function countsText(rows, shown = rows.length) {
  const modified = rows.filter((r) => r.modified).length;
  const text = `${rows.length} tunable${rows.length === 1 ? "" : "s"} · ${modified} modified`;
  return shown === rows.length ? text : `${text} · ${shown} shown`;
}

/** The longest tunable key, in UTF-8 bytes (the server's TunePath.maxKeyBytes). */
export const maxKeyBytes = 256;

/**
 * Why `key` cannot be a new tunable's key, or null when it can: the server's rule (1 to 256 bytes of UTF-8, no
 * `/`, no control characters) and a key that is not a tunable already.
 * @param {string} key
 * @param {Set<string>|Map<string, any>} existing the keys that are tunables already
 */
export function newKeyProblem(key, existing) {
  if (key === "") return "Type a key.";
  const bytes = new TextEncoder().encode(key).length;
  if (bytes > maxKeyBytes) return `The key is ${bytes} bytes long; a tunable key has at most ${maxKeyBytes}.`;
  if (key.includes("/")) return "A tunable key cannot hold “/”.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) return "A tunable key cannot hold control characters.";
  if (existing.has(key)) return `“${key}” is a tunable already: edit its row.`;
  return null;
}

// The Preferences panel's model, without DOM: the panel the server sends (`GET /api/preferences`,
// docs/preferences.md) read and checked, each preference as a row the page draws (value text, editor, redaction),
// the segments, the search and the grouping by container, and a throttle for re-fetches. What an edit's text
// becomes, and the `preference` request, are in preference-input.mjs.

import { describeValue, numberText } from "./format.mjs";
import { compareScalars, stringifyValue } from "./json-writer.mjs";
import { parseTime } from "./time.mjs";
import { typeName } from "./values.mjs";

/** The stored types a preference can have. */
export const preferenceTypes = ["string", "integer", "number", "bool", "date", "data", "array", "object"];

/** The panel's segments: every preference, the UserDefaults suites, the secret services. */
export const segments = ["all", "userDefaults", "secrets"];

/** Names of sources and segments on screen. */
export const sourceLabels = { all: "All", userDefaults: "UserDefaults", secrets: "Secrets" };

/** A redacted secret's value: `••••` and its length in bytes, `•••• (12)`. */
export const placeholderPattern = /^\u2022{4} \(\d+\)$/;

/**
 * @typedef {{source: string, container: string, store: string, location: string, count: number}} Container
 * @typedef {{id: string, key: string, value: any, type: string, source: string, container: string, store: string,
 *   timestamp: string, redacted: boolean, length: number|null, system: boolean}} Item   `value` is a StoreValue
 * @typedef {{editing: boolean, reveal: boolean, showSystemKeys: boolean, containers: Container[],
 *   items: Item[]}} PreferencesPanel
 * @typedef {"text"|"secret"|"integer"|"number"|"toggle"|"date"|"data"|"json"} EditorKind
 * @typedef {{id: string, key: string, source: string, container: string, store: string, type: string,
 *   timestamp: string, redacted: boolean, length: number|null, system: boolean, json: string,
 *   value: {type: string, text: string}, editor: EditorKind, edit: string, checked?: boolean}} PreferenceRow
 *   plain data, safe to post from the worker to the page; `edit` is the editor's starting text ("" for secrets)
 */

const isString = (v) => typeof v === "string";

function member(object, key, check, what, where) {
  const value = object.get(key);
  if (!check(value)) throw new TypeError(`${where}: "${key}" should be ${what}`);
  return value;
}

/**
 * Reads the body of `GET /api/preferences` (already read by the StoreValue JSON reader).
 * @param {any} body
 * @returns {PreferencesPanel}
 * @throws {TypeError} naming the member that is wrong
 */
export function readPreferencesPanel(body) {
  if (!(body instanceof Map)) throw new TypeError("the answer is not a JSON object");
  const flag = (key) => body.get(key) === true;
  const containers = member(body, "containers", Array.isArray, "an array", "the panel").map((raw, i) => {
    const where = `containers[${i}]`;
    if (!(raw instanceof Map)) throw new TypeError(`${where} should be an object`);
    const count = raw.get("count");
    return {
      source: member(raw, "source", isString, "a string", where),
      container: member(raw, "container", isString, "a string", where),
      store: member(raw, "store", isString, "a string", where),
      location: isString(raw.get("location")) ? raw.get("location") : "",
      count: typeof count === "number" ? count : 0,
    };
  });
  const items = member(body, "items", Array.isArray, "an array", "the panel").map((raw, i) => {
    const where = `items[${i}]`;
    if (!(raw instanceof Map)) throw new TypeError(`${where} should be an object`);
    if (!raw.has("value")) throw new TypeError(`${where}: "value" is missing`);
    const length = raw.get("length");
    const type = raw.get("type");
    const value = raw.get("value");
    const key = member(raw, "key", isString, "a string", where);
    const source = member(raw, "source", isString, "a string", where);
    const container = member(raw, "container", isString, "a string", where);
    return {
      id: isString(raw.get("id")) ? raw.get("id") : `${source}/${container}/${key}`,
      key, source, container, value,
      type: preferenceTypes.includes(type) ? type : inferredType(value),
      store: isString(raw.get("store")) ? raw.get("store") : "",
      timestamp: isString(raw.get("timestamp")) ? raw.get("timestamp") : "",
      redacted: raw.get("redacted") === true,
      length: typeof length === "number" ? length : null,
      system: raw.get("system") === true,
    };
  });
  items.sort(compareItems);
  return { editing: flag("editing"), reveal: flag("reveal"), showSystemKeys: flag("showSystemKeys"), containers, items };
}

/** A type the server did not name, from the value (colors and urls are not preference types: strings). */
function inferredType(value) {
  const type = typeName(value);
  return preferenceTypes.includes(type) ? type : "string";
}

/** By source (UserDefaults first), container, key: the server's order, kept when it already is. */
function compareItems(a, b) {
  return compareSource(a.source, b.source) || compareScalars(a.container, b.container) || compareScalars(a.key, b.key);
}

function compareSource(a, b) {
  const rank = (s) => (s === "userDefaults" ? 0 : s === "secrets" ? 1 : 2);
  return rank(a) - rank(b) || compareScalars(a, b);
}

/**
 * The editor a preference gets: its stored type's, a masked field for a redacted secret.
 * @param {string} type
 * @param {boolean} redacted
 * @returns {EditorKind}
 */
export function editorKind(type, redacted) {
  if (redacted) return "secret";
  switch (type) {
    case "integer": return "integer";
    case "number": return "number";
    case "bool": return "toggle";
    case "date": return "date";
    case "data": return "data";
    case "array": case "object": return "json";
    default: return "text";
  }
}

/**
 * The text an editor starts with: strings as they are, numbers with a fraction (`0.8`, `1.0`), a date's ISO
 * 8601 string, data's base64, arrays and objects as indented JSON; nothing for a redacted secret.
 * @param {Item} item
 */
export function editText(item) {
  if (item.redacted) return "";
  const { value } = item;
  switch (typeName(value)) {
    case "string": return value;
    case "integer": case "bool": return String(value);
    case "number": return numberText(value.value);
    case "null": return "";
    default: return stringifyValue(value, { indent: 2 });
  }
}

/**
 * How a value looks in its row: a redacted secret as the server's placeholder, a date and data as their text,
 * the rest as the log and the tree show values (`"dark"`, `14`, `0.8`, `["a", "b"]`).
 * @param {Item} item
 * @returns {{type: string, text: string}}
 */
export function valueView(item) {
  if (item.redacted) return { type: "redacted", text: isString(item.value) ? item.value : redactedText(item.length ?? 0) };
  if ((item.type === "date" || item.type === "data") && isString(item.value)) return { type: item.type, text: item.value };
  const view = describeValue(item.value, 160);
  return { type: view.type, text: view.text };
}

/**
 * A redacted secret's placeholder for `length` bytes.
 * @param {number} length
 */
export function redactedText(length) {
  return `\u2022\u2022\u2022\u2022 (${length})`;
}

/**
 * The badge beside a redacted secret: `redacted · 24 bytes`.
 * @param {{length: number|null}} row
 */
export function redactionLabel(row) {
  if (row.length === null) return "redacted";
  return `redacted · ${row.length} byte${row.length === 1 ? "" : "s"}`;
}

/**
 * A preference as the row the page draws.
 * @param {Item} item
 * @returns {PreferenceRow}
 */
export function preferenceRow(item) {
  const row = {
    id: item.id, key: item.key, source: item.source, container: item.container, store: item.store, type: item.type,
    timestamp: item.timestamp, redacted: item.redacted, length: item.length, system: item.system,
    json: stringifyValue(item.value), value: valueView(item), editor: editorKind(item.type, item.redacted), edit: editText(item),
  };
  if (row.editor === "toggle") row.checked = item.value === true;
  return row;
}

/**
 * Whether a row is in a segment and matches a search: every word (case-insensitive) is in its key, its container
 * or its value's text.
 * @param {PreferenceRow} row
 * @param {string} segment one of `segments`
 * @param {string} query
 */
export function rowMatches(row, segment, query) {
  if (segment !== "all" && row.source !== segment) return false;
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${row.key}\n${row.container}\n${row.value.text}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * @typedef {{source: string, container: string, store: string, location: string, total: number,
 *   rows: PreferenceRow[]}} PreferenceGroup
 */

/**
 * The rows of a segment that match a search, grouped by container (suite or service) in display order. Without a
 * search every container of the segment is listed, also those without keys; with one, only those with matches.
 * @param {Container[]} containers
 * @param {PreferenceRow[]} rows
 * @param {{segment?: string, query?: string}} [filter]
 * @returns {PreferenceGroup[]}
 */
export function groupPreferences(containers, rows, { segment = "all", query = "" } = {}) {
  const groups = new Map();
  const groupOf = (source, container, store = "", location = "") => {
    const id = `${source}\u0000${container}`;
    let group = groups.get(id);
    if (!group) groups.set(id, group = { source, container, store, location, total: 0, rows: [] });
    return group;
  };
  for (const c of containers) if (segment === "all" || c.source === segment) groupOf(c.source, c.container, c.store, c.location);
  for (const row of rows) {
    if (segment !== "all" && row.source !== segment) continue;
    const group = groupOf(row.source, row.container, row.store);
    group.total++;
    if (rowMatches(row, segment, query)) group.rows.push(row);
  }
  const searching = query.trim() !== "";
  return [...groups.values()]
    .filter((g) => !searching || g.rows.length > 0)
    .sort((a, b) => compareSource(a.source, b.source) || compareScalars(a.container, b.container));
}

/**
 * How many preferences each segment has.
 * @param {PreferenceRow[]} rows
 * @returns {Record<string, number>}
 */
export function segmentCounts(rows) {
  const counts = { all: rows.length, userDefaults: 0, secrets: 0 };
  for (const row of rows) if (row.source in counts && row.source !== "all") counts[row.source]++;
  return counts;
}

/**
 * The header's counts: `9 preferences in 3 containers` (`· 2 shown` while a segment or search hides some).
 * @param {number} total
 * @param {number} containers
 * @param {number} shown
 */
export function countsText(total, containers, shown = total) {
  const text = `${total} preference${total === 1 ? "" : "s"} in ${containers} container${containers === 1 ? "" : "s"}`;
  return shown === total ? text : `${text} · ${shown} shown`;
}

/**
 * A preference's timestamp, short: the local clock today (`10:04:05`), else the local day and minute
 * (`2026-11-21 10:04`); the text itself when it is not a time.
 * @param {string} text RFC 3339
 * @param {number} now milliseconds
 */
export function timestampText(text, now) {
  const time = parseTime(text);
  if (Number.isNaN(time)) return text;
  const date = new Date(time);
  const today = new Date(now);
  const two = (x) => String(x).padStart(2, "0");
  const clock = `${two(date.getHours())}:${two(date.getMinutes())}`;
  const sameDay = date.getFullYear() === today.getFullYear() && date.getMonth() === today.getMonth() && date.getDate() === today.getDate();
  return sameDay ? `${clock}:${two(date.getSeconds())}` : `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${clock}`;
}

/**
 * Runs a function at most once per interval: the first call at once, calls within the interval after it merge
 * into one run at its end (the last call always leads to a run).
 */
export class Throttle {
  /**
   * @param {() => void} run
   * @param {number} intervalMs
   * @param {{now?: () => number, setTimer?: (f: () => void, ms: number) => any, clearTimer?: (t: any) => void}} [clock]
   */
  constructor(run, intervalMs, { now = () => Date.now(), setTimer = (f, ms) => setTimeout(f, ms), clearTimer = (t) => clearTimeout(t) } = {}) {
    Object.assign(this, { run, intervalMs, now, setTimer, clearTimer });
    this.last = -Infinity;
    this.timer = null;
  }

  /** Asks for a run: now, or at the end of the interval when one ran within it. */
  poke() {
    if (this.timer !== null) return;
    const wait = this.last + this.intervalMs - this.now();
    if (wait <= 0) return this.fire();
    this.timer = this.setTimer(() => this.fire(), wait);
  }

  fire() {
    this.timer = null;
    this.last = this.now();
    this.run();
  }

  /** Drops a pending run. */
  cancel() {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }
}

// What the Preferences panel's editors send, without DOM: text typed for a preference becomes StoreValue JSON of
// the key's stored type (an integer stays `14`, a number is `0.8` or `1.0`, a date is ISO 8601 in UTC, data is
// base64, arrays and objects are JSON of that kind), the datetime field's local time goes to and from ISO 8601, and
// the WebSocket `preference` request (docs/preferences.md) is written.

import { describeValue } from "./format.mjs";
import { JSONValueError, parseJSON } from "./json-reader.mjs";
import { stringifyValue } from "./json-writer.mjs";
import { typeName } from "./values.mjs";
import { lineAndColumn, readValueInput } from "./value-input.mjs";

/**
 * @typedef {{ok: true, json: string, text: string} | {ok: false, message: string}} EditInput
 *   `json` is the value to send (StoreValue JSON), `text` what the row shows for it
 */

const isoPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO 8601 date and time with a zone (`2026-11-21T10:00:00Z`, `…10:00:00.250+01:00`), as milliseconds since
 * the epoch; NaN when it is not one or names a day or time that does not exist (February 30, 25:00).
 * @param {string} text
 */
export function parseISODate(text) {
  const match = isoPattern.exec(text.trim());
  if (!match) return NaN;
  const [, y, mo, d, h, mi, s = "0"] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return NaN;
  if (hour > 23 || minute > 59 || second > 59) return NaN;
  const zone = match[8] === "Z" ? "Z" : match[8].replace(/^([+-]\d{2}):?(\d{2})$/, "$1:$2");
  const millis = (match[7] ?? "").slice(0, 3).padEnd(3, "0");
  return Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s.padStart(2, "0")}.${millis}${zone}`);
}

/**
 * A date's ISO 8601 text as the value of an `<input type="datetime-local">` (local time, milliseconds kept), or ""
 * when it is not a date.
 * @param {string} iso
 */
export function dateInputValue(iso) {
  const time = parseISODate(iso);
  if (Number.isNaN(time)) return "";
  const date = new Date(time);
  const two = (x) => String(x).padStart(2, "0");
  const ms = date.getMilliseconds();
  return `${String(date.getFullYear()).padStart(4, "0")}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}${ms ? `.${String(ms).padStart(3, "0")}` : ""}`;
}

/**
 * A datetime-local input's value (local time) as the ISO 8601 text sent for a date (UTC, milliseconds), or null.
 * @param {string} local `YYYY-MM-DDTHH:MM`, with seconds and a fraction or not
 */
export function dateFromInput(local) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(local.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second = 0] = match.slice(1, 7).map((p) => Number(p ?? 0));
  const ms = Number((match[7] ?? "").padEnd(3, "0"));
  const date = new Date(year, month - 1, day, hour, minute, second, ms);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * Whether text is base64 (the standard alphabet, padded; spaces and line breaks ignored).
 * @param {string} text
 */
export function isBase64(text) {
  const compact = text.replace(/\s+/g, "");
  return compact.length % 4 === 0 && /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact);
}

/**
 * What an edit's text becomes in a preference's stored type. Strings are taken as typed; integers and numbers by
 * the docs/store.md rules (`3` is sent as `3.0` for a number); a date must be ISO 8601 with a zone and is sent in UTC;
 * data must be base64; arrays and objects are JSON of that kind.
 * @param {string} type the preference's stored type
 * @param {string} text
 * @returns {EditInput}
 */
export function readPreferenceEdit(type, text) {
  const bad = (message) => ({ ok: false, message });
  switch (type) {
    case "string":
      return { ok: true, json: stringifyValue(text), text: describeValue(text, 160).text };
    case "integer": case "number": case "bool": {
      const read = readValueInput(type, text);
      return read.ok ? { ok: true, json: read.json, text: describeValue(read.value).text } : read;
    }
    case "date": {
      const time = parseISODate(text);
      if (Number.isNaN(time)) return bad("A date is ISO 8601 with a time zone, like 2026-11-21T10:00:00Z");
      const iso = new Date(time).toISOString();
      return { ok: true, json: stringifyValue(iso), text: iso };
    }
    case "data": {
      const compact = text.replace(/\s+/g, "");
      if (!isBase64(compact)) return bad("Data is base64 (A–Z, a–z, 0–9, + and /, padded with = to a multiple of 4)");
      return { ok: true, json: stringifyValue(compact), text: compact };
    }
    case "array": case "object": {
      if (text.trim() === "") return bad(`Type a JSON ${type}, like ${type === "array" ? '["a", "b"]' : '{"a": 1}'}`);
      let value;
      try {
        value = parseJSON(text);
      } catch (error) {
        if (!(error instanceof JSONValueError)) throw error;
        const { line, column } = lineAndColumn(text, error.offset);
        return bad(`Not valid JSON: ${error.reason} (line ${line}, column ${column})`);
      }
      const got = typeName(value);
      if (got !== type) return bad(`This preference holds an ${type}; the text is ${got === "integer" || got === "array" || got === "object" ? "an" : "a"} ${got}`);
      return { ok: true, json: stringifyValue(value), text: describeValue(value, 160).text };
    }
    default:
      return bad(`Preferences of type ${type} cannot be edited here`);
  }
}

/**
 * A `preference` request (docs/preferences.md) as JSON text: set one value, delete one key, or rescan.
 * @param {number} id
 * @param {{op: "set"|"delete"|"refresh", source?: string, container?: string, key?: string, json?: string}} request
 *   `json` is the value as StoreValue JSON text, for set
 */
export function preferenceRequest(id, { op, source, container, key, json }) {
  const head = `{"id":${id},"type":"preference","op":${JSON.stringify(op)}`;
  if (op === "refresh") return `${head}}`;
  const target = `,"source":${JSON.stringify(source)},"container":${JSON.stringify(container)},"key":${JSON.stringify(key)}`;
  return op === "set" ? `${head}${target},"value":${json}}` : `${head}${target}}`;
}

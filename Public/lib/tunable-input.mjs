// What the Tunables panel's controls send, without DOM: text typed in a field, a slider's position, a stepper's
// click or a picked color become StoreValue JSON of the tunable's own type (an integer stays `4`, a number is
// `4.0`); and the files it exports and imports (the whole set of tunables as one JSON object).

import { previewText } from "./format.mjs";
import { JSONValueError, parseJSON } from "./json-reader.mjs";
import { compareScalars, stringifyValue } from "./json-writer.mjs";
import { Num, typeName, valuesEqual } from "./values.mjs";
import { lineAndColumn, readValueInput } from "./value-input.mjs";
import { shownText } from "./tunables.mjs";

/** The value-input mode that reads each control type's text. */
const modes = { integer: "integer", number: "number", string: "string", color: "color", url: "url", json: "json", bool: "bool" };

/**
 * @typedef {{ok: true, json: string, text: string} | {ok: false, message: string}} ControlInput
 *   `json` is what to send, `text` what the field shows for it afterwards
 */

/**
 * Reads what was typed into a tunable's field, in the control's type. Ranges are not checked here: the server
 * does that and its message says what is allowed.
 * @param {import("./tunables.mjs").Control} control
 * @param {string} text
 * @returns {ControlInput}
 */
export function readControlInput(control, text) {
  const read = readValueInput(modes[control.type] ?? "json", text);
  return read.ok ? { ok: true, json: read.json, text: shownText(read.value) } : read;
}

/**
 * Reads the value typed for a new tunable: JSON as in docs/store.md (`64` an integer, `1.5` a number, `true`,
 * `{"$color": "#FF8800"}`, `"64"` a string), or, when the text is not JSON, the text itself as a string
 * (`Welcome back!`).
 * @param {string} text
 * @returns {ControlInput}
 */
export function readNewValue(text) {
  if (text.trim() === "") return { ok: false, message: "Type a value: JSON (64, 1.5, true, \"text\") or plain text." };
  let value;
  try {
    value = parseJSON(text);
  } catch (error) {
    if (!(error instanceof JSONValueError)) throw error;
    value = text;
  }
  return { ok: true, json: stringifyValue(value), text: shownText(value) };
}

/**
 * The number of decimals that `x` is written with (`0.05` → 2, `1e-7` → 7, `4` → 0).
 * @param {number} x
 */
export function decimals(x) {
  const [mantissa, exponent] = String(x).split("e");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/**
 * `x` moved to the nearest `min + k × step`, within [min, max], without binary noise (0.1 + 0.2 is 0.3 here).
 * @param {number} x
 * @param {{min?: number, max?: number, step?: number}} range
 */
export function snapToStep(x, { min, max, step }) {
  let y = x;
  if (step) {
    const base = min ?? 0;
    y = base + Math.round((x - base) / step) * step;
    y = Number(y.toFixed(Math.min(20, Math.max(decimals(step), decimals(base)))));
  }
  if (min !== undefined && y < min) y = min;
  if (max !== undefined && y > max) y = max;
  return y;
}

/** A JS number as the tunable's type: an integer, or a number. */
function numeric(control, x) {
  const value = control.type === "integer" ? Math.round(x) : new Num(x);
  return { ok: true, json: stringifyValue(value), text: shownText(value) };
}

/**
 * What a slider at a position sends (the range input's `value` text).
 * @param {import("./tunables.mjs").Control} control a slider
 * @param {string} position
 * @returns {ControlInput}
 */
export function sliderInput(control, position) {
  const x = Number(position);
  if (!Number.isFinite(x)) return { ok: false, message: "The slider has no position" };
  return numeric(control, snapToStep(x, control));
}

/**
 * What a stepper's − or + sends: one step down or up from the field's number (else the current value), kept
 * within the range. Steps start from `min` when there is one, as the schema's step rule does.
 * @param {import("./tunables.mjs").Control} control
 * @param {string} text the field's text
 * @param {number|undefined} current the current value as a number
 * @param {-1|1} direction
 * @returns {ControlInput}
 */
export function stepInput(control, text, current, direction) {
  const typed = readControlInput(control, text);
  const from = typed.ok ? Number(text.trim()) : current ?? control.min ?? 0;
  if (!Number.isFinite(from)) return { ok: false, message: "Type a number first" };
  const step = control.step ?? 1;
  return numeric(control, snapToStep(from + direction * step, { ...control, step }));
}

/**
 * A picked color (`#rrggbb` from an input of type color) as the tunable's new hex: the case of the current
 * value's digits and its alpha (`#RRGGBBAA`) are kept, since the picker knows neither.
 * @param {string} picked
 * @param {string} currentHex "" when there is no current color
 * @returns {ControlInput}
 */
export function pickedColor(picked, currentHex) {
  const lower = currentHex !== "" && currentHex === currentHex.toLowerCase() && /[a-f]/.test(currentHex);
  const rgb = lower ? picked.toLowerCase() : picked.toUpperCase();
  return readControlInput({ type: "color" }, rgb + currentHex.slice(7));
}

/**
 * The export file: every tunable as StoreValue JSON, keys sorted, indented by 2, with a final newline.
 * @param {Map<string, any>} values
 */
export function exportText(values) {
  return `${stringifyValue(values, { indent: 2 })}\n`;
}

/**
 * Reads an import file: a JSON object of tunables, read by the StoreValue JSON reader.
 * @param {string} text
 * @returns {{ok: true, values: Map<string, any>} | {ok: false, message: string}}
 */
export function readImport(text) {
  let value;
  try {
    value = parseJSON(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (!(error instanceof JSONValueError)) throw error;
    const { line, column } = lineAndColumn(text, error.offset);
    return { ok: false, message: `The file is not valid JSON: ${error.reason} (line ${line}, column ${column}, offset ${error.offset}).` };
  }
  if (!(value instanceof Map)) {
    return { ok: false, message: `The file holds ${typeName(value) === "array" ? "an array" : `a ${typeName(value)}`}, not an object of tunables (key → value).` };
  }
  return { ok: true, values: value };
}

/**
 * What replacing every tunable with `next` would do (`POST /tune` sets the new values and removes the keys it
 * lacks), for the confirmation before it is sent.
 * @param {Map<string, any>} next
 * @param {Map<string, any>} current
 * @returns {{count: number, unchanged: number, changed: Array<{key: string, from: string, to: string}>,
 *   added: Array<{key: string, to: string}>, removed: Array<{key: string, from: string}>}}
 */
export function replacementSummary(next, current) {
  const show = (value) => previewText(value, 60);
  const summary = { count: next.size, unchanged: 0, changed: [], added: [], removed: [] };
  for (const key of [...next.keys()].sort(compareScalars)) {
    const to = next.get(key);
    if (!current.has(key)) summary.added.push({ key, to: show(to) });
    else if (valuesEqual(current.get(key), to)) summary.unchanged++;
    else summary.changed.push({ key, from: show(current.get(key)), to: show(to) });
  }
  for (const key of [...current.keys()].sort(compareScalars)) {
    if (!next.has(key)) summary.removed.push({ key, from: show(current.get(key)) });
  }
  return summary;
}

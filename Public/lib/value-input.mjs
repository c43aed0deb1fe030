// The write form's value editor: text typed in one of several modes becomes a StoreValue, or a message that says
// what is wrong and where, checked by the rules of StoreValue JSON (docs/store.md) before anything is sent.

import { numberText } from "./format.mjs";
import { JSONValueError, parseJSON } from "./json-reader.mjs";
import { stringifyValue } from "./json-writer.mjs";
import { Color, Num, Url, colorPattern, isAbsoluteURL, normalizeInteger, typeName } from "./values.mjs";

/** The editor's modes, in the order the form offers them. */
export const valueModes = ["json", "string", "integer", "number", "bool", "null", "color", "url"];

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * @typedef {{ok: true, value: any, json: string} | {ok: false, message: string}} ValueInput
 */

/**
 * Reads editor text in a mode.
 * @param {string} mode one of valueModes
 * @param {string} text
 * @returns {ValueInput}
 */
export function readValueInput(mode, text) {
  const ok = (value) => ({ ok: true, value, json: stringifyValue(value) });
  const bad = (message) => ({ ok: false, message });
  const trimmed = text.trim();
  switch (mode) {
    case "json":
      if (trimmed === "") return bad("Type a JSON value, e.g. 42, 4.2, \"text\", {\"$color\": \"#FF8800\"}");
      try {
        return ok(parseJSON(text));
      } catch (error) {
        if (!(error instanceof JSONValueError)) throw error;
        const { line, column } = lineAndColumn(text, error.offset);
        return bad(`${error.reason} (line ${line}, column ${column})`);
      }
    case "string":
      return ok(text);
    case "integer": {
      if (!/^-?(0|[1-9][0-9]*)$/.test(trimmed)) return bad("An integer is digits with an optional minus sign, no fraction or exponent");
      const big = BigInt(trimmed);
      if (big < int64Min || big > int64Max) return bad("The integer is outside the Int64 range");
      return ok(normalizeInteger(big));
    }
    case "number": {
      if (["nan", "inf", "-inf"].includes(trimmed)) return ok(new Num(trimmed === "nan" ? NaN : trimmed === "inf" ? Infinity : -Infinity));
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(trimmed)) return bad("A number looks like 4.2, 3, 1e-6 (or nan, inf, -inf)");
      const x = Number(trimmed);
      if (!Number.isFinite(x)) return bad("The number does not fit in a double");
      return ok(new Num(x));
    }
    case "bool":
      if (trimmed !== "true" && trimmed !== "false") return bad("A boolean is true or false");
      return ok(trimmed === "true");
    case "null":
      return ok(null);
    case "color":
      if (!colorPattern.test(trimmed)) return bad("A color is # and 6 or 8 hex digits: #RRGGBB or #RRGGBBAA");
      return ok(new Color(trimmed));
    case "url":
      if (!isAbsoluteURL(trimmed)) return bad("A URL must be absolute (with a scheme, like https://…) and use only URL characters");
      return ok(new Url(trimmed));
    default:
      return bad(`Unknown mode ${mode}`);
  }
}

/**
 * The 1-based line and column of a UTF-16 offset in `text`.
 * @param {string} text
 * @param {number} offset
 */
export function lineAndColumn(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column };
}

/**
 * The mode and text that edit an existing value: scalars in their own mode, containers as JSON.
 * @param {any} value
 * @returns {{mode: string, text: string}}
 */
export function editorFor(value) {
  const type = typeName(value);
  switch (type) {
    case "string": return { mode: "string", text: value };
    case "integer": return { mode: "integer", text: String(value) };
    case "number": return { mode: "number", text: numberText(value.value) };
    case "bool": return { mode: "bool", text: String(value) };
    case "null": return { mode: "null", text: "" };
    case "color": return { mode: "color", text: value.hex };
    case "url": return { mode: "url", text: value.href };
    default: return { mode: "json", text: stringifyValue(value, { indent: 2 }) };
  }
}

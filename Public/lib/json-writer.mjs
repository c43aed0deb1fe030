// Writing VALUES.md JSON: the canonical form (compact, keys sorted by Unicode scalar, numbers as Swift writes
// them), or indented for people, optionally cut short for previews of huge values.

import { Color, Num, Url } from "./values.mjs";

/**
 * The shortest decimal that reads back to `x`, in Swift's `Double.description` form (VALUES.md canonical
 * numbers): decimal when 1e-4 <= |x| < 1e16, always with a fraction (`3.0`), else `d[.ddd]e±XX`.
 * @param {number} x a finite double
 * @returns {string}
 */
export function formatDouble(x) {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exponentText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const magnitude = Math.abs(x);
  if (magnitude >= 1e-4 && magnitude < 1e16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    const fraction = digits.slice(exponent + 1) || "0";
    return `${sign}${whole}.${fraction}`;
  }
  const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
  const exponentDigits = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${digits[0]}${fraction}e${exponent < 0 ? "-" : "+"}${exponentDigits}`;
}

/**
 * A string as canonical JSON: only `"`, `\` and characters below U+0020 are escaped (lower-case hex).
 * @param {string} text
 */
function quoteJSONString(text) {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/["\\\u0000-\u001f]/g, escapeCharacter)}"`;
}

const shortEscapes = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

function escapeCharacter(character) {
  return shortEscapes[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Orders strings by Unicode scalar value (VALUES.md canonical key order), not by UTF-16 code unit.
 * @param {string} a
 * @param {string} b
 */
export function compareScalars(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral scalars) sort after U+E000…U+FFFF in scalar order.
    if (x >= 0xd800) x += x >= 0xe000 ? -0x800 : 0x2000;
    if (y >= 0xd800) y += y >= 0xe000 ? -0x800 : 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

/** Thrown inside the writer when the text reached its length limit. */
const enough = Symbol("enough");

/** Collects the pieces of the text and stops the writing once `budget` characters are out. */
class Output {
  constructor(budget) {
    this.parts = [];
    this.size = 0;
    this.budget = budget;
  }

  push(...pieces) {
    for (const piece of pieces) {
      this.parts.push(piece);
      this.size += piece.length;
    }
    if (this.size > this.budget) throw enough;
  }
}

/**
 * Writes a StoreValue as VALUES.md JSON: canonical by default (compact, keys sorted by scalar value); with
 * `indent`, spread over lines for people. With `maxLength`, writing stops soon after that many characters (for
 * previews of huge values); the text is then cut and `…` is appended.
 * @param {import("./values.mjs").StoreValue} value
 * @param {{indent?: number, sortKeys?: boolean, maxLength?: number}} [options]
 * @returns {string}
 */
export function stringifyValue(value, { indent = 0, sortKeys = true, maxLength = Infinity } = {}) {
  const out = new Output(maxLength);
  try {
    write(value, out, indent, sortKeys, "\n");
  } catch (error) {
    if (error !== enough) throw error;
    return `${out.parts.join("").slice(0, maxLength)}…`;
  }
  return out.parts.join("");
}

/**
 * The JSON of a value that is not an array or an object (Map); undefined for those.
 * @param {import("./values.mjs").StoreValue} value
 * @returns {string|undefined}
 */
export function scalarJSON(value) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean": return value ? "true" : "false";
    case "string": return quoteJSONString(value);
    case "number": case "bigint": return String(value);
  }
  if (value instanceof Num) {
    const x = value.value;
    if (Number.isFinite(x)) return formatDouble(x);
    return `{"$number":"${Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf"}"}`;
  }
  if (value instanceof Color) return `{"$color":${quoteJSONString(value.hex)}}`;
  if (value instanceof Url) return `{"$url":${quoteJSONString(value.href)}}`;
  return undefined;
}

/**
 * An object key as JSON: quoted, with VALUES.md's `$`-escape (a key that starts with `$` is written with one more).
 * @param {string} key
 */
export function jsonKey(key) {
  return quoteJSONString(key.charCodeAt(0) === 0x24 ? `$${key}` : key);
}

function write(value, out, indent, sortKeys, newline) {
  const scalar = scalarJSON(value);
  if (scalar !== undefined) return void out.push(scalar);
  const inner = indent ? newline + " ".repeat(indent) : "";
  const close = indent ? newline : "";
  const childNewline = newline + (indent ? " ".repeat(indent) : "");
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push("[]");
    out.push("[");
    value.forEach((element, i) => {
      if (i) out.push(",");
      out.push(inner);
      write(element, out, indent, sortKeys, childNewline);
    });
    return void out.push(close, "]");
  }
  if (value instanceof Map) {
    if (value.size === 0) return void out.push("{}");
    const keys = [...value.keys()];
    if (sortKeys) keys.sort(compareScalars);
    out.push("{");
    keys.forEach((key, i) => {
      if (i) out.push(",");
      out.push(inner, jsonKey(key), indent ? ": " : ":");
      write(value.get(key), out, indent, sortKeys, childNewline);
    });
    return void out.push(close, "}");
  }
  throw new TypeError("not a store value");
}

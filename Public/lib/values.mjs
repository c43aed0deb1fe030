// The dashboard's model of a StoreValue (docs/store.md), chosen so that every case stays distinct in JavaScript:
//   null, boolean, string  → themselves
//   integer                → a number (safe integers) or a bigint (the rest of the Int64 range)
//   number                 → Num (JavaScript cannot tell 3 from 3.0, so floating-point values are boxed)
//   color, url             → Color, Url
//   array                  → Array;  object → Map with the real keys (no `$`-escaping, any key is safe)

/** A StoreValue `.number`: a double, finite or not. */
export class Num {
  /** @param {number} value */
  constructor(value) { this.value = value; }
}

/** A StoreValue `.color`: `#RRGGBB` or `#RRGGBBAA`, case kept. */
export class Color {
  /** @param {string} hex */
  constructor(hex) { this.hex = hex; }
}

/** A StoreValue `.url`: an absolute URL, kept as its exact text. */
export class Url {
  /** @param {string} href */
  constructor(href) { this.href = href; }
}

/** @typedef {null|boolean|string|number|bigint|Num|Color|Url|Array<any>|Map<string, any>} StoreValue */

/** `#` and 6 or 8 hex digits, as StoreColor accepts. */
export const colorPattern = /^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$/;

/**
 * Whether `text` is an absolute URL whose text is itself, as the server's `$url` check asks (a scheme, then
 * only characters a URL may hold unescaped, and well-formed percent escapes).
 * @param {string} text
 */
export function isAbsoluteURL(text) {
  return /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/.test(text);
}

/**
 * The StoreValue type name of a value (StoreValue's `typeName`).
 * @param {StoreValue} value
 * @returns {"null"|"bool"|"string"|"integer"|"number"|"color"|"url"|"array"|"object"}
 */
export function typeName(value) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean": return "bool";
    case "string": return "string";
    case "number": case "bigint": return "integer";
  }
  if (value instanceof Num) return "number";
  if (value instanceof Color) return "color";
  if (value instanceof Url) return "url";
  if (Array.isArray(value)) return "array";
  if (value instanceof Map) return "object";
  throw new TypeError(`not a store value: ${Object.prototype.toString.call(value)}`);
}

/** @param {StoreValue} value */
export function isContainer(value) {
  return Array.isArray(value) || value instanceof Map;
}

/**
 * An integer in the dashboard's form: a number when it is exactly representable, else a bigint.
 * @param {bigint} big
 * @returns {number|bigint}
 */
export function normalizeInteger(big) {
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/**
 * StoreValue equality: same case and equal contents; integer 3 and number 3.0 differ; NaN equals NaN; 0.0 differs
 * from -0.0; colors and urls compare as exact strings; object key order does not matter.
 * @param {StoreValue} a
 * @param {StoreValue} b
 * @returns {boolean}
 */
export function valuesEqual(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (a instanceof Num) return b instanceof Num && Object.is(a.value, b.value);
  if (a instanceof Color) return b instanceof Color && a.hex === b.hex;
  if (a instanceof Url) return b instanceof Url && a.href === b.href;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [key, value] of a) {
      if (!b.has(key) || !valuesEqual(value, b.get(key))) return false;
    }
    return true;
  }
  return false;
}

/**
 * How many children a container has (0 for scalars).
 * @param {StoreValue} value
 */
export function childCount(value) {
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  return 0;
}

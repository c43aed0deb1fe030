// How values look on screen: a short typed preview for trees, log rows and diffs. The worker formats; the page
// only places text. Integers and numbers stay visibly apart (`3` vs `3.0`), colors carry their hex for a swatch
// and URLs their href for a link.

import { formatDouble } from "./json-writer.mjs";
import { splitStoreId } from "./protocol.mjs";
import { Color, Num, Url, typeName } from "./values.mjs";

/**
 * @typedef {{type: string, text: string, swatch?: string, href?: string}} ValueView
 *   `type` is a StoreValue type name, or "absent" where no value exists
 */

/** Short type labels for the tree's type column. */
export const typeLabels = {
  null: "null", bool: "bool", string: "str", integer: "int", number: "num", color: "color", url: "url",
  array: "arr", object: "obj", absent: "—",
};

/**
 * A number as text: finite ones in canonical form (`3.0`), the others as their `$number` tag words.
 * @param {number} x
 */
export function numberText(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  return formatDouble(x);
}

/**
 * A string in double quotes, shortened to `max` characters, with control characters shown as escapes.
 * @param {string} text
 * @param {number} max
 */
export function quoteShort(text, max) {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  // eslint-disable-next-line no-control-regex
  return `"${short.replace(/[\u0000-\u001f\u007f]/g, (c) => ({ "\n": "\\n", "\t": "\\t", "\r": "\\r" })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

/**
 * A one-line preview of a value, at most about `budget` characters; containers list their first members the way
 * browser consoles do: `{currency: "EUR", items: [2], total: 401.08}`.
 * @param {any} value a StoreValue, or undefined for "absent"
 * @param {number} [budget]
 * @returns {ValueView}
 */
export function describeValue(value, budget = 120) {
  if (value === undefined) return { type: "absent", text: "absent" };
  const type = typeName(value);
  switch (type) {
    case "color": return { type, text: value.hex, swatch: value.hex };
    case "url": return { type, text: value.href, href: value.href };
    default: return { type, text: previewText(value, budget) };
  }
}

/**
 * @param {any} value
 * @param {number} budget
 * @returns {string}
 */
export function previewText(value, budget) {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean": return String(value);
    case "string": return quoteShort(value, Math.max(8, budget));
    case "number": case "bigint": return String(value);
  }
  if (value instanceof Num) return numberText(value.value);
  if (value instanceof Color) return value.hex;
  if (value instanceof Url) return value.href;
  if (Array.isArray(value)) return listPreview(arrayHead(value, 24), "[", "]", value.length, budget);
  return listPreview(mapHead(value, 24), "{", "}", value.size, budget);
}

/** The first `limit` members of an object as [key, value] pairs. */
function* mapHead(map, limit) {
  let i = 0;
  for (const pair of map) {
    if (i++ === limit) return;
    yield pair;
  }
}

/** The first `limit` elements of an array as [null, value] pairs. */
function* arrayHead(array, limit) {
  for (let i = 0; i < Math.min(limit, array.length); i++) yield [null, array[i]];
}

function nestedSummary(value) {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value instanceof Map) return value.size === 0 ? "{}" : "{…}";
  return previewText(value, 24);
}

function listPreview(pairs, open, close, total, budget) {
  let text = open;
  let shown = 0;
  for (const [key, child] of pairs) {
    const part = (key === null ? "" : `${keyText(key)}: `) + nestedSummary(child);
    if (text.length + part.length + 2 > budget && shown > 0) break;
    text += (shown ? ", " : "") + part;
    shown++;
  }
  if (shown < total) text += shown ? ", …" : "…";
  return text + close;
}

/**
 * An object key as it appears in previews: bare when it is a plain identifier, quoted otherwise.
 * @param {string} key
 */
export function keyText(key) {
  return /^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(key) ? key : quoteShort(key, 40);
}

/**
 * A short name for a store: its storage, with a file storage shortened to the file's name, prefixed by the scenario
 * for scenario scopes (`app/memory` → `memory`, `scenario:checkout/memory` → `checkout/memory`,
 * `app/file:/var/lib/svc/state.json` → `state.json`).
 * @param {string} id
 */
export function shortStoreName(id) {
  const [scope, storage] = splitStoreId(id);
  const name = storage.startsWith("file:") ? storage.slice(storage.lastIndexOf("/") + 1) || storage : storage;
  return scope === "app" ? name : `${scope.replace(/^scenario:/, "")}/${name}`;
}

/**
 * A count with thousands separators ("1,234,567"), fixed to English so tests and screenshots agree.
 * @param {number} count
 */
export function formatCount(count) {
  return Math.round(count).toLocaleString("en-US");
}

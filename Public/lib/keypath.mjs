// Key paths (docs/store.md): parsing with the exact 1-based column of the first character that cannot continue a valid
// path, the canonical form, and the ancestor/descendant relations the log filters and the key history use.
// A path is an array of segments: a string is an object key, a number (or a bigint past 2^53) an array index.

/** @typedef {string|number|bigint} Segment */

/** A path that does not parse; `column` counts Unicode scalars from 1 (one past the end when the text ended). */
export class KeyPathError extends Error {
  /**
   * @param {string} path
   * @param {number} column
   * @param {string} reason
   */
  constructor(path, column, reason) {
    super(`invalid key path ${JSON.stringify(path)} at column ${column}: ${reason}`);
    this.path = path;
    this.column = column;
    this.reason = reason;
  }
}

const int64MaxDigits = "9223372036854775807";
const simpleEscapes = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Unicode White_Space (the property, not `\s`, which differs). */
function isWhiteSpace(code) {
  return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0x85 || code === 0xa0 || code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f ||
    code === 0x205f || code === 0x3000;
}

/** General category Cc. */
function isControl(code) {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/** @param {number} code a Unicode scalar */
function isNameScalar(code) {
  return code !== 0x2e && code !== 0x5b && code !== 0x5d && code !== 0x22 && !isControl(code) && !isWhiteSpace(code);
}

/**
 * Parses a key path.
 * @param {string} text
 * @returns {Segment[]}
 * @throws {KeyPathError}
 */
export function parseKeyPath(text) {
  const scalars = Array.from(text, (character) => character.codePointAt(0));
  const n = scalars.length;
  const segments = [];
  let i = 0;
  const fail = (index, reason) => new KeyPathError(text, index + 1, reason);

  const readName = () => {
    const start = i;
    while (i < n && isNameScalar(scalars[i])) i++;
    segments.push(String.fromCodePoint(...scalars.slice(start, i)));
  };

  const readHex = (digitRule) => {
    let value = 0;
    for (let k = 0; k < 4; k++) {
      if (i === n) throw fail(i, "\\u needs four hex digits");
      const digit = hexValue(scalars[i]);
      if (digit < 0 || !digitRule(k, digit)) throw fail(i, digit < 0 ? "\\u needs four hex digits" : "a lone surrogate escape is not a character");
      value = value * 16 + digit;
      i++;
    }
    return value;
  };

  const readQuoted = () => {
    i++; // the opening quote
    let key = "";
    for (;;) {
      if (i === n) throw fail(i, "unterminated quoted key");
      const code = scalars[i];
      if (code === 0x22) {
        i++;
        break;
      }
      if (code < 0x20) throw fail(i, "a control character must be escaped in a quoted key");
      if (code !== 0x5c) {
        key += String.fromCodePoint(code);
        i++;
        continue;
      }
      i++;
      if (i === n) throw fail(i, "unterminated escape");
      const escape = String.fromCodePoint(scalars[i]);
      if (escape in simpleEscapes) {
        key += simpleEscapes[escape];
        i++;
        continue;
      }
      if (escape !== "u") throw fail(i, "unknown escape");
      i++;
      // A high surrogate must be followed by a low one; \uDC.. alone can never become a character.
      let firstDigit = -1;
      const high = readHex((k, digit) => {
        if (k === 0) firstDigit = digit;
        return !(k === 1 && firstDigit === 0xd && digit >= 0xc);
      });
      if (high < 0xd800 || high > 0xdbff) {
        key += String.fromCharCode(high);
        continue;
      }
      if (i === n) throw fail(i, "a low surrogate escape must follow");
      if (scalars[i] !== 0x5c) throw fail(i, "a low surrogate escape must follow");
      i++;
      if (i === n) throw fail(i, "a low surrogate escape must follow");
      if (scalars[i] !== 0x75) throw fail(i, "a low surrogate escape must follow");
      i++;
      const low = readHex((k, digit) => (k === 0 ? digit === 0xd : k === 1 ? digit >= 0xc : true));
      key += String.fromCharCode(high, low);
    }
    segments.push(key);
  };

  const readIndex = () => {
    const start = i;
    if (scalars[i] === 0x30) {
      i++;
      if (i < n && isDigit(scalars[i])) throw fail(i, "an index has no leading zeros");
    } else {
      while (i < n && isDigit(scalars[i])) {
        const digits = String.fromCodePoint(...scalars.slice(start, i + 1));
        if (digits.length > 19 || (digits.length === 19 && digits > int64MaxDigits)) {
          throw fail(i, "the index is above Int64.max");
        }
        i++;
      }
    }
    const digits = String.fromCodePoint(...scalars.slice(start, i));
    segments.push(digits.length <= 15 ? Number(digits) : normalizeIndex(BigInt(digits)));
  };

  const readBracket = () => {
    i++; // [
    if (i === n) throw fail(i, "the path ends inside a bracket");
    const code = scalars[i];
    if (code === 0x22) readQuoted();
    else if (isDigit(code)) readIndex();
    else if (code === 0x5d) throw fail(i, "an empty bracket");
    else throw fail(i, "an index is ASCII digits, a key is a quoted string");
    if (i === n) throw fail(i, "the path ends where ] is expected");
    if (scalars[i] !== 0x5d) throw fail(i, "] expected");
    i++;
  };

  while (i < n) {
    const code = scalars[i];
    if (code === 0x5b) {
      readBracket();
    } else if (segments.length === 0) {
      if (!isNameScalar(code)) throw fail(i, "a path starts with a name or a bracket");
      readName();
    } else if (code === 0x2e) {
      i++;
      if (i === n) throw fail(i, "the path ends where a name is expected");
      if (!isNameScalar(scalars[i])) throw fail(i, "a name is expected after a dot");
      readName();
    } else {
      throw fail(i, ". or [ expected after a segment");
    }
  }
  return segments;
}

function isDigit(code) {
  return code >= 0x30 && code <= 0x39;
}

function hexValue(code) {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

function normalizeIndex(big) {
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

/** @param {string} key */
function isName(key) {
  if (key.length === 0) return false;
  for (const character of key) if (!isNameScalar(character.codePointAt(0))) return false;
  return true;
}

const quotedEscapes = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

function quoteKey(key) {
  // eslint-disable-next-line no-control-regex
  return `["${key.replace(/["\\\u0000-\u001f\u007f-\u009f]/g, (c) => quotedEscapes[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"]`;
}

/**
 * The canonical text of `path` extended by one segment.
 * @param {string} path a canonical path ("" for the root)
 * @param {Segment} segment
 * @returns {string}
 */
export function appendSegment(path, segment) {
  if (typeof segment !== "string") return `${path}[${segment}]`;
  if (!isName(segment)) return path + quoteKey(segment);
  return path === "" ? segment : `${path}.${segment}`;
}

/**
 * The canonical form of a path: names where the key allows it, quoted keys otherwise.
 * @param {Segment[]} segments
 * @returns {string}
 */
export function formatKeyPath(segments) {
  let path = "";
  for (const segment of segments) path = appendSegment(path, segment);
  return path;
}

/**
 * Whether canonical path `path` is `ancestor` or lies below it (the root "" is everyone's ancestor).
 * Works on canonical text: a segment boundary is a "." or "[" right after the ancestor's text.
 * @param {string} path
 * @param {string} ancestor
 */
export function isSameOrBelow(path, ancestor) {
  if (ancestor === "" || path === ancestor) return true;
  if (path.length <= ancestor.length || !path.startsWith(ancestor)) return false;
  const next = path.charCodeAt(ancestor.length);
  return next === 0x2e || next === 0x5b;
}

/**
 * How a patch's path relates to a watched path: the same path, an ancestor (the patch replaced something that
 * holds the watched path), a descendant (the patch changed something inside it), or unrelated.
 * @param {string} watched
 * @param {string} patchPath
 * @returns {"self"|"ancestor"|"descendant"|null}
 */
export function pathRelation(watched, patchPath) {
  if (watched === patchPath) return "self";
  if (isSameOrBelow(watched, patchPath)) return "ancestor";
  if (isSameOrBelow(patchPath, watched)) return "descendant";
  return null;
}

/**
 * The canonical prefixes of a path, root first and the path itself last: `a.b[0]` → `["", "a", "a.b", "a.b[0]"]`.
 * @param {Segment[]} segments
 * @returns {string[]}
 */
export function pathPrefixes(segments) {
  const prefixes = [""];
  let path = "";
  for (const segment of segments) {
    path = appendSegment(path, segment);
    prefixes.push(path);
  }
  return prefixes;
}

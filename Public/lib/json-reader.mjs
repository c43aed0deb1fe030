// Reading StoreValue JSON: a strict reader that keeps integers apart from numbers (`JSON.parse` reads `3.0` as `3`)
// and refuses what the server's reader refuses (duplicate keys, lone surrogates, integers outside Int64,
// overflowing numbers, bad tagged values, nesting over 512).

import { Color, Num, Url, colorPattern, isAbsoluteURL, normalizeInteger } from "./values.mjs";

/** The deepest nesting of arrays and objects accepted in a value, as the server's `JSONLimits.defaultMaxDepth`. */
const maxJSONDepth = 512;

/**
 * The deepest nesting accepted in a server message or log entry: a store's deepest value (`StoreLimits.maxDepth`,
 * 512) with room for the message around it (a snapshot's root sits three levels down, a patch's value four), as
 * the server's own request limit (`ServerOptions.maxJSONDepth`). The reader recurses once per level: far inside a
 * worker's stack.
 */
export const maxMessageDepth = 520;

/** A JSON text that is not a valid StoreValue; `offset` is the UTF-16 index where reading stopped. */
export class JSONValueError extends Error {
  /**
   * @param {string} reason
   * @param {number} offset
   */
  constructor(reason, offset) {
    super(`${reason} (at offset ${offset})`);
    this.reason = reason;
    this.offset = offset;
  }
}

const isDigit = (code) => code >= 0x30 && code <= 0x39;

/** 10^0 … 10^15, each exact in a double. */
const powersOfTen = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** A single-pass reader over one JSON text. */
class Reader {
  /** @param {string} text */
  constructor(text, maxDepth = maxJSONDepth) {
    this.text = text;
    this.pos = 0;
    this.depth = 0;
    this.maxDepth = maxDepth;
  }

  fail(reason, offset = this.pos) {
    return new JSONValueError(reason, offset);
  }

  skipWhitespace() {
    const text = this.text;
    let pos = this.pos;
    if (text.charCodeAt(pos) > 0x20) return; // compact JSON: nothing to skip
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) pos++;
      else break;
    }
    this.pos = pos;
  }

  document() {
    this.skipWhitespace();
    const value = this.value();
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw this.fail("unexpected text after the JSON value");
    return value;
  }

  value() {
    const code = this.text.charCodeAt(this.pos);
    switch (code) {
      case 0x7b: return this.object();
      case 0x5b: return this.array();
      case 0x22: return this.string();
      case 0x74: return this.literal("true", true);
      case 0x66: return this.literal("false", false);
      case 0x6e: return this.literal("null", null);
      default:
        if (code === 0x2d || (code >= 0x30 && code <= 0x39)) return this.number();
        throw this.fail(Number.isNaN(code) ? "expected a value, the text ended" : "expected a value");
    }
  }

  literal(word, result) {
    if (!this.text.startsWith(word, this.pos)) throw this.fail(`expected ${word}`);
    this.pos += word.length;
    return result;
  }

  enter() {
    if (++this.depth > this.maxDepth) throw this.fail(`nesting is deeper than ${this.maxDepth} levels`);
    this.pos++;
    this.skipWhitespace();
  }

  /** @param {Array<[number, number]>} [spans] where to record each element's start and end */
  array(spans) {
    this.enter();
    const elements = [];
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return elements;
    }
    for (;;) {
      this.skipWhitespace();
      const start = this.pos;
      elements.push(this.value());
      if (spans) spans.push([start, this.pos]);
      this.skipWhitespace();
      const code = this.text.charCodeAt(this.pos++);
      if (code === 0x2c) continue;
      if (code === 0x5d) break;
      this.pos--;
      throw this.fail(Number.isNaN(code) ? "unterminated array" : 'expected "," or "]" in an array');
    }
    this.depth--;
    return elements;
  }

  /** @param {{key: string, spans: Array<[number, number]>}} [spanning] a member whose elements' spans to record */
  object(spanning) {
    const start = this.pos;
    this.enter();
    const members = new Map();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return members;
    }
    let firstRawKey = null;
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) throw this.fail("expected a quoted key in an object");
      const keyOffset = this.pos;
      const rawKey = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) throw this.fail('expected ":" after an object key');
      this.pos++;
      this.skipWhitespace();
      const value = spanning && rawKey === spanning.key && this.text.charCodeAt(this.pos) === 0x5b
        ? this.array(spanning.spans)
        : this.value();
      // `$`-escaping: a stored key that starts with `$` is written with one more `$`.
      const key = rawKey.charCodeAt(0) === 0x24 ? rawKey.slice(1) : rawKey;
      // One lookup: a key already there leaves the size as it was.
      const size = members.size;
      if (members.set(key, value).size === size) throw this.fail(`duplicate key "${rawKey}" in an object`, keyOffset);
      firstRawKey ??= rawKey;
      this.skipWhitespace();
      const code = this.text.charCodeAt(this.pos++);
      if (code === 0x2c) continue;
      if (code === 0x7d) break;
      this.pos--;
      throw this.fail(Number.isNaN(code) ? "unterminated object" : 'expected "," or "}" in an object');
    }
    this.depth--;
    if (members.size === 1 && firstRawKey.charCodeAt(0) === 0x24) {
      const tagged = taggedValue(firstRawKey, members.values().next().value, start);
      if (tagged !== undefined) return tagged;
    }
    return members;
  }

  number() {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    let isInteger = true;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    if (!isDigit(text.charCodeAt(pos))) throw this.fail("expected a digit", pos);
    // The digits' value as they are read: exact while there are at most 15 of them.
    let value = 0;
    let digits = 0;
    let fraction = 0;
    if (text.charCodeAt(pos) === 0x30) {
      pos++;
      digits = 1;
      if (isDigit(text.charCodeAt(pos))) throw this.fail("a number has no leading zeros", pos);
    } else {
      for (let code = text.charCodeAt(pos); isDigit(code); code = text.charCodeAt(++pos)) {
        value = value * 10 + (code - 0x30);
        digits++;
      }
    }
    if (text.charCodeAt(pos) === 0x2e) {
      isInteger = false;
      pos++;
      if (!isDigit(text.charCodeAt(pos))) throw this.fail('expected a digit after "."', pos);
      for (let code = text.charCodeAt(pos); isDigit(code); code = text.charCodeAt(++pos)) {
        value = value * 10 + (code - 0x30);
        digits++;
        fraction++;
      }
    }
    const e = text.charCodeAt(pos);
    let exponent = false;
    if (e === 0x65 || e === 0x45) {
      isInteger = false;
      exponent = true;
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!isDigit(text.charCodeAt(pos))) throw this.fail("expected an exponent digit", pos);
      while (isDigit(text.charCodeAt(pos))) pos++;
    }
    this.pos = pos;
    const negative = text.charCodeAt(start) === 0x2d;
    if (isInteger) {
      // Up to 15 digits always fit a double exactly; `+ 0` reads -0 as the integer 0.
      if (digits <= 15) return (negative ? -value : value) + 0;
      const literal = text.slice(start, pos);
      const big = BigInt(literal);
      if (big < int64Min || big > int64Max) {
        throw this.fail(`the integer ${literal} is outside the Int64 range`, start);
      }
      return normalizeInteger(big);
    }
    // At most 15 digits and no exponent: the digits and 10^fraction are exact doubles, so the one division is the
    // correctly rounded value of the literal, which is what Number() gives (Clinger's exact case).
    if (!exponent && digits <= 15) {
      const exact = value / powersOfTen[fraction];
      return new Num(negative ? -exact : exact);
    }
    const literal = text.slice(start, pos);
    const number = Number(literal);
    if (!Number.isFinite(number)) throw this.fail(`the number ${literal} does not fit in a double`, start);
    return new Num(number);
  }

  string() {
    const text = this.text;
    const start = ++this.pos;
    let pos = start;
    // Fast path: no escapes; only the characters JSON forbids raw and lone surrogates are checked.
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        this.pos = pos + 1;
        return text.slice(start, pos);
      }
      if (code === 0x5c) break;
      if (!(code >= 0x20)) throw this.stringFailure(code, pos);
      if (code >= 0xd800 && code <= 0xdfff) pos = this.surrogatePair(pos);
      else pos++;
    }
    let result = text.slice(start, pos);
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x22) {
        this.pos = pos + 1;
        return result;
      }
      if (code === 0x5c) {
        this.pos = pos;
        result += this.escape();
        pos = this.pos;
        continue;
      }
      if (!(code >= 0x20)) throw this.stringFailure(code, pos);
      const runStart = pos;
      while (pos < text.length) {
        const c = text.charCodeAt(pos);
        if (c === 0x22 || c === 0x5c || c < 0x20) break;
        if (c >= 0xd800 && c <= 0xdfff) pos = this.surrogatePair(pos);
        else pos++;
      }
      result += text.slice(runStart, pos);
    }
  }

  /** The error for a character below U+0020 in a string, or for its end (`code` is NaN past the text). */
  stringFailure(code, pos) {
    return this.fail(Number.isNaN(code) ? "unterminated string" : "a control character must be escaped in a string", pos);
  }

  /** The position after a raw surrogate pair at `pos`; a lone surrogate is text no UTF-8 can carry. */
  surrogatePair(pos) {
    const high = this.text.charCodeAt(pos);
    const low = this.text.charCodeAt(pos + 1);
    if (high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) return pos + 2;
    throw this.fail("the text is not valid Unicode (a lone surrogate)", pos);
  }

  escape() {
    const escapeStart = this.pos;
    const code = this.text.charCodeAt(this.pos + 1);
    this.pos += 2;
    switch (code) {
      case 0x22: return '"';
      case 0x5c: return "\\";
      case 0x2f: return "/";
      case 0x62: return "\b";
      case 0x66: return "\f";
      case 0x6e: return "\n";
      case 0x72: return "\r";
      case 0x74: return "\t";
      case 0x75: {
        const high = this.hex4(escapeStart);
        if (high >= 0xd800 && high <= 0xdbff) {
          if (this.text.charCodeAt(this.pos) !== 0x5c || this.text.charCodeAt(this.pos + 1) !== 0x75) {
            throw this.fail("a lone surrogate escape is not a character", escapeStart);
          }
          this.pos += 2;
          const low = this.hex4(escapeStart);
          if (low < 0xdc00 || low > 0xdfff) throw this.fail("a lone surrogate escape is not a character", escapeStart);
          return String.fromCharCode(high, low);
        }
        if (high >= 0xdc00 && high <= 0xdfff) throw this.fail("a lone surrogate escape is not a character", escapeStart);
        return String.fromCharCode(high);
      }
      default:
        if (Number.isNaN(code)) throw this.fail("unterminated escape", escapeStart);
        throw this.fail("unknown escape", escapeStart);
    }
  }

  hex4(escapeStart) {
    const digits = this.text.slice(this.pos, this.pos + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(digits)) throw this.fail("\\u needs four hex digits", escapeStart);
    this.pos += 4;
    return parseInt(digits, 16);
  }
}

/** A one-key object whose raw key is `$number`, `$color` or `$url` is that tagged value; its payload must be valid. */
function taggedValue(rawKey, payload, offset) {
  switch (rawKey) {
    case "$number":
      if (payload === "nan") return new Num(NaN);
      if (payload === "inf") return new Num(Infinity);
      if (payload === "-inf") return new Num(-Infinity);
      throw new JSONValueError('$number must be "nan", "inf" or "-inf"', offset);
    case "$color":
      if (typeof payload === "string" && colorPattern.test(payload)) return new Color(payload);
      throw new JSONValueError('$color must be "#RRGGBB" or "#RRGGBBAA"', offset);
    case "$url":
      if (typeof payload === "string" && isAbsoluteURL(payload)) return new Url(payload);
      throw new JSONValueError("$url must be an absolute URL", offset);
    default:
      return undefined;
  }
}

/**
 * Reads one JSON text as a StoreValue.
 * @param {string} text
 * @param {number} [maxDepth] the deepest nesting accepted: a value's 512 by default, `maxMessageDepth` for a
 *   server message or log entry
 * @returns {import("./values.mjs").StoreValue}
 * @throws {JSONValueError}
 */
export function parseJSON(text, maxDepth = maxJSONDepth) {
  return new Reader(text, maxDepth).document();
}

/**
 * Reads UTF-8 bytes as a StoreValue, refusing bytes that are not UTF-8 (never replacing them).
 * @param {Uint8Array} bytes
 * @throws {JSONValueError}
 */
export function parseJSONBytes(bytes) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new JSONValueError("the text is not valid UTF-8", 0);
  }
  return parseJSON(text);
}

/**
 * Reads a JSON object (a server message: up to `maxMessageDepth` levels) and also returns where each element of
 * its array member `key` starts and ends in `text`,
 * so that a log entry can be kept as the server's own compact text.
 * @param {string} text
 * @param {string} key
 * @returns {{value: Map<string, any>, spans: Array<[number, number]>}}
 */
export function parseJSONWithSpans(text, key) {
  const reader = new Reader(text, maxMessageDepth);
  reader.skipWhitespace();
  if (text.charCodeAt(reader.pos) !== 0x7b) throw reader.fail("expected a JSON object");
  const spans = [];
  const value = reader.object({ key, spans });
  reader.skipWhitespace();
  if (reader.pos !== text.length) throw reader.fail("unexpected text after the JSON value");
  return { value, spans };
}

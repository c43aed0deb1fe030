// The byte-level JSON check of the recording reader's fast path (json-bytes.mjs) against the strict reader
// (json-reader.mjs): whatever the scanner accepts, the reader reads, as a value of the kind the scanner says; what
// the reader refuses, the scanner never accepts. The scanner may give up on valid text (the general way reads it
// then), but not on the values recordings are made of.

import { test } from "node:test";
import assert from "node:assert/strict";
import { JSONBytes, Kind } from "../../Public/lib/json-bytes.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { typeName } from "../../Public/lib/values.mjs";
import { random } from "./recording-generator.mjs";

const kindNames = { [Kind.object]: "object", [Kind.array]: "array", [Kind.string]: "string", [Kind.integer]: "integer", [Kind.number]: "number", [Kind.true]: "bool", [Kind.false]: "bool", [Kind.null]: "null" };

/** What the scanner makes of `bytes` followed by a "\n": [accepted, kind, integer]. */
function scanned(bytes) {
  const line = new Uint8Array(bytes.length + 1);
  line.set(bytes);
  line[bytes.length] = 0x0a;
  const scan = new JSONBytes();
  scan.bytes = line;
  const end = scan.value(scan.space(0), 0);
  return [end >= 0 && scan.space(end) === bytes.length, scan.kind, scan.integer];
}

/** What the strict reader makes of the same bytes: the value, or undefined when it refuses them. */
function read(bytes) {
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
  try {
    return { value: parseJSON(text, 520) };
  } catch {
    return undefined;
  }
}

/** The scanner never accepts what the reader refuses, and accepts only values of the kind it says. */
function agree(bytes, label) {
  const [accepted, kind, integer] = scanned(bytes);
  const strict = read(bytes);
  if (!accepted) return false;
  assert.ok(strict !== undefined, `the scanner accepts what the reader refuses: ${label}`);
  assert.equal(kindNames[kind], typeName(strict.value), label);
  if (kind === Kind.integer && !Number.isNaN(integer)) assert.equal(integer, strict.value, label);
  return true;
}

const encode = (text) => new TextEncoder().encode(text);

const common = [
  "0", "-0", "7", "-12", "123456789012345", "1234567890123456789".slice(0, 18), "0.0", "-1.5", "12.50", "1e3", "1.5E-7",
  "-2.5e+300", '""', '"plain"', '"é and 😀"', '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00"', "true", "false",
  "null", "[]", "{}", '[1,"a",[2],{"b":null}]', ' { "a" : [ 1 , 2 ] , "b" : { } } ', '{"a":1,"$$b":2,"é":3}', '{"$b":1,"c":2}',
  '{"sku":"A-1","title":"Lamp","price":12.5,"quantity":1}', `1${"0".repeat(307)}.5`,
];

test("the values recordings are made of are accepted, as the reader reads them", () => {
  for (const text of common) assert.ok(agree(encode(text), text), `the scanner gives up on ${text}`);
});

test("what the reader refuses, the scanner refuses", () => {
  const refused = [
    "", " ", "01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "0x1", "1.5.", "tru", "nul", "falsy", '"', '"\\x"', '"\\u12"', '"\\ud83d"',
    '"\\ude00"', '"\\ud83d\\u0041"', '"tab\there"', "[", "[1,]", "[,1]", "{", '{"a"}', '{"a":}', '{"a":1,}', '{a:1}', "{'a':1}",
    '{"a":1,"a":2}', '{"a":1,"$a":2}', '{"$$a":1,"$$a":2}', '{"$number":"x"}', '{"$color":"red"}', '{"$url":"no"}', "1e400",
    "-1e999", "9223372036854775808", "99999999999999999999", "1 2", "[1]]", '"a" "b"', "[".repeat(600) + "]".repeat(600),
    `1${"0".repeat(309)}.5`,
  ];
  for (const text of refused) {
    assert.equal(read(encode(text)), undefined, `the reader accepts ${text}`);
    assert.equal(scanned(encode(text))[0], false, `the scanner accepts ${text}`);
  }
  // Bytes that are not UTF-8: overlong forms, surrogates, past U+10FFFF, cut short, a stray continuation byte.
  for (const bytes of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80], [0xc3], [0xe2, 0x82], [0x80], [0xff]]) {
    const string = Uint8Array.from([0x22, ...bytes, 0x22]);
    assert.equal(read(string), undefined);
    assert.equal(scanned(string)[0], false, `the scanner accepts ${bytes}`);
  }
  // A "\n" is never whitespace to the scanner: a value cannot run on into the next line.
  assert.equal(scanned(encode("[1,\n2]"))[0], false);
});

test("random texts, and texts damaged at random, are never accepted where the reader refuses them", () => {
  const r = random(9);
  const alphabet = [...'{}[],:"\\-.0123456789eE+$aun tfl/'].map((c) => c.charCodeAt(0)).concat([0x00, 0x0a, 0x1f, 0x7f, 0x80, 0xa9, 0xc3, 0xed, 0xf0, 0xff]);
  let accepted = 0;
  for (let round = 0; round < 20_000; round++) {
    let bytes;
    if (r.chance(0.5)) {
      bytes = Array.from(encode(r.pick(common)));
      for (let edits = 1 + r.int(2); edits > 0; edits--) {
        const at = r.int(bytes.length + 1);
        const byte = r.pick(alphabet);
        if (r.chance(0.4)) bytes[at] = byte;
        else bytes.splice(at, r.chance(0.5) ? 0 : 1, ...(r.chance(0.7) ? [byte] : []));
      }
    } else {
      bytes = Array.from({ length: 1 + r.int(8) }, () => r.pick(alphabet));
    }
    if (agree(Uint8Array.from(bytes.filter((b) => b !== undefined)), JSON.stringify(bytes))) accepted++;
  }
  assert.ok(accepted > 1000, `only ${accepted} accepted: the test would not see a wrong acceptance`);
});

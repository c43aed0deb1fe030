import { test } from "node:test";
import assert from "node:assert/strict";
import { loadVectors } from "./fixtures.mjs";
import { JSONValueError, maxMessageDepth, parseJSON, parseJSONBytes, parseJSONWithSpans } from "../../Public/lib/json-reader.mjs";
import { compareScalars, formatDouble, stringifyValue } from "../../Public/lib/json-writer.mjs";
import { Color, Num, Url, typeName, valuesEqual } from "../../Public/lib/values.mjs";

test("every valid.json vector reads with its type and writes its canonical form", () => {
  const vectors = loadVectors("valid.json");
  assert.ok(vectors.length > 100);
  for (const { name, json, canonical, type } of vectors) {
    const value = parseJSON(json);
    assert.equal(typeName(value), type, name);
    assert.equal(stringifyValue(value), canonical, name);
    assert.ok(valuesEqual(parseJSON(canonical), value), `${name}: canonical reads back equal`);
  }
});

test("every invalid.json vector is refused with a JSONValueError", () => {
  for (const { name, json } of loadVectors("invalid.json")) {
    assert.throws(() => parseJSON(json), JSONValueError, name);
  }
});

test("every invalid-bytes.json vector is refused, never replaced", () => {
  for (const { name, bytes } of loadVectors("invalid-bytes.json")) {
    assert.throws(() => parseJSONBytes(Uint8Array.from(bytes)), JSONValueError, name);
  }
});

test("equality.json: StoreValue equality", () => {
  for (const { name, a, b, equal } of loadVectors("equality.json")) {
    assert.equal(valuesEqual(parseJSON(a), parseJSON(b)), equal, name);
  }
});

test("integers and numbers stay apart, large integers stay exact", () => {
  assert.equal(parseJSON("3"), 3);
  assert.ok(parseJSON("3.0") instanceof Num);
  assert.equal(parseJSON("9007199254740993"), 9007199254740993n);
  assert.equal(stringifyValue(parseJSON("[3,3.0,-0,-0.0]")), "[3,3.0,0,-0.0]");
});

test("tagged values and $-escaped keys", () => {
  const value = parseJSON('{"a":{"$color":"#FF8800"},"b":{"$url":"https://x.example/"},"$$beta":true}');
  assert.ok(value.get("a") instanceof Color);
  assert.ok(value.get("b") instanceof Url);
  assert.equal(value.get("$beta"), true);
  assert.equal(stringifyValue(value), '{"$$beta":true,"a":{"$color":"#FF8800"},"b":{"$url":"https://x.example/"}}');
});

test("errors carry the offset where reading stopped", () => {
  assert.throws(() => parseJSON('{"a": 1,}'), (e) => e instanceof JSONValueError && e.offset === 8);
  assert.throws(() => parseJSON("[1, 2"), (e) => e.reason === "unterminated array" && e.offset === 5);
  assert.throws(() => parseJSON('{"a":1,"a":2}'), (e) => e.offset === 7 && /duplicate key/.test(e.reason));
});

test("formatDouble matches Swift's description", () => {
  const cases = [[3, "3.0"], [0.1, "0.1"], [1e16, "1e+16"], [1e15, "1000000000000000.0"], [0.0001, "0.0001"],
    [0.00001, "1e-05"], [5e-324, "5e-324"], [-2.5, "-2.5"], [123456.789, "123456.789"], [1.5e300, "1.5e+300"]];
  for (const [x, text] of cases) assert.equal(formatDouble(x), text, String(x));
});

test("compareScalars orders astral characters after U+FFxx", () => {
  assert.ok(compareScalars("\uff61", "😀") < 0);
  assert.ok("\uff61" > "😀", "UTF-16 order differs, which is why compareScalars exists");
  assert.ok(compareScalars("a", "ab") < 0);
  assert.equal(compareScalars("x", "x"), 0);
});

test("pretty output indents nested containers", () => {
  const text = stringifyValue(parseJSON('{"a":[1,{"b":null}],"c":{}}'), { indent: 2 });
  assert.equal(text, '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {}\n}');
});

test("parseJSONWithSpans returns each entry's exact text", () => {
  const text = '{"type":"changes","entries":[{"seq":1,"x":[2]}, {"seq":2}]}';
  const { value, spans } = parseJSONWithSpans(text, "entries");
  assert.equal(value.get("type"), "changes");
  assert.deepEqual(spans.map(([a, b]) => text.slice(a, b)), ['{"seq":1,"x":[2]}', '{"seq":2}']);
});

test("a store value at the server's depth limit reads inside a snapshot message and writes back", () => {
  // StoreLimits.maxDepth is 512 levels for a store's root; a snapshot puts it 3 levels down.
  const root = "{\"a\":".repeat(511) + "[1]" + "}".repeat(511);
  const message = `{"type":"snapshot","stores":[{"id":"app/memory","value":${root}}]}`;
  const { value: parsed } = parseJSONWithSpans(message, "entries");
  const value = parsed.get("stores")[0].get("value");
  assert.equal(stringifyValue(value), root);
  assert.ok(valuesEqual(parseJSON(stringifyValue(value)), value));
  assert.throws(() => parseJSON("[".repeat(513) + "]".repeat(513)), JSONValueError);
  const deepest = "[".repeat(maxMessageDepth) + "]".repeat(maxMessageDepth);
  assert.equal(stringifyValue(parseJSON(deepest, maxMessageDepth)), deepest);
  assert.throws(() => parseJSON(`[${deepest}]`, maxMessageDepth), JSONValueError);
});

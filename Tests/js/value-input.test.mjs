import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { editorFor, lineAndColumn, readValueInput } from "../../Public/lib/value-input.mjs";

test("each mode produces StoreValue JSON", () => {
  const json = (mode, text) => readValueInput(mode, text).json;
  assert.equal(json("json", '{"a": 3.0, "b": [1]}'), '{"a":3.0,"b":[1]}');
  assert.equal(json("string", 'say "hi"'), '"say \\"hi\\""');
  assert.equal(json("integer", " -42 "), "-42");
  assert.equal(json("integer", "9223372036854775807"), "9223372036854775807");
  assert.equal(json("number", "3"), "3.0");
  assert.equal(json("number", "inf"), '{"$number":"inf"}');
  assert.equal(json("bool", "true"), "true");
  assert.equal(json("null", "anything"), "null");
  assert.equal(json("color", "#ff8800cc"), '{"$color":"#ff8800cc"}');
  assert.equal(json("url", "https://example.com/a?b=c"), '{"$url":"https://example.com/a?b=c"}');
});

test("invalid input says what is wrong, and where", () => {
  const problem = (mode, text) => readValueInput(mode, text);
  assert.equal(problem("integer", "3.5").ok, false);
  assert.equal(problem("integer", "9223372036854775808").ok, false);
  assert.equal(problem("number", "0x10").ok, false);
  assert.equal(problem("number", "1e999").ok, false);
  assert.equal(problem("bool", "yes").ok, false);
  assert.equal(problem("color", "red").ok, false);
  assert.equal(problem("url", "/relative").ok, false);
  assert.equal(problem("url", "not a url").ok, false);
  const bad = problem("json", '{\n  "a": 1,\n  "a": 2\n}');
  assert.equal(bad.ok, false);
  assert.match(bad.message, /duplicate key .* \(line 3, column 3\)/);
  assert.match(problem("json", '{"$color": "red"}').message, /\$color/);
});

test("line and column of an offset", () => {
  assert.deepEqual(lineAndColumn("ab\ncd", 4), { line: 2, column: 2 });
  assert.deepEqual(lineAndColumn("abc", 0), { line: 1, column: 1 });
});

test("editing an existing value starts in its own mode", () => {
  assert.deepEqual(editorFor(parseJSON('"x"')), { mode: "string", text: "x" });
  assert.deepEqual(editorFor(parseJSON("2.50")), { mode: "number", text: "2.5" });
  assert.deepEqual(editorFor(parseJSON("7")), { mode: "integer", text: "7" });
  assert.deepEqual(editorFor(parseJSON('{"$color":"#FF8800"}')), { mode: "color", text: "#FF8800" });
  assert.deepEqual(editorFor(parseJSON('{"a":1}')), { mode: "json", text: '{\n  "a": 1\n}' });
  for (const text of ['"x"', "2.5", "7", "true", "null", '{"$url":"https://x.example/"}', '{"$number":"nan"}']) {
    const { mode, text: edited } = editorFor(parseJSON(text));
    assert.equal(readValueInput(mode, edited).json, readValueInput("json", text).json, `${text} edited unchanged writes itself back`);
  }
});

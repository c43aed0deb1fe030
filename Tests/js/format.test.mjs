import { test } from "node:test";
import assert from "node:assert/strict";
import { describeValue, formatCount, keyText, numberText, previewText, quoteShort, shortStoreName } from "../../Public/lib/format.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";

test("integers and numbers look different", () => {
  assert.deepEqual(describeValue(parseJSON("3")), { type: "integer", text: "3" });
  assert.deepEqual(describeValue(parseJSON("3.0")), { type: "number", text: "3.0" });
  assert.deepEqual(describeValue(parseJSON("9223372036854775807")), { type: "integer", text: "9223372036854775807" });
  assert.equal(numberText(NaN), "nan");
  assert.equal(numberText(-Infinity), "-inf");
  assert.equal(numberText(1e300), "1e+300");
});

test("colors carry a swatch, urls an href, null and absent are named", () => {
  assert.deepEqual(describeValue(parseJSON('{"$color":"#FF8800cc"}')), { type: "color", text: "#FF8800cc", swatch: "#FF8800cc" });
  assert.deepEqual(describeValue(parseJSON('{"$url":"https://x.example/a"}')), { type: "url", text: "https://x.example/a", href: "https://x.example/a" });
  assert.deepEqual(describeValue(null), { type: "null", text: "null" });
  assert.deepEqual(describeValue(undefined), { type: "absent", text: "absent" });
});

test("container previews list their first members within the budget", () => {
  const cart = parseJSON('{"currency":"EUR","items":[{"a":1},{"b":2}],"total":401.08,"empty":{}}');
  assert.equal(previewText(cart, 120), '{currency: "EUR", items: [2], total: 401.08, empty: {}}');
  assert.equal(previewText(cart, 30), '{currency: "EUR", items: [2], …}');
  assert.equal(previewText(parseJSON("[1, 2.5, true, null]"), 100), "[1, 2.5, true, null]");
  assert.equal(previewText(parseJSON("[]"), 100), "[]");
  assert.equal(previewText(parseJSON('{"a.b": 1}'), 100), '{"a.b": 1}');
});

test("a huge array preview looks only at its head", () => {
  const big = Array.from({ length: 1_000_000 }, (_, i) => i);
  const started = performance.now();
  const text = previewText(big, 20);
  assert.match(text, /^\[0, 1, 2, 3, .*, …\]$/);
  assert.ok(text.length <= 26, text);
  assert.ok(performance.now() - started < 50);
});

test("strings are quoted, shortened and show control characters", () => {
  assert.equal(quoteShort("a\nb\u0001", 50), '"a\\nb\\u0001"');
  assert.equal(quoteShort("abcdefghij", 4), '"abcd…"');
  assert.equal(keyText("total"), "total");
  assert.equal(keyText("com.app"), '"com.app"');
});

test("short store names", () => {
  assert.equal(shortStoreName("app/memory"), "memory");
  assert.equal(shortStoreName("scenario:checkout/memory"), "checkout/memory");
  assert.equal(shortStoreName("app/file:/var/lib/svc/state.json"), "state.json");
  assert.equal(shortStoreName("app/userPrefs:com.example"), "userPrefs:com.example");
});

test("counts use thousands separators", () => {
  assert.equal(formatCount(1234567), "1,234,567");
  assert.equal(formatCount(0), "0");
});

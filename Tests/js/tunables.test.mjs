import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { tuneRemoveRequest, tuneRequest } from "../../Public/lib/requests.mjs";
import {
  allowedText, controlFor, countsText, defaultStep, groupRows, inferType, newKeyProblem, readTunablesPanel, showValue,
  tunableRows,
} from "../../Public/lib/tunables.mjs";
import {
  decimals, exportText, pickedColor, readControlInput, readImport, readNewValue, replacementSummary, sliderInput,
  snapToStep, stepInput,
} from "../../Public/lib/tunable-input.mjs";
import { readViewState, writeViewState } from "../../Public/lib/url-state.mjs";
import { errorOf, errorText, getJSON, postEmpty, postFailureText } from "../../Public/app/worker/http.mjs";
import { TunablesModel } from "../../Public/app/worker/tunables-model.mjs";

const panelJSON = `{
  "store": "app/file:/tmp/live-constants.json",
  "values": {"toolbar_height": 64, "opacity": 0.5, "accent": {"$color": "#FF8800"}, "beta": true, "mode": "fast",
             "ratio": 3, "docs": {"$url": "https://example.com/d"}, "extra": [1]},
  "defaults": {"toolbar_height": 64, "opacity": 0.75, "accent": {"$color": "#FF8800"}, "beta": false, "mode": "fast",
               "ratio": 3.0},
  "schema": {
    "toolbar_height": {"type": "integer", "min": 24, "max": 120, "step": 4, "group": "Layout", "required": true},
    "opacity": {"type": "number", "min": 0.0, "max": 1.0, "step": 0.05, "group": "Layout", "description": "How opaque", "required": true},
    "accent": {"type": "color", "group": "Look", "description": "Buttons and links", "required": true},
    "beta": {"type": "bool", "required": false},
    "mode": {"type": "string", "options": ["fast", "safe"], "group": "Look", "required": true},
    "ratio": {"type": "number", "required": true}
  }
}`;
const panel = () => readTunablesPanel(parseJSON(panelJSON));

test("the panel description is read and checked member by member", () => {
  const p = panel();
  assert.equal(p.store, "app/file:/tmp/live-constants.json");
  assert.equal(p.schema.get("opacity").group, "Layout");
  assert.equal(p.schema.get("beta").required, false);
  assert.equal(readTunablesPanel(parseJSON('{"store":"s","values":{},"defaults":{},"schema":null}')).schema, null);
  assert.throws(() => readTunablesPanel(parseJSON('{"store":1,"values":{}}')), /"store"/);
  assert.throws(() => readTunablesPanel(parseJSON('{"store":"s","values":[]}')), /"values"/);
  assert.throws(() => readTunablesPanel(parseJSON("[]")), /not a JSON object/);
});

test("controls come from the schema, else from the value's type", () => {
  const p = panel();
  const kind = (key, value) => controlFor(p.schema.get(key), value).kind;
  assert.deepEqual(controlFor(p.schema.get("toolbar_height"), 64), { kind: "slider", type: "integer", min: 24, max: 120, step: 4 });
  assert.deepEqual(controlFor(p.schema.get("opacity")), { kind: "slider", type: "number", min: 0, max: 1, step: 0.05 });
  assert.equal(kind("accent"), "color");
  assert.equal(kind("beta"), "toggle");
  assert.equal(kind("ratio"), "number");
  const mode = controlFor(p.schema.get("mode"));
  assert.deepEqual(mode.options, [{ json: '"fast"', label: "fast" }, { json: '"safe"', label: "safe" }]);
  // No schema entry: the value decides; integers without a range get a stepper, containers a JSON field.
  assert.deepEqual(controlFor(undefined, 7), { kind: "stepper", type: "integer", step: 1 });
  assert.deepEqual(controlFor(undefined, parseJSON("2.5")), { kind: "number", type: "number" });
  assert.equal(controlFor(undefined, parseJSON('{"$url":"https://x.example/"}')).kind, "url");
  assert.equal(controlFor(undefined, "hi").kind, "text");
  assert.equal(controlFor(undefined, [1]).kind, "json");
  assert.equal(inferType(null), "json");
  // A range without a step gets a round one; min alone is no slider.
  assert.equal(controlFor(parseEntry('{"type":"number","min":0.0,"max":10.0}')).step, 0.1);
  assert.deepEqual(controlFor(parseEntry('{"type":"integer","min":0}')), { kind: "stepper", type: "integer", min: 0, step: 1 });
});

function parseEntry(json) {
  return readTunablesPanel(parseJSON(`{"store":"s","values":{},"defaults":{},"schema":{"k":${json}}}`)).schema.get("k");
}

test("round default steps", () => {
  assert.equal(defaultStep(0, 1), 0.01);
  assert.equal(defaultStep(0, 250), 5);
  assert.equal(defaultStep(-1, 1), 0.02);
  assert.equal(defaultStep(3, 3), 1);
});

test("rows: every key of values, defaults and schema, grouped, sorted, modified by StoreValue equality", () => {
  const p = panel();
  const rows = tunableRows(p, p.values);
  assert.deepEqual(rows.map((r) => `${r.group}/${r.key}`),
    ["Layout/opacity", "Layout/toolbar_height", "Look/accent", "Look/mode", "Other/beta", "Other/docs", "Other/extra", "Other/ratio"]);
  const row = (key) => rows.find((r) => r.key === key);
  assert.equal(row("toolbar_height").modified, false);
  assert.equal(row("opacity").modified, true);
  assert.equal(row("beta").modified, true);
  // The integer 3 is not the number 3.0.
  assert.equal(row("ratio").modified, true);
  assert.equal(row("ratio").value.text, "3");
  assert.equal(row("ratio").defaultValue.text, "3.0");
  // No default: nothing to reset to, never modified.
  assert.equal(row("docs").modified, false);
  assert.equal(row("docs").defaultValue, null);
  assert.equal(row("opacity").description, "How opaque");
  assert.equal(row("toolbar_height").allowed, "24 to 120, steps of 4");
  assert.equal(countsText(rows), "8 tunables · 3 modified");
  assert.equal(countsText(rows, 2), "8 tunables · 3 modified · 2 shown");
  // A key only in the defaults (removed from the file) is still a row, shown as not set and modified.
  const missing = tunableRows(p, new Map([["opacity", parseJSON("0.75")]]));
  assert.equal(missing.find((r) => r.key === "toolbar_height").value.present, false);
  assert.equal(missing.find((r) => r.key === "toolbar_height").modified, true);
  assert.equal(missing.find((r) => r.key === "opacity").modified, false);
});

test("search matches keys, descriptions and groups, every word, ignoring case", () => {
  const p = panel();
  const rows = tunableRows(p, p.values);
  const keys = (query) => groupRows(rows, query).flatMap((g) => g.rows.map((r) => r.key));
  assert.deepEqual(keys("LINKS"), ["accent"]);
  assert.deepEqual(keys("layout"), ["opacity", "toolbar_height"]);
  assert.deepEqual(keys("layout opaque"), ["opacity"]);
  assert.deepEqual(keys("nothing-like-this"), []);
  assert.deepEqual(groupRows(rows, "").map((g) => [g.name, g.rows.length]), [["Layout", 2], ["Look", 2], ["Other", 4]]);
});

test("what controls show: numbers keep their fraction, colors split for the picker, options by value", () => {
  const control = { kind: "number", type: "number" };
  assert.deepEqual(showValue(parseJSON("3.0"), control), { present: true, json: "3.0", text: "3.0", number: 3 });
  assert.deepEqual(showValue(parseJSON('{"$color":"#FF8800CC"}'), { kind: "color", type: "color" }),
    { present: true, json: '{"$color":"#FF8800CC"}', text: "#FF8800CC", picker: "#ff8800", alpha: "CC" });
  const select = controlFor(parseEntry('{"type":"number","options":[1.0,2.5]}'));
  assert.equal(showValue(1, select).selected, 0);
  assert.equal(showValue(parseJSON("2.5"), select).selected, 1);
  assert.equal(showValue(parseJSON("7.0"), select).selected, -1);
  assert.deepEqual(showValue(undefined, control), { present: false, json: "", text: "" });
  assert.equal(allowedText(parseEntry('{"type":"integer","min":0}')), "at least 0");
  assert.equal(allowedText(undefined), "");
});

test("typed text becomes the tunable's own type: 4 for integers, 4.0 for numbers", () => {
  const integer = { kind: "stepper", type: "integer" };
  const number = { kind: "number", type: "number" };
  assert.deepEqual(readControlInput(integer, " 4 "), { ok: true, json: "4", text: "4" });
  assert.deepEqual(readControlInput(number, "4"), { ok: true, json: "4.0", text: "4.0" });
  assert.deepEqual(readControlInput(number, "1e-7"), { ok: true, json: "1e-07", text: "1e-07" });
  assert.equal(readControlInput(integer, "4.0").ok, false);
  assert.equal(readControlInput(number, "four").ok, false);
  assert.equal(readControlInput({ type: "color" }, "#ff880080").json, '{"$color":"#ff880080"}');
  assert.equal(readControlInput({ type: "color" }, "orange").ok, false);
  assert.equal(readControlInput({ type: "url" }, "https://example.com/a").json, '{"$url":"https://example.com/a"}');
  assert.match(readControlInput({ type: "url" }, "example.com").message, /absolute/);
  assert.equal(readControlInput({ type: "string" }, " padded ").json, '" padded "');
  assert.equal(readControlInput({ type: "bool" }, "true").json, "true");
  assert.equal(readControlInput({ type: "json" }, "[1, 2.0]").json, "[1,2.0]");
});

test("sliders and steppers snap to the step from min, inside the range, without binary noise", () => {
  assert.equal(decimals(0.05), 2);
  assert.equal(decimals(1e-7), 7);
  assert.equal(decimals(4), 0);
  assert.equal(snapToStep(0.30000000000000004, { min: 0, max: 1, step: 0.1 }), 0.3);
  assert.equal(snapToStep(66, { min: 24, max: 120, step: 4 }), 68);
  assert.equal(snapToStep(130, { min: 24, max: 120, step: 4 }), 120);
  const opacity = { kind: "slider", type: "number", min: 0, max: 1, step: 0.05 };
  assert.deepEqual(sliderInput(opacity, "0.35000000000000003"), { ok: true, json: "0.35", text: "0.35" });
  assert.deepEqual(sliderInput(opacity, "1"), { ok: true, json: "1.0", text: "1.0" });
  const height = { kind: "slider", type: "integer", min: 24, max: 120, step: 4 };
  assert.deepEqual(sliderInput(height, "64"), { ok: true, json: "64", text: "64" });
  assert.deepEqual(stepInput(height, "64", 64, 1), { ok: true, json: "68", text: "68" });
  assert.deepEqual(stepInput(height, "120", 120, 1), { ok: true, json: "120", text: "120" });
  assert.deepEqual(stepInput(height, "not a number", 40, -1), { ok: true, json: "36", text: "36" });
  assert.deepEqual(stepInput({ kind: "stepper", type: "integer" }, "-1", -1, -1), { ok: true, json: "-2", text: "-2" });
});

test("a picked color keeps the current alpha and case", () => {
  assert.equal(pickedColor("#00ff00", "#FF8800CC").json, '{"$color":"#00FF00CC"}');
  assert.equal(pickedColor("#00ff00", "#ff8800").json, '{"$color":"#00ff00"}');
  assert.equal(pickedColor("#00ff00", "").json, '{"$color":"#00FF00"}');
});

test("export: sorted keys, 2-space indent, docs/store.md types kept, final newline", () => {
  const values = parseJSON('{"b": 3.0, "a": 3, "$$x": {"$color": "#FF8800"}}'); // the key $x
  assert.equal(exportText(values), '{\n  "$$x": {"$color":"#FF8800"},\n  "a": 3,\n  "b": 3.0\n}\n');
  assert.equal(exportText(readImport(exportText(values)).values), exportText(values));
});

test("import: bad JSON and non-objects are refused with the reader's reason and place", () => {
  const bad = readImport('{\n  "a": 1,\n  "a": 2\n}');
  assert.equal(bad.ok, false);
  assert.match(bad.message, /duplicate key.*line 3, column 3, offset \d+/);
  assert.match(readImport("[1]").message, /an array, not an object/);
  assert.match(readImport("3.0").message, /a number, not an object/);
  assert.equal(readImport('\uFEFF{"a": 1}').ok, true);
});

test("a replacement lists what changes, what is new and what is removed", () => {
  const current = parseJSON('{"a": 1, "b": 2.0, "c": "x", "d": true}');
  const next = parseJSON('{"a": 1, "b": 2, "c": "y", "e": false}');
  assert.deepEqual(replacementSummary(next, current), {
    count: 4, unchanged: 1,
    changed: [{ key: "b", from: "2.0", to: "2" }, { key: "c", from: '"x"', to: '"y"' }],
    added: [{ key: "e", to: "false" }],
    removed: [{ key: "d", from: "true" }],
  });
});

test("the tunables panel is the sixth and lives in the URL", () => {
  const state = readViewState("?token=t&panel=tunables");
  assert.equal(state.panel, "tunables");
  assert.equal(writeViewState(state), "?token=t&panel=tunables");
});

test("tune requests carry StoreValue JSON as it was written", () => {
  assert.equal(tuneRequest(3, "opacity", "0.5"), '{"id":3,"type":"tune","key":"opacity","value":0.5}');
  assert.equal(tuneRequest(4, 'a"b', "4.0"), '{"id":4,"type":"tune","key":"a\\"b","value":4.0}');
});

test("error bodies give their message, other bodies the status", () => {
  assert.deepEqual(errorOf('{"error":{"code":"no_tunables","message":"none here"}}', 404), { code: "no_tunables", message: "none here" });
  assert.deepEqual(errorOf("<html>", 500), { code: "", message: "HTTP 500" });
  assert.deepEqual(errorOf('{"error":{"message":"no code"}}', 400), { code: "", message: "no code" });
  assert.equal(errorText({ code: "no_tunables", message: "none here" }), "no_tunables: none here");
  assert.equal(errorText({ code: "", message: "HTTP 500" }), "HTTP 500");
});

test("getJSON: ready with the body read, none (404), an error with the server's words, or no answer", async () => {
  const client = (status, body) => ({ origin: "http://h", token: "tok", fetch: async () => ({ status, text: async () => body }) });
  const read = (value) => value.get("n");
  assert.deepEqual(await getJSON(client(200, '{"n":3}'), "/api/x", "the x", read), { status: "ready", body: 3 });
  assert.deepEqual(await getJSON(client(404, '{"error":{"code":"no_x","message":"none"}}'), "/api/x", "the x", read), { status: "none", message: "none", code: "no_x" });
  assert.deepEqual(await getJSON(client(500, "<html>"), "/api/x", "the x", read), { status: "error", message: "GET /api/x answered 500: HTTP 500", code: "" });
  const bad = await getJSON(client(200, "{"), "/api/x", "the x", read);
  assert.equal(bad.status, "error");
  assert.match(bad.message, /^Could not read the x: /);
  const down = { origin: "http://h", token: "tok", fetch: async () => { throw new Error("refused"); } };
  assert.deepEqual(await getJSON(down, "/api/x", "the x", read), { status: "error", message: "Could not read the x: refused" });
  assert.deepEqual(await postEmpty(down, "/api/x"), { ok: false, status: 0, error: { code: "", message: "refused" } });
  assert.equal(postFailureText(await postEmpty(down, "/api/x")), "The server could not be reached: refused");
  assert.equal(postFailureText(await postEmpty(client(409, '{"error":{"code":"conflict","message":"no"}}'), "/api/x")), "conflict: no");
});

/** A session with just what the model reads, and a fetch that answers from a list. */
function fakeWorker(answers) {
  const session = { server: { pid: 1 }, epoch: 1, versions: { data: 0 }, mirror: { stores: new Map() } };
  const requests = [];
  let changes = 0;
  const fetch = async (url, init) => {
    requests.push({ url, init });
    const [status, body] = answers.shift();
    return { status, text: async () => body };
  };
  const model = new TunablesModel(session, { origin: "http://127.0.0.1:8081", token: "tok", onChange: () => changes++, fetch });
  return { session, model, requests, changes: () => changes };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("the worker's model fetches once per server process and follows the mirror", async () => {
  const { session, model, requests } = fakeWorker([[200, panelJSON], [404, '{"error":{"code":"no_tunables","message":"no tunables loaded"}}']]);
  model.watch();
  assert.equal(model.build().status, "loading");
  await settle();
  assert.equal(requests[0].url, "http://127.0.0.1:8081/api/tunables");
  assert.equal(requests[0].init.headers.Authorization, "Bearer tok");
  let section = model.build();
  assert.equal(section.status, "ready");
  assert.equal(section.live, false);
  assert.equal(section.rows.find((r) => r.key === "opacity").value.text, "0.5");
  model.watch();
  assert.equal(requests.length, 1, "the same process is not asked again");
  // The store arrives in the mirror: the rows follow it; unrelated data changes send nothing new.
  const root = parseJSON('{"opacity": 0.25}');
  session.mirror.stores.set("app/file:/tmp/live-constants.json", { root });
  session.versions.data++;
  section = model.build();
  assert.equal(section.live, true);
  assert.equal(section.rows.find((r) => r.key === "opacity").value.text, "0.25");
  session.versions.data++;
  assert.equal(model.build(), undefined);
  // Another server process: the old rows show as loading until its own answer (it has none) arrives.
  session.epoch = 2;
  session.server = null;
  assert.equal(model.build().status, "loading");
  session.server = { pid: 2 };
  model.watch();
  await settle();
  section = model.build();
  assert.equal(section.status, "none");
  assert.equal(section.message, "no tunables loaded");
  assert.deepEqual(section.rows, []);
});

test("reset all and import are one POST /tune with the whole set; refusals keep the server's message", async () => {
  const { model, requests } = fakeWorker([[200, panelJSON], [200, '{"seq":12}'], [400, '{"error":{"code":"out_of_range","message":"opacity: 2.0 is above the maximum 1.0"}}']]);
  model.watch();
  await settle();
  const preview = model.preview("defaults");
  assert.deepEqual(preview.summary.changed.map((c) => c.key), ["beta", "opacity", "ratio"]);
  assert.deepEqual(preview.summary.removed.map((c) => c.key), ["docs", "extra"]);
  assert.deepEqual(await model.replace("defaults"), { ok: true, message: "", seq: 12 });
  const post = requests[1];
  assert.equal(post.url, "http://127.0.0.1:8081/tune");
  assert.equal(post.init.method, "POST");
  assert.equal(post.init.headers["Content-Type"], "application/json");
  assert.equal(post.init.body, '{"accent":{"$color":"#FF8800"},"beta":false,"mode":"fast","opacity":0.75,"ratio":3.0,"toolbar_height":64}');
  assert.deepEqual(await model.replace("import", '{"opacity": 2.0}'),
    { ok: false, message: "out_of_range: opacity: 2.0 is above the maximum 1.0", seq: null });
  assert.equal(requests[2].init.body, '{"opacity":2.0}');
  assert.match(model.preview("import", "{").message, /not valid JSON/);
  assert.equal(model.exportText().startsWith('{\n  "accent": {"$color":"#FF8800"},\n'), true);
});

test("open tunables: additionalKeys is read, new keys are marked and removable unless the schema requires them", () => {
  const open = readTunablesPanel(parseJSON('{"store":"s","values":{},"defaults":{},"schema":null,"additionalKeys":true}'));
  assert.equal(open.additionalKeys, true);
  const closed = readTunablesPanel(parseJSON('{"store":"s","values":{},"defaults":{},"schema":null,"additionalKeys":false}'));
  assert.equal(closed.additionalKeys, false);
  assert.equal(readTunablesPanel(parseJSON('{"store":"s","values":{},"defaults":{},"schema":null}')).additionalKeys, false,
    "a server that does not say refuses new keys");
  const p = panel();
  const rows = new Map(tunableRows(p, p.values).map((r) => [r.key, r]));
  assert.equal(rows.get("extra").isNew, true, "not in the defaults");
  assert.equal(rows.get("extra").removable, true);
  assert.equal(rows.get("toolbar_height").isNew, false);
  assert.equal(rows.get("toolbar_height").removable, false, "the schema requires it");
  assert.equal(rows.get("beta").removable, true, "required: false");
  const missing = tunableRows(p, new Map()).find((r) => r.key === "extra");
  assert.equal(missing, undefined, "a new key that is gone has no row");
});

test("a new key follows the server's rule and is not a tunable already", () => {
  const keys = new Set(["toolbar_height"]);
  assert.equal(newKeyProblem("banner_delay", keys), null);
  assert.equal(newKeyProblem("com.app.theme[0]", keys), null, "dots and brackets are one key");
  assert.match(newKeyProblem("", keys), /Type a key/);
  assert.match(newKeyProblem("a/b", keys), /“\/”/);
  assert.match(newKeyProblem("tab\tkey", keys), /control/);
  assert.match(newKeyProblem("c1\u0085", keys), /control/);
  assert.equal(newKeyProblem("é".repeat(128), keys), null, "256 bytes");
  assert.match(newKeyProblem("é".repeat(128) + "x", keys), /257 bytes/);
  assert.match(newKeyProblem("toolbar_height", keys), /already/);
});

test("a new value is StoreValue JSON, or the text as a string when it is not JSON", () => {
  assert.deepEqual(readNewValue("64"), { ok: true, json: "64", text: "64" });
  assert.deepEqual(readNewValue("1.5"), { ok: true, json: "1.5", text: "1.5" });
  assert.deepEqual(readNewValue("true"), { ok: true, json: "true", text: "true" });
  assert.deepEqual(readNewValue('"64"'), { ok: true, json: '"64"', text: "64" });
  assert.deepEqual(readNewValue("Welcome back!"), { ok: true, json: '"Welcome back!"', text: "Welcome back!" });
  assert.equal(readNewValue('{"$color": "#FF8800"}').json, '{"$color":"#FF8800"}');
  assert.equal(readNewValue("  ").ok, false);
});

test("a tune remove request names the key and no value", () => {
  assert.equal(tuneRemoveRequest(7, "a.b"), '{"id":7,"type":"tune","op":"remove","key":"a.b"}');
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import {
  Throttle, countsText, editText, editorKind, groupPreferences, placeholderPattern, preferenceRow, readPreferencesPanel,
  redactedText, redactionLabel, rowMatches, segmentCounts, timestampText,
} from "../../Public/lib/preferences.mjs";
import {
  dateFromInput, dateInputValue, isBase64, parseISODate, preferenceRequest, readPreferenceEdit,
} from "../../Public/lib/preference-input.mjs";
import { readViewState, writeViewState } from "../../Public/lib/url-state.mjs";
import { PreferencesModel } from "../../Public/app/worker/preferences-model.mjs";

// The panel of docs/preferences.md, with the demo's keys (one of each type) and a suite without keys.
const panelJSON = `{
  "editing": true, "reveal": false, "showSystemKeys": false,
  "containers": [
    {"source": "secrets", "container": "com.keyscope.demo.api", "store": "app/secrets:com.keyscope.demo.api", "location": "file", "count": 2},
    {"source": "userDefaults", "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "location": "/home/u/.config/com.keyscope.demo.plist", "count": 8},
    {"source": "userDefaults", "container": "com.keyscope.empty", "store": "app/userPrefs:com.keyscope.empty", "location": "/home/u/.config/com.keyscope.empty.plist", "count": 0}
  ],
  "items": [
    {"id": "secrets/com.keyscope.demo.api/token", "key": "token", "value": "\u2022\u2022\u2022\u2022 (24)", "type": "string", "source": "secrets",
     "container": "com.keyscope.demo.api", "service": "com.keyscope.demo.api", "store": "app/secrets:com.keyscope.demo.api",
     "timestamp": "2026-11-21T10:00:00.000Z", "redacted": true, "length": 24, "system": false},
    {"id": "userDefaults/com.keyscope.demo/theme", "key": "theme", "value": "dark", "type": "string", "source": "userDefaults",
     "container": "com.keyscope.demo", "suite": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo",
     "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/fontSize", "key": "fontSize", "value": 14, "type": "integer", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/volume", "key": "volume", "value": 1.0, "type": "number", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/onboardingDone", "key": "onboardingDone", "value": true, "type": "bool", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/lastOpened", "key": "lastOpened", "value": "2026-11-21T09:30:00.000Z", "type": "date", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/avatar", "key": "avatar", "value": "AAEC", "type": "data", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/recentSearches", "key": "recentSearches", "value": ["kettle", "grinder"], "type": "array", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false},
    {"id": "userDefaults/com.keyscope.demo/window", "key": "window", "value": {"w": 1280, "h": 800}, "type": "object", "source": "userDefaults",
     "container": "com.keyscope.demo", "store": "app/userPrefs:com.keyscope.demo", "timestamp": "2026-11-21T10:00:00.000Z", "redacted": false, "system": false}
  ]
}`;
const panel = () => readPreferencesPanel(parseJSON(panelJSON));
const rows = () => panel().items.map(preferenceRow);

test("the panel is read member by member and sorted by source, container, key", () => {
  const p = panel();
  assert.equal(p.editing, true);
  assert.equal(p.reveal, false);
  assert.equal(p.containers.length, 3);
  assert.deepEqual(p.items.map((i) => `${i.source}/${i.key}`), [
    "userDefaults/avatar", "userDefaults/fontSize", "userDefaults/lastOpened", "userDefaults/onboardingDone",
    "userDefaults/recentSearches", "userDefaults/theme", "userDefaults/volume", "userDefaults/window", "secrets/token",
  ]);
  const token = p.items.find((i) => i.key === "token");
  assert.equal(token.redacted, true);
  assert.equal(token.length, 24);
  assert.throws(() => readPreferencesPanel(parseJSON("[]")), /not a JSON object/);
  assert.throws(() => readPreferencesPanel(parseJSON('{"containers": {}, "items": []}')), /"containers"/);
  assert.throws(() => readPreferencesPanel(parseJSON('{"containers": [], "items": [{"key": 1}]}')), /items\[0\]/);
  // A type the server does not name comes from the value.
  const odd = readPreferencesPanel(parseJSON('{"containers": [], "items": [{"key": "k", "value": 3, "source": "userDefaults", "container": "c"}]}'));
  assert.equal(odd.items[0].type, "integer");
  assert.equal(odd.items[0].id, "userDefaults/c/k");
});

test("rows: values as the log shows them, editors by stored type, 3 and 3.0 kept apart", () => {
  const row = (key) => rows().find((r) => r.key === key);
  assert.deepEqual([row("theme").value, row("theme").editor, row("theme").edit], [{ type: "string", text: '"dark"' }, "text", "dark"]);
  assert.deepEqual([row("fontSize").value.text, row("fontSize").editor, row("fontSize").edit], ["14", "integer", "14"]);
  assert.deepEqual([row("volume").value.text, row("volume").editor, row("volume").edit, row("volume").json], ["1.0", "number", "1.0", "1.0"]);
  assert.deepEqual([row("onboardingDone").editor, row("onboardingDone").checked], ["toggle", true]);
  assert.deepEqual([row("lastOpened").value, row("lastOpened").editor, row("lastOpened").edit],
    [{ type: "date", text: "2026-11-21T09:30:00.000Z" }, "date", "2026-11-21T09:30:00.000Z"]);
  assert.deepEqual([row("avatar").value, row("avatar").editor], [{ type: "data", text: "AAEC" }, "data"]);
  assert.deepEqual([row("recentSearches").editor, row("recentSearches").edit], ["json", '[\n  "kettle",\n  "grinder"\n]']);
  assert.equal(row("window").editor, "json");
  assert.equal(editorKind("string", true), "secret");
  assert.equal(editorKind("mystery", false), "text");
});

test("redacted secrets show the placeholder and a badge with the length; their editor starts empty", () => {
  const token = rows().find((r) => r.key === "token");
  assert.deepEqual(token.value, { type: "redacted", text: "\u2022\u2022\u2022\u2022 (24)" });
  assert.match(token.value.text, placeholderPattern);
  assert.equal(token.edit, "", "the placeholder is never offered as the value to edit");
  assert.equal(token.editor, "secret");
  assert.equal(redactionLabel(token), "redacted · 24 bytes");
  assert.equal(redactionLabel({ length: 1 }), "redacted · 1 byte");
  assert.equal(redactionLabel({ length: null }), "redacted");
  assert.equal(redactedText(12), "\u2022\u2022\u2022\u2022 (12)");
  assert.doesNotMatch("\u2022\u2022\u2022\u2022 (12) plain", placeholderPattern);
  assert.equal(editText({ redacted: true, value: "\u2022\u2022\u2022\u2022 (3)" }), "");
  // With reveal on, the server sends plain values: they are rows like any other.
  const revealed = readPreferencesPanel(parseJSON(panelJSON.replace('"reveal": false', '"reveal": true')
    .replace('"value": "\u2022\u2022\u2022\u2022 (24)"', '"value": "s3cret"').replace('"redacted": true, "length": 24', '"redacted": false')));
  const plain = preferenceRow(revealed.items.find((i) => i.key === "token"));
  assert.deepEqual([plain.value.text, plain.editor, plain.edit], ['"s3cret"', "text", "s3cret"]);
});

test("segments and search: key, container and value, every word, any case", () => {
  const all = rows();
  assert.deepEqual(segmentCounts(all), { all: 9, userDefaults: 8, secrets: 1 });
  const keys = (segment, query) => all.filter((r) => rowMatches(r, segment, query)).map((r) => r.key);
  assert.equal(keys("all", "").length, 9);
  assert.deepEqual(keys("secrets", ""), ["token"]);
  assert.deepEqual(keys("userDefaults", "token"), []);
  assert.deepEqual(keys("all", "THEME"), ["theme"]);
  assert.deepEqual(keys("all", "grinder"), ["recentSearches"], "values are searched");
  assert.deepEqual(keys("all", "demo.api"), ["token"], "containers are searched");
  assert.deepEqual(keys("all", "demo dark"), ["theme"]);
  assert.deepEqual(keys("all", "24"), ["token"], "a secret matches on its placeholder only");
});

test("grouping by container: every container of the segment, only those with matches while searching", () => {
  const p = panel();
  const all = rows();
  const groups = groupPreferences(p.containers, all);
  assert.deepEqual(groups.map((g) => [g.source, g.container, g.rows.length, g.total]), [
    ["userDefaults", "com.keyscope.demo", 8, 8], ["userDefaults", "com.keyscope.empty", 0, 0], ["secrets", "com.keyscope.demo.api", 1, 1],
  ]);
  assert.equal(groups[0].location, "/home/u/.config/com.keyscope.demo.plist");
  assert.equal(groups[0].store, "app/userPrefs:com.keyscope.demo");
  assert.deepEqual(groupPreferences(p.containers, all, { segment: "secrets" }).map((g) => g.container), ["com.keyscope.demo.api"]);
  const searched = groupPreferences(p.containers, all, { query: "font" });
  assert.deepEqual(searched.map((g) => [g.container, g.rows.map((r) => r.key), g.total]), [["com.keyscope.demo", ["fontSize"], 8]]);
  // A row of a container the list does not name still gets a group.
  const stray = [{ ...all[0], id: "x", container: "com.other", store: "" }];
  assert.deepEqual(groupPreferences([], stray).map((g) => g.container), ["com.other"]);
  assert.equal(countsText(9, 3), "9 preferences in 3 containers");
  assert.equal(countsText(1, 1, 0), "1 preference in 1 container · 0 shown");
});

test("edits become StoreValue JSON of the stored type", () => {
  const ok = (type, text) => {
    const read = readPreferenceEdit(type, text);
    assert.equal(read.ok, true, `${type} ${text}: ${read.message}`);
    return read.json;
  };
  const bad = (type, text) => {
    const read = readPreferenceEdit(type, text);
    assert.equal(read.ok, false, `${type} ${JSON.stringify(text)} should be refused`);
    return read.message;
  };
  assert.equal(ok("string", "light"), '"light"');
  assert.equal(ok("string", ' "quoted" '), '" \\"quoted\\" "');
  assert.equal(ok("string", ""), '""');
  assert.equal(ok("integer", " 16 "), "16");
  assert.equal(ok("integer", "-3"), "-3");
  assert.match(bad("integer", "abc"), /integer/);
  assert.match(bad("integer", "1.5"), /integer/);
  assert.match(bad("integer", "99999999999999999999"), /Int64/);
  assert.equal(ok("number", "0.5"), "0.5");
  assert.equal(ok("number", "3"), "3.0", "a number stays a number");
  assert.match(bad("number", "loud"), /number/);
  assert.equal(ok("bool", "false"), "false");
  bad("bool", "yes");
  assert.equal(ok("date", "2026-11-21T10:00:00Z"), '"2026-11-21T10:00:00.000Z"');
  assert.equal(ok("date", "2026-11-21T11:00:00.250+01:00"), '"2026-11-21T10:00:00.250Z"');
  assert.match(bad("date", "2026-11-21"), /ISO 8601/);
  bad("date", "2026-02-30T10:00:00Z");
  bad("date", "2026-11-21T25:00:00Z");
  bad("date", "yesterday");
  assert.equal(ok("data", "AAEC"), '"AAEC"');
  assert.equal(ok("data", "SGVs\nbG8="), '"SGVsbG8="', "line breaks are dropped");
  assert.equal(ok("data", ""), '""', "empty data is base64 too");
  assert.match(bad("data", "not base64!"), /base64/);
  bad("data", "AAE");
  assert.equal(ok("array", '["a", 2, 3.0]'), '["a",2,3.0]');
  assert.match(bad("array", '{"a": 1}'), /holds an array; the text is an object/);
  assert.match(bad("array", "[1, 2"), /line 1, column 6/);
  bad("array", "");
  assert.equal(ok("object", '{"w": 1280}'), '{"w":1280}');
  assert.match(bad("object", "[]"), /holds an object/);
  bad("color", "#fff");
});

test("ISO 8601 dates and the datetime-local field", () => {
  assert.equal(parseISODate("2026-11-21T10:00:00Z"), Date.UTC(2026, 10, 21, 10));
  assert.equal(parseISODate("2026-11-21T10:00Z"), Date.UTC(2026, 10, 21, 10));
  assert.equal(parseISODate("2026-11-21T10:00:00.123456Z"), Date.UTC(2026, 10, 21, 10, 0, 0, 123));
  assert.equal(parseISODate("2026-11-21T12:00:00+0200"), Date.UTC(2026, 10, 21, 10));
  assert.ok(Number.isNaN(parseISODate("2026-11-21T10:00:00")), "a time zone is required");
  // The local field and back, whatever the machine's zone.
  const local = dateInputValue("2026-11-21T10:00:00.250Z");
  assert.match(local, /^2026-11-2\dT\d\d:\d\d:\d\d\.250$/);
  assert.equal(dateFromInput(local), "2026-11-21T10:00:00.250Z");
  assert.equal(dateFromInput(dateInputValue("2026-11-21T10:00:00Z")), "2026-11-21T10:00:00.000Z");
  assert.equal(dateInputValue("nope"), "");
  assert.equal(dateFromInput("2026-02-30T10:00"), null);
  assert.equal(dateFromInput(""), null);
  assert.equal(isBase64("QQ=="), true);
  assert.equal(isBase64("QQ="), false);
});

test("preference requests: set carries the value's JSON as written, delete and refresh none", () => {
  assert.equal(preferenceRequest(1, { op: "set", source: "userDefaults", container: "com.shop", key: "theme", json: '"dark"' }),
    '{"id":1,"type":"preference","op":"set","source":"userDefaults","container":"com.shop","key":"theme","value":"dark"}');
  assert.equal(preferenceRequest(2, { op: "set", source: "userDefaults", container: "c", key: "v", json: "1.0" }),
    '{"id":2,"type":"preference","op":"set","source":"userDefaults","container":"c","key":"v","value":1.0}');
  assert.equal(preferenceRequest(3, { op: "delete", source: "secrets", container: "com.shop.api", key: 'a"b' }),
    '{"id":3,"type":"preference","op":"delete","source":"secrets","container":"com.shop.api","key":"a\\"b"}');
  assert.equal(preferenceRequest(4, { op: "refresh" }), '{"id":4,"type":"preference","op":"refresh"}');
  for (const text of [preferenceRequest(5, { op: "set", source: "s", container: "c", key: "k", json: "[1,2]" })]) JSON.parse(text);
});

test("timestamps: the clock today, the day and minute before", () => {
  const now = new Date(2026, 10, 21, 18, 0, 0).getTime();
  assert.equal(timestampText(new Date(2026, 10, 21, 9, 5, 7).toISOString(), now), "09:05:07");
  assert.equal(timestampText(new Date(2026, 10, 20, 9, 5, 7).toISOString(), now), "2026-11-20 09:05");
  assert.equal(timestampText("", now), "");
  assert.equal(timestampText("soon", now), "soon");
});

test("the throttle runs at once, then at most once per interval, and always after the last poke", () => {
  let time = 0;
  const timers = [];
  const clock = { now: () => time, setTimer: (f, ms) => { timers.push({ f, at: time + ms }); return timers.length; }, clearTimer: (id) => { timers[id - 1].f = null; } };
  let runs = 0;
  const throttle = new Throttle(() => runs++, 500, clock);
  throttle.poke();
  assert.equal(runs, 1);
  time = 100;
  throttle.poke();
  throttle.poke();
  assert.equal(runs, 1);
  assert.equal(timers.length, 1, "pokes within the interval share one run");
  assert.equal(timers[0].at, 500);
  time = 500;
  timers[0].f();
  assert.equal(runs, 2);
  time = 1200;
  throttle.poke();
  assert.equal(runs, 3, "after a quiet interval, at once");
  time = 1300;
  throttle.poke();
  throttle.cancel();
  assert.equal(timers[1].f, null);
  throttle.poke();
  assert.equal(timers.length, 3);
});

test("the segment and the search live in the URL; the defaults stay out of it", () => {
  const state = readViewState("?token=t&panel=preferences&pseg=secrets&pq=api%20token");
  assert.deepEqual([state.panel, state.prefSegment, state.prefSearch], ["preferences", "secrets", "api token"]);
  assert.equal(writeViewState(state), "?token=t&panel=preferences&pseg=secrets&pq=api+token");
  assert.equal(writeViewState({ ...state, prefSegment: "all", prefSearch: "" }), "?token=t&panel=preferences");
  assert.equal(readViewState("?pseg=keychain").prefSegment, undefined);
  assert.equal(readViewState("?panel=watches").panel, "watches");
});

/** A session with what the model reads, a fetch that answers from a list, and hand-driven timers. */
function fakeWorker(answers) {
  const sent = [];
  const session = {
    server: { pid: 1 }, epoch: 1, readOnly: false,
    request(build, onReply) {
      sent.push({ text: build(7), onReply });
    },
  };
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url, init });
    const [status, body] = answers.shift() ?? [500, "{}"];
    return { status, text: async () => body };
  };
  let time = 0;
  const timers = [];
  const clock = { now: () => time, setTimer: (f, ms) => { timers.push(f); return timers.length; }, clearTimer: () => {} };
  let changes = 0;
  const model = new PreferencesModel(session, { origin: "http://127.0.0.1:8081", token: "tok", onChange: () => changes++, fetch, clock });
  return { session, model, requests, sent, timers, advance: (ms) => { time += ms; }, changes: () => changes };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("the model fetches when the tab is shown, with the token, and reads 404 as no preferences", async () => {
  const w = fakeWorker([[200, panelJSON], [404, '{"error":{"code":"no_preferences","message":"this process scans no preferences"}}']]);
  assert.equal(w.requests.length, 0, "nothing is fetched before the tab is shown");
  w.model.setShown(true);
  assert.equal(w.model.build().status, "loading");
  await settle();
  assert.equal(w.requests[0].url, "http://127.0.0.1:8081/api/preferences");
  assert.equal(w.requests[0].init.headers.Authorization, "Bearer tok");
  let section = w.model.build();
  assert.equal(section.status, "ready");
  assert.equal(section.editing, true);
  assert.equal(section.rows.length, 9);
  assert.equal(section.containers.length, 3);
  assert.equal(w.model.build(), undefined, "nothing new to send");
  w.session.readOnly = true;
  assert.equal(w.model.build().rows.length, 9, "read-only mode is news for the page");
  w.model.setShown(true);
  assert.equal(w.requests.length, 1, "still shown: no second fetch");
  w.model.setShown(false);
  w.model.setShown(true);
  await settle();
  assert.equal(w.requests.length, 2, "shown again: fetched again");
  section = w.model.build();
  assert.equal(section.status, "none");
  assert.equal(section.code, "no_preferences");
  assert.equal(section.message, "this process scans no preferences");
  assert.deepEqual(section.rows, []);
});

test("changes to the panel's stores re-fetch it, at most every 500 ms; other stores do not", async () => {
  const w = fakeWorker([[200, panelJSON], [200, panelJSON], [200, panelJSON]]);
  w.model.setShown(true);
  await settle();
  assert.equal(w.requests.length, 1);
  w.model.noteChanges([{ store: "app/memory" }]);
  assert.equal(w.timers.length, 0);
  assert.equal(w.requests.length, 1, "an unrelated store");
  w.advance(100);
  w.model.noteChanges([{ store: "app/memory" }, { store: "app/userPrefs:com.keyscope.demo" }]);
  w.model.noteChanges([{ store: "app/secrets:com.keyscope.demo.api" }]);
  assert.equal(w.requests.length, 2, "the first change fetches at once");
  await settle();
  assert.equal(w.timers.length, 1, "the next waits for the end of the interval");
  w.advance(500);
  w.timers[0]();
  await settle();
  assert.equal(w.requests.length, 3);
  w.model.setShown(false);
  w.model.noteChanges([{ store: "app/userPrefs:com.keyscope.demo" }]);
  assert.equal(w.requests.length, 3, "a hidden tab fetches nothing");
});

test("writes go out as preference requests and the panel is fetched after each reply", async () => {
  const w = fakeWorker([[200, panelJSON], [200, panelJSON], [200, panelJSON]]);
  w.model.setShown(true);
  await settle();
  const set = w.model.write({ op: "set", source: "userDefaults", container: "com.keyscope.demo", key: "fontSize", json: "16" });
  assert.equal(w.sent[0].text, '{"id":7,"type":"preference","op":"set","source":"userDefaults","container":"com.keyscope.demo","key":"fontSize","value":16}');
  assert.equal(w.requests.length, 1, "no fetch before the reply");
  w.sent[0].onReply({ ok: true, seq: 41 });
  assert.deepEqual(await set, { ok: true, seq: 41, error: null });
  assert.equal(w.requests.length, 2);
  const refused = w.model.write({ op: "delete", source: "secrets", container: "com.keyscope.demo.api", key: "token" });
  w.sent[1].onReply({ ok: false, error: { code: "read_only", message: "editing is off" } });
  assert.deepEqual(await refused, { ok: false, seq: null, error: { code: "read_only", message: "editing is off" } });
  await settle();
  assert.equal(w.requests.length, 3, "a refusal re-fetches too: the row shows the server's value");
  w.model.write({ op: "refresh" });
  assert.equal(w.sent[2].text, '{"id":7,"type":"preference","op":"refresh"}');
});

test("a fetch asked for while one is on its way runs after it; errors keep the server's words", async () => {
  const w = fakeWorker([[200, panelJSON], [401, '{"error":{"code":"unauthorized","message":"bad token"}}']]);
  w.model.setShown(true);
  w.model.load();
  await settle();
  await settle();
  assert.equal(w.requests.length, 2);
  const section = w.model.build();
  assert.equal(section.status, "error");
  assert.equal(section.message, "GET /api/preferences answered 401: unauthorized: bad token");
  assert.equal(section.rows.length, 9, "the last good rows stay");
});

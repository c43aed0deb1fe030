import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { expectationText, readWatchesPanel, watchesSummary, watchesView } from "../../Public/lib/watches.mjs";
import { WatchesModel, pollIntervalMs } from "../../Public/app/worker/watches-model.mjs";

// The panel of docs/preferences.md, with the demo's statuses and rules, out of order.
const panelJSON = `{
  "statuses": [
    {"name": "PortFree", "key": "p_PortFree", "suite": "com.keyscope.demo.status", "value": "yes", "stored": "no",
     "inSync": false, "checked": "2026-11-21T10:00:02.000Z",
     "history": [{"time": "2026-11-21T10:00:00.000Z", "before": null, "after": "no"},
                 {"time": "2026-11-21T10:00:01.000Z", "before": "no", "after": "yes"}]},
    {"name": "DataDirWritable", "key": "p_DataDirWritable", "suite": "com.keyscope.demo.status", "value": "yes",
     "stored": "yes", "inSync": true, "checked": "2026-11-21T10:00:00.000Z",
     "history": [{"time": "2026-11-21T10:00:00.000Z", "before": null, "after": "yes"}]},
    {"name": "DebugFlag", "key": "p_DebugFlag", "suite": "com.keyscope.demo.status", "value": false, "stored": false,
     "inSync": true, "checked": "2026-11-21T10:00:00.000Z", "history": []}
  ],
  "rules": [
    {"id": "theme-allowed", "label": "theme is light, dark or system", "store": "app/userPrefs:com.keyscope.demo",
     "path": "theme", "expected": null, "allowed": ["light", "dark", "system"], "current": "neon", "ok": false, "violations": 2},
    {"id": "cart-total-non-negative", "label": "cart total is one of the allowed values", "store": "app/memory",
     "path": "cart.total", "expected": null, "allowed": [0, 100], "current": 100, "ok": true, "violations": 0},
    {"id": "font-size", "label": "", "store": "app/userPrefs:com.keyscope.demo", "path": "fontSize", "expected": 14.0,
     "allowed": null, "current": null, "ok": false, "violations": 0}
  ],
  "violations": [
    {"rule": "theme-allowed", "store": "app/userPrefs:com.keyscope.demo", "path": "theme", "seq": 1234,
     "time": "2026-11-21T10:00:05.000Z", "value": "neon", "message": "theme is \\"neon\\", allowed: \\"light\\", \\"dark\\", \\"system\\""},
    {"rule": "theme-allowed", "store": "app/userPrefs:com.keyscope.demo", "path": "theme", "seq": 1240,
     "time": "2026-11-21T10:00:06.000Z", "value": "neon2", "message": "theme is \\"neon2\\""},
    {"rule": "gone-rule", "store": "app/memory", "path": "a", "seq": null,
     "time": "2026-11-21T09:00:00.000Z", "value": 1, "message": "no seq"}
  ]
}`;
const panel = () => readWatchesPanel(parseJSON(panelJSON));

test("the watches panel is read and checked", () => {
  const p = panel();
  assert.equal(p.statuses.length, 3);
  assert.equal(p.rules.length, 3);
  assert.equal(p.violations[2].seq, null);
  assert.deepEqual(readWatchesPanel(parseJSON("{}")), { statuses: [], rules: [], violations: [] });
  assert.throws(() => readWatchesPanel(parseJSON("[]")), /not a JSON object/);
  assert.throws(() => readWatchesPanel(parseJSON('{"rules": {}}')), /"rules"/);
  assert.throws(() => readWatchesPanel(parseJSON('{"statuses": [1]}')), /statuses\[0\]/);
});

test("the view: statuses by name, rules by id, violations newest first, history newest first", () => {
  const view = watchesView(panel(), (seq) => seq === 1240);
  assert.deepEqual(view.statuses.map((s) => s.name), ["DataDirWritable", "DebugFlag", "PortFree"]);
  const port = view.statuses[2];
  assert.deepEqual([port.value, port.stored, port.inSync], [{ type: "string", text: '"yes"' }, { type: "string", text: '"no"' }, false]);
  assert.deepEqual(port.history, [
    { time: "2026-11-21T10:00:01.000Z", before: { type: "string", text: '"no"' }, after: { type: "string", text: '"yes"' } },
    { time: "2026-11-21T10:00:00.000Z", before: null, after: { type: "string", text: '"no"' } },
  ]);
  assert.equal(view.statuses[1].value.text, "false");
  assert.deepEqual(view.rules.map((r) => [r.id, r.ok]), [["cart-total-non-negative", true], ["font-size", false], ["theme-allowed", false]]);
  const theme = view.rules[2];
  assert.equal(theme.expectation, 'one of "light", "dark", "system"');
  assert.deepEqual(theme.current, { type: "string", text: '"neon"' });
  assert.equal(theme.violations, 2);
  assert.equal(view.rules[1].expectation, "= 14.0", "a number stays a number");
  assert.deepEqual(view.rules[1].current, { type: "null", text: "null" });
  assert.deepEqual(view.violations.map((v) => [v.rule, v.seq, v.inLog]), [["theme-allowed", 1240, true], ["theme-allowed", 1234, false], ["gone-rule", null, false]]);
  assert.equal(view.violations[0].label, "theme is light, dark or system", "a violation names its rule's label");
  assert.equal(view.violations[2].label, "");
  assert.equal(new Set(view.violations.map((v) => v.key)).size, 3, "each violation has its own key");
  assert.deepEqual(view.counts, { statuses: 3, outOfSync: 1, rules: 3, violated: 2, violations: 3 });
});

test("expectations and the summary in words", () => {
  assert.equal(expectationText({ allowed: [0, 100], expected: null }), "one of 0, 100");
  assert.equal(expectationText({ allowed: [], expected: null }), "nothing allowed");
  assert.equal(expectationText({ allowed: null, expected: "dark" }), '= "dark"');
  assert.equal(expectationText({ allowed: null, expected: null }), "= null");
  assert.equal(watchesSummary({ statuses: 3, outOfSync: 1, rules: 2, violated: 1, violations: 4 }), "3 statuses · 1 out of sync · 2 rules · 1 violated");
  assert.equal(watchesSummary({ statuses: 1, outOfSync: 0, rules: 1, violated: 0, violations: 0 }), "1 status · 1 rule");
});

/** A session with what the model reads, a fetch that answers from a list, and hand-driven timers. */
function fakeWorker(answers) {
  const session = { epoch: 1, versions: { log: 0 }, ring: { find: (seq) => (seq === 1234 ? 5 : -1) } };
  const requests = [];
  const fetch = async (url, init) => {
    requests.push({ url, init });
    const [status, body] = answers.shift() ?? [500, "{}"];
    return { status, text: async () => body };
  };
  let time = 1000;
  const timers = [];
  const repeats = [];
  const clock = {
    now: () => time,
    setTimer: (f) => { timers.push(f); return timers.length; },
    clearTimer: () => {},
    setRepeat: (f, ms) => { repeats.push({ f, ms, on: true }); return repeats.length - 1; },
    clearRepeat: (i) => { repeats[i].on = false; },
  };
  const model = new WatchesModel(session, { origin: "http://127.0.0.1:8081", token: "tok", onChange: () => {}, fetch, clock });
  return { session, model, requests, timers, repeats, advance: (ms) => { time += ms; } };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("the model fetches when shown, polls every 2 s while shown, and stops when hidden", async () => {
  const w = fakeWorker([[200, panelJSON], [200, panelJSON]]);
  w.model.setShown(true);
  await settle();
  assert.equal(w.requests[0].url, "http://127.0.0.1:8081/api/watches");
  assert.equal(w.requests[0].init.headers.Authorization, "Bearer tok");
  assert.equal(w.repeats.length, 1);
  assert.equal(w.repeats[0].ms, pollIntervalMs);
  const section = w.model.build();
  assert.equal(section.status, "ready");
  assert.equal(section.fetchedAt, 1000);
  assert.equal(section.summary, "3 statuses · 1 out of sync · 3 rules · 2 violated");
  assert.deepEqual(section.violations.map((v) => v.inLog), [false, true, false], "the log's ring says which changes it holds");
  assert.equal(w.model.build(), undefined);
  w.advance(2000);
  w.repeats[0].f();
  await settle();
  assert.equal(w.requests.length, 2);
  assert.equal(w.model.build().fetchedAt, 3000, "a new read is news (the time shown moves)");
  w.model.setShown(false);
  assert.equal(w.repeats[0].on, false);
});

test("changes re-fetch at most every second while shown; 404 is no watches and stops that", async () => {
  const w = fakeWorker([[200, panelJSON], [200, panelJSON], [404, '{"error":{"code":"no_watches","message":"nothing watched"}}']]);
  w.model.noteChanges([{ store: "app/memory" }]);
  assert.equal(w.requests.length, 0, "hidden: nothing");
  w.model.setShown(true);
  await settle();
  w.advance(1000);
  w.model.noteChanges([{ store: "app/memory" }]);
  w.model.noteChanges([{ store: "app/memory" }]);
  await settle();
  assert.equal(w.requests.length, 2);
  assert.equal(w.timers.length, 1, "the second change waits for the interval");
  w.advance(1000);
  w.timers[0]();
  await settle();
  const section = w.model.build();
  assert.equal(section.status, "none");
  assert.equal(section.message, "nothing watched");
  assert.deepEqual(section.statuses, []);
  w.model.noteChanges([{ store: "app/memory" }]);
  assert.equal(w.timers.length, 1, "no watches: changes do not fetch");
});

test("Refresh posts {} as JSON with the token, then fetches; a refusal keeps the server's words", async () => {
  const w = fakeWorker([[200, '{"ok":true}'], [200, panelJSON], [403, '{"error":{"code":"forbidden","message":"no"}}'], [200, panelJSON]]);
  assert.deepEqual(await w.model.refresh(), { ok: true, message: "" });
  const post = w.requests[0];
  assert.equal(post.url, "http://127.0.0.1:8081/api/watches/refresh");
  assert.equal(post.init.method, "POST");
  assert.equal(post.init.body, "{}");
  assert.equal(post.init.headers["Content-Type"], "application/json");
  assert.equal(post.init.headers.Authorization, "Bearer tok");
  assert.equal(w.requests[1].url, "http://127.0.0.1:8081/api/watches");
  assert.deepEqual(await w.model.refresh(), { ok: false, message: "forbidden: no" });
  assert.equal(w.requests.length, 4);
});

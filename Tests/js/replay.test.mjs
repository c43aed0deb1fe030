import { test } from "node:test";
import assert from "node:assert/strict";
import { RecordingsModel } from "../../Public/app/worker/recordings-model.mjs";
import { ReplayModel } from "../../Public/app/worker/replay-model.mjs";
import { Session } from "../../Public/app/worker/session.mjs";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { endedText, formatBytes, readRecordingsListing, recordingPath } from "../../Public/lib/recordings.mjs";
import { rewindRequest } from "../../Public/lib/requests.mjs";
import { readViewState, writeViewState } from "../../Public/lib/url-state.mjs";
import { randomRecording, stateText } from "./recording-generator.mjs";

const view = () => ({
  panel: "stores", store: "", path: "", search: "", entry: null,
  tree: { start: 0, count: 80 }, log: { visible: 40, count: 120 }, history: { start: 0, count: 80 },
});

function replayModel(options = {}) {
  let changes = 0;
  const model = new ReplayModel({ origin: "http://127.0.0.1:1", token: "t0k", view: view(), tunables: null, onChange: () => changes++, logWindow: 50, ...options });
  return { model, changes: () => changes };
}

const file = (bytes, name) => Object.assign(new Blob([bytes]), { name });
const until = async (condition, ms = 5000) => {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

test("an uploaded recording is read, then the replay's own session shows it at any seq", async () => {
  const { bytes, states } = randomRecording(31, 300);
  const { model, changes } = replayModel();
  await model.loadFile(file(bytes, "bug.kslog"));
  assert.equal(model.status, "ready");
  assert.equal(model.active, true);
  assert.ok(changes() > 1, "progress went to the page");
  const { session } = model.parts;
  assert.equal(session.readOnly, true);
  assert.equal(session.server.name, "bug.kslog");
  assert.equal(stateText(session.mirror.stores), states[0]);
  for (const seq of [120, 40, 41, 299, 300, 7]) {
    model.goTo(seq);
    assert.equal(stateText(session.mirror.stores), states[seq], `at ${seq}`);
  }
  model.step(-1);
  assert.equal(model.seq, 6);
  const update = model.parts.updates.build();
  assert.equal(update.conn.phase, "replay");
  assert.equal(update.conn.readOnly, true);
  assert.equal(update.stats.seq, 6);
  const section = model.section();
  assert.deepEqual([section.status, section.active, section.events, section.seq, section.tornBytes], ["ready", true, 300, 6, 0]);
  assert.equal(section.time, "2026-11-21T10:00:00.060000Z");
  assert.equal(section.offset, "+0:00.060");
  model.exit();
  assert.deepEqual([model.active, model.status, model.section().active], [false, "idle", false]);
});

test("playback at max speed runs to the end and stops; a speed change keeps the place", async () => {
  const { bytes, states } = randomRecording(32, 2000);
  const { model } = replayModel();
  await model.loadFile(file(bytes, "long.kslog"));
  model.setSpeed("max");
  model.play();
  assert.equal(model.playing, true);
  await until(() => !model.playing);
  assert.equal(model.seq, 2000);
  assert.equal(stateText(model.parts.session.mirror.stores), states[2000]);
  model.play(); // at the end, play starts over
  assert.ok(model.seq < 2000);
  model.pause();
  model.setSpeed("bogus");
  assert.equal(model.speed, "max");
});

test("a recording the server lists is downloaded with the token and starts at the asked seq", async () => {
  const { bytes, states } = randomRecording(33, 100);
  const asked = [];
  const fetch = async (url, init) => {
    asked.push([url, init.headers.Authorization]);
    return new Response(bytes, { status: 200, headers: { "Content-Length": String(bytes.length) } });
  };
  const { model } = replayModel({ fetch });
  await model.loadServer("fixtures/checkout session.kslog", 42);
  assert.deepEqual(asked, [["http://127.0.0.1:1/api/recordings/fixtures/checkout%20session.kslog", "Bearer t0k"]]);
  assert.equal(model.seq, 42);
  assert.equal(model.id, "fixtures/checkout session.kslog");
  assert.equal(model.name, "checkout session.kslog");
  assert.equal(stateText(model.parts.session.mirror.stores), states[42]);
  const missing = replayModel({ fetch: async () => new Response('{"error":{"code":"not_found","message":"no such recording"}}', { status: 404 }) }).model;
  await missing.loadServer("fixtures/gone.kslog");
  assert.equal(missing.status, "error");
  assert.match(missing.message, /not_found: no such recording/);
  const bare = replayModel({ fetch: async () => new Response('{"error":{"message":"gone"}}', { status: 410 }) }).model;
  await bare.loadServer("fixtures/gone.kslog");
  assert.equal(bare.message, "The server did not send fixtures/gone.kslog (gone).", "no code, no \"undefined: \"");
});

test("the replay's section goes out only when something in it changed", async () => {
  const { bytes } = randomRecording(36, 40);
  const { model } = replayModel();
  assert.equal(model.build().status, "idle");
  assert.equal(model.build(), undefined, "nothing new");
  await model.loadFile(file(bytes, "v.kslog"));
  const loaded = model.build();
  assert.deepEqual([loaded.status, loaded.events, loaded.seq, loaded.key], ["ready", 40, 0, model.loadId]);
  assert.equal(loaded.startTime, "2026-11-21T10:00:00.000000Z");
  assert.ok(loaded.indexBytes > 0);
  assert.equal(model.build(), undefined);
  model.goTo(12);
  const moved = model.build();
  assert.deepEqual([moved.seq, moved.events, moved.endTime], [12, 40, loaded.endTime]);
  model.goTo(12);
  assert.equal(model.build(), undefined, "the same seq again is no change");
  model.exit();
  assert.deepEqual(Object.keys(model.build()).sort(), ["active", "id", "message", "name", "progress", "status"]);
});

test("a bad recording is an error naming its line; a newer load replaces an older one", async () => {
  const { model } = replayModel();
  const bad = new TextEncoder().encode('{"format":"keyscope-log","version":1,"createdAt":"2026-11-21T10:00:00.000000Z","stores":[]}\n{"seq":2}\n');
  await model.loadFile(file(bad, "bad.kslog"));
  assert.equal(model.status, "error");
  assert.match(model.message, /^bad\.kslog is not a valid recording: line 2: "seq" must be an integer|^bad\.kslog is not a valid recording: line 2: "seq" is 2, expected 1/);
  assert.equal(model.active, false);
  const { bytes } = randomRecording(34, 50);
  const first = model.loadFile(file(bytes, "first.kslog"));
  const second = model.loadFile(file(bytes, "second.kslog"));
  await Promise.all([first, second]);
  assert.equal(model.name, "second.kslog");
  assert.equal(model.active, true);
});

test("the replay's log entries are numbered apart from the live log's", async () => {
  const { bytes } = randomRecording(35, 30);
  const { model } = replayModel();
  await model.loadFile(file(bytes, "a.kslog"));
  model.goTo(30);
  const { ring } = model.parts.session;
  assert.ok(ring.first >= 2 ** 40, `entry numbers start at ${ring.first}`);
  assert.equal(ring.seq(ring.end - 1), 30);
});

/** A fake server for the recordings routes. */
function recordingsServer() {
  const state = { recording: null, events: 0, posts: [] };
  const status = (ended) => ({ id: "recordings/r1.kslog", name: "r1.kslog", state: ended ? "ended" : "recording", events: state.events, bytes: 10, startedAt: "2026-11-21T10:00:00.000000Z", endedAt: ended ? "2026-11-21T10:00:09.000000Z" : null, endReason: ended ? "stopped" : null, message: null });
  const json = (body, code = 200) => new Response(JSON.stringify(body), { status: code });
  const fetch = async (url, init = {}) => {
    const path = new URL(url).pathname;
    if (init.method === "POST") state.posts.push([path, init.body, init.headers["Content-Type"]]);
    if (path === "/api/recordings" && init.method === "POST") {
      state.recording = "recording";
      return json({ recording: status(false) }, 201);
    }
    if (path === "/api/recordings") {
      return json({ recordings: [{ id: "fixtures/a.kslog", source: "fixtures", name: "a.kslog", bytes: 12, modified: "2026-01-01T00:00:00.000000Z" }, { id: "recordings/r0.kslog", source: "recordings", name: "r0.kslog", bytes: 3, modified: "2026-11-01T00:00:00.000000Z" }], active: state.recording ? [status(state.recording === "ended")] : [] });
    }
    if (path === "/api/recordings/recordings/r1.kslog/stop") {
      state.recording = "ended";
      return json({ recording: status(true) });
    }
    if (path === "/api/recordings/recordings/r1.kslog") return new Response("{\"format\":\"keyscope-log\"}\n", { status: 200 });
    return json({ error: { code: "not_found", message: "no" } }, 404);
  };
  return { state, fetch };
}

test("the Record button's recording: start, its count polled, stop and the file downloaded", async () => {
  const server = recordingsServer();
  const repeats = [];
  const session = new Session({ limit: 10, send: () => true });
  const model = new RecordingsModel(session, {
    origin: "http://h", token: "t", onChange: () => {}, fetch: server.fetch,
    clock: { setRepeat: (f) => repeats.push(f) && repeats.length, clearRepeat: () => repeats.splice(0) },
  });
  await model.load();
  assert.equal(model.status, "ready");
  assert.deepEqual(model.files.map((f) => f.id), ["recordings/r0.kslog", "fixtures/a.kslog"], "newest first");
  assert.deepEqual(await model.start(), { ok: true, message: "" });
  assert.deepEqual(server.state.posts[0], ["/api/recordings", "{}", "application/json"]);
  assert.equal(model.recording.state, "recording");
  assert.equal(repeats.length, 1, "polling while it records");
  server.state.events = 17;
  await repeats[0]();
  assert.equal(model.recording.events, 17);
  assert.equal(model.build().recording.events, 17);
  assert.equal(model.build(), undefined, "nothing new to send");
  await repeats[0]();
  assert.equal(model.build().recording.events, 17, "a listing read again is sent once it is read");
  let sent = 0;
  model.onChange = () => sent++;
  const polled = repeats[0]();
  assert.equal(sent, 0, "nothing to send while the listing on screen is read again");
  await polled;
  assert.equal(sent, 1);
  const answer = await model.stop();
  assert.equal(answer.ok, true);
  assert.equal(answer.name, "r1.kslog");
  assert.equal(answer.events, 17);
  assert.equal(await answer.blob.text(), '{"format":"keyscope-log"}\n');
  assert.equal(model.recording, null);
  assert.equal(repeats.length, 0, "polling stopped");
});

test("a recording that ends by itself becomes a notice; a server without recordings hides the button", async () => {
  const server = recordingsServer();
  const session = new Session({ limit: 10, send: () => true });
  const model = new RecordingsModel(session, { origin: "http://h", token: "t", onChange: () => {}, fetch: server.fetch, clock: { setRepeat: () => 1, clearRepeat: () => {} } });
  await model.start();
  server.state.recording = "ended";
  await model.load();
  assert.equal(model.recording, null);
  assert.match(session.problems[0].message, /The recording r1\.kslog ended: stopped\./);
  const none = new RecordingsModel(session, { origin: "http://h", token: "t", onChange: () => {}, fetch: async () => new Response('{"error":{"code":"no_recordings","message":"this process keeps no recordings"}}', { status: 404 }) });
  await none.load();
  assert.equal(none.status, "none");
  const started = await none.start();
  assert.equal(started.ok, false);
  assert.match(started.message, /keeps no recordings/);
  assert.equal(none.build().status, "none");
});

test("the listing is read leniently, and sizes and endings are put in words", () => {
  const listing = readRecordingsListing(parseJSON('{"recordings":[{"id":"fixtures/x.kslog"},{"nope":1}],"active":[{"id":"recordings/y.kslog","events":3,"extra":true},"bad"]}'));
  assert.deepEqual(listing.recordings, [{ id: "fixtures/x.kslog", source: "fixtures", name: "x.kslog", bytes: 0, modified: "" }]);
  assert.equal(listing.active[0].name, "y.kslog");
  assert.equal(listing.active[0].state, "recording");
  assert.deepEqual(readRecordingsListing(null), { recordings: [], active: [] });
  assert.equal(recordingPath("recordings/a b.kslog"), "/api/recordings/recordings/a%20b.kslog");
  assert.deepEqual([formatBytes(812), formatBytes(14_540), formatBytes(3 * 2 ** 20)], ["812 B", "14 KiB", "3.0 MiB"]);
  assert.equal(endedText({ name: "r.kslog", endReason: "max-bytes", message: null, events: 1 }), "The recording r.kslog ended: it reached its size bound. It holds 1 event.");
});

test("a server recording's place survives a trip through the URL; an uploaded file has none", () => {
  const state = readViewState("?token=t&panel=log&replay=fixtures/checkout-session.kslog&seq=1234");
  assert.equal(state.replay, "fixtures/checkout-session.kslog");
  assert.equal(state.seq, 1234);
  assert.equal(writeViewState(state), "?token=t&panel=log&replay=fixtures%2Fcheckout-session.kslog&seq=1234");
  assert.equal(readViewState("?replay=../../etc&seq=1").replay, undefined);
  assert.equal(readViewState("?replay=fixtures/a.kslog&seq=-1").seq, 0);
  assert.equal(writeViewState({ ...state, replay: "" }), "?token=t&panel=log");
  assert.equal(readViewState("?panel=replay").panel, "replay");
});

test("rewind: the request, and what the dashboard's log says it would undo", () => {
  assert.equal(rewindRequest(7, 1435), '{"id":7,"type":"rewind","seq":1435}');
  const session = new Session({ limit: 100, send: () => true });
  session.receive('{"type":"hello","protocol":1,"readOnly":false,"server":{"name":"d","version":"1","pid":1}}');
  session.receive('{"type":"snapshot","seq":10,"stores":[{"id":"app/memory","version":"1.0.0","root":{"n":0}}],"subscriptions":[]}');
  const set = (seq, store = "app/memory") => `{"patches":[{"new":${seq},"op":"set","path":"k${seq}"}],"seq":${seq},"store":"${store}","time":"2026-11-21T10:00:00.000000Z","txn":null}`;
  session.receive(`{"type":"changes","entries":[${set(11)},${set(12)},{"event":"registered","root":{},"seq":13,"store":"app/userPrefs","time":"2026-11-21T10:00:00.000000Z","version":"1.0.0"},${set(14, "app/userPrefs")}]}`);
  assert.deepEqual(session.rewindPreview(11), { seq: 11, last: 14, count: 3, stores: ["app/memory", "app/userPrefs"], events: 1, complete: true });
  assert.deepEqual(session.rewindPreview(14), { seq: 14, last: 14, count: 0, stores: [], events: 0, complete: true });
  assert.equal(session.rewindPreview(5).complete, false, "older than the dashboard's log");
  assert.equal(session.rewindPreview(5).count, 9);
  const reply = session.receive('{"type":"reply","id":1,"ok":true,"result":{"seq":20,"changes":3,"stores":["app/memory"],"skipped":[]}}');
  assert.equal(reply, "ok");
});

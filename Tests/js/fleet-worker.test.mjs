import { test } from "node:test";
import assert from "node:assert/strict";
import { DiffModel } from "../../Public/app/worker/diff-model.mjs";
import { FleetChannel } from "../../Public/app/worker/fleet-channel.mjs";
import { FleetModel, fleetMode } from "../../Public/app/worker/fleet-model.mjs";
import { urlOf } from "../../Public/app/worker/http.mjs";
import { PreferencesModel } from "../../Public/app/worker/preferences-model.mjs";
import { TunablesModel } from "../../Public/app/worker/tunables-model.mjs";
import { LogModel } from "../../Public/app/worker/log-model.mjs";
import { RequestRouter, shape } from "../../Public/app/worker/request-router.mjs";
import { Session } from "../../Public/app/worker/session.mjs";
import { UpdateBuilder } from "../../Public/app/worker/update-builder.mjs";
import { TreeModel } from "../../Public/app/worker/tree-model.mjs";
import { HistoryModel } from "../../Public/app/worker/history-model.mjs";

const server = '"server":{"name":"keyscope fleet shop","pid":9,"version":"0.1.0"}';
const hello = (instance, readOnly = false) => `{"fleet":"shop","instance":${JSON.stringify(instance)},"protocol":1,"readOnly":${readOnly},${server},"type":"hello"}`;
const entry = (instance, seq, store = "app/memory") => `{"instance":"${instance}","patches":[{"new":${seq},"op":"set","path":"n"}],"seq":${seq},"store":"${store}","time":"2026-11-21T10:00:00.000000Z","txn":null}`;
const fleetMessage = '{"fleet":"shop","instances":[{"id":"shop-1","state":"live","readOnly":false},{"id":"shop-2","state":"live","readOnly":true},{"id":"shop-3","state":"gone","readOnly":false}],"type":"fleet"}';
const snapshot = (seq, root = '{"n":0}', extra = "") => `{"type":"snapshot","seq":${seq},"stores":[{"id":"app/memory","root":${root},"scope":"app","storage":"memory","version":"1.0.0"}${extra}],"subscriptions":[]}`;

function session() {
  const sent = [];
  const s = new Session({ limit: 100, send: (text) => { sent.push(text); return true; }, now: () => 1000 });
  return { s, sent };
}

test("the merged stream keeps every instance's log, no mirror, and the fleet's list", () => {
  const { s, sent } = session();
  assert.equal(fleetMode(s), "unknown");
  s.receive(hello("*"));
  assert.equal(fleetMode(s), "all");
  assert.equal(s.merged, true);
  s.receive(fleetMessage);
  assert.deepEqual(s.fleetList.instances.map((i) => i.id), ["shop-1", "shop-2", "shop-3"]);
  s.receive(`{"type":"changes","entries":[${entry("shop-1", 5)},${entry("shop-2", 5, "app/other")},${entry("shop-1", 6)}]}`);
  assert.equal(s.mirror.stores.size, 0, "no instance's state is applied");
  assert.equal(s.outOfSync, false);
  assert.deepEqual(sent, [], "entries that fit no mirror ask for nothing");
  assert.deepEqual([0, 1, 2].map((n) => [s.ring.instance(n), s.ring.seq(n)]), [["shop-1", 5], ["shop-2", 5], ["shop-1", 6]]);
  s.receive('{"from":7,"instance":"shop-1","to":9,"type":"gap"}');
  assert.equal(s.ring.instance(3), "shop-1");
  assert.equal(s.problems[0].key, "gap:shop-1");
  assert.match(s.problems[0].message, /Missed changes 7…9 of shop-1/);
});

test("merged log rows name their instance; reverts only where the instance takes them", () => {
  const { s } = session();
  s.receive(hello("*"));
  s.receive(fleetMessage);
  s.receive(`{"type":"changes","entries":[${entry("shop-1", 5)},${entry("shop-2", 5)},${entry("shop-3", 8)}]}`);
  const log = new LogModel(s);
  assert.deepEqual([0, 1, 2].map((n) => [log.row(n).instance, log.row(n).revertable]), [["shop-1", true], ["shop-2", false], ["shop-3", false]]);
  log.selected = 0;
  const detail = log.detail();
  assert.equal(detail.instance, "shop-1");
  assert.equal(detail.merged, true);
  assert.equal(detail.epochOld, false);
  const updates = new UpdateBuilder({ session: s, tree: new TreeModel(s), log, history: new HistoryModel(s, log), view: { panel: "log", store: "", path: "", search: "", entry: 5, log: { visible: 10, count: 20 } }, phase: { phase: "connected" } });
  const update = updates.build();
  assert.equal(update.conn.mode, "all");
  assert.deepEqual(update.stores.map((store) => store.id), ["app/memory"], "the stores the merged log has seen");
  assert.equal(log.selected, 0, "a seq in the URL selects nothing on a merged log (each instance has one)");
});

test("one instance's stream: a reconnect's hole is marked, a restart is another process", () => {
  const { s } = session();
  s.receive(hello("shop-1"));
  assert.equal(fleetMode(s), "instance");
  s.receive(snapshot(10));
  s.receive(`{"type":"changes","entries":[${entry("shop-1", 11).replace('"instance":"shop-1",', "")}]}`);
  const epoch = s.epoch;
  // The fleet dashboard does not resume: after a reconnect the snapshot is newer than the mirror.
  s.receive(hello("shop-1"));
  s.receive(snapshot(20, '{"n":20}'));
  assert.equal(s.ring.flag(s.ring.end - 1) & 32, 32, "a gap entry");
  assert.equal(s.ring.seq(s.ring.end - 1), 20);
  assert.equal(s.epoch, epoch);
  // The instance restarted: its seqs start over.
  s.receive(snapshot(3, '{"n":3}'));
  assert.equal(s.epoch, epoch + 1);
  assert.equal(s.mirror.seq, 3);
});

test("one instance's stream resumes: no hole, and another pid of the instance starts over", () => {
  const { s } = session();
  const instanceHello = (pid, resumed) => `{"fleet":"shop","instance":"shop-1","protocol":1,"readOnly":false,"resumed":${resumed},"server":{"name":"shop","pid":${pid},"version":"1"},"type":"hello"}`;
  s.receive(instanceHello(41, false));
  s.receive(snapshot(10));
  assert.equal(s.resumeSeq(), 10);
  const entries = s.ring.end;
  assert.equal(s.receive(instanceHello(41, true)), "ok");
  s.receive('{"type":"changes","entries":[{"patches":[{"new":11,"old":0,"op":"set","path":"n"}],"seq":11,"store":"app/memory","time":"2026-11-21T10:00:00.000000Z","txn":null}]}');
  assert.equal(s.mirror.seq, 11);
  assert.equal(s.ring.end, entries + 1, "the change, and no gap entry");
  assert.equal(s.receive(instanceHello(42, true)), "restart", "the instance restarted: its seqs are another run's");
});

test("the fleet model polls once the hello says fleet, and builds the picker's section", async () => {
  const asked = [];
  const repeats = [];
  const fetch = async (url) => {
    asked.push(url);
    return { status: 200, text: async () => '{"fleet":"shop","instances":[{"id":"shop-1","state":"live","host":"h","pid":1,"version":"0.1.0","lastSeen":"2026-11-21T10:00:00Z","readOnly":true}]}' };
  };
  const model = new FleetModel({ origin: "http://h", token: "t", onChange: () => {}, fetch, clock: { setRepeat: (f, ms) => repeats.push(ms) } });
  const { s } = session();
  model.follow(s);
  assert.equal(model.build(0, { following: "", moved: 0 }), undefined, "no section before the hello");
  s.receive('{"protocol":1,"readOnly":false,' + server + ',"type":"hello"}');
  model.follow(s);
  assert.deepEqual(asked, [], "a single server is not polled");
  const { s: one } = session();
  one.receive(hello("shop-1", true));
  model.follow(one);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(asked, ["http://h/api/fleet"]);
  assert.deepEqual(repeats, [2000]);
  const section = model.build(Date.parse("2026-11-21T10:00:00Z"), { following: "shop-1", moved: 0 });
  assert.equal(section.mode, "instance");
  assert.equal(section.picked, "shop-1");
  assert.equal(section.instances[0].lastSeenText, "just now");
  assert.equal(section.dashboardReadOnly, false, "the instance is read-only, not the dashboard");
  assert.equal(model.build(Date.parse("2026-11-21T10:00:00Z"), { following: "shop-1", moved: 0 }), undefined, "unchanged");
  assert.equal(model.knows("shop-1"), true);
  assert.equal(model.knows("shop-9"), false);
});

test("requests: to the stream's own instance on it, to others over the channel, merged ones named", async () => {
  const channelSent = [];
  const channel = { request: async (build, target) => { channelSent.push([build(1), target]); return { ok: true, seq: 4 }; } };
  const router = new RequestRouter({ channel });
  const { s, sent } = session();
  s.receive(hello("shop-1"));
  const own = router.send(s, { kind: "write", store: "app/memory", op: { op: "set", path: "a", json: "1" }, target: "shop-1" });
  assert.match(sent[0], /^\{"id":1,"type":"write"/);
  s.receive('{"id":1,"ok":true,"result":{"seq":12},"type":"reply"}');
  assert.deepEqual(await own, { ok: true, seq: 12, error: null, result: null });
  const elsewhere = await router.send(s, { kind: "revert", seq: 3, target: "shop-2" });
  assert.deepEqual(channelSent, [['{"id":1,"type":"revert","seq":3}', "shop-2"]]);
  assert.equal(elsewhere.seq, 4);
  const { s: merged, sent: mergedSent } = session();
  merged.receive(hello("*"));
  const all = router.send(merged, { kind: "tune", key: "k", json: "5" });
  assert.equal(mergedSent[0], '{"instance":"*","id":1,"type":"tune","key":"k","value":5}');
  merged.receive('{"id":1,"ok":true,"result":{"instances":{"shop-1":{"ok":true,"result":{"seq":8}}}},"type":"reply"}');
  assert.deepEqual(await all, { ok: true, seq: null, error: null, instances: [{ instance: "shop-1", ok: true, seq: 8, error: null }], result: null });
  assert.deepEqual(shape({ ok: false, error: { code: "unavailable", message: "gone" } }, "*").error, { code: "unavailable", message: "gone" });
});

test("the channel opens the merged stream once, skips changes, matches replies, and gives up when it closes", async () => {
  const sockets = [];
  class FakeSocket {
    constructor(url, protocol) {
      Object.assign(this, { url, protocol, sent: [] });
      sockets.push(this);
    }
    send(text) { this.sent.push(text); }
    close() { this.onclose?.(); }
  }
  const channel = new FleetChannel({ url: "ws://h/ws", token: "t k", WebSocket: FakeSocket });
  const first = channel.request((id) => `{"id":${id},"type":"resync"}`, "*");
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].url, "ws://h/ws?token=t+k&instance=*");
  assert.equal(sockets[0].protocol, "keyscope.v1");
  const socket = sockets[0];
  socket.onmessage({ data: hello("*") });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(socket.sent, ['{"instance":"*","id":1,"type":"resync"}']);
  socket.onmessage({ data: '{"type":"changes","entries":[{"oops":true}]}' });
  socket.onmessage({ data: '{"id":1,"ok":true,"result":{"seq":null},"type":"reply"}' });
  assert.equal((await first).ok, true);
  const second = channel.request((id) => `{"id":${id},"type":"resync"}`, "shop-2");
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(sockets.length, 1, "the open socket is used again");
  assert.equal(socket.sent[1], '{"instance":"shop-2","id":2,"type":"resync"}');
  socket.close();
  const lost = await second;
  assert.equal(lost.ok, false);
  assert.equal(lost.error.code, "offline");
  channel.close();
});

test("on a fleet dashboard the feature models reach the picked instance", async () => {
  assert.equal(urlOf({ origin: "http://h", carriedTo: () => "shop 1" }, "/tune"), "http://h/tune?instance=shop%201");
  assert.equal(urlOf({ origin: "http://h", carriedTo: () => "shop-1" }, "/a?b=1"), "http://h/a?b=1&instance=shop-1");
  assert.equal(urlOf({ origin: "http://h", carriedTo: () => "*" }, "/tune"), "http://h/tune", "all instances: none");
  assert.equal(urlOf({ origin: "http://h", carriedTo: () => null }, "/tune"), "http://h/tune", "a single server");
  assert.equal(urlOf({ origin: "http://h" }, "/api/fleet"), "http://h/api/fleet", "a model of no instance");
  const { s } = session();
  s.receive(hello("shop-1"));
  const urls = [];
  const panel = '{"additionalKeys":true,"defaults":{"height":44},"schema":null,"store":"app/file:/x/live-constants.json","values":{"height":48}}';
  const fetch = async (url, init) => {
    urls.push([url, init.method ?? "GET", init.body ?? null]);
    return { status: 200, text: async () => (url.includes("/api/tunables") ? panel : '{"ok":true,"seq":4,"count":1}') };
  };
  const tunables = new TunablesModel(s, { origin: "http://f", token: "t", onChange: () => {}, fetch });
  tunables.watch();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const section = tunables.build();
  assert.equal(section.status, "ready");
  assert.deepEqual(section.rows.map((r) => [r.key, r.modified]), [["height", true]], "the instance's defaults are known");
  const replaced = await tunables.replace("defaults");
  assert.deepEqual(replaced, { ok: true, message: "", seq: 4 });
  assert.deepEqual(urls, [["http://f/api/tunables?instance=shop-1", "GET", null], ["http://f/tune?instance=shop-1", "POST", '{"height":44}']]);
  const preferences = new PreferencesModel(s, { origin: "http://f", token: "t", onChange: () => {}, fetch });
  assert.equal(preferences.carriedTo(), "shop-1");
});

test("the diff model reads the pair asked for last and answers a detail", async () => {
  const answers = {
    "/api/fleet/diff?a=shop-1&b=shop-2": [200, '{"a":"shop-1","b":"shop-2","stores":{"app/memory":[{"a":1,"b":2,"path":"n"}]},"onlyIn":{"a":[],"b":[]},"truncated":false}'],
    "/api/fleet/diff?a=shop-1&b=shop-9": [404, '{"error":{"code":"unknown_instance","message":"no instance \\"shop-9\\" in this fleet"}}'],
  };
  const fetch = async (url) => {
    const [status, body] = answers[url.replace("http://h", "")];
    return { status, text: async () => body };
  };
  const model = new DiffModel(null, { origin: "http://h", token: "t", onChange: () => {}, fetch, now: () => 5 });
  assert.equal(model.build().status, "idle");
  await model.compare("shop-1", "shop-2");
  const section = model.build();
  assert.equal(section.status, "ready");
  assert.equal(section.summary, "1 differing path in 1 store");
  assert.deepEqual(section.groups[0].rows.map((r) => [r.path, r.a.text, r.b.text]), [["n", "1", "2"]]);
  assert.equal(model.build(), undefined, "unchanged");
  const details = [];
  model.act({ action: "detail", store: "app/memory", path: "n" }, (d) => details.push(d));
  assert.deepEqual([details[0].detail.a, details[0].detail.b], ["1", "2"]);
  model.act({ action: "search", text: "zzz" }, () => {});
  assert.equal(model.build().groups.length, 0);
  await model.compare("shop-1", "shop-9");
  const refused = model.build();
  assert.equal(refused.status, "error");
  assert.match(refused.message, /unknown_instance: no instance "shop-9"/);
  await model.compare("shop-1", "shop-1");
  assert.equal(model.build().message, "Choose two different instances.");
});

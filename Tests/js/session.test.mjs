import { test } from "node:test";
import assert from "node:assert/strict";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { Session } from "../../Public/app/worker/session.mjs";

const hello = (pid, resumed = false) => `{"protocol":1,"readOnly":false,"resumed":${resumed},"server":{"name":"demo","pid":${pid},"version":"0.1.0"},"type":"hello"}`;
const snapshot = (seq, root = '{"n":0}') => `{"type":"snapshot","seq":${seq},"stores":[{"id":"app/memory","root":${root},"scope":"app","storage":"memory","version":"1.0.0"}],"subscriptions":[]}`;
const set = (seq, value, old) => `{"patches":[{"new":${value},${old === undefined ? "" : `"old":${old},`}"op":"set","path":"n"}],"seq":${seq},"store":"app/memory","time":"2026-11-21T13:52:51.270208Z","txn":null}`;
const changes = (...entries) => `{"type":"changes","entries":[${entries.join(",")}]}`;

function session() {
  const sent = [];
  const s = new Session({ limit: 100, send: (text) => { sent.push(text); return true; }, now: () => 1000 });
  return { s, sent };
}

test("a fresh page resumes from 0, then follows snapshot and changes", () => {
  const { s } = session();
  assert.equal(s.resumeSeq(), 0);
  s.receive(hello(7));
  s.receive(snapshot(3));
  s.receive(changes(set(4, 1, 0), set(5, 2, 1)));
  assert.equal(s.mirror.seq, 5);
  assert.equal(stringifyValue(s.mirror.stores.get("app/memory").root), '{"n":2}');
  assert.equal(s.entriesReceived, 2);
  assert.equal(s.ring.size, 2);
  assert.equal(s.resumeSeq(), 5);
  assert.equal(s.recent.at("app/memory", "n"), 1000);
});

test("a gap is marked in the log and the following snapshot replaces the state", () => {
  const { s } = session();
  s.receive(hello(7));
  s.receive(snapshot(3));
  s.receive('{"type":"gap","from":4,"to":9}');
  s.receive(snapshot(9, '{"n":9}'));
  s.receive(changes(set(10, 10, 9)));
  assert.equal(s.ring.size, 2);
  assert.equal(s.ring.seq(0), 9);
  assert.equal(s.problems[0].key, "gap");
  assert.equal(stringifyValue(s.mirror.stores.get("app/memory").root), '{"n":10}');
});

test("a resumed hello from another process asks to start over", () => {
  const { s } = session();
  s.receive(hello(7));
  s.receive(snapshot(3));
  assert.equal(s.receive(hello(8, true)), "restart");
  assert.equal(s.resumeSeq(), 0);
  assert.equal(s.receive(hello(8)), "ok");
  assert.equal(s.epoch, 2, "entries of the new process are told apart from the old ones");
});

test("a change that does not fit the mirror asks for a resync and keeps logging", () => {
  const { s, sent } = session();
  s.receive(hello(7));
  s.receive(snapshot(3));
  s.receive(changes(set(4, 1)));  // "n" exists but the patch has no old: out of step
  assert.equal(s.outOfSync, true);
  assert.match(sent[0], /"type":"resync"/);
  assert.equal(s.resumeSeq(), null);
  s.receive(changes(set(5, 2, 1)));
  assert.equal(s.ring.size, 2);
  s.receive(snapshot(5, '{"n":2}'));
  assert.equal(s.outOfSync, false);
  assert.equal(s.problems.length, 0);
});

test("messages the dashboard cannot read become a problem, not an exception", () => {
  const { s } = session();
  s.receive("{oops");
  s.receive('{"type":"changes","entries":[{"seq":"x"}]}');
  assert.equal(s.problems.length, 1);
  assert.equal(s.problems[0].count, 2);
});

test("requests get their replies by id; a dropped connection answers the rest", () => {
  const { s, sent } = session();
  const replies = [];
  s.request((id) => `{"id":${id},"type":"write"}`, (r) => replies.push(r));
  s.request((id) => `{"id":${id},"type":"write"}`, (r) => replies.push(r));
  const first = JSON.parse(sent[0]).id;
  s.receive(`{"id":${first},"ok":true,"result":{"seq":12},"type":"reply"}`);
  assert.deepEqual([replies[0].ok, replies[0].seq], [true, 12]);
  s.disconnected();
  assert.equal(replies[1].error.code, "offline");
  const offline = new Session({ limit: 10, send: () => false });
  offline.request((id) => `{"id":${id}}`, (r) => replies.push(r));
  assert.equal(replies[2].error.code, "offline");
});

test("filters and the size limit rebuild the filtered view", () => {
  const { s } = session();
  s.receive(hello(7));
  s.receive(snapshot(0, '{"n":0}'));
  s.receive(changes(set(1, 1, 0), set(2, 2, 1), '{"event":"registered","root":{},"seq":3,"store":"app/other","time":"t","version":"1.0.0"}'));
  s.setFilter({ store: "app/other", path: "", op: "", text: "" });
  assert.equal(s.logView.count, 1);
  s.setFilter({ store: "", path: "n", op: "", text: "" });
  assert.equal(s.logView.count, 2);
  s.setLimit(1000);
  assert.equal(s.logView.count, 2);
  s.clearLog();
  assert.equal(s.logView.count, 0);
});

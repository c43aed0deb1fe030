import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import {
  allInstances, answersSummary, broadcastOutcome, instanceRow, isInstanceId, readBroadcast, readFleetList, targetChoices,
} from "../../Public/lib/fleet.mjs";
import { diffDetail, diffGroups, diffKey, diffSummary, readFleetDiff } from "../../Public/lib/fleet-diff.mjs";
import { FilteredLog, compileFilter, noFilter } from "../../Public/lib/log-filter.mjs";
import { LogRing } from "../../Public/lib/log-ring.mjs";
import { fleetPanels, oneInstancePanels, panelKey, panelOfKey, panels } from "../../Public/lib/panels.mjs";
import { ProtocolError, decodeServerMessage } from "../../Public/lib/protocol.mjs";
import { toInstance, writeRequest } from "../../Public/lib/requests.mjs";
import { Num } from "../../Public/lib/values.mjs";

// As `GET /api/fleet` answers (docs/fleet.md): instances in any order, a rate with a fraction.
const listText = `{"fleet":"shop","instances":[
  {"host":"box-b","id":"shop-2","lastSeen":"2026-11-21T10:00:00.000000Z","name":"keyscope demo","pid":202,"rate":0.0,"readOnly":true,"seq":7,"startedAt":"2026-11-21T09:00:00.000000Z","state":"gone","version":"0.1.0"},
  {"host":"box-a","id":"shop-1","lastSeen":"2026-11-21T10:00:09.500000Z","name":"keyscope demo","pid":101,"rate":12.5,"readOnly":false,"seq":1200,"startedAt":"2026-11-21T09:00:00.000000Z","state":"live","version":"0.1.0","newer":"ignored"}]}`;

test("the fleet list is read, sorted by id, with a gone and a read-only instance", () => {
  const list = readFleetList(parseJSON(listText));
  assert.equal(list.fleet, "shop");
  assert.deepEqual(list.instances.map((i) => i.id), ["shop-1", "shop-2"]);
  const [one, two] = list.instances;
  assert.deepEqual(one, {
    id: "shop-1", state: "live", name: "keyscope demo", host: "box-a", pid: 101, version: "0.1.0",
    startedAt: "2026-11-21T09:00:00.000000Z", lastSeen: "2026-11-21T10:00:09.500000Z", seq: 1200, readOnly: false, rate: 12.5,
  });
  assert.equal(two.state, "gone");
  assert.equal(two.readOnly, true);
  assert.equal(two.rate, 0, "0.0 is the number 0 (read as a Num)");
});

test("a fleet list that is not one says what is wrong", () => {
  assert.throws(() => readFleetList(parseJSON("[]")), /not a JSON object/);
  assert.throws(() => readFleetList(parseJSON('{"instances":{}}')), /"instances" should be an array/);
  assert.throws(() => readFleetList(parseJSON('{"instances":[{"state":"live"}]}')), /instance 0 .* no "id"/);
});

test("a picker row says when an instance was last seen and how fast it changes", () => {
  const [one, two] = readFleetList(parseJSON(listText)).instances;
  const now = Date.parse("2026-11-21T10:00:10.000Z");
  const live = instanceRow(one, now);
  assert.equal(live.live, true);
  assert.equal(live.lastSeenText, "just now");
  assert.equal(live.rateText, "13/s");
  const gone = instanceRow(two, now);
  assert.equal(gone.live, false);
  assert.equal(gone.lastSeenText, "10 s ago");
  assert.equal(gone.rateText, "0/s");
  assert.match(gone.title, /gone since 10 s ago: its last state stays readable/);
  assert.match(gone.title, /read-only/);
  assert.equal(instanceRow({ ...one, rate: 3.25 }, now).rateText, "3.3/s");
  assert.equal(instanceRow({ ...one, rate: 1500 }, now).rateText, "1.5k/s");
  assert.equal(instanceRow({ ...one, lastSeen: "never" }, now).lastSeenText, "—");
});

test("instance ids: the contract's characters, 1 to 64 of them", () => {
  for (const id of ["shop-1", "a", "host.name_2-x", "x".repeat(64)]) assert.ok(isInstanceId(id), id);
  for (const id of ["", "*", "a b", "shop/1", "x".repeat(65), "ü"]) assert.ok(!isInstanceId(id), id);
});

test("targets: every live instance first, gone ones listed but not choosable", () => {
  const { instances } = readFleetList(parseJSON(listText));
  assert.deepEqual(targetChoices(instances), [
    { value: allInstances, label: "All live instances (1)", disabled: false },
    { value: "shop-1", label: "shop-1", disabled: false },
    { value: "shop-2", label: "shop-2 (gone)", disabled: true },
  ]);
});

test("a broadcast's reply gives each instance's answer; it is ok only when all took it", () => {
  const reply = decodeServerMessage('{"id":4,"ok":true,"result":{"instances":{"shop-2":{"error":{"code":"read_only","message":"refuses writes"},"ok":false},"shop-1":{"ok":true,"result":{"seq":31}},"shop-3":{"ok":true,"result":{"seq":null}}}},"type":"reply"}');
  const answers = readBroadcast(reply.result);
  assert.deepEqual(answers, [
    { instance: "shop-1", ok: true, seq: 31, error: null },
    { instance: "shop-2", ok: false, seq: null, error: { code: "read_only", message: "refuses writes" } },
    { instance: "shop-3", ok: true, seq: null, error: null },
  ]);
  const outcome = broadcastOutcome(answers);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.error.code, "read_only");
  assert.match(outcome.error.message, /^1 of 3 instances refused: shop-2 \(read_only\)\. shop-2: refuses writes$/);
  assert.equal(answersSummary(answers), "3 instances: 2 ok, 1 refused");
  assert.deepEqual(broadcastOutcome(answers.filter((a) => a.ok)).error, null);
  assert.equal(broadcastOutcome([]).error.code, "no_instances", "no live instance: nobody took it");
  assert.equal(readBroadcast(new Map([["seq", 3]])), null, "a single instance's result is not a broadcast");
});

test("a request is addressed to an instance, or to all of them", () => {
  const text = writeRequest(7, "app/memory", { op: "set", path: "a", json: "3.0" });
  assert.equal(toInstance(text, "shop-2"), '{"instance":"shop-2","id":7,"type":"write","store":"app/memory","op":"set","path":"a","value":3.0}');
  assert.match(toInstance(text, "*"), /^\{"instance":"\*","id":7,/);
  assert.throws(() => toInstance("[1]", "*"), TypeError);
});

test("fleet messages: hello names the instance, entries and gaps of the merged stream name theirs", () => {
  const hello = decodeServerMessage('{"fleet":"shop","instance":"*","protocol":1,"readOnly":false,"server":{"name":"keyscope fleet shop","pid":9,"version":"0.1.0"},"type":"hello"}');
  assert.equal(hello.instance, "*");
  assert.equal(hello.fleet, "shop");
  const { entries } = decodeServerMessage('{"type":"changes","entries":[{"instance":"shop-1","patches":[{"new":1,"op":"set","path":"a"}],"seq":5,"store":"app/memory","time":"2026-11-21T10:00:00.000000Z","txn":null},{"instance":"shop-2","event":"removed","seq":5,"store":"app/x","time":"2026-11-21T10:00:00.000000Z"}]}');
  assert.deepEqual(entries.map((e) => [e.instance, e.seq]), [["shop-1", 5], ["shop-2", 5]]);
  assert.match(entries[0].raw, /^\{"instance":"shop-1",/);
  assert.deepEqual(decodeServerMessage('{"from":3,"instance":"shop-2","to":9,"type":"gap"}'), { type: "gap", from: 3, to: 9, instance: "shop-2" });
  const fleet = decodeServerMessage(listText.replace('{"fleet"', '{"type":"fleet","fleet"'));
  assert.equal(fleet.type, "fleet");
  assert.deepEqual(fleet.instances.map((i) => i.id), ["shop-1", "shop-2"]);
  assert.throws(() => decodeServerMessage('{"type":"fleet","instances":3}'), ProtocolError);
  assert.throws(() => decodeServerMessage('{"type":"changes","entries":[{"instance":3,"patches":[],"seq":1,"store":"a/b","time":"t","txn":null}]}'), ProtocolError);
});

test("the log ring keeps each entry's instance; the filter picks one", () => {
  const ring = new LogRing(4);
  const entry = (seq, instance) => ({ seq, time: "t", store: "app/memory", txn: null, event: null, patches: [{ op: "set", path: "a" }], raw: `{"seq":${seq}}`, instance });
  ring.push(entry(1, "shop-1"), 1);
  ring.push(entry(1, "shop-2"), 1);
  ring.push(entry(2, "shop-1"), 1);
  ring.push(entry(3), 1);
  assert.deepEqual([0, 1, 2, 3].map((n) => ring.instance(n)), ["shop-1", "shop-2", "shop-1", ""]);
  const filtered = new FilteredLog(ring);
  filtered.rebuild(compileFilter({ ...noFilter, instance: "shop-1" }, ring));
  assert.deepEqual([0, 1].map((p) => ring.seq(filtered.at(p))), [1, 2]);
  assert.equal(filtered.size, 2);
  assert.equal(compileFilter(noFilter, ring), null, "no instance filtered: everything");
  ring.resize(2);
  assert.deepEqual([2, 3].map((n) => ring.instance(n)), ["shop-1", ""], "a resize keeps the column");
  ring.push(entry(9, "shop-3"), 1);
  assert.equal(ring.instance(4), "shop-3");
});

test("the panels of a fleet: the Diff on fleet dashboards only, keys 1…9 then 0", () => {
  assert.deepEqual(fleetPanels, ["diff"]);
  assert.ok(!oneInstancePanels.includes("log") && !oneInstancePanels.includes("write"), "the merged log and writes to all");
  assert.ok(oneInstancePanels.includes("stores") && oneInstancePanels.includes("tunables"));
  assert.equal(panels.length, 10);
  assert.deepEqual(panels.map((_, i) => panelKey(i)), ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]);
  assert.equal(panelOfKey("0"), "diff");
  assert.equal(panelOfKey("1"), "stores");
  assert.equal(panelOfKey("x"), undefined);
});

const diffText = `{"a":"shop-1","b":"shop-2","onlyIn":{"a":["app/only-a"],"b":[]},"truncated":false,"stores":{
  "app/memory":[{"a":1,"b":2,"path":"cart.total"},{"a":"VIP","path":"cart.coupon"},{"b":{"x":[1,2.0]},"path":"extra"}],
  "app/file":[{"a":3.0,"b":3,"path":"n"}]}}`;

test("the diff: stores in order, both sides' values, a missing side absent", () => {
  const diff = readFleetDiff(parseJSON(diffText));
  assert.equal(diff.count, 4);
  assert.deepEqual([...diff.stores.keys()], ["app/file", "app/memory"]);
  assert.deepEqual(diff.onlyIn, { a: ["app/only-a"], b: [] });
  const { groups, shown, hidden } = diffGroups(diff);
  assert.deepEqual([shown, hidden], [4, 0]);
  const memory = groups.find((g) => g.store === "app/memory");
  assert.deepEqual(memory.rows.map((r) => [r.path, r.a.text, r.b.text]), [
    ["cart.total", "1", "2"], ["cart.coupon", '"VIP"', "absent"], ["extra", "absent", "{x: [2]}"],
  ]);
  assert.equal(memory.rows[1].b.type, "absent");
  const file = groups.find((g) => g.store === "app/file").rows[0];
  assert.deepEqual([file.a.text, file.b.text], ["3.0", "3"], "3.0 and 3 differ and read apart");
  assert.equal(file.key, diffKey("app/file", "n"));
  assert.equal(diffSummary(diff), "4 differing paths in 2 stores · 1 store only in shop-1");
});

test("the diff is searched by path and value words; rows past the limit are counted", () => {
  const diff = readFleetDiff(parseJSON(diffText));
  assert.deepEqual(diffGroups(diff, "coupon vip").groups.flatMap((g) => g.rows.map((r) => r.path)), ["cart.coupon"]);
  assert.deepEqual(diffGroups(diff, "2.0").groups.flatMap((g) => g.rows.map((r) => r.path)), ["extra"]);
  assert.equal(diffGroups(diff, "nothing-like-this").groups.length, 0);
  const limited = diffGroups(diff, "", 3);
  assert.deepEqual([limited.shown, limited.hidden], [3, 1]);
  assert.equal(limited.groups.reduce((n, g) => n + g.total, 0), 4);
});

test("one difference in full: each side's JSON, null where a side has none", () => {
  const diff = readFleetDiff(parseJSON(diffText));
  const extra = diffDetail(diff, "app/memory", "extra");
  assert.equal(extra.a, null);
  assert.equal(extra.b, stringifyValue(parseJSON('{"x":[1,2.0]}'), { indent: 2 }));
  assert.ok(extra.b.includes("2.0"));
  assert.equal(diffDetail(diff, "app/memory", "nope"), null);
  assert.ok(diffDetail(diff, "app/file", "n").aView.text === "3.0");
  assert.ok(parseJSON(diffText).get("stores").get("app/file")[0].get("a") instanceof Num);
});

test("a file store kept in another folder on B is one store: its detail names B's id", () => {
  const diff = readFleetDiff(parseJSON('{"a":"x","b":"y","onlyIn":{"a":[],"b":[]},"pairs":{"app/file:/a/t.json":"app/file:/b/t.json"},"stores":{"app/file:/a/t.json":[{"a":1,"b":2,"path":"n"}]}}'));
  assert.deepEqual([...diff.pairs], [["app/file:/a/t.json", "app/file:/b/t.json"]]);
  const detail = diffDetail(diff, "app/file:/a/t.json", "n");
  assert.deepEqual([detail.store, detail.storeB], ["app/file:/a/t.json", "app/file:/b/t.json"]);
  assert.equal(diffDetail(readFleetDiff(parseJSON(diffText)), "app/file", "n").storeB, "app/file", "unpaired: the same id");
  assert.throws(() => readFleetDiff(parseJSON('{"a":"x","b":"y","stores":{},"pairs":[]}')), /"pairs" should be an object/);
});

test("a diff that is not one says what is wrong; an empty one says they are equal", () => {
  assert.throws(() => readFleetDiff(parseJSON('{"a":"x","b":"y","stores":[]}')), /"stores" should be an object/);
  assert.throws(() => readFleetDiff(parseJSON('{"stores":{}}')), /name its two instances/);
  assert.throws(() => readFleetDiff(parseJSON('{"a":"x","b":"y","stores":{"s":[{"a":1}]}}')), /difference 0 of s/);
  const equal = readFleetDiff(parseJSON('{"a":"x","b":"y","stores":{},"onlyIn":{"a":[],"b":[]}}'));
  assert.equal(diffSummary(equal), "No difference: both states are equal");
});

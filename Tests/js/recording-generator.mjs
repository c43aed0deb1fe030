// Random but valid recordings (docs/recording.md) from a seed, for the reader's and time travel's tests: a few stores
// changed with set, insert, remove and merge patches (some in transactions), stores registered, reset and removed,
// and subscription lists now and then. Each event's state is kept as canonical JSON, the reference that seeking
// must reproduce.

import { parseJSON } from "../../Public/lib/json-reader.mjs";
import { stringifyValue } from "../../Public/lib/json-writer.mjs";
import { formatKeyPath } from "../../Public/lib/keypath.mjs";
import { Num } from "../../Public/lib/values.mjs";

/** A small seeded generator (mulberry32): the same seed gives the same recording. */
export function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

/** A header line. */
export function headerLine(stores, extras = "") {
  const list = stores.map(([id, root, version = "1.0.0"]) => `{"id":"${id}","root":${root},"version":"${version}"}`).join(",");
  return `{"createdAt":"2026-11-21T10:00:00.000000Z","format":"keyscope-log",${extras}"source":{"name":"test","pid":42},"stores":[${list}],"version":1}`;
}

/** The time of event `seq` (10 ms apart). */
export function timeOf(seq) {
  const ms = 10 * seq;
  const date = new Date(Date.UTC(2026, 10, 21, 10, 0, 0) + ms);
  return `${date.toISOString().slice(0, -1)}000Z`;
}

/** A change line. */
export function changeLine(seq, store, patches, txn = null) {
  return `{"patches":[${patches.join(",")}],"seq":${seq},"store":"${store}","time":"${timeOf(seq)}","txn":${txn ? `"${txn}"` : "null"}}`;
}

/** Encodes lines as a file (each ended by "\n"). */
export function fileOf(lines, tail = "") {
  return new TextEncoder().encode(lines.map((line) => `${line}\n`).join("") + tail);
}

const ids = ["app/memory", "scenario:checkout/memory", "app/userPrefs"];
const words = ["alpha", "beta", "gamma", "delta", "eur", "usd", "x", "y", "naïve", "日本", "😀"];

function randomValue(r, depth = 0) {
  switch (r.int(depth > 1 ? 5 : 7)) {
    case 0: return r.int(1000);
    case 1: return new Num(r.int(10000) / 100);
    case 2: return r.pick(words);
    case 3: return r.chance(0.5);
    case 4: return null;
    case 5: return new Map(Array.from({ length: r.int(3) }, () => [r.pick(words), randomValue(r, depth + 1)]));
    default: return Array.from({ length: r.int(3) }, () => randomValue(r, depth + 1));
  }
}

/** Every path in a value with its value: [segments, value]. */
function paths(value, prefix = [], out = []) {
  out.push([prefix, value]);
  if (value instanceof Map) for (const [key, child] of value) paths(child, [...prefix, key], out);
  else if (Array.isArray(value)) value.forEach((child, i) => paths(child, [...prefix, i], out));
  return out;
}

const text = (value) => stringifyValue(value);
const clone = (value) => parseJSON(stringifyValue(value));

/** One random patch on `root` (mutating it), as its JSON text; null when none fits. */
function randomPatch(r, root) {
  const all = paths(root);
  const [segments, value] = r.pick(all);
  const path = JSON.stringify(formatKeyPath(segments));
  const kind = r.int(5);
  if (value instanceof Map && kind === 0) {
    const key = r.pick(words);
    const fresh = randomValue(r);
    const old = value.get(key);
    value.set(key, fresh);
    const child = JSON.stringify(formatKeyPath([...segments, key]));
    return `{"new":${text(fresh)},${old === undefined ? "" : `"old":${text(old)},`}"op":"set","path":${child}}`;
  }
  if (value instanceof Map && kind === 1) {
    const keys = [...new Set(Array.from({ length: 1 + r.int(2) }, () => r.pick(words)))];
    const merged = new Map(keys.map((key) => [key, randomValue(r)]));
    const old = new Map(keys.filter((key) => value.has(key)).map((key) => [key, value.get(key)]));
    for (const [key, v] of merged) value.set(key, clone(v));
    return `{"new":${text(merged)},"old":${text(old)},"op":"merge","path":${path}}`;
  }
  if (Array.isArray(value) && kind <= 2) {
    const index = r.int(value.length + 1);
    const fresh = randomValue(r);
    value.splice(index, 0, fresh);
    return `{"new":${text(fresh)},"op":"insert","path":${JSON.stringify(formatKeyPath([...segments, index]))}}`;
  }
  if (segments.length === 0) return null;
  const parent = paths(root).find(([s]) => s.length === segments.length - 1 && s.every((x, i) => x === segments[i]))[1];
  const last = segments[segments.length - 1];
  if (kind === 3) {
    if (Array.isArray(parent)) parent.splice(last, 1);
    else parent.delete(last);
    return `{"old":${text(value)},"op":"remove","path":${path}}`;
  }
  const fresh = randomValue(r);
  if (Array.isArray(parent)) parent[last] = fresh;
  else parent.set(last, fresh);
  return `{"new":${text(fresh)},"old":${text(value)},"op":"set","path":${path}}`;
}

/** The state of every store as canonical JSON (store id → root), ordered by id. */
export function stateText(stores) {
  return [...stores.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, s]) => `${id}=${s.version}:${text(s.root)}`).join("\n");
}

/**
 * A random recording of `events` events.
 * @returns {{bytes: Uint8Array, states: string[], subscriptions: string[]}} `states[seq]` is the state after
 *   event `seq` (`states[0]` the header's), `subscriptions[seq]` the list in force then, as JSON text
 */
export function randomRecording(seed, events) {
  const r = random(seed);
  const stores = new Map([["app/memory", { version: "1.0.0", root: parseJSON('{"cart":{"items":[],"total":0.0},"user":{"name":"A"}}') }]]);
  let list = '[{"deliveries":0,"id":1,"label":"Cart","path":"cart","since":"2026-11-21T10:00:00.000000Z","store":"app/memory"}]';
  const lines = [headerLine([["app/memory", '{"cart":{"items":[],"total":0.0},"user":{"name":"A"}}']], `"liveSeq":900,"subscriptions":${list},`)];
  const states = [stateText(stores)];
  const subscriptions = [list];
  for (let seq = 1; seq <= events; seq++) {
    const time = timeOf(seq);
    const absent = ids.filter((id) => !stores.has(id));
    const roll = r.int(100);
    let line;
    if (roll < 3 && absent.length) {
      const id = r.pick(absent);
      const root = new Map([["n", r.int(10)]]);
      stores.set(id, { version: "1.0.0", root });
      line = `{"event":"registered","root":${text(root)},"seq":${seq},"store":"${id}","time":"${time}","version":"1.0.0"}`;
    } else if (roll < 5 && stores.size > 1) {
      const id = r.pick([...stores.keys()]);
      stores.delete(id);
      line = `{"event":"removed","seq":${seq},"store":"${id}","time":"${time}"}`;
    } else if (roll < 6) {
      const id = r.pick([...stores.keys()]);
      stores.set(id, { version: "2.0.0", root: new Map() });
      line = `{"event":"reset","seq":${seq},"store":"${id}","time":"${time}","version":"2.0.0"}`;
    } else {
      const id = r.pick([...stores.keys()]);
      const root = stores.get(id).root;
      const patches = [];
      const count = r.chance(0.2) ? 2 + r.int(3) : 1;
      for (let i = 0; i < count; i++) {
        const patch = randomPatch(r, root);
        if (patch) patches.push(patch);
      }
      if (patches.length === 0) patches.push(`{"new":${seq},"op":"set","path":"n${seq}"}`) && root.set(`n${seq}`, seq);
      const txn = patches.length > 1 ? `0000${seq.toString(16).padStart(4, "0")}-0000-4000-8000-000000000000` : null;
      line = changeLine(seq, id, patches, txn);
    }
    if (r.chance(0.05)) {
      list = `[{"deliveries":${seq},"id":1,"label":"Cart","path":"cart","since":"2026-11-21T10:00:00.000000Z","store":"app/memory"}]`;
      line = `${line.slice(0, -1)},"liveSeq":${900 + seq},"subscriptions":${list}}`;
    }
    lines.push(line);
    states.push(stateText(stores));
    subscriptions.push(list);
  }
  return { bytes: fileOf(lines), states, subscriptions };
}

/**
 * The same recording in other words: every line written again with the same values but random whitespace, key
 * order, escapes in strings and keys, `-0` for 0 and trailing zeros or exponents in numbers (each line stays
 * on its line, and its `\n`).
 * @param {Uint8Array} bytes a recording whose lines are all valid JSON
 */
export function restyled(bytes, seed) {
  const r = random(seed);
  const lines = new TextDecoder().decode(bytes).split("\n");
  const tail = lines.pop();
  // Half the lines without escapes (the fast path reads them), half with some (the general way does).
  return fileOf(lines.map((line) => restyle(parseJSON(line, 520), r, r.pick([0, 0.03]))), tail);
}

const space = (r) => r.pick(["", "", "", "", " ", "\t", " \r "]);

function restyle(value, r, share) {
  if (value instanceof Map) {
    const entries = [...value];
    if (r.chance(0.3)) entries.reverse();
    const members = entries.map(([key, member]) => `${quoted(key.charCodeAt(0) === 0x24 ? `$${key}` : key, r, share / 3)}${space(r)}:${space(r)}${restyle(member, r, share)}`);
    return `{${space(r)}${members.join(`${space(r)},${space(r)}`)}${space(r)}}`;
  }
  if (Array.isArray(value)) return `[${space(r)}${value.map((element) => restyle(element, r, share)).join(`${space(r)},${space(r)}`)}${space(r)}]`;
  if (typeof value === "string") return quoted(value, r, share);
  if (value === 0 && r.chance(0.3)) return "-0";
  if (value instanceof Num && Number.isFinite(value.value)) {
    const text = stringifyValue(value);
    if (text.includes("e")) return r.chance(0.5) ? text.toUpperCase() : text;
    return r.pick([text, `${text}0`, `${text}e0`, `${text}E+00`]);
  }
  return stringifyValue(value);
}

/** A JSON string of `text`, each character escaped with probability `share` (`\u` or its short escape). */
function quoted(text, r, share) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    const unit = (c) => `\\u${c.toString(16).padStart(4, "0")}`;
    if (code === 0x22 || code === 0x5c) out += `\\${text[i]}`;
    else if (code < 0x20) out += unit(code);
    else if (code === 0x2f && r.chance(share * 4)) out += "\\/";
    else if (r.chance(share)) out += pair === 2 ? unit(code) + unit(text.charCodeAt(i + 1)) : unit(code);
    else out += text.slice(i, i + pair);
    i += pair - 1;
  }
  return `"${out}"`;
}

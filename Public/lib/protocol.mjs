// Server messages (docs/protocol.md) read into plain objects, checked member by member, so that bad
// input from the server becomes one ProtocolError the dashboard can show instead of a broken page.

import { readFleetList } from "./fleet.mjs";
import { maxMessageDepth, parseJSON, parseJSONWithSpans } from "./json-reader.mjs";
import { Num } from "./values.mjs";

/** A server message the dashboard cannot use. */
export class ProtocolError extends Error {}

/**
 * @typedef {{op: string, path: string, old: any, new: any}} Patch   `old`/`new` are undefined when absent
 * @typedef {{seq: number, time: string, store: string, txn: string|null, event: string|null, version?: string,
 *   root?: Map<string, any>, patches: Patch[], raw: string, instance?: string}} Entry   `raw` is the entry's exact
 *   JSON text; `instance` names the instance it came from on a fleet dashboard's `/ws?instance=*`
 * @typedef {{id: number|string, store: string, path: string, label: string|null, since: string,
 *   deliveries: number}} Subscription
 * @typedef {{id: string, scope: string, storage: string, version: string, root: Map<string, any>}} StoreState
 */

/** The events of an entry that registers, resets or removes a whole store. */
export const storeEvents = new Set(["registered", "reset", "removed"]);
/** The ops of a patch (docs/store.md). */
export const patchOps = new Set(["set", "insert", "remove", "merge"]);

function member(object, key, check, what, where) {
  const value = object.get(key);
  if (!check(value)) throw new ProtocolError(`${where}: "${key}" should be ${what}`);
  return value;
}

const isString = (v) => typeof v === "string";
export const isInteger = (v) => typeof v === "number" && Number.isInteger(v);
const isBool = (v) => typeof v === "boolean";
const isMap = (v) => v instanceof Map;
const isArray = (v) => Array.isArray(v);

/**
 * Reads one text frame from the server.
 * @param {string} text
 * @returns {{type: string, [key: string]: any}}
 * @throws {ProtocolError}
 */
export function decodeServerMessage(text) {
  let message;
  let spans = [];
  try {
    // Only `changes` frames need each entry's own text; finding it costs nothing extra during the one read.
    ({ value: message, spans } = parseJSONWithSpans(text, "entries"));
  } catch (error) {
    throw new ProtocolError(`the server sent text that is not a JSON object: ${error.message}`);
  }
  const type = member(message, "type", isString, "a string", "a message");
  switch (type) {
    case "hello": return decodeHello(message);
    case "snapshot": return decodeSnapshot(message);
    case "changes": return { type, entries: decodeEntries(message, text, spans) };
    case "subscriptions": return { type, list: decodeSubscriptions(member(message, "list", isArray, "an array", type)) };
    case "gap": {
      const gap = { type, from: member(message, "from", isInteger, "an integer", type), to: member(message, "to", isInteger, "an integer", type) };
      // A fleet dashboard's merged stream names the instance whose changes were missed.
      if (isString(message.get("instance"))) gap.instance = message.get("instance");
      return gap;
    }
    case "reply": return decodeReply(message);
    case "fleet": return decodeFleet(message);
    default: return { type: "unknown", name: type };
  }
}

function decodeHello(message) {
  const server = member(message, "server", isMap, "an object", "hello");
  const instance = message.get("instance");
  const fleet = message.get("fleet");
  return {
    type: "hello",
    // A fleet dashboard (docs/fleet.md): the instance this stream speaks for, or "*" for all of them merged.
    instance: isString(instance) ? instance : null,
    fleet: isString(fleet) ? fleet : null,
    protocol: member(message, "protocol", isInteger, "an integer", "hello"),
    readOnly: member(message, "readOnly", isBool, "a boolean", "hello"),
    resumed: message.get("resumed") === true,
    server: {
      name: member(server, "name", isString, "a string", "hello.server"),
      version: member(server, "version", isString, "a string", "hello.server"),
      pid: member(server, "pid", isInteger, "an integer", "hello.server"),
    },
  };
}

/** The fleet dashboard's list of instances (`{"type": "fleet", "fleet", "instances": […]}`). */
function decodeFleet(message) {
  try {
    return { type: "fleet", ...readFleetList(message) };
  } catch (error) {
    throw new ProtocolError(`fleet: ${error.message}`);
  }
}

function decodeSnapshot(message) {
  const stores = member(message, "stores", isArray, "an array", "snapshot").map((store, i) => {
    const where = `snapshot.stores[${i}]`;
    if (!isMap(store)) throw new ProtocolError(`${where} should be an object`);
    const id = member(store, "id", isString, "a string", where);
    const [scope, storage] = splitStoreId(id);
    return {
      id,
      scope: store.has("scope") ? member(store, "scope", isString, "a string", where) : scope,
      storage: store.has("storage") ? member(store, "storage", isString, "a string", where) : storage,
      version: member(store, "version", isString, "a string", where),
      root: member(store, "root", isMap, "an object", where),
    };
  });
  return {
    type: "snapshot",
    seq: member(message, "seq", isInteger, "an integer", "snapshot"),
    stores,
    subscriptions: decodeSubscriptions(member(message, "subscriptions", isArray, "an array", "snapshot")),
  };
}

/**
 * A store id's two halves, split at the first "/" (a file storage keeps the slashes of its path).
 * @param {string} id
 * @returns {[string, string]}
 */
export function splitStoreId(id) {
  const slash = id.indexOf("/");
  return slash < 0 ? [id, ""] : [id.slice(0, slash), id.slice(slash + 1)];
}

function decodeEntries(message, text, spans) {
  const entries = member(message, "entries", isArray, "an array", "changes");
  return entries.map((entry, i) => decodeEntry(entry, spans[i] ? text.slice(spans[i][0], spans[i][1]) : ""));
}

/**
 * Checks one log event (docs/recording.md) and gives it a plain shape.
 * @param {Map<string, any>} entry
 * @param {string} raw the entry's JSON text
 * @returns {Entry}
 */
function decodeEntry(entry, raw) {
  if (!isMap(entry)) throw new ProtocolError("a log entry should be an object");
  const seq = member(entry, "seq", isInteger, "an integer", "an entry");
  const where = `entry ${seq}`;
  const result = {
    seq,
    time: member(entry, "time", isString, "a string", where),
    store: member(entry, "store", isString, "a string", where),
    txn: null,
    event: null,
    patches: [],
    raw,
  };
  const instance = entry.get("instance");
  if (instance !== undefined) {
    if (!isString(instance)) throw new ProtocolError(`${where}: "instance" should be a string`);
    result.instance = instance;
  }
  if (entry.has("event")) {
    const event = member(entry, "event", (v) => storeEvents.has(v), "registered, reset or removed", where);
    result.event = event;
    if (event !== "removed") result.version = member(entry, "version", isString, "a string", where);
    if (event === "registered") result.root = member(entry, "root", isMap, "an object", where);
    return result;
  }
  const txn = entry.get("txn");
  if (txn !== undefined && txn !== null && !isString(txn)) throw new ProtocolError(`${where}: "txn" should be a string or null`);
  result.txn = txn ?? null;
  result.patches = member(entry, "patches", isArray, "an array", where).map((patch, i) => {
    const at = `${where} patch ${i}`;
    if (!isMap(patch)) throw new ProtocolError(`${at} should be an object`);
    return {
      op: member(patch, "op", (v) => patchOps.has(v), "set, insert, remove or merge", at),
      path: member(patch, "path", isString, "a string", at),
      old: patch.get("old"),
      new: patch.get("new"),
    };
  });
  return result;
}

/**
 * Checks a subscription list (the protocol's shape) and gives its items a plain shape.
 * @param {any[]} list
 * @returns {Subscription[]}
 * @throws {ProtocolError}
 */
export function decodeSubscriptions(list) {
  return list.map((item, i) => {
    const where = `subscription ${i}`;
    if (!isMap(item)) throw new ProtocolError(`${where} should be an object`);
    const label = item.get("label");
    const id = item.get("id");
    return {
      id: isString(id) || isInteger(id) ? id : String(id),
      store: member(item, "store", isString, "a string", where),
      path: member(item, "path", isString, "a string", where),
      label: isString(label) ? label : null,
      since: member(item, "since", isString, "a string", where),
      deliveries: member(item, "deliveries", isInteger, "an integer", where),
    };
  });
}

function decodeReply(message) {
  const id = message.get("id");
  const ok = member(message, "ok", isBool, "a boolean", "reply");
  const reply = { type: "reply", id: id instanceof Num ? id.value : id ?? null, ok };
  if (ok) {
    const result = message.get("result");
    const seq = result instanceof Map ? result.get("seq") : undefined;
    reply.seq = isInteger(seq) ? seq : null;
    // Requests that answer more than a seq (rewind) get their whole result too.
    if (result instanceof Map && [...result.keys()].some((key) => key !== "seq")) reply.result = result;
  } else {
    const error = member(message, "error", isMap, "an object", "reply");
    reply.error = {
      code: member(error, "code", isString, "a string", "reply.error"),
      message: member(error, "message", isString, "a string", "reply.error"),
    };
  }
  return reply;
}

/**
 * Reads one log entry's stored text again (the log keeps entries as text to stay small).
 * @param {string} raw
 * @returns {Entry}
 */
export function decodeStoredEntry(raw) {
  return decodeEntry(parseJSON(raw, maxMessageDepth), raw);
}

// The general way of reading a recording's lines (docs/recording.md): the whole line parsed into values, then every
// rule checked on them, each broken rule a RecordingError with the line's number and the reason. The header and
// store events always come here, and so does every line the fast path (change-bytes.mjs) gives up on, every bad
// one included, so that the reasons come from here alone. What needs the state (is the store there, does a patch
// apply) the indexer checks after these (recording-indexer.mjs).

import { maxMessageDepth, parseJSON } from "./json-reader.mjs";
import { stringifyValue } from "./json-writer.mjs";
import { isStoreId, parseLogTime, readPatch, versionPattern } from "./log-line.mjs";
import { describe } from "./mirror.mjs";
import { decodeSubscriptions, isInteger, storeEvents } from "./protocol.mjs";

/** A line that breaks the log format's rules; `line` counts from 1, the header is line 1. */
export class RecordingError extends Error {
  /**
   * @param {number} line
   * @param {string} reason
   */
  constructor(line, reason) {
    super(`line ${line}: ${reason}`);
    this.line = line;
    this.reason = reason;
  }
}

const uuidPattern = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/**
 * Reads the recorder's `subscriptions` member (docs/recording.md): its JSON text, or null when it is absent or
 * not a list of subscriptions (an extra member a reader may ignore).
 */
export function readSubscriptions(value) {
  if (!Array.isArray(value)) return null;
  try {
    decodeSubscriptions(value);
  } catch {
    return null;
  }
  return stringifyValue(value);
}

/**
 * One line parsed whole: an object, or a RecordingError.
 * @param {string} text
 * @param {number} line
 * @returns {Map<string, any>}
 */
export function parseLine(text, line) {
  if (text === "" || text === "\r") throw new RecordingError(line, "a blank line (every line is one JSON object)");
  let value;
  try {
    value = parseJSON(text, maxMessageDepth);
  } catch (error) {
    throw new RecordingError(line, `invalid JSON: ${error.message}`);
  }
  if (!(value instanceof Map)) throw new RecordingError(line, "a line must be a JSON object");
  return value;
}

/**
 * The header line, checked: its time, source, stores (with their roots, built), recorder and subscription list.
 * @param {string} text
 */
export function readHeader(text) {
  const fail = (reason) => new RecordingError(1, reason);
  const header = parseLine(text, 1);
  if (typeof header.get("format") !== "string") throw fail('the header needs "format": "keyscope-log"');
  if (header.get("format") !== "keyscope-log") throw fail(`"format" is "${header.get("format")}", not "keyscope-log"`);
  const version = header.get("version");
  if (!isInteger(version)) throw fail('the header needs "version" as the integer 1');
  if (version !== 1) throw fail(`unknown log format version ${version} (this reader knows version 1)`);
  const createdAt = header.get("createdAt");
  if (typeof createdAt !== "string") throw fail('the header needs "createdAt" as an RFC 3339 time string');
  let micros;
  try {
    micros = parseLogTime(createdAt);
  } catch (error) {
    throw fail(`"createdAt": ${error.message}`);
  }
  const source = readSource(header.get("source"), fail);
  const list = header.get("stores");
  if (!Array.isArray(list)) throw fail('the header needs "stores" as an array');
  /** @type {Map<string, {id: string, version: string, root: Map<string, any>}>} */
  const stores = new Map();
  list.forEach((store, i) => {
    if (!(store instanceof Map)) throw fail(`stores[${i}] must be an object`);
    const id = store.get("id");
    if (typeof id !== "string" || !isStoreId(id)) throw fail(`stores[${i}] needs "id" as a store id (<scope>/<storage>)`);
    const storeVersion = store.get("version");
    if (typeof storeVersion !== "string" || !versionPattern.test(storeVersion)) throw fail(`store ${id} needs "version" as a major.minor.patch string`);
    const root = store.get("root");
    if (root === undefined) throw fail(`store ${id} needs "root"`);
    if (!(root instanceof Map)) throw fail(`the root of store ${id} must be an object`);
    if (stores.has(id)) throw fail(`store ${id} is listed twice in "stores"`);
    stores.set(id, { id, version: storeVersion, root });
  });
  const recorder = header.get("recorder");
  return {
    createdAt,
    micros,
    source,
    stores,
    recorder: recorder instanceof Map && typeof recorder.get("version") === "string" ? recorder.get("version") : null,
    subscriptions: readSubscriptions(header.get("subscriptions")),
  };
}

function readSource(value, fail) {
  if (value === undefined) return null;
  if (!(value instanceof Map)) throw fail('"source" must be an object');
  const source = {};
  for (const key of ["name", "host"]) {
    if (!value.has(key)) continue;
    if (typeof value.get(key) !== "string") throw fail(`"source.${key}" must be a string`);
    source[key] = value.get(key);
  }
  if (value.has("pid")) {
    if (!isInteger(value.get("pid"))) throw fail('"source.pid" must be an integer');
    source.pid = value.get("pid");
  }
  return source;
}

/**
 * An event line, checked as far as it can be without the state: a change with its patches read (paths parsed),
 * or a store event with its version and root.
 * @param {string} text
 * @param {number} line
 * @param {import("./mirror.mjs").PathCache} paths
 * @returns {{micros: number, id: string, event: string|null, version?: string, root?: Map<string, any>,
 *   patches?: import("./recording-state.mjs").StatePatch[], subscriptions: string|null}}
 */
export function readEvent(text, line, paths) {
  const seq = line - 1;
  const fail = (reason) => new RecordingError(line, reason);
  const value = parseLine(text, line);
  const seqValue = value.get("seq");
  if (!isInteger(seqValue) || seqValue < 1) throw fail('"seq" must be an integer of at least 1');
  if (seqValue !== seq) throw fail(`"seq" is ${seqValue}, expected ${seq} (seq starts at 1 and rises by exactly 1 per line)`);
  const time = value.get("time");
  if (typeof time !== "string") throw fail('"time" must be a string');
  let micros;
  try {
    micros = parseLogTime(time);
  } catch (error) {
    throw fail(`"time": ${error.message}`);
  }
  const id = value.get("store");
  if (typeof id !== "string") throw fail('"store" must be a string');
  if (!isStoreId(id)) throw fail(`"store" is not a store id (<scope>/<storage>): "${id}"`);
  const subscriptions = readSubscriptions(value.get("subscriptions"));
  if (value.has("event")) {
    const event = value.get("event");
    if (!storeEvents.has(event)) throw fail(`unknown store event ${describe(event)} (registered, reset or removed)`);
    if (event === "removed") return { micros, id, event, subscriptions };
    const version = value.get("version");
    if (typeof version !== "string" || !versionPattern.test(version)) throw fail(`a ${event} event needs "version" as a major.minor.patch string`);
    const root = value.get("root");
    if (event === "registered" && !(root instanceof Map)) throw fail('a registered event needs "root" as an object');
    return { micros, id, event, version, root, subscriptions };
  }
  const txn = value.get("txn");
  if (txn !== undefined && txn !== null && (typeof txn !== "string" || !uuidPattern.test(txn))) throw fail('"txn" must be a UUID string or null');
  const list = value.get("patches");
  if (!Array.isArray(list)) throw fail('a change needs "patches" as an array (or an "event" key for a store event)');
  const patches = list.map((member, i) => {
    try {
      const { patch, segments } = readPatch(member, i, paths);
      return { ...patch, segments };
    } catch (error) {
      throw fail(error.message);
    }
  });
  return { micros, id, event: null, patches, subscriptions };
}

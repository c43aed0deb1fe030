// The fleet dashboard's data without DOM (docs/fleet.md, docs/dashboard.md "The fleet dashboard"): the instance
// list (`GET /api/fleet`, the `fleet` message), the picker's rows, the targets a request can have, and each
// instance's answer to a request sent to every live instance (`"instance": "*"`).

import { formatAge, parseTime } from "./time.mjs";
import { Num } from "./values.mjs";

/** The target that names every live instance of the fleet. */
export const allInstances = "*";

/** Instance ids as docs/fleet.md allows them. */
const idPattern = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Whether `text` can be an instance id (`[A-Za-z0-9._-]{1,64}`).
 * @param {string} text
 */
export function isInstanceId(text) {
  return idPattern.test(text);
}

/**
 * @typedef {{id: string, state: "live"|"gone", name: string, host: string, pid: number, version: string,
 *   startedAt: string, lastSeen: string, seq: number, readOnly: boolean, rate: number}} FleetInstance
 * @typedef {{fleet: string, instances: FleetInstance[]}} FleetList   instances sorted by id
 */

/**
 * Reads the fleet list (the body of `GET /api/fleet`, or a `fleet` message, as the StoreValue JSON reader gives
 * it). Members a newer server adds are ignored; ones it lacks get empty values.
 * @param {any} body
 * @returns {FleetList}
 * @throws {TypeError} naming what is wrong
 */
export function readFleetList(body) {
  if (!(body instanceof Map)) throw new TypeError("the fleet list is not a JSON object");
  const list = body.get("instances");
  if (!Array.isArray(list)) throw new TypeError('the fleet list\'s "instances" should be an array');
  const fleet = body.get("fleet");
  const instances = list.map(readInstance).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { fleet: typeof fleet === "string" ? fleet : "", instances };
}

/** @returns {FleetInstance} */
function readInstance(item, index) {
  if (!(item instanceof Map)) throw new TypeError(`instance ${index} of the fleet list should be an object`);
  const id = item.get("id");
  if (typeof id !== "string" || id === "") throw new TypeError(`instance ${index} of the fleet list has no "id"`);
  const text = (key) => (typeof item.get(key) === "string" ? item.get(key) : "");
  const number = (key) => {
    const value = item.get(key);
    if (value instanceof Num) return value.value;
    return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : 0;
  };
  return {
    id,
    state: item.get("state") === "live" ? "live" : "gone",
    name: text("name"),
    host: text("host"),
    pid: number("pid"),
    version: text("version"),
    startedAt: text("startedAt"),
    lastSeen: text("lastSeen"),
    seq: number("seq"),
    readOnly: item.get("readOnly") === true,
    rate: number("rate"),
  };
}

/**
 * @typedef {FleetInstance & {live: boolean, lastSeenText: string, rateText: string, title: string}} InstanceRow
 *   what the picker draws for one instance
 */

/**
 * The picker's row for an instance at time `now`.
 * @param {FleetInstance} instance
 * @param {number} now milliseconds
 * @returns {InstanceRow}
 */
export function instanceRow(instance, now) {
  const seen = parseTime(instance.lastSeen);
  const live = instance.state === "live";
  const lastSeenText = Number.isNaN(seen) ? "—" : now - seen < 2000 ? "just now" : `${formatAge(seen, now)} ago`;
  const rateText = `${rateNumber(instance.rate)}/s`;
  const title = [
    `${instance.id}: ${instance.name || "an instance"} on ${instance.host || "?"}, pid ${instance.pid}, v${instance.version || "?"}`,
    live ? `live, last seen ${lastSeenText}` : `gone since ${lastSeenText}: its last state stays readable`,
    instance.readOnly ? "read-only: it refuses requests from the fleet" : "",
  ].filter(Boolean).join("\n");
  return { ...instance, live, lastSeenText, rateText, title };
}

/** A change rate as short text: `0`, `3.5`, `42`, `1.2k`. @param {number} rate */
function rateNumber(rate) {
  if (!(rate > 0)) return "0";
  if (rate >= 1000) return `${(rate / 1000).toFixed(1)}k`;
  return rate >= 10 ? String(Math.round(rate)) : String(Math.round(rate * 10) / 10);
}

/**
 * The choices of a request's target: every live instance at once, then each instance (gone ones cannot answer).
 * @param {FleetInstance[]} instances
 * @returns {Array<{value: string, label: string, disabled: boolean}>}
 */
export function targetChoices(instances) {
  const live = instances.filter((i) => i.state === "live").length;
  return [
    { value: allInstances, label: `All live instances (${live})`, disabled: live === 0 },
    ...instances.map((i) => ({ value: i.id, label: i.state === "live" ? i.id : `${i.id} (gone)`, disabled: i.state !== "live" })),
  ];
}

/**
 * @typedef {{instance: string, ok: boolean, seq: number|null, error: {code: string, message: string}|null}} InstanceAnswer
 */

/**
 * Each instance's answer in the result of a request sent to every live instance: `{"instances": {"shop-1": {"ok":
 * true, "result": {"seq": 12}}, "shop-2": {"ok": false, "error": {"code", "message"}}}}` (as the reader gives it).
 * @param {any} result the reply's `result`
 * @returns {InstanceAnswer[]|null} sorted by instance id; null when `result` is not such a result
 */
export function readBroadcast(result) {
  const instances = result instanceof Map ? result.get("instances") : undefined;
  if (!(instances instanceof Map)) return null;
  const answers = [];
  for (const [instance, outcome] of instances) {
    if (!(outcome instanceof Map)) {
      answers.push({ instance, ok: false, seq: null, error: { code: "bad_reply", message: "the fleet sent an answer that is not an object" } });
      continue;
    }
    if (outcome.get("ok") === true) {
      const inner = outcome.get("result");
      const seq = inner instanceof Map ? inner.get("seq") : undefined;
      answers.push({ instance, ok: true, seq: typeof seq === "number" ? seq : null, error: null });
    } else {
      const error = outcome.get("error");
      const code = error instanceof Map && typeof error.get("code") === "string" ? error.get("code") : "error";
      const message = error instanceof Map && typeof error.get("message") === "string" ? error.get("message") : "no message";
      answers.push({ instance, ok: false, seq: null, error: { code, message } });
    }
  }
  return answers.sort((a, b) => (a.instance < b.instance ? -1 : 1));
}

/**
 * A broadcast's outcome in one reply shape (as a single instance's): ok only when every instance took it, the
 * first refusal as the error, and every answer in `instances`.
 * @param {InstanceAnswer[]} answers
 * @returns {{ok: boolean, seq: null, error: {code: string, message: string}|null, instances: InstanceAnswer[]}}
 */
export function broadcastOutcome(answers) {
  const refused = answers.filter((a) => !a.ok);
  if (answers.length === 0) {
    return { ok: false, seq: null, error: { code: "no_instances", message: "No live instance took the request: the fleet has none right now." }, instances: answers };
  }
  const error = refused.length === 0 ? null : {
    code: refused[0].error.code,
    message: `${refused.length} of ${answers.length} instances refused: ${refused.map((a) => `${a.instance} (${a.error.code})`).join(", ")}. ${refused[0].instance}: ${refused[0].error.message}`,
  };
  return { ok: refused.length === 0, seq: null, error, instances: answers };
}

/**
 * A broadcast's answers in a few words: `3 instances: 2 ok, 1 refused`.
 * @param {InstanceAnswer[]} answers
 */
export function answersSummary(answers) {
  const ok = answers.filter((a) => a.ok).length;
  const refused = answers.length - ok;
  const parts = [`${ok} ok`];
  if (refused) parts.push(`${refused} refused`);
  return `${answers.length} instance${answers.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

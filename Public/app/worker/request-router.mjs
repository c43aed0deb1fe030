// The page's requests to the server (`write`, `transaction`, `revert`, `tune`, `untune`, `rewind`), built and sent
// where they belong: on a single server, and to the instance a fleet dashboard's stream speaks for, over the live
// connection; to another instance of the fleet or to all of them (`"instance": "*"`), over the merged stream when
// that is the live one, else over a FleetChannel. A request to all of them is answered with each instance's answer.

import { broadcastOutcome, readBroadcast } from "../../lib/fleet.mjs";
import { revertRequest, rewindRequest, toInstance, transactionRequest, tuneRemoveRequest, tuneRequest, writeRequest } from "../../lib/requests.mjs";

/**
 * @typedef {{kind: string, store?: string, op?: any, ops?: any[], seq?: number, key?: string, json?: string,
 *   target?: string}} PageRequest   `target`: an instance id or "*" on a fleet dashboard ("" or absent: the
 *   instance the page shows)
 * @typedef {{ok: boolean, seq: number|null, error: {code: string, message: string}|null, result: any,
 *   instances?: import("../../lib/fleet.mjs").InstanceAnswer[]}} PageReply
 */

/**
 * The request's JSON text for an id.
 * @param {PageRequest} request
 * @returns {(id: number) => string}
 */
export function requestBuilder({ kind, store, op, ops, seq, key, json }) {
  const build = {
    write: (id) => writeRequest(id, store, op),
    transaction: (id) => transactionRequest(id, store, ops),
    revert: (id) => revertRequest(id, seq),
    tune: (id) => tuneRequest(id, key, json),
    untune: (id) => tuneRemoveRequest(id, key),
    rewind: (id) => rewindRequest(id, seq),
  }[kind];
  if (!build) throw new TypeError(`no request of kind ${kind}`);
  return build;
}

export class RequestRouter {
  /** @param {{channel: {request: (build: (id: number) => string, target: string) => Promise<any>}}} options */
  constructor({ channel }) {
    this.channel = channel;
  }

  /**
   * Sends a request; resolves with the reply for the page.
   * @param {import("./session.mjs").Session} session the live session
   * @param {PageRequest} request
   * @returns {Promise<PageReply>}
   */
  send(session, request) {
    const build = requestBuilder(request);
    // On the merged stream a request names its instance; one that names none is for all of them.
    const target = request.target || (session.merged ? "*" : "");
    return this.deliver(session, build, target).then((reply) => shape(reply, target));
  }

  /** @returns {Promise<any>} the decoded reply */
  deliver(session, build, target) {
    const onSession = (make) => new Promise((resolve) => session.request(make, resolve));
    // The merged stream carries requests to any instance; they must name one.
    if (session.merged) return onSession((id) => toInstance(build(id), target));
    if (!target || !session.instance || target === session.instance) return onSession(build);
    return this.channel.request(build, target);
  }
}

/**
 * The reply as the page gets it; a request to every instance is ok when each of them took it.
 * @param {any} reply
 * @param {string} target
 * @returns {PageReply}
 */
export function shape(reply, target) {
  const answers = target === "*" && reply.ok ? readBroadcast(reply.result) : null;
  if (answers) return { ...broadcastOutcome(answers), result: null };
  return { ok: reply.ok, seq: reply.seq ?? null, error: reply.error ?? null, result: reply.result ?? null };
}

/**
 * A rewind's result (`{"seq", "changes", "stores", "skipped"}`) as plain data for the page.
 * @param {any} result
 */
export function rewindResult(result) {
  if (!(result instanceof Map)) return null;
  const stores = result.get("stores");
  const skipped = result.get("skipped");
  return {
    changes: typeof result.get("changes") === "number" ? result.get("changes") : 0,
    stores: Array.isArray(stores) ? stores.filter((s) => typeof s === "string") : [],
    skipped: Array.isArray(skipped)
      ? skipped.filter((s) => s instanceof Map).map((s) => ({ store: String(s.get("store") ?? ""), reason: String(s.get("reason") ?? "") }))
      : [],
  };
}

// The Diff panel's state in the worker: the diff of two instances of a fleet (`GET /api/fleet/diff?a=ID&b=ID`),
// read when the page asks (its A and B changed, or Compare), searched by path and value, and one difference in
// full for the detail.

import { diffDetail, diffGroups, diffSummary, readFleetDiff } from "../../lib/fleet-diff.mjs";
import { getJSON } from "./http.mjs";

/** @typedef {"idle"|"loading"|"ready"|"error"} DiffStatus */

export class DiffModel {
  /** It reads the fleet dashboard, not a session: the worker keeps it when another instance is picked. */
  static sessionFree = true;

  /**
   * @param {import("./session.mjs").Session} session
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch, now?: () => number}} options
   */
  constructor(session, { origin, token, onChange, fetch = (...args) => globalThis.fetch(...args), now = () => Date.now() }) {
    Object.assign(this, { session, origin, token, onChange, fetch, now });
    /** @type {DiffStatus} */
    this.status = "idle";
    this.message = "";
    /** @type {import("../../lib/fleet-diff.mjs").FleetDiff|null} */
    this.diff = null;
    this.at = 0;
    this.search = "";
    /** The pair asked for last; an answer for an older pair is dropped. */
    this.wanted = "";
    this.version = 0;
    this.sent = -1;
  }

  /**
   * The panel's messages: `compare` (`a`, `b`), `search` (`text`), `detail` (`store`, `path`; answered).
   * @param {{action: string, a?: string, b?: string, text?: string, store?: string, path?: string}} message
   * @param {(data: object) => void} answer
   */
  act({ action, a, b, text, store, path }, answer) {
    switch (action) {
      case "compare": return void this.compare(a ?? "", b ?? "");
      case "search":
        this.search = text ?? "";
        this.version++;
        return;
      case "detail": return answer({ detail: this.diff ? diffDetail(this.diff, store ?? "", path ?? "") : null });
    }
  }

  /**
   * Reads the diff of `a` and `b`.
   * @param {string} a
   * @param {string} b
   */
  async compare(a, b) {
    const pair = `${a}\u0000${b}`;
    this.wanted = pair;
    if (!a || !b || a === b) {
      Object.assign(this, { status: "error", message: !a || !b ? "Choose the two instances to compare." : "Choose two different instances." });
      this.version++;
      return this.onChange();
    }
    this.status = "loading";
    this.version++;
    const query = new URLSearchParams({ a, b });
    const answer = await getJSON(this, `/api/fleet/diff?${query}`, `the diff of ${a} and ${b}`, readFleetDiff);
    if (this.wanted !== pair) return;
    if (answer.status === "ready") {
      Object.assign(this, { status: "ready", message: "", diff: answer.body, at: this.now() });
    } else {
      // 404 is an instance the fleet no longer knows (unknown_instance): an error here, not "none".
      const message = answer.status === "none" && answer.code ? `${answer.code}: ${answer.message}` : answer.message;
      Object.assign(this, { status: "error", message, diff: null });
    }
    this.version++;
    this.onChange();
  }

  /** The panel's section, or undefined when the page has it already. */
  build() {
    if (this.sent === this.version) return undefined;
    this.sent = this.version;
    const diff = this.diff;
    const groups = diff ? diffGroups(diff, this.search) : { groups: [], shown: 0, hidden: 0 };
    return {
      status: this.status, message: this.message, search: this.search, at: this.at,
      a: diff?.a ?? "", b: diff?.b ?? "", summary: diff ? diffSummary(diff) : "",
      onlyIn: diff?.onlyIn ?? { a: [], b: [] }, truncated: diff?.truncated ?? false, ...groups,
    };
  }
}

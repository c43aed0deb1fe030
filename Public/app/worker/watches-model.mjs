// The Watches panel's state in the worker: `GET /api/watches` (watched status keys, watch rules, recent
// violations), fetched when the tab is shown, every 2 s while it is, and when changes arrive (at most every
// second); Refresh asks the server to re-read every status first (`POST /api/watches/refresh`). The rows come
// from watches.mjs.

import { Throttle } from "../../lib/preferences.mjs";
import { readWatchesPanel, watchesSummary, watchesView } from "../../lib/watches.mjs";
import { getJSON, postEmpty, postFailureText } from "./http.mjs";

/** While the tab is shown, the panel is fetched this often. */
export const pollIntervalMs = 2000;
/** Changes re-fetch the panel at most this often (rules watch any store, so every change may matter). */
export const refetchIntervalMs = 1000;

/** @typedef {"idle"|"loading"|"ready"|"none"|"error"} WatchesStatus */

export class WatchesModel {
  /**
   * @param {import("./session.mjs").Session} session
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch,
   *   clock?: {now?: () => number, setTimer?: (f: () => void, ms: number) => any, clearTimer?: (t: any) => void,
   *   setRepeat?: (f: () => void, ms: number) => any, clearRepeat?: (t: any) => void}}} options
   */
  constructor(session, { origin, token, onChange, fetch = (...args) => globalThis.fetch(...args), clock = {} }) {
    Object.assign(this, { session, origin, token, onChange, fetch });
    /** The fleet instance the requests are for (http.mjs): the session's, on a fleet dashboard. */
    this.carriedTo = () => session.instance;
    this.setRepeat = clock.setRepeat ?? ((f, ms) => setInterval(f, ms));
    this.clearRepeat = clock.clearRepeat ?? ((t) => clearInterval(t));
    this.now = clock.now ?? (() => Date.now());
    /** @type {WatchesStatus} */
    this.status = "idle";
    this.message = "";
    /** @type {import("../../lib/watches.mjs").WatchesPanel|null} */
    this.panel = null;
    /** When the panel was last read (ms), 0 before. */
    this.fetchedAt = 0;
    this.shown = false;
    this.poll = null;
    this.loading = false;
    this.again = false;
    this.version = 0;
    this.sent = { key: "", signature: "" };
    this.throttle = new Throttle(() => this.load(), refetchIntervalMs, clock);
  }

  /**
   * The tab was shown (fetch now, then every `pollIntervalMs`) or hidden (stop).
   * @param {boolean} shown
   */
  setShown(shown) {
    if (shown === this.shown) return;
    this.shown = shown;
    if (shown) {
      this.load();
      this.poll = this.setRepeat(() => this.load(), pollIntervalMs);
    } else {
      if (this.poll !== null) this.clearRepeat(this.poll);
      this.poll = null;
      this.throttle.cancel();
    }
  }

  /**
   * Changes arrived: while the tab is shown, fetch again soon (rules can watch any store).
   * @param {Array<{store: string}>} entries
   */
  noteChanges(entries) {
    if (this.shown && entries.length > 0 && this.status !== "none") this.throttle.poke();
  }

  async load() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    if (!this.panel) this.status = "loading";
    const answer = await getJSON(this, "/api/watches", "the watches", readWatchesPanel);
    if (answer.status === "ready") {
      this.panel = answer.body;
      this.message = "";
      this.fetchedAt = this.now();
    } else {
      if (answer.status === "none") this.panel = null;
      this.message = answer.message;
    }
    this.status = answer.status;
    this.loading = false;
    this.version++;
    this.onChange();
    if (this.again) {
      this.again = false;
      this.load();
    }
  }

  /**
   * Re-reads every status on the server (`POST /api/watches/refresh`), then fetches the panel.
   * @returns {Promise<{ok: boolean, message: string}>}
   */
  async refresh() {
    const sent = await postEmpty(this, "/api/watches/refresh");
    const answer = { ok: sent.ok, message: sent.ok ? "" : postFailureText(sent) };
    await this.load();
    return answer;
  }

  /**
   * The panel's messages from the page (`{type: "watches", action}`): refresh re-reads the statuses on the server
   * (its outcome is the answer); reload fetches the panel again.
   * @param {{action: string}} message
   * @param {(data: object) => void} answer
   */
  act({ action }, answer) {
    if (action === "reload") return void this.load();
    if (action === "refresh") this.refresh().then(answer);
  }

  /**
   * The panel's section of the next update, or undefined when the page already has what it would show.
   * @returns {{status: WatchesStatus, message: string, fetchedAt: number, summary: string,
   *   statuses: import("../../lib/watches.mjs").StatusRow[], rules: import("../../lib/watches.mjs").RuleRow[],
   *   violations: import("../../lib/watches.mjs").ViolationRow[], counts: import("../../lib/watches.mjs").WatchCounts}|undefined}
   */
  build() {
    const key = `${this.version}\u0000${this.session.versions.log}`;
    if (key === this.sent.key) return undefined;
    this.sent.key = key;
    const { ring, epoch } = this.session;
    const view = this.panel
      ? watchesView(this.panel, (seq) => ring.find(seq, epoch) >= 0)
      : { statuses: [], rules: [], violations: [], counts: { statuses: 0, outOfSync: 0, rules: 0, violated: 0, violations: 0 } };
    const section = { status: this.status, message: this.message, fetchedAt: this.fetchedAt, summary: watchesSummary(view.counts), ...view };
    const signature = JSON.stringify(section);
    if (signature === this.sent.signature) return undefined;
    this.sent.signature = signature;
    return section;
  }
}

// The Preferences panel's state in the worker: the panel from `GET /api/preferences`, fetched when the tab is
// shown, after the reply to each of the page's own writes, when the server is another process, and when changes
// arrive for a store the panel lists (`containers[].store`), at most every 500 ms. Edits, deletes and rescans go
// out as `preference` requests on the WebSocket.

import { preferenceRequest } from "../../lib/preference-input.mjs";
import { Throttle, preferenceRow, readPreferencesPanel } from "../../lib/preferences.mjs";
import { getJSON } from "./http.mjs";

/** Changes to the panel's stores re-fetch it at most this often. */
export const refetchIntervalMs = 500;

/** @typedef {"idle"|"loading"|"ready"|"none"|"error"} PreferencesStatus */

export class PreferencesModel {
  /**
   * @param {import("./session.mjs").Session} session
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch,
   *   clock?: ConstructorParameters<typeof Throttle>[2]}} options `origin` is the server's http://host:port;
   *   `onChange` is called when a fetch has finished; `clock` is for tests
   */
  constructor(session, { origin, token, onChange, fetch = (...args) => globalThis.fetch(...args), clock = {} }) {
    Object.assign(this, { session, origin, token, onChange, fetch });
    /** The fleet instance the requests are for (http.mjs): the session's, on a fleet dashboard. */
    this.carriedTo = () => session.instance;
    /** @type {PreferencesStatus} */
    this.status = "idle";
    this.message = "";
    this.code = "";
    /** @type {import("../../lib/preferences.mjs").PreferencesPanel|null} */
    this.panel = null;
    /** @type {import("../../lib/preferences.mjs").PreferenceRow[]} */
    this.rows = [];
    /** The mirror stores of the panel's containers: their changes call for a fresh panel. */
    this.stores = new Set();
    this.shown = false;
    this.loading = false;
    this.again = false;
    this.loadedEpoch = -1;
    this.version = 0;
    this.sentKey = "";
    this.throttle = new Throttle(() => this.load(), refetchIntervalMs, clock);
  }

  /**
   * The tab was shown or hidden. Showing it fetches the panel.
   * @param {boolean} shown
   */
  setShown(shown) {
    if (shown && !this.shown) {
      this.shown = true;
      this.load();
    } else if (!shown) {
      this.shown = false;
      this.throttle.cancel();
    }
  }

  /**
   * Changes arrived: when one is to a store of the panel (and the panel is on screen), fetch it again soon.
   * @param {Array<{store: string}>} entries
   */
  noteChanges(entries) {
    if (!this.shown || this.stores.size === 0) return;
    if (entries.some((entry) => this.stores.has(entry.store))) this.throttle.poke();
  }

  /** Fetches the panel; a fetch asked for while one is on its way runs after it. */
  async load() {
    if (this.loading) {
      this.again = true;
      return;
    }
    const epoch = this.session.epoch;
    this.loading = true;
    if (!this.panel) this.status = "loading";
    this.version++;
    const answer = await getJSON(this, "/api/preferences", "the preferences", readPreferencesPanel);
    if (answer.status === "ready") {
      this.setPanel(answer.body);
      this.message = "";
      this.code = "";
    } else {
      // 404: no_preferences, or a server from before preferences (not_found): either way there are none.
      if (answer.status === "none") this.setPanel(null);
      this.message = answer.message;
      this.code = answer.code ?? this.code;
    }
    this.status = answer.status;
    this.loading = false;
    this.loadedEpoch = epoch;
    this.version++;
    this.onChange();
    if (this.again) {
      this.again = false;
      this.load();
    }
  }

  /** @param {import("../../lib/preferences.mjs").PreferencesPanel|null} panel */
  setPanel(panel) {
    this.panel = panel;
    this.rows = panel ? panel.items.map(preferenceRow) : [];
    this.stores = new Set(panel ? panel.containers.map((c) => c.store).filter(Boolean) : []);
  }

  /**
   * Sends one `preference` request; the panel is fetched again once the server has replied.
   * @param {{op: "set"|"delete"|"refresh", source?: string, container?: string, key?: string, json?: string}} request
   * @returns {Promise<{ok: boolean, seq: number|null, error: {code: string, message: string}|null}>}
   */
  write(request) {
    return new Promise((resolve) => {
      this.session.request((id) => preferenceRequest(id, request), (reply) => {
        this.load();
        resolve({ ok: reply.ok, seq: reply.seq ?? null, error: reply.error ?? null });
      });
    });
  }

  /**
   * The panel's messages from the page (`{type: "preferences", action, …}`): set, delete and refresh are WebSocket
   * `preference` requests whose reply is the answer; reload fetches the panel again.
   * @param {{action: string, source?: string, container?: string, key?: string, json?: string}} message
   * @param {(data: object) => void} answer
   */
  act({ action, source, container, key, json }, answer) {
    if (action === "reload") return void this.load();
    this.write({ op: action, source, container, key, json }).then(answer);
  }

  /**
   * The panel's section of the next update, or undefined when the page already has it. A new server process
   * (while the tab is shown) fetches the panel again.
   * @returns {{status: PreferencesStatus, message: string, code: string, editing: boolean, reveal: boolean,
   *   showSystemKeys: boolean, containers: import("../../lib/preferences.mjs").Container[],
   *   rows: import("../../lib/preferences.mjs").PreferenceRow[]}|undefined}
   */
  build() {
    if (this.shown && !this.loading && this.session.server && this.loadedEpoch !== this.session.epoch) this.load();
    const key = `${this.version}\u0000${this.session.readOnly}`;
    if (key === this.sentKey) return undefined;
    this.sentKey = key;
    const panel = this.panel;
    return {
      status: this.status, message: this.message, code: this.code,
      editing: panel?.editing ?? false, reveal: panel?.reveal ?? false, showSystemKeys: panel?.showSystemKeys ?? false,
      containers: panel?.containers ?? [], rows: this.rows,
    };
  }
}

// The Tunables panel's state in the worker: the panel description from `GET /api/tunables` (store, defaults,
// schema), fetched when the panel is first shown and again for each new server process, and the rows built from
// the live values in the mirror. Reset all and import replace every tunable with `POST /tune`.

import { parseJSON } from "../../lib/json-reader.mjs";
import { stringifyValue } from "../../lib/json-writer.mjs";
import { exportText, readImport, replacementSummary } from "../../lib/tunable-input.mjs";
import { readTunablesPanel, tunableRows } from "../../lib/tunables.mjs";
import { getJSON, postFailureText, postJSON } from "./http.mjs";

/** @typedef {"idle"|"loading"|"ready"|"none"|"error"} TunablesStatus */

export class TunablesModel {
  /**
   * @param {import("./session.mjs").Session} session
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch}} options
   *   `origin` is the server's http://host:port; `onChange` is called when a fetch has finished
   */
  constructor(session, { origin, token, onChange, fetch = (...args) => globalThis.fetch(...args) }) {
    Object.assign(this, { session, origin, token, onChange, fetch });
    /** The fleet instance the requests are for (http.mjs): the session's, on a fleet dashboard. */
    this.carriedTo = () => session.instance;
    /** @type {TunablesStatus} */
    this.status = "idle";
    this.message = "";
    /** @type {import("../../lib/tunables.mjs").TunablesPanel|null} */
    this.panel = null;
    /** The session epoch (server process) the description is from; -1 before the first fetch. */
    this.loadedEpoch = -1;
    this.loading = false;
    this.version = 0;
    this.sent = { key: "", signature: "" };
  }

  /** The panel is on screen: fetch the description unless it is this server process's already. */
  watch() {
    if (this.loading || !this.session.server || this.loadedEpoch === this.session.epoch) return;
    this.load();
  }

  /**
   * The tab was shown (fetch the description unless this server process's is here already) or hidden.
   * @param {boolean} shown
   */
  setShown(shown) {
    if (shown) this.watch();
  }

  /**
   * The panel's messages from the page (`{type: "tunables", action, …}`): fetch again, the export file's text, the
   * preview of a replacement (reset all, import) and the replacement itself (`POST /tune`).
   * @param {{action: string, source?: "defaults"|"import", text?: string}} message
   * @param {(data: object) => void} answer
   */
  act({ action, source, text }, answer) {
    switch (action) {
      case "reload": return this.reload();
      case "export": return answer({ text: this.exportText() });
      case "preview": return answer(this.preview(source, text));
      case "replace": return void this.replace(source, text).then(answer);
    }
  }

  /** Fetches again (the page's "Try again"). */
  reload() {
    this.loadedEpoch = -1;
    this.watch();
  }

  async load() {
    const epoch = this.session.epoch;
    this.loading = true;
    if (!this.panel) this.status = "loading";
    this.version++;
    const answer = await getJSON(this, "/api/tunables", "the tunables", readTunablesPanel);
    if (answer.status === "ready") {
      this.panel = answer.body;
      this.message = "";
    } else {
      // 404: no_tunables, or a server from before tunables (not_found): either way there are none to show.
      if (answer.status === "none") this.panel = null;
      this.message = answer.message;
    }
    this.status = answer.status;
    this.loading = false;
    this.loadedEpoch = epoch;
    this.version++;
    this.onChange();
  }

  /** The live values: the tunables' store in the mirror, else (not mirrored yet) the values the fetch returned. */
  values() {
    if (!this.panel) return new Map();
    return this.session.mirror.stores.get(this.panel.store)?.root ?? this.panel.values;
  }

  /**
   * The panel's section of the next update, or undefined when the page already has what it would show.
   * @returns {{status: TunablesStatus, message: string, store: string, live: boolean, additionalKeys: boolean,
   *   rows: import("../../lib/tunables.mjs").TunableRow[]}|undefined}
   */
  build() {
    this.watch();
    const live = this.panel !== null && this.session.mirror.stores.has(this.panel.store);
    const key = `${this.version}\u0000${this.session.versions.data}\u0000${live}\u0000${this.session.epoch}\u0000${this.session.server !== null}`;
    if (key === this.sent.key) return undefined;
    this.sent.key = key;
    // Another server process (or none yet): its own description is on its way; the old rows stay meanwhile.
    const stale = this.panel !== null && (!this.session.server || this.loadedEpoch !== this.session.epoch);
    const section = {
      status: stale ? "loading" : this.status, message: this.message, store: this.panel?.store ?? "", live,
      additionalKeys: this.panel?.additionalKeys ?? false,
      rows: this.panel ? tunableRows(this.panel, this.values()) : [],
    };
    // Other stores change all the time; the page hears only of changes to what it shows.
    const signature = JSON.stringify(section);
    if (signature === this.sent.signature) return undefined;
    this.sent.signature = signature;
    return section;
  }

  /** The export file's text, or null when there are no tunables. */
  exportText() {
    return this.panel ? exportText(this.values()) : null;
  }

  /**
   * The new set of tunables: the defaults, or an imported file's text.
   * @param {"defaults"|"import"} source
   * @param {string} [text]
   * @returns {{ok: true, values: Map<string, any>} | {ok: false, message: string}}
   */
  replacement(source, text = "") {
    if (!this.panel) return { ok: false, message: "This server has no tunables." };
    return source === "defaults" ? { ok: true, values: this.panel.defaults } : readImport(text);
  }

  /**
   * What replacing every tunable would change, for the page's confirmation.
   * @param {"defaults"|"import"} source
   * @param {string} [text]
   */
  preview(source, text) {
    const next = this.replacement(source, text);
    return next.ok ? { ok: true, summary: replacementSummary(next.values, this.values()) } : next;
  }

  /**
   * Replaces every tunable with `POST /tune`.
   * @param {"defaults"|"import"} source
   * @param {string} [text]
   * @returns {Promise<{ok: boolean, message: string, seq: number|null}>}
   */
  async replace(source, text) {
    const next = this.replacement(source, text);
    if (!next.ok) return { ok: false, message: next.message, seq: null };
    const answer = await postJSON(this, "/tune", stringifyValue(next.values));
    if (answer.ok) return { ok: true, message: "", seq: seqOf(answer.text) };
    return { ok: false, message: postFailureText(answer), seq: null };
  }
}

/** The seq a successful write's body names (`{"seq": N}` or `{"result": {"seq": N}}`), else null. */
function seqOf(text) {
  try {
    const body = parseJSON(text);
    const seq = body.get("seq") ?? body.get("result")?.get?.("seq");
    return typeof seq === "number" ? seq : null;
  } catch {
    return null;
  }
}

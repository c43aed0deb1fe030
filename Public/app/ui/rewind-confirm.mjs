// The confirmation before the live stores are rewound to a change (docs/recording.md "Rewind"): how many later
// changes would be undone and in which stores, then the WebSocket `rewind` request. The server's refusal
// (`conflict`, `read_only`, `bad_request`) stays here and in a notice.

import { formatCount, shortStoreName } from "../../lib/format.mjs";
import { h, icon, setProp, setText } from "./dom.mjs";

/** Stores named at most in the summary. */
const storeLimit = 6;
/** While it is open, the count of later changes is asked again this often (the live stores keep changing). */
const refreshMs = 1000;

export class RewindConfirm {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    /** @type {number|null} the seq asked about */
    this.seq = null;
    this.timer = 0;
    this.sending = false;
    this.title = h("h2", {});
    this.summary = h("p", { className: "rewind-summary", attrs: { "data-testid": "rewind-summary" } });
    this.note = h("p", { className: "muted rewind-note" });
    this.error = h("p", { className: "write-error", hidden: true, attrs: { "data-testid": "rewind-error", role: "alert" } });
    this.apply = h("button", { type: "button", className: "button button-danger", attrs: { "data-testid": "rewind-apply" }, on: { click: () => this.send() } }, icon("revert"), "Rewind");
    this.cancel = h("button", { type: "button", className: "button", attrs: { "data-testid": "rewind-cancel" }, on: { click: () => this.close() } }, "Cancel");
    this.element = h("section", { className: "card rewind-confirm", hidden: true, attrs: { "data-testid": "rewind-confirm", role: "dialog", "aria-label": "Rewind the stores" } },
      this.title, this.summary, this.note, this.error, h("div", { className: "actions" }, this.apply, this.cancel));
  }

  /**
   * Asks the worker what rewinding to `seq` would undo, and shows it.
   * @param {number} seq
   */
  async ask(seq) {
    const opening = this.seq !== seq;
    this.seq = seq;
    const preview = await this.app.bridge.ask({ type: "rewind-preview", seq });
    if (this.seq !== seq) return;
    this.show(preview);
    if (!opening) return;
    setProp(this.error, "hidden", true);
    this.apply.focus();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.ask(seq), refreshMs);
  }

  show(preview) {
    const { seq } = this;
    setProp(this.element, "hidden", false);
    setText(this.title, `Rewind the stores to #${formatCount(seq)}?`);
    const { count, last, stores, complete } = preview;
    if (count === 0) {
      setText(this.summary, `#${formatCount(seq)} is the latest change: nothing would be undone.`);
    } else {
      const named = stores.slice(0, storeLimit).map(shortStoreName).join(", ") + (stores.length > storeLimit ? ` and ${stores.length - storeLimit} more` : "");
      const range = count === 1 ? `#${formatCount(last)}` : `#${formatCount(seq + 1)} … #${formatCount(last)}`;
      setText(this.summary, `${formatCount(count)} later change${count === 1 ? "" : "s"} (${range}) will be undone, newest first${named ? `, in ${named}` : ""}.`);
    }
    setText(this.note, `${complete ? "" : "The dashboard's log does not hold all of them; the server's does. "}Each store is rewound in one transaction; if something changed since, the server refuses and changes nothing. Stores removed since cannot come back.`);
    if (!this.sending) setProp(this.apply, "disabled", count === 0 || this.app.readOnly());
  }

  async send() {
    const seq = this.seq;
    if (seq === null) return;
    setProp(this.apply, "disabled", true);
    this.sending = true;
    const reply = await this.app.send({ kind: "rewind", seq });
    this.sending = false;
    if (this.seq !== seq) return;
    setProp(this.apply, "disabled", false);
    if (!reply.ok) {
      setText(this.error, `${reply.error.code}: ${reply.error.message}`);
      setProp(this.error, "hidden", false);
      return;
    }
    this.close();
    const result = reply.result ?? { changes: 0, stores: [], skipped: [] };
    const skipped = result.skipped.length ? ` Skipped: ${result.skipped.map((s) => `${s.store} (${s.reason})`).join(", ")}.` : "";
    const made = reply.seq === null ? "" : ` (last change #${formatCount(reply.seq)})`;
    this.app.toast(`Rewound to #${formatCount(seq)}: ${formatCount(result.changes)} change${result.changes === 1 ? "" : "s"} undone in ${result.stores.length} store${result.stores.length === 1 ? "" : "s"}${made}.${skipped}`, "ok");
  }

  close() {
    clearInterval(this.timer);
    this.seq = null;
    setProp(this.element, "hidden", true);
  }
}

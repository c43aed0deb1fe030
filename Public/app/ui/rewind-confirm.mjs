// The confirmation before the live stores are rewound to a change (docs/recording.md "Rewind"): how many later
// changes would be undone and in which stores, then the WebSocket `rewind` request. The server's refusal
// (`conflict`, `read_only`, `bad_request`) stays here and in a notice.

import { formatCount, shortStoreName } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { ConfirmCard } from "./confirm-card.mjs";
import { h, icon, setProp, setText } from "./dom.mjs";

/** Stores named at most in the summary. */
const storeLimit = 6;
/** While it is open, the count of later changes is asked again this often (the live stores keep changing). */
const refreshMs = 1000;

export class RewindConfirm {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.timer = 0;
    this.summary = h("p", { className: "rewind-summary", attrs: { "data-testid": "rewind-summary" } });
    this.note = h("p", { className: "muted rewind-note" });
    // The card's subject: the seq asked about.
    this.card = new ConfirmCard({
      className: "rewind-confirm", label: "Rewind the stores", body: [this.summary, this.note],
      applyClass: "button-danger", applyContent: [icon("revert"), "Rewind"], onApply: () => this.send(),
      testids: { card: "rewind-confirm", error: "rewind-error", apply: "rewind-apply", cancel: "rewind-cancel" },
      onClose: () => clearInterval(this.timer),
    });
    this.element = this.card.element;
  }

  /** @type {number|null} the seq asked about */
  get seq() { return this.card.subject; }

  /**
   * Asks the worker what rewinding to `seq` would undo, and shows it.
   * @param {number} seq
   */
  async ask(seq) {
    const opening = this.seq !== seq;
    this.card.subject = seq;
    const preview = await this.app.bridge.ask({ type: ToWorker.rewindPreview, seq });
    if (this.seq !== seq) return;
    this.show(preview);
    if (!opening) return;
    this.card.hideError();
    this.card.apply.focus();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.ask(seq), refreshMs);
  }

  show(preview) {
    const { seq } = this;
    this.card.show(`Rewind the stores to #${formatCount(seq)}?`);
    const { count, last, stores, complete } = preview;
    if (count === 0) {
      setText(this.summary, `#${formatCount(seq)} is the latest change: nothing would be undone.`);
    } else {
      const named = stores.slice(0, storeLimit).map(shortStoreName).join(", ") + (stores.length > storeLimit ? ` and ${stores.length - storeLimit} more` : "");
      const range = count === 1 ? `#${formatCount(last)}` : `#${formatCount(seq + 1)} … #${formatCount(last)}`;
      setText(this.summary, `${formatCount(count)} later change${count === 1 ? "" : "s"} (${range}) will be undone, newest first${named ? `, in ${named}` : ""}.`);
    }
    setText(this.note, `${complete ? "" : "The dashboard's log does not hold all of them; the server's does. "}Each store is rewound in one transaction; if something changed since, the server refuses and changes nothing. Stores removed since cannot come back.`);
    if (!this.card.sending) setProp(this.card.apply, "disabled", count === 0 || this.app.readOnly());
  }

  async send() {
    const seq = this.seq;
    if (seq === null) return;
    const reply = await this.card.send(() => this.app.send({ kind: "rewind", seq }));
    if (!reply) return;
    if (!reply.ok) {
      this.card.showError(`${reply.error.code}: ${reply.error.message}`);
      return;
    }
    this.close();
    const result = reply.result ?? { changes: 0, stores: [], skipped: [] };
    const skipped = result.skipped.length ? ` Skipped: ${result.skipped.map((s) => `${s.store} (${s.reason})`).join(", ")}.` : "";
    const made = reply.seq === null ? "" : ` (last change #${formatCount(reply.seq)})`;
    this.app.toast(`Rewound to #${formatCount(seq)}: ${formatCount(result.changes)} change${result.changes === 1 ? "" : "s"} undone in ${result.stores.length} store${result.stores.length === 1 ? "" : "s"}${made}.${skipped}`, "ok");
  }

  close() {
    this.card.close();
  }
}

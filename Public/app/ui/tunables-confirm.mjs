// The confirmation before every tunable is replaced at once (Reset all, Import): what the new set changes, adds
// and removes, then `POST /tune` through the worker. A file that cannot be imported says why here instead.

import { FeatureMessage } from "../../lib/messages.mjs";
import { ConfirmCard } from "./confirm-card.mjs";
import { h, setProp, setText } from "./dom.mjs";

/** Lines of the change list shown at most. */
const lineLimit = 40;

export class TunablesConfirm {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.summary = h("p", { className: "tunables-confirm-summary" });
    this.changes = h("ul", { className: "tunables-changes mono" });
    // The card's subject: what would replace the tunables, {source: "defaults"|"import", text, name}.
    this.card = new ConfirmCard({
      className: "tunables-confirm", label: "Replace every tunable", body: [this.summary, this.changes],
      applyClass: "button-primary", applyContent: ["Apply"], onApply: () => this.send(),
      testids: { card: "tunables-confirm", error: "tunables-confirm-error", apply: "tunables-confirm-apply", cancel: "tunables-confirm-cancel" },
    });
    this.element = this.card.element;
  }

  get open() { return this.card.open; }

  /**
   * Asks the worker what replacing every tunable with the defaults (or a file's content) would change, and shows it.
   * @param {"defaults"|"import"} source
   * @param {string} [text] the file's text, for an import
   * @param {string} [name] the file's name
   */
  async ask(source, text = "", name = "") {
    const answer = await this.app.bridge.ask({ type: FeatureMessage.tunables, action: "preview", source, text });
    const { card } = this;
    card.subject = { source, text, name };
    card.hideError();
    if (!answer.ok) {
      card.show(`Cannot import ${name}`);
      setText(this.summary, "");
      this.changes.replaceChildren();
      card.showError(answer.message);
      setProp(card.apply, "hidden", true);
      return;
    }
    const { summary } = answer;
    card.show(source === "defaults" ? "Reset every tunable to its default?" : `Import ${name}?`);
    setText(this.summary, describe(summary, source));
    const lines = [
      ...summary.changed.map((c) => `${c.key}: ${c.from} → ${c.to}`),
      ...summary.added.map((c) => `${c.key}: new, ${c.to}`),
      ...summary.removed.map((c) => `${c.key}: removed (was ${c.from})`),
    ];
    this.changes.replaceChildren(...lines.slice(0, lineLimit).map((line) => h("li", { textContent: line })));
    if (lines.length > lineLimit) this.changes.append(h("li", { className: "muted", textContent: `…and ${lines.length - lineLimit} more` }));
    setProp(card.apply, "hidden", false);
    setProp(card.apply, "disabled", lines.length === 0 || this.app.readOnly());
    card.apply.focus();
  }

  async send() {
    const request = this.card.subject;
    if (!request) return;
    const answer = await this.card.send(() => this.app.bridge.ask({ type: FeatureMessage.tunables, action: "replace", source: request.source, text: request.text }));
    if (!answer) return;
    const what = request.source === "defaults" ? "Reset all" : `Import of ${request.name}`;
    if (!answer.ok) {
      this.card.showError(answer.message);
      this.app.toast(`${what} refused: ${answer.message}`, "error");
      return;
    }
    this.close();
    this.app.toast(answer.seq === null ? `${what}: done.` : `${what}: applied as change #${answer.seq}.`, "ok");
  }

  close() {
    this.card.close();
  }
}

/** One sentence on what the replacement does. */
function describe(summary, source) {
  const { count, changed, added, removed, unchanged } = summary;
  if (changed.length + added.length + removed.length === 0) {
    return source === "defaults" ? "Every tunable already has its default: nothing would change." : `The file's ${count} tunables equal the current ones: nothing would change.`;
  }
  const parts = [`${changed.length} changed`];
  if (added.length) parts.push(`${added.length} new`);
  if (removed.length) parts.push(`${removed.length} removed (the new set replaces the whole set)`);
  parts.push(`${unchanged} unchanged`);
  const whole = source === "defaults" ? "Back to the defaults" : `${count} tunable${count === 1 ? "" : "s"} in the file`;
  return `${whole}: ${parts.join(", ")}.`;
}

// The confirmation before every tunable is replaced at once (Reset all, Import): what the new set changes, adds
// and removes, then `POST /tune` through the worker. A file that cannot be imported says why here instead.

import { h, setProp, setText } from "./dom.mjs";

/** Lines of the change list shown at most. */
const lineLimit = 40;

export class TunablesConfirm {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.open = false;
    /** @type {{source: "defaults"|"import", text: string, name: string}|null} */
    this.request = null;
    this.title = h("h2", {});
    this.summary = h("p", { className: "tunables-confirm-summary" });
    this.changes = h("ul", { className: "tunables-changes mono" });
    this.error = h("p", { className: "write-error", hidden: true, attrs: { "data-testid": "tunables-confirm-error", role: "alert" } });
    this.apply = h("button", { type: "button", className: "button button-primary", attrs: { "data-testid": "tunables-confirm-apply" }, on: { click: () => this.send() } }, "Apply");
    this.cancel = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-confirm-cancel" }, on: { click: () => this.close() } }, "Cancel");
    this.element = h("section", { className: "card tunables-confirm", hidden: true, attrs: { "data-testid": "tunables-confirm", role: "dialog", "aria-label": "Replace every tunable" } },
      this.title, this.summary, this.changes, this.error, h("div", { className: "actions" }, this.apply, this.cancel));
  }

  /**
   * Asks the worker what replacing every tunable with the defaults (or a file's content) would change, and shows it.
   * @param {"defaults"|"import"} source
   * @param {string} [text] the file's text, for an import
   * @param {string} [name] the file's name
   */
  async ask(source, text = "", name = "") {
    const answer = await this.app.bridge.ask({ type: "tunables", action: "preview", source, text });
    this.request = { source, text, name };
    this.open = true;
    setProp(this.element, "hidden", false);
    setProp(this.error, "hidden", true);
    if (!answer.ok) {
      setText(this.title, `Cannot import ${name}`);
      setText(this.summary, "");
      this.changes.replaceChildren();
      this.showError(answer.message);
      setProp(this.apply, "hidden", true);
      return;
    }
    const { summary } = answer;
    setText(this.title, source === "defaults" ? "Reset every tunable to its default?" : `Import ${name}?`);
    setText(this.summary, describe(summary, source));
    const lines = [
      ...summary.changed.map((c) => `${c.key}: ${c.from} → ${c.to}`),
      ...summary.added.map((c) => `${c.key}: new, ${c.to}`),
      ...summary.removed.map((c) => `${c.key}: removed (was ${c.from})`),
    ];
    this.changes.replaceChildren(...lines.slice(0, lineLimit).map((line) => h("li", { textContent: line })));
    if (lines.length > lineLimit) this.changes.append(h("li", { className: "muted", textContent: `…and ${lines.length - lineLimit} more` }));
    setProp(this.apply, "hidden", false);
    setProp(this.apply, "disabled", lines.length === 0 || this.app.readOnly());
    this.apply.focus();
  }

  async send() {
    const request = this.request;
    if (!request) return;
    setProp(this.apply, "disabled", true);
    const answer = await this.app.bridge.ask({ type: "tunables", action: "replace", source: request.source, text: request.text });
    if (this.request !== request) return;
    setProp(this.apply, "disabled", false);
    const what = request.source === "defaults" ? "Reset all" : `Import of ${request.name}`;
    if (!answer.ok) {
      this.showError(answer.message);
      this.app.toast(`${what} refused: ${answer.message}`, "error");
      return;
    }
    this.close();
    this.app.toast(answer.seq === null ? `${what}: done.` : `${what}: applied as change #${answer.seq}.`, "ok");
  }

  showError(message) {
    setText(this.error, message);
    setProp(this.error, "hidden", false);
  }

  close() {
    this.open = false;
    this.request = null;
    setProp(this.element, "hidden", true);
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

// A confirmation card (the Tunables panel's Reset all and Import, the log detail's Rewind): a title, what its owner
// puts in it, the server's refusal, Apply and Cancel. Apply is disabled while the request is on its way; an answer
// that comes after the card was closed, or opened about something else, is dropped.

import { h, setProp, setText } from "./dom.mjs";

export class ConfirmCard {
  /**
   * @param {{className: string, label: string, body: HTMLElement[], applyClass: string, applyContent: Array<Node|string>,
   *   testids: {card: string, error: string, apply: string, cancel: string}, onApply: () => void, onClose?: () => void}} options
   *   `body` goes between the title and the error; `onClose` runs when the card closes
   */
  constructor({ className, label, body, applyClass, applyContent, testids, onApply, onClose = () => {} }) {
    /** What the card asks about (its owner's); null while it is closed. */
    this.subject = null;
    this.sending = false;
    this.onClose = onClose;
    this.title = h("h2", {});
    this.error = h("p", { className: "write-error", hidden: true, attrs: { "data-testid": testids.error, role: "alert" } });
    this.apply = h("button", { type: "button", className: `button ${applyClass}`, attrs: { "data-testid": testids.apply }, on: { click: onApply } }, ...applyContent);
    this.cancel = h("button", { type: "button", className: "button", attrs: { "data-testid": testids.cancel }, on: { click: () => this.close() } }, "Cancel");
    this.element = h("section", { className: `card ${className}`, hidden: true, attrs: { "data-testid": testids.card, role: "dialog", "aria-label": label } },
      this.title, ...body, this.error, h("div", { className: "actions" }, this.apply, this.cancel));
  }

  get open() { return this.subject !== null; }

  /** @param {string} title */
  show(title) {
    setText(this.title, title);
    setProp(this.element, "hidden", false);
  }

  /** @param {string} message */
  showError(message) {
    setText(this.error, message);
    setProp(this.error, "hidden", false);
  }

  hideError() {
    setProp(this.error, "hidden", true);
  }

  /**
   * Sends with Apply disabled.
   * @template T
   * @param {() => Promise<T>} request
   * @returns {Promise<T|null>} the answer, or null when the card was closed or opened about something else meanwhile
   */
  async send(request) {
    const subject = this.subject;
    setProp(this.apply, "disabled", true);
    this.sending = true;
    const answer = await request();
    this.sending = false;
    if (this.subject !== subject) return null;
    setProp(this.apply, "disabled", false);
    return answer;
  }

  close() {
    this.subject = null;
    setProp(this.element, "hidden", true);
    this.onClose();
  }
}

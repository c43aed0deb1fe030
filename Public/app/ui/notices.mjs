// Banners for problems that last (a message the dashboard could not read, a lost connection, a resync) and short
// toasts for the result of an action (copied, reverted, refused).

import { h, icon } from "./dom.mjs";

export class Banners {
  /**
   * @param {HTMLElement} element
   * @param {(key: string) => void} onDismiss
   */
  constructor(element, onDismiss) {
    this.element = element;
    this.onDismiss = onDismiss;
    this.key = "";
  }

  /**
   * @param {Array<{key: string, message: string, count: number, level: string}>} problems
   * @param {{phase: string, reason: string, refused?: boolean}|undefined} conn
   */
  render(problems, conn) {
    const items = [...(problems ?? [])];
    if (conn && conn.phase !== "connected" && conn.reason) {
      const message = conn.phase === "reconnecting" && !conn.refused ? `${conn.reason} The view keeps the last state it had and catches up when the server is back.` : conn.reason;
      items.unshift({ key: "connection", message, count: 1, level: conn.phase === "stopped" ? "error" : "notice", local: true });
    }
    const key = JSON.stringify(items);
    if (key === this.key) return;
    this.key = key;
    this.element.replaceChildren(...items.map((item) => h("div", { className: `banner banner-${item.level}`, attrs: { "data-testid": "banner" } },
      h("span", { className: "banner-text", textContent: item.count > 1 ? `${item.message} (×${item.count})` : item.message }),
      item.local ? null : h("button", { type: "button", className: "icon-button", title: "Dismiss", attrs: { "aria-label": "Dismiss" }, on: { click: () => this.onDismiss(item.key) } }, icon("close")),
    )));
  }
}

export class Toasts {
  /** @param {HTMLElement} element */
  constructor(element) {
    this.element = element;
  }

  /**
   * Shows a message for a few seconds.
   * @param {string} text
   * @param {"ok"|"error"|"info"} [kind]
   */
  show(text, kind = "info") {
    const toast = h("div", { className: `toast toast-${kind}`, attrs: { "data-testid": "toast" }, textContent: text });
    this.element.append(toast);
    while (this.element.childElementCount > 4) this.element.firstElementChild.remove();
    setTimeout(() => toast.remove(), kind === "error" ? 8000 : 3500);
  }
}

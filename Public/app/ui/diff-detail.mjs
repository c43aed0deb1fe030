// One difference of the Diff panel in full: the key path, and each instance's value at it side by side (or that it
// has none), with a button that shows the path in that instance's tree (the picker moves to it).

import { h, icon } from "./dom.mjs";
import { valueElement } from "./value-view.mjs";

export class DiffDetail {
  /** @param {{app: any, onClose: () => void}} options */
  constructor({ app, onClose }) {
    this.app = app;
    this.onClose = onClose;
    this.shown = null;
    this.element = h("aside", { className: "diff-detail", hidden: true, attrs: { "data-testid": "diff-detail", "aria-label": "Selected difference" } });
  }

  /**
   * @param {{store: string, path: string, sides: Array<{side: "a"|"b", instance: string, store: string,
   *   text: string|null, view: any}>}|null} detail null closes it; each side names its store (a file store kept in
   *   another folder has another id on each side)
   */
  render(detail) {
    this.shown = detail;
    this.element.hidden = !detail;
    if (!detail) return;
    const head = h("div", { className: "detail-head" },
      h("span", { className: "detail-title" }, h("span", { className: "mono", textContent: detail.path || "(root)" })),
      h("button", { type: "button", className: "icon-button", title: "Close (Esc)", attrs: { "aria-label": "Close" }, on: { click: this.onClose } }, icon("close")));
    const sides = detail.sides.map(({ side, instance, text, view }) => h("div", { className: "diff-side", attrs: { "data-side": side } },
      h("div", { className: "diff-side-head" },
        h("span", { className: "diff-side-label", textContent: side.toUpperCase() }),
        h("span", { className: "mono diff-side-name", textContent: instance }),
        h("button", {
          type: "button", className: "button", title: `Show ${detail.path || "the root"} in ${instance}'s tree (${side})`,
          attrs: { "data-testid": `diff-open-${side}` }, on: { click: () => this.open(side) },
        }, `Open in ${instance}`)),
      text === null
        ? h("p", { className: "muted diff-absent", attrs: { "data-testid": `diff-value-${side}` }, textContent: `${instance} has no value at this path.` })
        : view.type === "object" || view.type === "array"
          ? h("pre", { className: "raw-json diff-full", attrs: { "data-testid": `diff-value-${side}` }, textContent: text })
          : h("div", { className: "diff-full", attrs: { "data-testid": `diff-value-${side}` } }, valueElement(view))));
    const stores = [...new Set(detail.sides.map((s) => s.store))];
    this.element.replaceChildren(head,
      h("dl", { className: "facts" }, h("dt", { textContent: stores.length === 1 ? "store" : "stores" }),
        h("dd", { className: "mono", textContent: stores.join(" · ") })),
      h("div", { className: "diff-sides" }, ...sides));
  }

  /**
   * Shows the path in one side's instance: the picker moves to it, the Stores tab opens at the path.
   * @param {"a"|"b"} side
   */
  open(side) {
    const detail = this.shown;
    const chosen = detail?.sides.find((s) => s.side === side);
    if (!chosen) return;
    this.app.pickInstance(chosen.instance, { panel: "stores", store: chosen.store, path: detail.path, search: "" });
  }
}

// The panel tabs. Each is a button with a stable test id (tab-stores, tab-log, …) and a key (1…9).

import { formatCount } from "../../lib/format.mjs";
import { panelLabel } from "../../lib/panels.mjs";
import { h, setAttr, setText } from "./dom.mjs";

export class Tabs {
  /**
   * @param {HTMLElement} element
   * @param {string[]} panels
   * @param {(panel: string) => void} onSelect
   */
  constructor(element, panels, onSelect) {
    this.buttons = new Map();
    this.counts = new Map();
    element.setAttribute("role", "tablist");
    panels.forEach((panel, i) => {
      const count = h("span", { className: "tab-count" });
      const button = h("button", {
        type: "button",
        className: "tab",
        title: `${panelLabel(panel)} (${i + 1})`,
        attrs: { role: "tab", "data-testid": `tab-${panel}`, "aria-controls": `panel-${panel}` },
        on: { click: () => onSelect(panel) },
      }, h("span", { textContent: panelLabel(panel) }), count);
      this.buttons.set(panel, button);
      this.counts.set(panel, count);
      element.append(button);
    });
  }

  /**
   * Turns off the tabs of panels that cannot be shown now (the live-only ones while time travelling).
   * @param {string[]} panels
   * @param {string} reason the disabled tabs' tooltip
   */
  disable(panels, reason) {
    for (const [panel, button] of this.buttons) {
      const off = panels.includes(panel);
      if (button.disabled === off) continue;
      button.disabled = off;
      button.title = off ? `${panelLabel(panel)}: ${reason}` : `${panelLabel(panel)} (${[...this.buttons.keys()].indexOf(panel) + 1})`;
    }
  }

  /**
   * @param {string} active
   * @param {{log?: number, subscriptions?: number}|null} counts null keeps the counts shown
   */
  render(active, counts) {
    for (const [panel, button] of this.buttons) setAttr(button, "aria-selected", String(panel === active));
    if (!counts) return;
    setText(this.counts.get("log"), counts.log ? formatCount(counts.log) : "");
    setText(this.counts.get("subscriptions"), counts.subscriptions ? String(counts.subscriptions) : "");
  }
}

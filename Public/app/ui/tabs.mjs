// The panel tabs. Each is a button with a stable test id (tab-stores, tab-log, …) and a key (1…9, then 0). Tabs
// of panels that cannot be shown now are disabled with the reason (the live-only ones while time travelling, those
// of one instance while a fleet dashboard shows all of them), and the fleet-only ones are hidden elsewhere.

import { formatCount } from "../../lib/format.mjs";
import { panelKey, panelLabel } from "../../lib/panels.mjs";
import { h, setAttr, setProp, setText } from "./dom.mjs";

export class Tabs {
  /**
   * @param {HTMLElement} element
   * @param {string[]} panels
   * @param {(panel: string) => void} onSelect
   */
  constructor(element, panels, onSelect) {
    this.buttons = new Map();
    this.counts = new Map();
    this.keys = new Map();
    element.setAttribute("role", "tablist");
    panels.forEach((panel, i) => {
      const count = h("span", { className: "tab-count" });
      this.keys.set(panel, panelKey(i));
      const button = h("button", {
        type: "button",
        className: "tab",
        title: this.title(panel),
        attrs: { role: "tab", "data-testid": `tab-${panel}`, "aria-controls": `panel-${panel}` },
        on: { click: () => onSelect(panel) },
      }, h("span", { textContent: panelLabel(panel) }), count);
      this.buttons.set(panel, button);
      this.counts.set(panel, count);
      element.append(button);
    });
  }

  /** @param {string} panel */
  title(panel) {
    const key = this.keys.get(panel);
    return key ? `${panelLabel(panel)} (${key})` : panelLabel(panel);
  }

  /**
   * Turns off the tabs of panels that cannot be shown now, each with its reason as the tooltip.
   * @param {Map<string, string>} reasons panel name → why it is off
   */
  disable(reasons) {
    for (const [panel, button] of this.buttons) {
      const reason = reasons.get(panel);
      setProp(button, "disabled", reason !== undefined);
      setProp(button, "title", reason !== undefined ? `${panelLabel(panel)}: ${reason}` : this.title(panel));
    }
  }

  /**
   * Hides the tabs of panels this server does not have (the fleet-only ones on a single server).
   * @param {string[]} panels
   */
  hide(panels) {
    for (const [panel, button] of this.buttons) setProp(button, "hidden", panels.includes(panel));
  }

  /**
   * Whether a tab can be chosen now.
   * @param {string} panel
   */
  usable(panel) {
    const button = this.buttons.get(panel);
    return button !== undefined && !button.disabled && !button.hidden;
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

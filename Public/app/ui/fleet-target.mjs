// Where a request goes on a fleet dashboard: the instance the page shows, another instance, or every live instance
// at once ("*"). Hidden on a single server. A choice stays until the instance it names is no longer listed, or the
// page shows another instance (which is then the default again).

import { allInstances, targetChoices } from "../../lib/fleet.mjs";
import { h, setProp, syncOptions } from "./dom.mjs";

export class FleetTarget {
  /**
   * @param {{testid: string, label: string, onChange?: () => void}} options
   */
  constructor({ testid, label, onChange = () => {} }) {
    this.select = h("select", { className: "select", attrs: { "data-testid": testid, "aria-label": label }, on: { change: onChange } });
    this.element = h("label", { className: "fleet-target", hidden: true }, h("span", { className: "field-label", textContent: label }), this.select);
    this.picked = null;
    this.key = "";
    this.fleet = null;
  }

  /** @param {any} fleet the worker's `fleet` section, undefined on a single server */
  render(fleet) {
    this.fleet = fleet ?? null;
    setProp(this.element, "hidden", !fleet);
    if (!fleet) return;
    const choices = targetChoices(fleet.instances).map((choice) => (
      choice.value === fleet.picked && choice.value !== allInstances ? { ...choice, label: `${choice.label} (shown)` } : choice));
    // The instance shown comes first: it is what a request goes to unless another is chosen.
    choices.sort((a, b) => Number(b.value === fleet.picked) - Number(a.value === fleet.picked));
    const key = JSON.stringify([fleet.picked, choices]);
    if (key === this.key) return;
    this.key = key;
    const keep = this.picked === fleet.picked && choices.some((c) => c.value === this.select.value) ? this.select.value : fleet.picked;
    this.picked = fleet.picked;
    syncOptions(this.select, choices, keep);
    for (const option of this.select.options) {
      const choice = choices.find((c) => c.value === option.value);
      option.disabled = Boolean(choice?.disabled) && choice.value !== keep;
    }
    if (this.select.value !== keep) this.select.value = keep;
  }

  /**
   * The target of a request: "" on a single server, else an instance id or "*".
   * @returns {string}
   */
  value() {
    return this.fleet ? this.select.value || this.fleet.picked : "";
  }

  /** Whether requests go to the instance the page shows (its stream), not elsewhere in the fleet. */
  toShown() {
    return !this.fleet || this.value() === this.fleet.picked;
  }

  /** Whether requests go to every live instance. */
  toAll() {
    return this.value() === allInstances;
  }

  /**
   * Whether the request would be refused read-only before it reaches anyone: the page's own read-only for the
   * instance shown, the fleet dashboard's for others (an instance's own read-only is its answer).
   * @param {boolean} shownReadOnly
   */
  readOnly(shownReadOnly) {
    return this.toShown() ? shownReadOnly : Boolean(this.fleet?.dashboardReadOnly);
  }

  /**
   * Why requests are refused read-only here, for the panel's note.
   * @param {string} single the explanation on a single server
   * @param {string} elsewhere what sending elsewhere does instead ("to write to the others")
   */
  readOnlyText(single, elsewhere) {
    const fleet = this.fleet;
    if (!fleet) return single;
    if (this.toShown() && fleet.mode === "instance" && !fleet.dashboardReadOnly) {
      return `${fleet.picked} is read-only: it refuses every request from the fleet. Send to all live instances (or another one) ${elsewhere}.`;
    }
    return "This fleet dashboard is read-only (keyscope fleet --read-only): it sends no request to any instance.";
  }
}

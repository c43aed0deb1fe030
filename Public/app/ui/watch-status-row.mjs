// One watched status in the Watches panel: its name and key, what the provider says now against what the
// preference key holds, an in-sync badge, when it was last checked, and its history (before → after with times),
// opened and closed by a button. Its elements stay while the panel refreshes, so the focus and the open history do.

import { timestampText } from "../../lib/preferences.mjs";
import { formatAge, formatClock, parseTime } from "../../lib/time.mjs";
import { h, setAttr, setProp, setText } from "./dom.mjs";
import { fillValue } from "./value-view.mjs";

export class WatchStatusRow {
  /** @param {import("../../lib/watches.mjs").StatusRow} status */
  constructor(status) {
    this.name = status.name;
    this.open = false;
    this.nameCell = h("span", { className: "watch-name" });
    this.keyCell = h("code", { className: "watch-key" });
    this.value = h("span", { className: "value", attrs: { "data-testid": "watch-status-value" } });
    this.stored = h("span", { className: "value", attrs: { "data-testid": "watch-status-stored" } });
    this.badge = h("span", { className: "flag", attrs: { "data-testid": "watch-status-state" } });
    this.checked = h("span", { className: "muted" });
    this.toggle = h("button", {
      type: "button", className: "link-button watch-history-toggle", attrs: { "data-testid": "watch-status-history", "aria-expanded": "false" },
      on: { click: () => this.setOpen(!this.open) },
    });
    this.history = h("ol", { className: "watch-history", attrs: { "data-testid": "watch-history" } });
    this.element = h("tr", { className: "watch-status", attrs: { "data-testid": "watch-status" } },
      h("td", {}, this.nameCell),
      h("td", {}, this.keyCell),
      h("td", { className: "watch-values" }, this.value, h("span", { className: "arrow", textContent: "vs", title: "what the provider says now, against what the preference key holds" }), this.stored),
      h("td", {}, this.badge),
      h("td", {}, this.checked),
      h("td", {}, this.toggle));
    this.historyRow = h("tr", { className: "watch-history-row", hidden: true }, h("td", { colSpan: 6 }, this.history));
    this.toggle.setAttribute("aria-controls", `watch-history-${cssId(status.name)}`);
    this.history.id = `watch-history-${cssId(status.name)}`;
  }

  /**
   * @param {import("../../lib/watches.mjs").StatusRow} status
   * @param {number} now milliseconds
   */
  update(status, now) {
    this.status = status;
    setAttr(this.element, "data-name", status.name);
    setAttr(this.element, "data-key", status.key);
    setAttr(this.element, "data-in-sync", String(status.inSync));
    setProp(this.element, "className", `watch-status${status.inSync ? "" : " watch-violated"}`);
    setText(this.nameCell, status.name);
    setText(this.keyCell, status.key);
    setProp(this.keyCell, "title", status.suite ? `${status.key} in the suite ${status.suite}` : status.key);
    fillValue(this.value, status.value, false);
    fillValue(this.stored, status.stored, false);
    setText(this.badge, status.inSync ? "in sync" : "out of sync");
    setProp(this.badge, "className", `flag ${status.inSync ? "flag-ok" : "flag-bad"}`);
    setProp(this.badge, "title", status.inSync ? "The preference key holds what the provider says" : "The preference key holds something else than what the provider says");
    const checked = parseTime(status.checked);
    setText(this.checked, Number.isNaN(checked) ? status.checked || "—" : `${formatClock(status.checked)} · ${formatAge(checked, now)} ago`);
    setProp(this.checked, "title", status.checked);
    const count = status.history.length;
    setText(this.toggle, count === 0 ? "no changes" : `${this.open ? "hide" : "show"} ${count} change${count === 1 ? "" : "s"}`);
    setProp(this.toggle, "disabled", count === 0);
    this.history.replaceChildren(...status.history.map((item) => {
      const before = h("span", { className: "value" });
      const after = h("span", { className: "value" });
      if (item.before) fillValue(before, item.before, false);
      else {
        setText(before, "created");
        before.className = "value v-absent";
      }
      fillValue(after, item.after, false);
      return h("li", { className: "watch-history-item", attrs: { "data-testid": "watch-history-item" } },
        h("span", { className: "muted mono", textContent: timestampText(item.time, now), title: item.time }), before, h("span", { className: "arrow", textContent: "→" }), after);
    }));
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.open = open;
    setAttr(this.toggle, "aria-expanded", String(open));
    setProp(this.historyRow, "hidden", !open);
    if (this.status) this.update(this.status, Date.now());
  }
}

/** A status name as a safe id fragment. */
function cssId(name) {
  return name.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

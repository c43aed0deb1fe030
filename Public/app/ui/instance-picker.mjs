// The instance picker in the top bar of a fleet dashboard: a button naming the instance shown (or "All
// instances"), and a list of every instance of the fleet with its host, pid, version, live or gone, when it was last
// seen and how fast it changes. Gone instances are greyed but can be picked: their last state stays readable.
// Keyboard: Enter, Space or ↓ on the button (or "i" anywhere) opens it; ↑ ↓ Home End move; Enter picks; Esc closes.

import { allInstances } from "../../lib/fleet.mjs";
import { h, icon, setAttr, setProp, setText } from "./dom.mjs";

const columns = ["instance", "host", "pid", "version", "state", "last seen", "rate"];

export class InstancePicker {
  /** @param {{onPick: (id: string) => void}} options `id` is an instance id, or "*" for all of them */
  constructor({ onPick }) {
    this.onPick = onPick;
    this.dot = h("i", { className: "picker-dot" });
    this.label = h("span", { className: "picker-label" });
    this.meta = h("span", { className: "picker-meta" });
    this.button = h("button", {
      type: "button", className: "picker-button", title: "Pick the instance the panels show (i)",
      attrs: { "data-testid": "instance-picker", "aria-haspopup": "listbox", "aria-expanded": "false" },
      on: { click: () => (this.open ? this.close(true) : this.show()), keydown: (event) => this.buttonKey(event) },
    }, this.dot, this.label, this.meta, icon("chevron"));
    this.options = h("div", { className: "picker-options" });
    this.list = h("div", {
      className: "picker-list", hidden: true,
      attrs: { role: "listbox", "aria-label": "Instances of the fleet", "data-testid": "instance-list" },
      on: { keydown: (event) => this.listKey(event), focusout: (event) => this.focusLeft(event) },
    }, h("div", { className: "picker-row picker-head", attrs: { "aria-hidden": "true" } }, ...columns.map((c) => h("span", { textContent: c }))), this.options);
    this.element = h("span", { className: "picker", hidden: true }, this.button, this.list);
    this.open = false;
    /** @type {Map<string, HTMLElement>} */
    this.rows = new Map();
    this.key = "";
    this.picked = allInstances;
    document.addEventListener("pointerdown", (event) => {
      if (this.open && !this.element.contains(/** @type {Node} */ (event.target))) this.close(false);
    });
  }

  /** @param {any} fleet the worker's `fleet` section, undefined on a single server */
  render(fleet) {
    setProp(this.element, "hidden", !fleet);
    if (!fleet) return;
    this.picked = fleet.picked;
    const current = fleet.instances.find((i) => i.id === fleet.picked);
    const all = fleet.picked === allInstances;
    setAttr(this.dot, "data-state", all ? "all" : current?.state ?? "unknown");
    setText(this.label, all ? "All instances" : fleet.picked);
    setText(this.meta, all ? `${fleet.live} live of ${fleet.instances.length}` : current ? `${current.host} · pid ${current.pid}${current.live ? "" : " · gone"}` : "");
    setAttr(this.button, "title", all ? "Every instance of the fleet, merged (i to pick one)" : `${current?.title ?? fleet.picked}\n(i to pick another)`);
    const key = JSON.stringify([fleet.picked, fleet.instances]);
    if (key === this.key) return;
    this.key = key;
    const items = [{ id: allInstances, all: true, live: fleet.live > 0, title: "Every instance's changes in one log; writes to all of them" }, ...fleet.instances];
    const wanted = new Set(items.map((item) => item.id));
    for (const [id, row] of this.rows) if (!wanted.has(id)) { row.remove(); this.rows.delete(id); }
    items.forEach((item, i) => {
      let row = this.rows.get(item.id);
      if (!row) this.rows.set(item.id, row = this.row(item.id));
      this.fill(row, item, fleet.picked === item.id, fleet);
      if (this.options.children[i] !== row) this.options.insertBefore(row, this.options.children[i] ?? null);
    });
  }

  /** One option, made once. */
  row(id) {
    const cells = columns.map(() => h("span", {}));
    const row = h("div", {
      className: "picker-row picker-option", tabIndex: -1,
      attrs: { role: "option", "data-testid": "instance-option", "data-instance": id },
      on: { click: () => this.pick(id) },
    }, ...cells);
    row._cells = cells;
    return row;
  }

  fill(row, item, selected, fleet) {
    const [id, host, pid, version, state, seen, rate] = row._cells;
    setAttr(row, "aria-selected", String(selected));
    setAttr(row, "title", item.title);
    if (item.all) {
      setAttr(row, "data-state", "all");
      setText(id, "All instances");
      setText(host, `${fleet.live} live · ${fleet.instances.length - fleet.live} gone`);
      for (const cell of [pid, version, state, seen, rate]) setText(cell, "");
      return;
    }
    setAttr(row, "data-state", item.state);
    const parts = [h("i", { className: "picker-dot", attrs: { "data-state": item.state } }), h("span", { textContent: item.id })];
    if (item.readOnly) parts.push(h("span", { className: "picker-ro", title: "read-only: refuses requests from the fleet" }, icon("lock")));
    id.replaceChildren(...parts);
    setText(host, item.host);
    setText(pid, String(item.pid));
    setText(version, item.version ? `v${item.version}` : "");
    setText(state, item.state);
    setText(seen, item.lastSeenText);
    setText(rate, item.rateText);
  }

  show() {
    if (this.element.hidden) return;
    this.open = true;
    setProp(this.list, "hidden", false);
    setAttr(this.button, "aria-expanded", "true");
    (this.rows.get(this.picked) ?? this.options.firstElementChild)?.focus();
  }

  /** @param {boolean} refocus put the focus back on the button */
  close(refocus) {
    if (!this.open) return;
    this.open = false;
    setProp(this.list, "hidden", true);
    setAttr(this.button, "aria-expanded", "false");
    if (refocus) this.button.focus();
  }

  pick(id) {
    this.close(true);
    this.onPick(id);
  }

  buttonKey(event) {
    if (event.key === "ArrowDown" || event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.show();
    }
  }

  listKey(event) {
    const options = [...this.options.children];
    const at = options.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const move = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: options.length - 1 }[event.key];
    if (move !== undefined) {
      options[Math.max(0, Math.min(options.length - 1, move))]?.focus();
    } else if (event.key === "Enter" || event.key === " ") {
      if (at >= 0) this.pick(options[at].dataset.instance);
    } else if (event.key === "Escape") {
      this.close(true);
    } else if (event.key === "Tab") {
      this.close(false);
      return;
    } else {
      return;
    }
    // The page's own keys (1…9, Esc) must not act while the list has the keyboard.
    event.preventDefault();
    event.stopPropagation();
  }

  /** The focus went elsewhere (a click, Tab): the list closes. */
  focusLeft(event) {
    if (!this.element.contains(/** @type {Node} */ (event.relatedTarget))) this.close(false);
  }
}

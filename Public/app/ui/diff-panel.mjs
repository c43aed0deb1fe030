// The Diff panel of a fleet dashboard: two instances' states side by side (`GET /api/fleet/diff`), every key path
// whose value differs, store by store, with both values (a side without one reads "absent"), and the stores only
// one side has. A row opens in full in the detail, whose buttons show the path in A's or B's tree.
// Keyboard: ↑ ↓ move between rows, A and B open the selected path in that instance, Esc closes the detail, / searches.

import { FeatureMessage } from "../../lib/messages.mjs";
import { diffKey } from "../../lib/fleet-diff.mjs";
import { formatClock } from "../../lib/time.mjs";
import { h, icon, setAttr, setProp, setText, syncOptions } from "./dom.mjs";
import { DiffDetail } from "./diff-detail.mjs";
import { fillValue } from "./value-view.mjs";

export class DiffPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    const choose = (testid, label) => h("select", { className: "select", attrs: { "data-testid": testid, "aria-label": label }, on: { change: () => this.chosen() } });
    this.a = choose("diff-a", "Instance A");
    this.b = choose("diff-b", "Instance B");
    this.swap = h("button", { type: "button", className: "icon-button", title: "Swap A and B", attrs: { "data-testid": "diff-swap", "aria-label": "Swap A and B" }, on: { click: () => this.swapSides() } }, icon("sort"));
    this.run = h("button", { type: "button", className: "button button-primary", attrs: { "data-testid": "diff-run" }, on: { click: () => this.compare() } }, "Compare");
    this.search = h("input", {
      type: "search", className: "input", placeholder: "Filter paths and values", spellcheck: false,
      attrs: { "data-testid": "diff-search", "aria-label": "Filter the differences" },
      on: { input: () => app.bridge.post({ type: FeatureMessage.diff, action: "search", text: this.search.value }) },
    });
    this.summary = h("span", { className: "diff-summary", attrs: { "data-testid": "diff-summary", role: "status" } });
    this.status = h("p", { className: "diff-status", hidden: true, attrs: { "data-testid": "diff-status" } });
    this.only = h("div", { className: "diff-only-list" });
    this.groups = h("div", { className: "diff-groups", attrs: { "data-testid": "diff-list" } });
    this.more = h("p", { className: "muted diff-more", hidden: true });
    this.detail = new DiffDetail({ app, onClose: () => this.select(null) });
    this.element = h("section", { className: "panel panel-diff", id: "panel-diff", attrs: { role: "tabpanel", "data-testid": "diff-panel" } },
      h("div", { className: "toolbar diff-toolbar" },
        h("span", { className: "diff-side-label", textContent: "A" }), this.a, this.swap,
        h("span", { className: "diff-side-label", textContent: "B" }), this.b, this.run,
        h("span", { className: "toolbar-sep" }), this.search, h("span", { className: "toolbar-spacer" }), this.summary),
      h("div", { className: "diff-body" },
        h("div", { className: "diff-main" }, this.status, this.only, this.groups, this.more),
        this.detail.element));
    /** @type {Map<string, HTMLElement>} rows by diffKey */
    this.rows = new Map();
    this.order = [];
    this.selected = null;
    this.asked = "";
    this.drawn = undefined;
    this.choicesKey = "";
  }

  /** The pair chosen (the URL's, else defaults from the fleet: the instance shown, and another live one). */
  pair(fleet) {
    const ids = fleet.instances.map((i) => i.id);
    const live = fleet.instances.filter((i) => i.live).map((i) => i.id);
    let a = this.app.state.diffA;
    let b = this.app.state.diffB;
    if (!ids.includes(a)) a = fleet.mode === "instance" ? fleet.picked : live[0] ?? ids[0] ?? "";
    if (!ids.includes(b) || b === a) b = [...live, ...ids].find((id) => id !== a) ?? "";
    return { a, b };
  }

  chosen() {
    this.app.setState({ diffA: this.a.value, diffB: this.b.value });
    this.compare();
  }

  swapSides() {
    this.app.setState({ diffA: this.b.value, diffB: this.a.value });
    this.compare();
  }

  /** Reads the diff of the chosen pair (again). */
  compare() {
    const a = this.app.state.diffA || this.a.value;
    const b = this.app.state.diffB || this.b.value;
    this.asked = `${a}\u0000${b}`;
    this.app.bridge.post({ type: FeatureMessage.diff, action: "compare", a, b });
  }

  /** @param {any} latest */
  render(latest) {
    const fleet = latest.fleet;
    if (!fleet) return;
    const { a, b } = this.pair(fleet);
    const choices = fleet.instances.map((i) => ({ value: i.id, label: i.live ? i.id : `${i.id} (gone)` }));
    const key = JSON.stringify([choices, a, b]);
    if (key !== this.choicesKey) {
      this.choicesKey = key;
      syncOptions(this.a, choices, a);
      syncOptions(this.b, choices, b);
    }
    if (a && b && (a !== this.app.state.diffA || b !== this.app.state.diffB)) this.app.setState({ diffA: a, diffB: b });
    // Shown with a pair not compared yet (first time, a link, a new default): compare it.
    if (a && b && this.asked !== `${a}\u0000${b}`) this.compare();
    if (latest.diff !== this.drawn && latest.diff) {
      this.drawn = latest.diff;
      this.draw(latest.diff);
    }
  }

  /** @param {any} diff the worker's section */
  draw(diff) {
    const loading = diff.status === "loading";
    setProp(this.status, "hidden", diff.status !== "loading" && diff.status !== "error");
    setText(this.status, loading ? "Comparing…" : diff.message);
    setAttr(this.status, "class", `diff-status${diff.status === "error" ? " diff-status-error" : ""}`);
    setText(this.summary, diff.summary ? `${diff.summary} · as of ${formatClock(new Date(diff.at).toISOString())}` : "");
    if (loading) return;
    this.only.replaceChildren(...["a", "b"].filter((side) => diff.onlyIn[side].length > 0).map((side) => h("p", {
      className: "diff-only", attrs: { "data-testid": "diff-only", "data-side": side },
    }, h("span", { className: "diff-side-label", textContent: side.toUpperCase() }),
    h("span", { className: "diff-only-label", textContent: `Stores only in ${diff[side]}` }),
    h("span", { className: "diff-only-ids" }, ...diff.onlyIn[side].map((id) => h("code", { className: "diff-only-id", textContent: id, title: id }))))));
    this.rows.clear();
    this.order = [];
    this.groups.replaceChildren(...diff.groups.map((group) => this.group(group, diff)));
    setProp(this.more, "hidden", diff.hidden === 0);
    setText(this.more, `${diff.hidden.toLocaleString("en-US")} more differences are not drawn: filter to narrow them down.`);
    if (diff.status === "ready" && diff.groups.length === 0 && diff.summary) {
      this.groups.append(h("p", { className: "empty", textContent: diff.search ? "No difference matches the filter." : "No key path differs." }));
    }
    if (this.selected && !this.rows.has(this.selected.key)) this.select(null);
    else if (this.selected) this.highlight();
  }

  group(group, diff) {
    const head = h("div", { className: "diff-row diff-head", attrs: { "aria-hidden": "true" } },
      h("span", { textContent: "key path" }), h("span", { textContent: `A · ${diff.a}` }), h("span", { textContent: `B · ${diff.b}` }));
    const rows = group.rows.map((row) => {
      const a = h("span", { className: "value" });
      const b = h("span", { className: "value" });
      fillValue(a, row.a, false);
      fillValue(b, row.b, false);
      const element = h("div", {
        className: "diff-row", tabIndex: -1,
        attrs: { role: "option", "data-testid": "diff-row", "data-store": row.store, "data-path": row.path, "aria-selected": "false" },
        on: { click: () => this.select(row) },
      }, h("span", { className: "mono diff-path", textContent: row.path || "(root)", title: row.path }), a, b);
      this.rows.set(row.key, element);
      this.order.push(row);
      return element;
    });
    return h("section", { className: "diff-group", attrs: { "data-testid": "diff-store", "data-store": group.store } },
      h("h3", { className: "diff-group-title" }, h("span", { className: "mono", textContent: group.store }),
        h("span", { className: "diff-group-count", textContent: String(group.total) })),
      h("div", { className: "diff-table", attrs: { role: "listbox", "aria-label": `Differences in ${group.store}` } }, head, ...rows));
  }

  /** Selects a row (null: none) and opens it in the detail. */
  async select(row) {
    this.selected = row;
    this.highlight();
    if (!row) return this.detail.render(null);
    const { detail } = await this.app.bridge.ask({ type: FeatureMessage.diff, action: "detail", store: row.store, path: row.path });
    if (this.selected !== row) return;
    this.detail.render(detail && { store: detail.store, path: detail.path, sides: [
      { side: "a", instance: this.drawn.a, store: detail.store, text: detail.a, view: detail.aView },
      { side: "b", instance: this.drawn.b, store: detail.storeB, text: detail.b, view: detail.bView },
    ] });
  }

  highlight() {
    const key = this.selected ? diffKey(this.selected.store, this.selected.path) : "";
    for (const [rowKey, element] of this.rows) {
      const on = rowKey === key;
      setAttr(element, "aria-selected", String(on));
      element.classList.toggle("selected", on);
    }
  }

  /** What "/" focuses in this panel. */
  focusFind() {
    this.search.focus();
    this.search.select();
  }

  /** @param {KeyboardEvent} event */
  handleKey(event) {
    const deltas = { ArrowUp: -1, ArrowDown: 1, PageUp: -20, PageDown: 20 };
    if (event.key in deltas && this.order.length > 0) {
      const at = this.selected ? this.order.findIndex((r) => r.key === this.selected.key) : -1;
      const next = this.order[Math.max(0, Math.min(this.order.length - 1, at < 0 ? 0 : at + deltas[event.key]))];
      this.select(next);
      this.rows.get(next.key)?.scrollIntoView({ block: "nearest" });
      return true;
    }
    if ((event.key === "a" || event.key === "b") && this.selected) {
      this.detail.open(event.key);
      return true;
    }
    return false;
  }

  escape() {
    if (!this.selected) return false;
    this.select(null);
    return true;
  }
}

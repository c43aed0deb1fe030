// Key history: every write in the dashboard's log to one path, its ancestors and its descendants, newest first,
// with the value at the path before and after, the time and the transaction ("who changed this?").

import { formatCount } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { h, icon, setAttr, setClass, setProp, setText, syncOptions } from "./dom.mjs";
import { PathInput } from "./path-input.mjs";
import { fillValue } from "./value-view.mjs";
import { VirtualList } from "./virtual-list.mjs";

const rowHeight = 26;
const relationLabels = { self: "this path", ancestor: "parent", descendant: "child" };

export class HistoryPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.store = h("select", { className: "select", attrs: { "data-testid": "history-store", "aria-label": "Store" }, on: { change: () => this.go() } });
    this.path = new PathInput({ app, store: () => this.store.value, testId: "history-path", placeholder: "key path, e.g. cart.total", onEnter: () => this.go() });
    this.summary = h("span", { className: "muted" });
    this.list = new VirtualList({
      rowHeight,
      className: "history-list",
      label: "Key history",
      createRow: () => this.createRow(),
      updateRow: (element, row) => this.updateRow(element, row),
      onScroll: (first, visible) => app.bridge.post({ type: ToWorker.view, patch: { history: { start: Math.max(0, first - visible), count: visible * 3 } } }),
      empty: () => h("div", { className: "empty", textContent: app.state.path ? "No write to this path (or its parents and children) is in the dashboard's log." : "Pick a key path above, or use “Who changed this?” on a tree row." }),
    });
    this.element = h("section", { className: "panel panel-history", id: "panel-history", attrs: { role: "tabpanel" } },
      h("div", { className: "toolbar" }, this.store, this.path.element,
        h("button", { type: "button", className: "button", on: { click: () => this.go() }, attrs: { "data-testid": "history-go" } }, icon("history"), "Show history"),
        h("span", { className: "toolbar-spacer" }), this.summary),
      h("div", { className: "hrow lhead", attrs: { "aria-hidden": "true" } },
        ...["seq", "time", "via", "op", "written path", "before → after", "txn", ""].map((label) => h("span", { textContent: label }))),
      this.list.element);
    this.storesKey = "";
  }

  go() {
    this.app.setState({ store: this.store.value, path: this.path.value().trim() });
  }

  /** What "/" focuses in this panel. */
  focusFind() {
    this.path.focus();
  }

  createRow() {
    const part = (className) => h("span", { className });
    const parts = {
      seq: part("lseq"), time: part("ltime"), relation: part("hrel"), op: part("op"), path: part("lpath"),
      change: part("lchange"), txn: part("ltxn"), before: part("value"), after: part("value"),
      arrow: h("span", { className: "arrow", textContent: "→" }),
      revert: h("button", { type: "button", className: "icon-button lrevert", title: "Revert this change", attrs: { "data-testid": "history-revert", "aria-label": "Revert this change" } }, icon("revert")),
    };
    const element = h("div", { className: "hrow", attrs: { role: "listitem", "data-testid": "history-row" } },
      parts.seq, parts.time, parts.relation, parts.op, parts.path, parts.change, parts.txn, parts.revert);
    element._parts = parts;
    element.addEventListener("click", (event) => {
      const row = element._row;
      if (!row) return;
      if (event.target.closest(".lrevert")) this.app.revert(row.seq);
      else this.app.showEntry(row.seq);
    });
    element.title = "Open in the log";
    return element;
  }

  updateRow(element, row) {
    element._row = row;
    const key = `${row.n}|${row.revertable}`;
    if (element._key === key) return;
    element._key = key;
    const p = element._parts;
    setAttr(element, "data-seq", String(row.seq));
    setAttr(element, "data-relation", row.relation ?? "store");
    setText(p.seq, `#${row.seq}`);
    setText(p.time, row.time);
    setAttr(p.time, "title", row.fullTime);
    setText(p.relation, row.kind === "event" ? "store" : relationLabels[row.relation]);
    setProp(p.relation, "className", `hrel hrel-${row.kind === "event" ? "store" : row.relation}`);
    setProp(p.op, "className", `op op-${row.kind === "event" ? "event" : row.op}`);
    setText(p.op, row.op);
    setText(p.path, row.kind === "event" ? "" : row.path || "(root)");
    setText(p.txn, row.txn ? row.txn.slice(0, 8) : "");
    setAttr(p.txn, "title", row.txn || null);
    setProp(p.revert, "hidden", !row.revertable);
    setClass(element, "hrow-event", row.kind === "event");
    if (row.kind === "event") {
      p.change.replaceChildren(h("span", { className: "muted", textContent: row.op === "removed" ? "store removed" : `every path replaced (version ${row.version})` }));
      return;
    }
    fillValue(p.before, row.known ? row.before : { type: "absent", text: "?" }, false);
    fillValue(p.after, row.after, false);
    const more = row.more ? h("span", { className: "lmore", textContent: `+${row.more}` }) : null;
    p.change.replaceChildren(p.before, p.arrow, p.after, ...(more ? [more] : []));
  }

  /** @param {any} latest */
  render(latest) {
    const stores = latest.stores ?? [];
    const storeId = latest.store ?? "";
    const key = stores.map((s) => s.id).join("\n") + storeId;
    if (key !== this.storesKey) {
      this.storesKey = key;
      syncOptions(this.store, stores.map((s) => ({ value: s.id, label: s.id })), storeId);
    }
    if (!this.path.focused()) this.path.setValue(this.app.state.path);
    const history = latest.history;
    if (!history) return;
    setText(this.summary, history.path || history.store ? `${formatCount(history.count)} write${history.count === 1 ? "" : "s"} in the log touch ${history.path || "the store"}` : "");
    this.list.render(history);
  }

  handleKey() {
    return false;
  }

  escape() {
    return false;
  }
}

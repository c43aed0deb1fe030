// The key-path tree of one store: virtualised rows (from the worker), twisties, typed values, a flash on values
// that just changed, hover actions (edit, history, copy) and in-place editing of a value.

import { formatCount, typeLabels } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { readValueInput } from "../../lib/value-input.mjs";
import { h, icon, setAttr, setClass, setProp, setText } from "./dom.mjs";
import { fillValue } from "./value-view.mjs";
import { VirtualList } from "./virtual-list.mjs";

const rowHeight = 24;
/** Paths whose last change was seen, so a row flashes only for changes that arrive while it is shown. */
const seenLimit = 20_000;

export class TreeView {
  /**
   * @param {{app: any, onSelect: (path: string) => void, onToggle: (path: string) => void,
   *   onHistory: (path: string) => void}} options
   */
  constructor({ app, onSelect, onToggle, onHistory }) {
    this.app = app;
    this.onSelect = onSelect;
    this.onToggle = onToggle;
    this.onHistory = onHistory;
    this.store = "";
    this.selected = "";
    /** @type {{path: string, mode: string, input: HTMLInputElement, error: HTMLElement, busy: boolean}|null} */
    this.editing = null;
    /** @type {Map<string, number>} */
    this.seen = new Map();
    this.list = new VirtualList({
      rowHeight,
      className: "tree",
      label: "Key-path tree",
      createRow: () => this.createRow(),
      updateRow: (element, row) => this.updateRow(element, row),
      onScroll: (first, visible) => app.bridge.post({ type: ToWorker.view, patch: { tree: { start: Math.max(0, first - visible), count: visible * 3 } } }),
      empty: () => h("div", { className: "empty", textContent: this.emptyText }),
    });
    this.list.element.setAttribute("role", "tree");
    this.emptyText = "Waiting for the stores…";
    this.element = this.list.element;
  }

  createRow() {
    const twisty = h("button", { type: "button", className: "twisty", tabIndex: -1, attrs: { "aria-label": "Expand" } }, icon("chevron"));
    const key = h("span", { className: "tkey" });
    const value = h("span", { className: "value" });
    const size = h("span", { className: "tsize" });
    const type = h("span", { className: "ttype" });
    const actions = h("span", { className: "tactions" },
      h("button", { type: "button", className: "icon-button", title: "Edit value (Enter)", dataset: { action: "edit" }, attrs: { "data-testid": "tree-edit", "aria-label": "Edit value" } }, icon("edit")),
      h("button", { type: "button", className: "icon-button", title: "Who changed this? (H)", dataset: { action: "history" }, attrs: { "data-testid": "tree-history", "aria-label": "Who changed this?" } }, icon("history")),
      h("button", { type: "button", className: "icon-button", title: "Copy key path (C)", dataset: { action: "copy" }, attrs: { "data-testid": "tree-copy", "aria-label": "Copy key path" } }, icon("copy")));
    const more = h("span", { className: "tmore" });
    const element = h("div", { className: "trow", attrs: { role: "treeitem" } }, twisty, key, value, size, more, actions, type);
    element._parts = { twisty, key, value, size, type, more, actions };
    element.addEventListener("click", (event) => this.click(element, event));
    element.addEventListener("dblclick", (event) => {
      if (event.target.closest("button, input, a") || element._row?.kind !== "node") return;
      this.startEdit(element._row);
    });
    return element;
  }

  click(element, event) {
    const row = element._row;
    if (!row) return;
    const button = event.target.closest("button");
    if (row.kind === "more") {
      if (button) this.app.bridge.post({ type: ToWorker.tree, action: "more", store: this.store, path: row.path, count: Number(button.dataset.count) });
      return;
    }
    if (event.target.closest("input, a")) return;
    if (button?.classList.contains("twisty")) return this.onToggle(row.path);
    switch (button?.dataset.action) {
      case "edit": return this.startEdit(row);
      case "history": return this.onHistory(row.path);
      case "copy": return this.app.copyPath(row.path);
      default: this.onSelect(row.path);
    }
  }

  updateRow(element, row) {
    const parts = element._parts;
    const editing = this.editing && row.kind === "node" && row.path === this.editing.path;
    const key = row.kind === "more"
      ? `more|${row.path}|${row.shown}|${row.total}`
      : `${row.path}|${row.text}|${row.type}|${row.size}|${row.expanded}|${row.match}|${this.selected === row.path}|${editing}`;
    this.flash(element, row);
    element._row = row;
    if (element._key === key) return;
    element._key = key;
    element.style.setProperty("--depth", String(row.depth));
    setClass(element, "trow-more", row.kind === "more");
    if (row.kind === "more") {
      element.removeAttribute("data-testid");
      setClass(parts.twisty, "leaf", true);
      setText(parts.key, "");
      setProp(parts.value, "hidden", true);
      setProp(parts.actions, "hidden", true);
      setText(parts.size, "");
      setText(parts.type, "");
      setProp(parts.more, "hidden", false);
      const remaining = row.total - row.shown;
      parts.more.replaceChildren(
        h("span", { textContent: `${formatCount(remaining)} more` }),
        h("button", { type: "button", className: "link-button", dataset: { count: String(row.shown + 1000) }, textContent: "show 1,000 more" }),
        h("button", { type: "button", className: "link-button", dataset: { count: "Infinity" }, textContent: "show all" }),
      );
      return;
    }
    setProp(parts.more, "hidden", true);
    setProp(parts.value, "hidden", false);
    setProp(parts.actions, "hidden", false);
    setAttr(element, "data-testid", "tree-row");
    setAttr(element, "data-path", row.path);
    setAttr(element, "data-store", this.store);
    setAttr(element, "aria-level", String(row.depth + 1));
    setAttr(element, "aria-selected", String(this.selected === row.path));
    setAttr(element, "aria-expanded", row.size >= 0 ? String(row.expanded) : null);
    setClass(element, "selected", this.selected === row.path);
    setClass(element, "match", row.match);
    setClass(parts.twisty, "leaf", row.size <= 0);
    setClass(parts.twisty, "open", row.expanded);
    setText(parts.key, row.index ? `[${row.key}]` : row.key);
    setClass(parts.key, "tkey-index", row.index);
    setAttr(parts.key, "title", row.path);
    if (editing) {
      parts.value.className = "value editing";
      // Moving a focused input out and back in would blur it: only insert it once.
      if (parts.value.firstChild !== this.editing.input) parts.value.replaceChildren(this.editing.input, this.editing.error);
    } else {
      // An open container's members are on the rows below it: its own preview would only repeat them.
      fillValue(parts.value, row.size >= 0 && row.expanded ? { type: row.type, text: "" } : row);
    }
    setText(parts.size, row.size >= 0 ? formatCount(row.size) : "");
    setAttr(parts.size, "title", row.size >= 0 ? `${row.size} ${row.type === "array" ? "elements" : "keys"}` : null);
    setText(parts.type, typeLabels[row.type] ?? row.type);
    setProp(parts.type, "className", `ttype t-${row.type}`);
  }

  /** Flashes a row whose value changed since it was last drawn. */
  flash(element, row) {
    if (row.kind !== "node" || !row.changedAt) return;
    const seen = this.seen.get(row.path);
    if (seen === undefined) {
      if (this.seen.size > seenLimit) this.seen.clear();
      this.seen.set(row.path, row.changedAt);
      return;
    }
    if (row.changedAt <= seen) return;
    this.seen.set(row.path, row.changedAt);
    element._parts.value.animate([{ backgroundColor: "var(--flash)" }, { backgroundColor: "transparent" }], { duration: 900, easing: "ease-out" });
  }

  /**
   * Shows new rows.
   * @param {{store: string, count: number, start: number, rows: any[]}} tree
   * @param {string} selected
   */
  render(tree, selected) {
    if (tree.store !== this.store) {
      this.store = tree.store;
      this.seen.clear();
      this.cancelEdit();
    }
    if (this.editing && selected !== this.editing.path) this.cancelEdit();
    this.selected = selected;
    this.emptyText = tree.search ? `Nothing matches “${tree.search.query}” in this store.` : tree.store ? "This store is empty." : "Waiting for the stores…";
    this.list.render(tree);
  }

  /** Starts editing a value in its row; containers go to the write form instead. */
  async startEdit(row) {
    if (this.app.readOnly()) {
      this.app.toast(this.app.replaying ? "A replay is read-only: exit it to write to the live server." : "This server is read-only: writes are refused.", "error");
      return;
    }
    const answer = await this.app.bridge.ask({ type: ToWorker.value, store: this.store, path: row.path });
    if (!answer.exists) return;
    if (answer.mode === "json") {
      this.app.openWrite({ store: this.store, path: row.path, op: "set", mode: "json", text: answer.text });
      return;
    }
    const input = h("input", {
      className: "inline-input",
      value: answer.text,
      spellcheck: false,
      attrs: { "data-testid": "tree-edit-input", "aria-label": `New ${answer.mode} value for ${row.path}` },
    });
    const error = h("span", { className: "inline-error", attrs: { "data-testid": "tree-edit-error" } });
    this.editing = { path: row.path, mode: answer.mode, input, error, busy: false };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.commitEdit();
      else if (event.key === "Escape") {
        event.stopPropagation();
        this.cancelEdit();
      }
    });
    this.onSelect(row.path);
    this.list.layout();
    for (const element of this.list.pool) element._key = "";
    this.app.requestFrame();
    requestAnimationFrame(() => { input.focus(); input.select(); });
  }

  async commitEdit() {
    const editing = this.editing;
    if (!editing || editing.busy) return;
    const parsed = readValueInput(editing.mode, editing.input.value);
    if (!parsed.ok) {
      editing.error.textContent = parsed.message;
      return;
    }
    editing.busy = true;
    editing.error.textContent = "";
    const reply = await this.app.send({ kind: "write", store: this.store, op: { op: "set", path: editing.path, json: parsed.json } });
    editing.busy = false;
    if (reply.ok) {
      this.app.toast(`Set ${editing.path} (change ${reply.seq ?? "—"})`, "ok");
      this.cancelEdit();
    } else {
      editing.error.textContent = reply.error.message;
      editing.input.focus();
    }
  }

  cancelEdit() {
    if (!this.editing) return;
    this.editing = null;
    for (const element of this.list.pool) element._key = "";
    this.app.requestFrame();
  }
}

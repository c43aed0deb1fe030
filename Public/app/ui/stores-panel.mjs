// The stores panel: the list of stores (scope, storage, version), the selected store's tree with search, and the
// inspector for the selected path.

import { formatCount, shortStoreName } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { h, icon, setAttr, setClass, setProp, setText } from "./dom.mjs";
import { Inspector } from "./inspector.mjs";
import { TreeView } from "./tree-view.mjs";

export class StoresPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.storeList = h("ul", { className: "store-list", attrs: { "aria-label": "Stores" } });
    this.storeCount = h("span", { className: "count" });
    this.search = h("input", {
      type: "search",
      className: "search-input",
      placeholder: "Search keys and values",
      value: app.state.search,
      spellcheck: false,
      attrs: { "data-testid": "search", "aria-label": "Search keys and values" },
      on: { input: () => app.setState({ search: this.search.value }) },
    });
    this.searchInfo = h("span", { className: "search-info muted", attrs: { "data-testid": "search-count" } });
    this.title = h("div", { className: "tree-title" });
    this.tree = new TreeView({
      app,
      onSelect: (path) => app.setState({ path }),
      onToggle: (path) => app.bridge.post({ type: ToWorker.tree, action: "toggle", store: this.storeId(), path }),
      onHistory: (path) => app.showHistory(this.storeId(), path),
    });
    this.inspector = new Inspector({
      app,
      onClose: () => app.setState({ path: "" }),
      onHistory: () => app.showHistory(this.storeId(), app.state.path),
      onEdit: () => this.editSelected(),
    });
    this.element = h("section", { className: "panel panel-stores", id: "panel-stores", attrs: { role: "tabpanel" } },
      h("aside", { className: "sidebar" },
        h("div", { className: "sidebar-head" }, h("span", { textContent: "Stores" }), this.storeCount),
        this.storeList),
      h("div", { className: "tree-pane" },
        h("div", { className: "toolbar" },
          h("label", { className: "search-box" }, icon("search"), this.search, h("kbd", { textContent: "/" })),
          this.searchInfo),
        this.title,
        this.tree.element),
      this.inspector.element);
    this.storesKey = "";
  }

  storeId() {
    return this.app.latest.store ?? "";
  }

  /** What "/" focuses in this panel. */
  focusFind() {
    this.search.focus();
    this.search.select();
  }

  editSelected() {
    const path = this.app.state.path;
    const row = this.tree.list.data.rows.find((r) => r.path === path && r.kind === "node");
    if (row) this.tree.startEdit(row);
    else this.app.openWrite({ store: this.storeId(), path, op: "set" });
  }

  /** @param {{stores?: any[], store?: string, tree?: any, inspector?: any, recent?: any, now: number}} latest */
  render(latest) {
    this.renderStores(latest.stores ?? [], latest.store ?? "", latest.now ?? Date.now());
    const store = (latest.stores ?? []).find((s) => s.id === latest.store);
    const titleKey = store ? `${store.id}\u0000${store.version}` : "";
    if (store && titleKey !== this.titleKey) {
      this.titleKey = titleKey;
      this.title.replaceChildren(
        h("span", { className: "tree-scope", textContent: store.scope }),
        h("span", { className: "tree-sep", textContent: "/" }),
        h("span", { className: "tree-storage", textContent: store.storage }),
        h("span", { className: "badge", textContent: `v${store.version}` }));
    }
    if (this.search.value !== this.app.state.search && document.activeElement !== this.search) this.search.value = this.app.state.search;
    const tree = latest.tree;
    if (tree) {
      this.tree.render(tree, this.app.state.path);
      setText(this.searchInfo, tree.search ? `${formatCount(tree.search.count)} match${tree.search.count === 1 ? "" : "es"}${tree.search.truncated ? " (first 1,000 shown)" : ""}` : "");
      if (tree.rows.length > 0) this.app.markFirstTree();
      if (this.revealPending && tree.selectedIndex >= 0) {
        this.revealPending = false;
        this.tree.list.reveal(tree.selectedIndex);
      }
    }
    this.inspector.render(this.app.state.path ? latest.inspector : null, latest.recent);
  }

  /** One store's row in the list, its parts kept for updates in place. */
  storeRow(id) {
    const part = (className, testid) => h("span", { className, attrs: testid ? { "data-testid": testid } : {} });
    const row = {
      storage: part("store-storage"),
      scope: part("store-scope"),
      file: h("span", { textContent: "file" }),
      version: part(""),
      size: part(""),
      matches: part("store-matches", "store-matches"),
    };
    row.button = h("button", {
      type: "button",
      className: "store-item",
      attrs: { "data-testid": "store-item", "data-store": id },
      title: id,
      on: { click: () => this.app.setState({ store: id, path: "" }) },
    },
    h("span", { className: "store-activity" }),
    row.storage,
    h("span", { className: "store-meta" }, row.scope, row.file, row.version, row.size, row.matches));
    row.li = h("li", {}, row.button);
    return row;
  }

  renderStores(stores, selected, now) {
    setText(this.storeCount, String(stores.length));
    // Rows are kept per store and updated in place: a store's key count changes all the time, and rebuilding the
    // list would swallow a click that started on a row (the element under the pointer would be replaced).
    this.storeRows ??= new Map();
    const ids = new Set(stores.map((store) => store.id));
    for (const [id, row] of this.storeRows) {
      if (!ids.has(id)) { row.li.remove(); this.storeRows.delete(id); }
    }
    stores.forEach((store, i) => {
      let row = this.storeRows.get(store.id);
      if (!row) {
        row = this.storeRow(store.id);
        this.storeRows.set(store.id, row);
      }
      if (this.storeList.children[i] !== row.li) this.storeList.insertBefore(row.li, this.storeList.children[i] ?? null);
      setAttr(row.button, "aria-current", store.id === selected ? "true" : null);
      setText(row.storage, store.storage.startsWith("file:") ? shortStoreName(`app/${store.storage}`) : store.storage);
      setText(row.scope, store.scope);
      setProp(row.file, "hidden", !store.storage.startsWith("file:"));
      setText(row.version, `v${store.version}`);
      setText(row.size, `${formatCount(store.size)} keys`);
      setProp(row.matches, "hidden", store.matches === null);
      if (store.matches !== null) {
        setText(row.matches, `${formatCount(store.matches)} match${store.matches === 1 ? "" : "es"}`);
        setClass(row.matches, "none", !store.matches);
      }
    });
    // The activity dot lights while a store is changing.
    stores.forEach((store, i) => {
      const dot = this.storeList.children[i]?.querySelector(".store-activity");
      if (dot) setClass(dot, "active", store.changedAt > 0 && now - store.changedAt < 1500);
    });
  }

  /**
   * Arrow keys move in the tree; Enter edits; C copies the path; H opens its history.
   * @param {KeyboardEvent} event
   * @returns {boolean} whether the key was used
   */
  handleKey(event) {
    const keys = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Home: "home", End: "end" };
    if (keys[event.key]) {
      this.app.bridge.post({ type: ToWorker.tree, action: "move", key: keys[event.key] });
      this.revealPending = true;
      return true;
    }
    const path = this.app.state.path;
    if (!path) return false;
    if (event.key === "Enter") this.editSelected();
    else if (event.key === "c") this.app.copyPath(path);
    else if (event.key === "h") this.app.showHistory(this.storeId(), path);
    else return false;
    return true;
  }

  /** Esc: stop editing, else leave the search, else close the inspector. */
  escape() {
    if (this.tree.editing) this.tree.cancelEdit();
    else if (this.app.state.path) this.app.setState({ path: "" });
    else if (this.app.state.search) this.app.setState({ search: "" });
    else return false;
    return true;
  }

  /** Shows a path selected elsewhere (history, a link): expand its ancestors and scroll to it. */
  reveal(store, path) {
    this.app.bridge.post({ type: ToWorker.tree, action: "reveal", store, path });
    this.revealPending = true;
  }
}

// The stores panel's data: the store list, the selected store's tree (expansion, paging, search), the rows in the
// requested window, and the inspector for the selected path.

import { describeValue } from "../../lib/format.mjs";
import { stringifyValue } from "../../lib/json-writer.mjs";
import { parseKeyPath, pathPrefixes } from "../../lib/keypath.mjs";
import { valueAt, valueAtPath } from "../../lib/mirror.mjs";
import { searchTree } from "../../lib/search.mjs";
import { flattenTree, pageSize, rowIndexOf } from "../../lib/tree.mjs";
import { childCount, isContainer } from "../../lib/values.mjs";

/** Longest pretty JSON the inspector shows; beyond it the text is cut (a huge <pre> costs the page a slow layout). */
const inspectorTextLimit = 20_000;
/** How often a running search is redone while the data changes. */
const searchRefreshMs = 500;

export class TreeModel {
  /** @param {import("./session.mjs").Session} session */
  constructor(session) {
    this.session = session;
    /** @type {Map<string, Set<string>>} */
    this.expandedByStore = new Map();
    /** @type {Map<string, Map<string, number>>} */
    this.shownByStore = new Map();
    this.layoutVersion = 0;
    this.cache = { key: "", rows: [] };
    this.searchCache = { key: "", time: 0, byStore: new Map() };
  }

  /** The store to show: the requested one when it exists, else the first. @param {string} wanted */
  storeId(wanted) {
    const { stores } = this.session.mirror;
    if (stores.has(wanted)) return wanted;
    return [...stores.keys()].sort()[0] ?? "";
  }

  expanded(store) {
    let set = this.expandedByStore.get(store);
    if (!set) this.expandedByStore.set(store, (set = new Set()));
    return set;
  }

  /** @param {string} store @param {string} path @param {boolean} [open] toggles when omitted */
  setExpanded(store, path, open) {
    const set = this.expanded(store);
    const now = open ?? !set.has(path);
    if (now) set.add(path);
    else set.delete(path);
    this.layoutVersion++;
  }

  /** Expands every ancestor of `path`, so its row exists. */
  reveal(store, path) {
    let segments;
    try {
      segments = parseKeyPath(path);
    } catch {
      return;
    }
    const set = this.expanded(store);
    const prefixes = pathPrefixes(segments).slice(1, -1);
    for (const prefix of prefixes) set.add(prefix);
    // A revealed child beyond the first page of a large container needs that container paged far enough.
    const root = this.session.mirror.stores.get(store)?.root;
    for (let i = 0; i < segments.length; i++) {
      if (typeof segments[i] === "number" && segments[i] >= pageSize) {
        this.showMore(store, pathPrefixes(segments)[i], segments[i] + 1);
      } else if (typeof segments[i] === "string" && root) {
        const parent = valueAt(root, segments.slice(0, i));
        if (parent instanceof Map) {
          const position = [...parent.keys()].indexOf(segments[i]);
          if (position >= pageSize) this.showMore(store, pathPrefixes(segments)[i], position + 1);
        }
      }
    }
    this.layoutVersion++;
  }

  /** Shows at least `count` children of the container at `path` (Infinity for all). */
  showMore(store, path, count) {
    let shown = this.shownByStore.get(store);
    if (!shown) this.shownByStore.set(store, (shown = new Map()));
    shown.set(path, Math.max(count, shown.get(path) ?? pageSize));
    this.layoutVersion++;
  }

  /** The search over every store, redone when the query changes and at most every half second while data moves. */
  search(query) {
    if (!query) return null;
    const { session, searchCache } = this;
    const key = `${query}\u0000${session.versions.stores}`;
    const now = session.now();
    if (searchCache.key !== key || (searchCache.dataVersion !== session.versions.data && now - searchCache.time > searchRefreshMs)) {
      const byStore = new Map();
      for (const [id, store] of session.mirror.stores) byStore.set(id, searchTree(store.root, query));
      this.searchCache = { key, time: now, dataVersion: session.versions.data, byStore };
    }
    return this.searchCache.byStore;
  }

  /** The flattened rows of a store, rebuilt only when the data, the layout or the search changed. */
  rows(storeId, results) {
    const { session } = this;
    const store = session.mirror.stores.get(storeId);
    if (!store) return [];
    const key = `${storeId}\u0000${session.versions.data}\u0000${this.layoutVersion}\u0000${this.searchCache.time}\u0000${results ? 1 : 0}`;
    if (this.cache.key === key) return this.cache.rows;
    const expanded = this.expanded(storeId);
    const shown = this.shownByStore.get(storeId);
    const rows = results
      ? flattenTree(store.root, {
        expanded: (path) => results.ancestors.has(path) || expanded.has(path),
        shownChildren: () => Infinity,
        include: (path) => (results.matches.has(path) ? "all" : results.ancestors.has(path)),
      })
      : flattenTree(store.root, { expanded: (path) => expanded.has(path), shownChildren: (path) => shown?.get(path) ?? pageSize });
    this.cache = { key, rows };
    return rows;
  }

  /**
   * The stores panel's section of an update.
   * @param {{store: string, path: string, search: string, tree: {start: number, count: number}}} view
   */
  build(view) {
    const { session } = this;
    const storeId = this.storeId(view.store);
    const searches = this.search(view.search);
    const results = searches?.get(storeId) ?? null;
    const rows = this.rows(storeId, results);
    const expanded = this.expanded(storeId);
    const start = Math.max(0, Math.min(view.tree.start, rows.length - 1));
    const end = Math.min(rows.length, start + view.tree.count);
    const windowRows = [];
    for (let i = start; i < end; i++) {
      const row = rows[i];
      if (row.kind === "more") {
        windowRows.push({ kind: "more", path: row.path, depth: row.depth, shown: row.shown, total: row.total });
        continue;
      }
      const container = isContainer(row.value);
      windowRows.push({
        kind: "node",
        path: row.path,
        depth: row.depth,
        key: String(row.key),
        index: typeof row.key !== "string",
        ...describeValue(row.value, 160),
        size: container ? childCount(row.value) : -1,
        expanded: container && (expanded.has(row.path) || (results?.ancestors.has(row.path) ?? false)),
        changedAt: session.recent.at(storeId, row.path),
        match: results?.matches.has(row.path) ?? false,
      });
    }
    return {
      store: storeId,
      count: rows.length,
      start,
      rows: windowRows,
      selectedIndex: view.path ? rowIndexOf(rows, view.path) : -1,
      search: searches ? { query: view.search, count: results?.count ?? 0, truncated: results?.truncated ?? false } : null,
    };
  }

  /**
   * The row `delta` rows away from the selected one (arrow keys), or the parent / first child.
   * @param {{store: string, path: string, search: string}} view
   * @param {"up"|"down"|"left"|"right"|"home"|"end"} key
   * @returns {string|null} the path to select, or null to keep the selection
   */
  move(view, key) {
    const storeId = this.storeId(view.store);
    const searches = this.search(view.search);
    const rows = this.rows(storeId, searches?.get(storeId) ?? null);
    const nodes = rows.filter((row) => row.kind === "node");
    if (nodes.length === 0) return null;
    const index = nodes.findIndex((row) => row.path === view.path);
    const current = nodes[index];
    switch (key) {
      case "home": return nodes[0].path;
      case "end": return nodes[nodes.length - 1].path;
      case "up": return index < 0 ? nodes[0].path : nodes[Math.max(0, index - 1)].path;
      case "down": return index < 0 ? nodes[0].path : nodes[Math.min(nodes.length - 1, index + 1)].path;
      case "right":
        if (!current || !isContainer(current.value) || childCount(current.value) === 0) return null;
        if (!this.expanded(storeId).has(current.path)) {
          this.setExpanded(storeId, current.path, true);
          return current.path;
        }
        return nodes[index + 1]?.path ?? null;
      case "left": {
        if (!current) return null;
        if (this.expanded(storeId).has(current.path)) {
          this.setExpanded(storeId, current.path, false);
          return current.path;
        }
        const parent = pathPrefixes(parseKeyPath(current.path)).slice(-2, -1)[0];
        return parent ? parent : null;
      }
      default: return null;
    }
  }

  /**
   * The inspector's section: the selected value in full, with its type and size.
   * @param {string} storeId
   * @param {string} path
   */
  inspect(storeId, path) {
    const store = this.session.mirror.stores.get(storeId);
    if (!store || !path) return null;
    const value = valueAtPath(store.root, path);
    if (value === undefined) return { store: storeId, path, exists: false };
    const pretty = isContainer(value) ? stringifyValue(value, { indent: 2, sortKeys: false, maxLength: inspectorTextLimit }) : "";
    return {
      store: storeId,
      path,
      exists: true,
      ...describeValue(value, 200),
      size: isContainer(value) ? childCount(value) : -1,
      pretty,
      changedAt: this.session.recent.at(storeId, path),
    };
  }
}

// The mutation log: filters (store, key-path prefix, op, text) applied live, newest or oldest first, pause and
// resume, the size limit, a virtualised list of entries with revert buttons, and the selected entry's detail. On a
// fleet dashboard with all instances picked, the log merges theirs: an instance column and an instance filter.

import { formatCount, shortStoreName } from "../../lib/format.mjs";
import { ToWorker } from "../../lib/messages.mjs";
import { h, icon, setAttr, setClass, setProp, setText, syncOptions } from "./dom.mjs";
import { LogDetail } from "./log-detail.mjs";
import { fillValue } from "./value-view.mjs";
import { VirtualList } from "./virtual-list.mjs";

const rowHeight = 26;
const limits = [10_000, 100_000, 1_000_000];
const opChoices = [["", "All ops"], ["set", "set"], ["insert", "insert"], ["remove", "remove"], ["merge", "merge"], ["event", "store events"]];

export class LogPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    const filter = app.state.filter;
    const debounced = debounce(() => this.applyFilter(), 120);
    this.storeFilter = h("select", { className: "select", attrs: { "data-testid": "filter-store", "aria-label": "Store" }, on: { change: () => this.applyFilter() } });
    this.instanceFilter = h("select", { className: "select", hidden: true, attrs: { "data-testid": "filter-instance", "aria-label": "Instance" }, on: { change: () => this.applyFilter() } });
    this.pathFilter = h("input", { className: "input mono", placeholder: "key-path prefix", value: filter.path, spellcheck: false, attrs: { "data-testid": "filter-path", "aria-label": "Key-path prefix" }, on: { input: debounced } });
    this.opFilter = h("select", { className: "select", attrs: { "data-testid": "filter-op", "aria-label": "Operation" }, on: { change: () => this.applyFilter() } },
      ...opChoices.map(([value, label]) => h("option", { value, textContent: label, selected: value === filter.op })));
    this.textFilter = h("input", { type: "search", className: "input", placeholder: "Filter text", value: filter.text, spellcheck: false, attrs: { "data-testid": "filter-text", "aria-label": "Text in the entry" }, on: { input: debounced } });
    this.orderLabel = h("span");
    this.order = h("button", { type: "button", className: "button", title: "Newest first or oldest first", attrs: { "data-testid": "log-order" }, on: { click: () => app.setState({ order: app.state.order === "newest" ? "oldest" : "newest" }) } }, icon("sort"), this.orderLabel);
    this.pause = h("button", { type: "button", className: "button", attrs: { "data-testid": "log-pause" }, on: { click: () => this.togglePause() } });
    this.limit = h("select", { className: "select", title: "Entries the dashboard keeps; older ones are dropped", attrs: { "data-testid": "log-limit", "aria-label": "Entries kept" }, on: { change: () => app.setState({ limit: Number(this.limit.value) }) } });
    this.counts = h("span", { className: "log-counts muted", attrs: { "data-testid": "log-counts" } });
    this.paused = false;
    this.scrollId = 0; // the reader's latest scroll; the worker's position counts only once it has seen it
    this.list = new VirtualList({
      rowHeight,
      className: "log-list",
      label: "Mutation log",
      createRow: () => this.createRow(),
      updateRow: (element, row) => this.updateRow(element, row),
      onScroll: (first, visible) => app.bridge.post({ type: ToWorker.view, patch: { log: { row: first, visible, count: visible * 2, scrollId: ++this.scrollId } } }),
      empty: () => h("div", { className: "empty", textContent: this.emptyText() }),
    });
    this.detail = new LogDetail({ app, onClose: () => this.select(null) });
    this.element = h("section", { className: "panel panel-log", id: "panel-log", attrs: { role: "tabpanel" } },
      h("div", { className: "toolbar log-toolbar" },
        this.instanceFilter, this.storeFilter, this.pathFilter, this.opFilter, this.textFilter,
        h("span", { className: "toolbar-sep" }),
        this.order, this.pause,
        h("button", { type: "button", className: "icon-button", title: "Clear the dashboard's log", attrs: { "data-testid": "log-clear", "aria-label": "Clear log" }, on: { click: () => app.bridge.post({ type: ToWorker.log, action: "clear" }) } }, icon("trash")),
        h("span", { className: "toolbar-spacer" }),
        this.counts, this.limit),
      h("div", { className: "log-body" },
        h("div", { className: "log-main" },
          h("div", { className: "lrow lhead", attrs: { "aria-hidden": "true" } },
            ...["seq", "time", "store", "op", "key path", "old → new", "txn", ""].map((label) => h("span", { textContent: label })),
            h("span", { className: "linst", textContent: "instance" })),
          this.list.element),
        this.detail.element));
    this.storesKey = "";
    this.instancesKey = "";
    this.selectedSeq = null;
  }

  emptyText() {
    const f = this.app.state.filter;
    if (f.store || f.path || f.op || f.text || f.instance) return "No entry matches the filters.";
    return this.app.latest.replay?.active ? "No events before this point of the recording." : "No changes yet. They appear here as the stores change.";
  }

  applyFilter() {
    const instance = this.instanceFilter.hidden ? "" : this.instanceFilter.value;
    this.app.setState({ filter: { store: this.storeFilter.value, path: this.pathFilter.value.trim(), op: this.opFilter.value, text: this.textFilter.value, instance } });
  }

  togglePause() {
    this.app.bridge.post({ type: ToWorker.log, action: this.paused ? "resume" : "pause" });
  }

  select(n) {
    this.app.bridge.post({ type: ToWorker.log, action: n === null ? "close" : "select", n });
    if (n === null) this.app.setState({ entry: null });
  }

  /** What "/" focuses in this panel. */
  focusFind() {
    this.textFilter.focus();
    this.textFilter.select();
  }

  createRow() {
    const part = (className) => h("span", { className });
    const parts = {
      seq: part("lseq"), time: part("ltime"), store: part("lstore"), op: part("op"), path: part("lpath"),
      change: part("lchange"), txn: part("ltxn"), instance: part("linst"),
      revert: h("button", { type: "button", className: "icon-button lrevert", title: "Revert: apply the inverse of this change", attrs: { "data-testid": "log-revert", "aria-label": "Revert this change" } }, icon("revert")),
    };
    parts.before = h("span", { className: "value" });
    parts.after = h("span", { className: "value" });
    parts.arrow = h("span", { className: "arrow", textContent: "→" });
    parts.note = h("span", { className: "muted" });
    parts.change.append(parts.before, parts.arrow, parts.after, parts.note);
    parts.more = h("span", { className: "lmore" });
    parts.pathText = h("span", { className: "lpath-text" });
    parts.path.append(parts.pathText, parts.more);
    // The instance comes last in the DOM (the columns before it keep their places) and shows after the time.
    const element = h("div", { className: "lrow", attrs: { role: "listitem" } }, parts.seq, parts.time, parts.store, parts.op, parts.path, parts.change, parts.txn, parts.revert, parts.instance);
    element._parts = parts;
    element.addEventListener("click", (event) => {
      const row = element._row;
      if (!row) return;
      if (event.target.closest(".lrevert")) this.app.revert(row.seq, row.instance);
      else if (!event.target.closest("a")) this.select(row.n);
    });
    return element;
  }

  updateRow(element, row) {
    element._row = row;
    const selected = row.n === this.selectedN;
    const key = `${row.n}|${row.revertable}|${selected}`;
    if (element._key === key) return;
    element._key = key;
    const p = element._parts;
    setAttr(element, "data-testid", row.kind === "gap" ? "log-gap" : "log-row");
    setAttr(element, "data-seq", String(row.seq));
    setAttr(element, "data-store", row.store);
    setAttr(element, "data-instance", row.instance || null);
    setText(p.instance, row.instance);
    setAttr(p.instance, "title", row.instance ? `instance ${row.instance}` : null);
    setAttr(element, "data-path", row.path);
    setAttr(element, "data-op", row.ops ?? row.op);
    setAttr(element, "aria-selected", String(selected));
    setClass(element, "selected", selected);
    setClass(element, "lrow-gap", row.kind === "gap");
    setClass(element, "lrow-event", row.kind === "event");
    setText(p.seq, row.kind === "gap" ? "" : `#${row.seq}`);
    setText(p.time, row.time);
    setAttr(p.time, "title", row.fullTime);
    setText(p.store, row.kind === "gap" ? "" : shortStoreName(row.store));
    setAttr(p.store, "title", row.store);
    setProp(p.op, "className", `op op-${row.kind === "event" ? "event" : row.op}`);
    setText(p.op, row.op);
    setAttr(p.op, "title", row.ops && row.ops !== row.op ? `ops in this change: ${row.ops}` : null);
    setText(p.pathText, row.path);
    setText(p.more, row.more ? `+${row.more}` : "");
    setAttr(p.more, "title", row.more ? `${row.more} more patch${row.more === 1 ? "" : "es"} in this transaction` : null);
    setText(p.txn, row.txn ? row.txn.slice(0, 8) : "");
    setAttr(p.txn, "title", row.txn ? `transaction ${row.txn}` : null);
    setProp(p.revert, "hidden", !row.revertable);
    // The change cell keeps its four parts and shows the ones this row needs.
    const note = row.kind === "gap" ? `changes ${row.from}…${row.to} were not received`
      : row.kind === "event" ? (row.op === "removed" ? "store removed" : `version ${row.version}`) : "";
    setText(p.note, note);
    const change = row.kind === "change";
    setClass(p.change, "single", row.op === "insert" || row.op === "remove");
    setProp(p.before, "hidden", !change || row.op === "insert");
    setProp(p.arrow, "hidden", !change || row.op === "insert" || row.op === "remove");
    setProp(p.after, "hidden", !change || row.op === "remove");
    if (change) {
      fillValue(p.before, row.before, false);
      fillValue(p.after, row.after, false);
    }
  }

  /** @param {any} latest */
  render(latest) {
    const log = latest.log;
    this.renderStoreChoices(latest.stores ?? []);
    this.renderInstanceChoices(latest.fleet);
    if (!log) return;
    this.paused = log.paused;
    this.selectedN = log.selected;
    setText(this.orderLabel, log.order === "newest" ? "Newest first" : "Oldest first");
    const pauseText = log.paused ? `Resume${log.waiting ? ` (${formatCount(log.waiting)} new)` : ""}` : "Pause";
    if (this.pause.textContent !== pauseText) this.pause.replaceChildren(icon(log.paused ? "play" : "pause"), pauseText);
    setClass(this.pause, "button-accent", log.paused);
    setAttr(this.pause, "aria-pressed", String(log.paused));
    this.renderLimit(log.limit);
    // While time travelling the log holds the events before the selected one: its size is the replay's window.
    const replaying = Boolean(latest.replay?.active);
    setProp(this.limit, "disabled", replaying);
    setProp(this.limit, "title", replaying ? "While time travelling, the log holds the events just before the selected one" : "Entries the dashboard keeps; older ones are dropped");
    // Filters and a pause show fewer rows than the log keeps; say both then.
    setText(this.counts, log.count === log.kept ? `${formatCount(log.kept)} kept` : `${formatCount(log.count)} shown · ${formatCount(log.kept)} kept`);
    if (this.generation !== log.generation) {
      this.generation = log.generation;
      for (const element of this.list.pool) element._key = "";
    }
    this.list.render(log);
    if (log.scrollId === this.scrollId) this.list.scrollToRow(log.first);
    if (log.selectedRow >= 0 && this.revealSelected) {
      this.revealSelected = false;
      this.list.reveal(log.selectedRow);
    }
    if (latest.detail !== undefined && latest.detail !== this.shownDetail) {
      this.shownDetail = latest.detail;
      this.detail.render(latest.detail);
      if (latest.detail && latest.detail.seq !== this.selectedSeq) {
        this.selectedSeq = latest.detail.seq;
        this.app.setState({ entry: latest.detail.kind === "gap" ? null : latest.detail.seq });
      }
    }
  }

  renderStoreChoices(stores) {
    const wanted = this.app.state.filter.store;
    const ids = stores.map((s) => s.id);
    if (wanted && !ids.includes(wanted)) ids.push(wanted);
    const key = ids.join("\n") + wanted;
    if (key === this.storesKey) return;
    this.storesKey = key;
    syncOptions(this.storeFilter, [{ value: "", label: "All stores" }, ...ids.map((id) => ({ value: id, label: id }))], wanted);
  }

  /** The instance column and filter, while a fleet dashboard shows all instances merged. */
  renderInstanceChoices(fleet) {
    const merged = fleet?.mode === "all";
    setClass(this.element, "log-merged", merged);
    setProp(this.instanceFilter, "hidden", !merged);
    if (!merged) return;
    const wanted = this.app.state.filter.instance ?? "";
    const ids = fleet.instances.map((i) => i.id);
    if (wanted && !ids.includes(wanted)) ids.push(wanted);
    const key = ids.join("\n") + wanted;
    if (key === this.instancesKey) return;
    this.instancesKey = key;
    syncOptions(this.instanceFilter, [{ value: "", label: "All instances" }, ...ids.map((id) => ({ value: id, label: id }))], wanted);
  }

  renderLimit(limit) {
    if (this.limit.value === String(limit)) return;
    const choices = limits.includes(limit) ? limits : [...limits, limit].sort((a, b) => a - b);
    this.limit.replaceChildren(...choices.map((value) => h("option", { value: String(value), textContent: `keep ${formatCount(value)}`, selected: value === limit })));
  }

  /**
   * Arrows move the selection; P pauses; Enter opens nothing more (the detail follows the selection).
   * @param {KeyboardEvent} event
   */
  handleKey(event) {
    const deltas = { ArrowUp: -1, ArrowDown: 1, PageUp: -20, PageDown: 20 };
    if (event.key in deltas) {
      this.app.bridge.post({ type: ToWorker.log, action: "move", delta: deltas[event.key] });
      this.revealSelected = true;
      return true;
    }
    if (event.key === "p") {
      this.togglePause();
      return true;
    }
    return false;
  }

  escape() {
    if (this.selectedN === null || this.selectedN === undefined) return false;
    this.select(null);
    return true;
  }
}

function debounce(action, ms) {
  let timer = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(action, ms);
  };
}

// The Preferences panel: the service's UserDefaults suites and secret services (`GET /api/preferences`, fetched by
// the worker), grouped by container, with segments (All, UserDefaults, Secrets) and a search over keys, containers
// and values, both kept in the URL. Edits and deletes go out as `preference` requests on the worker's WebSocket;
// Refresh asks the server to rescan. Redacted secrets show only their placeholder and length.

import { FeatureMessage } from "../../lib/messages.mjs";
import { countsText, groupPreferences, segmentCounts, segments, sourceLabels } from "../../lib/preferences.mjs";
import { h, icon, placeChildren, setAttr, setProp, setText } from "./dom.mjs";
import { absent, panelStatus } from "./panel-status.mjs";
import { PreferenceRowView } from "./preference-row.mjs";

/** Rows drawn at first; "Show all" draws the rest (suites rarely hold more). */
const rowLimit = 400;

export class PreferencesPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    /** @type {Map<string, PreferenceRowView>} */
    this.views = new Map();
    /** @type {Map<string, {element: HTMLElement, count: HTMLElement, store: HTMLElement, location: HTMLElement, rows: HTMLElement}>} */
    this.groups = new Map();
    this.model = undefined;
    this.drawnKey = "";
    this.showAll = false;
    this.refreshing = false;
    this.counts = h("span", { className: "prefs-counts", attrs: { "data-testid": "preferences-counts" } });
    this.segmentButtons = new Map(segments.map((segment) => [segment, h("button", {
      type: "button", className: "segment",
      attrs: { "data-testid": "preferences-segment", "data-segment": segment, "aria-pressed": "false" },
      on: { click: () => this.setSegment(segment) },
    }, h("span", { textContent: sourceLabels[segment] }), h("span", { className: "segment-count" }))]));
    this.segmentGroup = h("div", { className: "segmented", attrs: { role: "group", "aria-label": "Source" } }, ...this.segmentButtons.values());
    this.search = h("input", {
      type: "search", className: "input prefs-search", placeholder: "Search keys, containers, values", spellcheck: false,
      value: app.state.prefSearch ?? "",
      attrs: { "data-testid": "preferences-search", "aria-label": "Search preferences" },
      on: { input: () => { this.showAll = false; app.setState({ prefSearch: this.search.value }); } },
    });
    this.revealBadge = h("span", { className: "badge badge-warn", hidden: true, attrs: { "data-testid": "preferences-revealed" }, title: "The service turned reveal on: secret values are sent to the dashboard as they are." }, icon("lock"), "secrets revealed");
    this.refresh = h("button", { type: "button", className: "button", title: "Rescan every suite and secret service", attrs: { "data-testid": "preferences-refresh" }, on: { click: () => this.rescan() } }, icon("revert"), "Refresh");
    this.readOnlyText = h("span", {});
    this.readOnlyNote = h("div", { className: "readonly-note", hidden: true, attrs: { "data-testid": "preferences-readonly" } }, icon("lock"), this.readOnlyText);
    this.status = panelStatus({ testid: "preferences", className: "prefs", onRetry: () => app.bridge.post({ type: FeatureMessage.preferences, action: "reload" }), empty: [
      h("h2", { textContent: "This service scans no preferences" }),
      h("p", { textContent: "Keyscope can show a service's UserDefaults suites and secrets (the keychain's role) as stores, and edit them live, once the service attaches preference scanning:" }),
      h("ul", { className: "prefs-how" },
        h("li", {}, "in an embedding service, serve the scanned preferences: ", h("code", { textContent: "Inspector.start(features: [PreferencesFeature(preferences)])" })),
        h("li", {}, "or try it with the demo, which scans its own suites and secrets: ", h("code", { textContent: "keyscope serve --demo" }))),
      h("p", { className: "muted" }, "What is scanned and how to configure it: ", h("code", { textContent: "docs/preferences.md" }), "."),
    ] });
    this.noMatch = h("p", { className: "empty", hidden: true, attrs: { "data-testid": "preferences-nomatch" } });
    this.more = h("button", { type: "button", className: "button prefs-more", hidden: true, attrs: { "data-testid": "preferences-more" }, on: { click: () => { this.showAll = true; this.app.requestFrame(); } } });
    this.list = h("div", { className: "prefs-list" });
    this.element = h("section", { className: "panel panel-preferences", id: "panel-preferences", attrs: { role: "tabpanel", "data-testid": "preferences-panel" } },
      h("div", { className: "toolbar" },
        this.segmentGroup, this.search, h("span", { className: "toolbar-spacer" }), this.counts, this.revealBadge, this.refresh),
      h("div", { className: "prefs-body" }, this.readOnlyNote, ...this.status.elements, this.list, this.noMatch, this.more));
  }

  segment() {
    return this.app.state.prefSegment ?? "all";
  }

  /** @param {string} segment */
  setSegment(segment) {
    this.showAll = false;
    this.app.setState({ prefSegment: segment });
  }

  /** @param {any} latest */
  render(latest) {
    const model = latest.preferences;
    const readOnly = this.app.readOnly();
    const query = this.app.state.prefSearch ?? "";
    if (this.search.value !== query && document.activeElement !== this.search) this.search.value = query;
    const key = `${this.segment()}\u0000${query}\u0000${readOnly}\u0000${this.showAll}\u0000${Math.floor((latest.now ?? 0) / 60000)}`;
    if (model === this.model && key === this.drawnKey) return;
    this.model = model;
    this.drawnKey = key;
    this.draw(model, readOnly, query, latest.now ?? Date.now());
  }

  /**
   * @param {any} model the worker's section (PreferencesModel.build), undefined before the first
   * @param {boolean} readOnly the server is read-only
   * @param {string} query the search
   * @param {number} now milliseconds
   */
  draw(model, readOnly, query, now) {
    const status = model?.status ?? "loading";
    const rows = model?.rows ?? [];
    const ready = status === "ready" || (status !== "none" && rows.length > 0);
    const editable = ready && model.editing && !readOnly;
    const segment = this.segment();
    const why = readOnly
      ? "This server is read-only (started with --read-only): it refuses edits and deletes of preferences and secrets. Refresh still rescans them."
      : "Editing is off in this service's preferences configuration (PreferencesConfiguration's editing): preferences and secrets can be looked at, not changed. Refresh still rescans them.";
    setText(this.readOnlyText, why);
    setProp(this.readOnlyNote, "hidden", !ready || editable);
    setProp(this.revealBadge, "hidden", !ready || !model.reveal);
    setProp(this.refresh, "hidden", absent(status));
    setProp(this.refresh, "disabled", this.refreshing);
    setProp(this.segmentGroup, "hidden", !ready);
    setProp(this.search, "hidden", !ready);
    const counts = segmentCounts(rows);
    for (const [name, button] of this.segmentButtons) {
      setAttr(button, "aria-pressed", String(name === segment));
      setText(button.lastChild, String(counts[name] ?? 0));
    }
    this.status.draw(status, model?.message ?? "", "Loading the preferences…");
    const groups = ready ? groupPreferences(model.containers, rows, { segment, query }) : [];
    const shown = groups.reduce((n, g) => n + g.rows.length, 0);
    const containerCount = ready ? new Set([...model.containers.map((c) => `${c.source}\u0000${c.container}`), ...rows.map((r) => `${r.source}\u0000${r.container}`)]).size : 0;
    setText(this.counts, ready ? countsText(rows.length, containerCount, shown) : "");
    const what = segment === "all" ? "preference" : segment === "secrets" ? "secret" : "UserDefaults key";
    setText(this.noMatch, query.trim() ? `No ${what} matches “${query.trim()}”.` : `No ${what}s.`);
    setProp(this.noMatch, "hidden", !ready || shown > 0 || (groups.length > 0 && !query.trim()));
    // Rows beyond the limit are left out until "Show all".
    let budget = this.showAll ? Infinity : rowLimit;
    const drawn = groups.map((group) => {
      const take = Math.min(group.rows.length, Math.max(0, budget));
      budget -= take;
      return { ...group, rows: group.rows.slice(0, take) };
    }).filter((group, i) => group.rows.length > 0 || groups[i].rows.length === 0);
    const hiddenRows = shown - drawn.reduce((n, g) => n + g.rows.length, 0);
    setText(this.more, `Show all (${hiddenRows} more)`);
    setProp(this.more, "hidden", hiddenRows <= 0);
    this.placeRows(rows, drawn, editable, now);
  }

  /** Updates, adds and removes rows, keeping the elements of those that stay (an open editor keeps its text). */
  placeRows(rows, groups, editable, now) {
    const present = new Set(rows.map((r) => r.id));
    for (const [id, view] of this.views) {
      if (!present.has(id)) {
        view.element.remove();
        this.views.delete(id);
      }
    }
    const actions = { send: (action, row, json) => this.send(action, row, json), toast: (text, kind) => this.app.toast(text, kind) };
    for (const group of groups) {
      for (const row of group.rows) {
        const view = this.views.get(row.id);
        if (view) view.update(row, editable, now);
        else {
          const created = new PreferenceRowView(row, actions);
          created.update(row, editable, now);
          this.views.set(row.id, created);
        }
      }
    }
    const sections = groups.map((group) => {
      const section = this.group(group);
      setText(section.count, group.rows.length === group.total ? `${group.total} key${group.total === 1 ? "" : "s"}` : `${group.rows.length} of ${group.total} keys`);
      setText(section.store, group.store);
      setText(section.location, group.location);
      setProp(section.location, "title", group.location ? `Kept in ${group.location}` : "");
      setProp(section.location, "hidden", group.location === "");
      const children = group.rows.map((r) => this.views.get(r.id).element);
      if (children.length === 0) children.push(section.none);
      placeChildren(section.rows, children);
      return section.element;
    });
    placeChildren(this.list, sections);
    for (const [id, section] of this.groups) if (!section.element.isConnected) this.groups.delete(id);
  }

  /** The section of one container (suite or service), made once. */
  group({ source, container }) {
    const id = `${source}\u0000${container}`;
    let section = this.groups.get(id);
    if (!section) {
      const count = h("span", { className: "prefs-group-count" });
      const store = h("span", { className: "prefs-group-store mono", title: "The mirror store (its changes are in the log)" });
      const location = h("span", { className: "prefs-group-location mono" });
      const rows = h("div", { className: "prefs-rows" });
      const none = h("p", { className: "prefs-none muted", textContent: source === "secrets" ? "No secrets in this service." : "No keys in this suite." });
      const element = h("section", { className: "prefs-group", attrs: { "data-testid": "preferences-group", "data-source": source, "data-container": container } },
        h("header", { className: "prefs-group-head" },
          h("span", { className: `prefs-source prefs-source-${source}`, textContent: sourceLabels[source] ?? source }),
          h("h3", { className: "prefs-group-title mono", textContent: container, title: container }),
          count, h("span", { className: "toolbar-spacer" }), location, store),
        rows);
      section = { element, count, store, location, rows, none };
      this.groups.set(id, section);
    }
    return section;
  }

  /**
   * One `preference` request through the worker's WebSocket; resolves with the server's reply.
   * @param {"set"|"delete"} action
   * @param {import("../../lib/preferences.mjs").PreferenceRow} row
   * @param {string} [json]
   */
  async send(action, row, json) {
    const reply = await this.app.bridge.ask({ type: FeatureMessage.preferences, action, source: row.source, container: row.container, key: row.key, json });
    if (reply.ok) {
      const what = action === "delete" ? `Deleted ${row.key}` : `Set ${row.key}`;
      this.app.toast(reply.seq === null ? `${what}: it already had that value.` : `${what} (change #${reply.seq}).`, "ok");
    }
    return reply;
  }

  async rescan() {
    this.refreshing = true;
    setProp(this.refresh, "disabled", true);
    const reply = await this.app.bridge.ask({ type: FeatureMessage.preferences, action: "refresh" });
    this.refreshing = false;
    setProp(this.refresh, "disabled", false);
    if (reply.ok) this.app.toast("Rescanned every suite and secret service.", "ok");
    else this.app.toast(`Refresh refused: ${reply.error.code}: ${reply.error.message}`, "error");
  }

  /** What "/" focuses in this panel. */
  focusFind() {
    this.search.focus();
    this.search.select();
  }

  handleKey() {
    return false;
  }

  escape() {
    if (this.app.state.prefSearch) {
      this.search.value = "";
      this.app.setState({ prefSearch: "" });
      return true;
    }
    return false;
  }
}

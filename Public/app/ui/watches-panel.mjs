// The Watches panel: watched status keys (provider value against the stored one, in sync or not, history), watch
// rules (what a store path must hold, ok or violated) and the recent violations, newest first, each linked to the
// change that broke its rule in the Log. The worker fetches `GET /api/watches` while the tab is shown; Refresh
// asks the server to re-read every status first.

import { FeatureMessage } from "../../lib/messages.mjs";
import { formatClock } from "../../lib/time.mjs";
import { writeViewState } from "../../lib/url-state.mjs";
import { h, icon, placeChildren, setAttr, setProp, setText } from "./dom.mjs";
import { absent, panelStatus } from "./panel-status.mjs";
import { fillValue } from "./value-view.mjs";
import { WatchStatusRow } from "./watch-status-row.mjs";

export class WatchesPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.model = undefined;
    this.drawnAt = 0;
    this.refreshing = false;
    /** @type {Map<string, WatchStatusRow>} */
    this.statusViews = new Map();
    /** @type {Map<string, {element: HTMLElement, update: (rule: any) => void}>} */
    this.ruleViews = new Map();
    /** @type {Map<string, {element: HTMLElement, update: (violation: any) => void}>} */
    this.violationViews = new Map();
    this.summary = h("span", { className: "watches-summary", attrs: { "data-testid": "watches-summary" } });
    this.updated = h("span", { className: "muted watches-updated", attrs: { "data-testid": "watches-updated" } });
    this.refresh = h("button", { type: "button", className: "button", title: "Re-read every watched status now", attrs: { "data-testid": "watches-refresh" }, on: { click: () => this.reread() } }, icon("revert"), "Refresh");
    this.status = panelStatus({ testid: "watches", className: "prefs", onRetry: () => app.bridge.post({ type: FeatureMessage.watches, action: "reload" }), empty: [
      h("h2", { textContent: "This service watches nothing" }),
      h("p", { textContent: "Watched statuses are preference keys a service keeps in step with what a provider says (a data directory that is writable, a port that is free); watch rules say what a store path must hold, and each change that breaks one is recorded here and in the log." }),
      h("ul", { className: "prefs-how" },
        h("li", {}, "in an embedding service, serve its statuses and rules: ", h("code", { textContent: "Inspector.start(features: [WatchesFeature(watches)])" })),
        h("li", {}, "or try it with the demo: ", h("code", { textContent: "keyscope serve --demo" }))),
      h("p", { className: "muted" }, "How: ", h("code", { textContent: "docs/preferences.md" }), "."),
    ] });
    this.statusBody = h("tbody");
    this.ruleBody = h("tbody");
    this.violationBody = h("tbody");
    const table = (headers, body, label) => h("div", { className: "watch-table-wrap" },
      h("table", { className: "table watch-table", attrs: { "aria-label": label } },
        h("thead", {}, h("tr", {}, ...headers.map((text) => h("th", { textContent: text })))), body));
    const card = (title, testid, count, content, none) => h("section", { className: "watch-card", attrs: { "data-testid": testid } },
      h("h3", { className: "prefs-group-head watch-card-head" }, h("span", { className: "watch-card-title", textContent: title }), count), content, none);
    this.statusCount = h("span", { className: "prefs-group-count" });
    this.ruleCount = h("span", { className: "prefs-group-count" });
    this.violationCount = h("span", { className: "prefs-group-count" });
    this.noStatuses = h("p", { className: "prefs-none muted", textContent: "No watched statuses." });
    this.noRules = h("p", { className: "prefs-none muted", textContent: "No watch rules." });
    this.noViolations = h("p", { className: "prefs-none muted", textContent: "No violations so far: every change kept the rules." });
    this.cards = h("div", { className: "watch-cards" },
      card("Statuses", "watches-statuses", this.statusCount, table(["name", "key", "now vs stored", "state", "last checked", "history"], this.statusBody, "Watched statuses"), this.noStatuses),
      card("Rules", "watches-rules", this.ruleCount, table(["rule", "store · path", "expects", "current", "state", "violations"], this.ruleBody, "Watch rules"), this.noRules),
      card("Recent violations", "watches-violations", this.violationCount, table(["change", "time", "rule", "store · path", "value", "message"], this.violationBody, "Recent violations"), this.noViolations));
    this.element = h("section", { className: "panel panel-watches", id: "panel-watches", attrs: { role: "tabpanel", "data-testid": "watches-panel" } },
      h("div", { className: "toolbar" }, this.summary, h("span", { className: "toolbar-spacer" }), this.updated, this.refresh),
      h("div", { className: "prefs-body" }, ...this.status.elements, this.cards));
  }

  /** @param {any} latest */
  render(latest) {
    const model = latest.watches;
    const now = latest.now ?? Date.now();
    // Ages ("4 s ago") move every second even when nothing else does.
    if (model === this.model && now - this.drawnAt < 1000) return;
    this.model = model;
    this.drawnAt = now;
    this.draw(model, now);
  }

  /**
   * @param {any} model the worker's section (WatchesModel.build), undefined before the first
   * @param {number} now milliseconds
   */
  draw(model, now) {
    const status = model?.status ?? "loading";
    const ready = status === "ready" || (status === "error" && model.statuses.length + model.rules.length > 0);
    this.status.draw(status, model?.message ?? "", "Loading the watches…");
    setProp(this.cards, "hidden", !ready);
    setProp(this.refresh, "hidden", absent(status));
    setProp(this.refresh, "disabled", this.refreshing);
    setText(this.summary, ready ? model.summary : "");
    setText(this.updated, ready && model.fetchedAt ? `updated ${formatClock(new Date(model.fetchedAt).toISOString())}` : "");
    if (!ready) return;
    setText(this.statusCount, String(model.statuses.length));
    setText(this.ruleCount, model.counts.violated ? `${model.rules.length} · ${model.counts.violated} violated` : String(model.rules.length));
    setText(this.violationCount, String(model.violations.length));
    for (const [none, items] of [[this.noStatuses, model.statuses], [this.noRules, model.rules], [this.noViolations, model.violations]]) {
      setProp(none, "hidden", items.length > 0);
      setProp(none.previousElementSibling, "hidden", items.length === 0); // the table
    }
    this.placeStatuses(model.statuses, now);
    placeKeyed(this.ruleBody, this.ruleViews, model.rules, (r) => r.id, () => this.ruleRow());
    placeKeyed(this.violationBody, this.violationViews, model.violations, (v) => v.key, () => this.violationRow());
  }

  placeStatuses(statuses, now) {
    const present = new Set(statuses.map((s) => s.name));
    for (const name of this.statusViews.keys()) if (!present.has(name)) this.statusViews.delete(name);
    const children = [];
    for (const status of statuses) {
      let view = this.statusViews.get(status.name);
      if (!view) this.statusViews.set(status.name, view = new WatchStatusRow(status));
      view.update(status, now);
      children.push(view.element, view.historyRow);
    }
    placeChildren(this.statusBody, children);
  }

  /** A rule's row, made once and updated in place. */
  ruleRow() {
    const id = h("code", { className: "watch-rule-id" });
    const label = h("span", { className: "watch-rule-label muted" });
    const where = h("code", { className: "watch-where" });
    const expects = h("span", { className: "mono watch-expects" });
    const current = h("span", { className: "value", attrs: { "data-testid": "watch-rule-current" } });
    const badge = h("span", { className: "flag", attrs: { "data-testid": "watch-rule-state" } });
    const count = h("span", { className: "mono", attrs: { "data-testid": "watch-rule-violations" } });
    const element = h("tr", { className: "watch-rule", attrs: { "data-testid": "watch-rule" } },
      h("td", {}, h("div", { className: "watch-rule-name" }, id, label)),
      h("td", {}, where), h("td", {}, expects), h("td", {}, current), h("td", {}, badge), h("td", { className: "num" }, count));
    const update = (rule) => {
      setAttr(element, "data-id", rule.id);
      setAttr(element, "data-ok", String(rule.ok));
      setProp(element, "className", `watch-rule${rule.ok ? "" : " watch-violated"}`);
      setText(id, rule.id);
      setText(label, rule.label);
      setProp(label, "hidden", rule.label === "");
      setText(where, `${rule.store} · ${rule.path || "(root)"}`);
      setProp(where, "title", `${rule.store}, path ${rule.path || "(root)"}`);
      setText(expects, rule.expectation);
      setProp(expects, "title", rule.expectation);
      fillValue(current, rule.current, false);
      setText(badge, rule.ok ? "ok" : "violated");
      setProp(badge, "className", `flag ${rule.ok ? "flag-ok" : "flag-bad"}`);
      setText(count, String(rule.violations));
    };
    return { element, update };
  }

  /** A violation's row: its change's seq links to that entry in the Log. */
  violationRow() {
    const link = h("a", { className: "link-button mono watch-seq", attrs: { "data-testid": "watch-violation-seq" } });
    const none = h("span", { className: "muted", textContent: "—" });
    const seqCell = h("td", {});
    const time = h("span", { className: "muted mono" });
    const rule = h("code", { className: "watch-rule-id" });
    const where = h("code", { className: "watch-where" });
    const value = h("span", { className: "value" });
    const message = h("span", { className: "watch-message" });
    const element = h("tr", { className: "watch-violation", attrs: { "data-testid": "watch-violation" } },
      seqCell, h("td", {}, time), h("td", {}, rule), h("td", {}, where), h("td", {}, value), h("td", { className: "watch-message-cell" }, message));
    let seq = null;
    link.addEventListener("click", (event) => {
      if (seq === null || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      this.app.showEntry(seq);
    });
    const update = (violation) => {
      seq = violation.seq;
      setAttr(element, "data-rule", violation.rule);
      setAttr(element, "data-seq", seq === null ? null : String(seq));
      if (seq === null) {
        if (seqCell.firstChild !== none) seqCell.replaceChildren(none);
      } else {
        if (seqCell.firstChild !== link) seqCell.replaceChildren(link);
        setText(link, `#${seq}`);
        setProp(link, "href", writeViewState({ ...this.app.state, panel: "log", entry: seq, filter: { store: "", path: "", op: "", text: "" } }));
        setProp(link, "title", violation.inLog ? `Show change #${seq} in the log` : `Show change #${seq} in the log (the dashboard's log may no longer hold it)`);
      }
      setText(time, formatClock(violation.time));
      setProp(time, "title", violation.time);
      setText(rule, violation.rule);
      setProp(rule, "title", violation.label || violation.rule);
      setText(where, `${violation.store} · ${violation.path || "(root)"}`);
      fillValue(value, violation.value, false);
      setText(message, violation.message);
      setProp(message, "title", violation.message);
    };
    return { element, update };
  }

  async reread() {
    this.refreshing = true;
    setProp(this.refresh, "disabled", true);
    const answer = await this.app.bridge.ask({ type: FeatureMessage.watches, action: "refresh" });
    this.refreshing = false;
    setProp(this.refresh, "disabled", false);
    if (answer.ok) this.app.toast("Re-read every watched status.", "ok");
    else this.app.toast(`Refresh failed: ${answer.message}`, "error");
  }

  handleKey() {
    return false;
  }

  escape() {
    return false;
  }
}

/**
 * Shows `items` as rows of `body`, one per key, reusing the rows of keys already shown.
 * @template T
 * @param {HTMLElement} body
 * @param {Map<string, {element: HTMLElement, update: (item: T) => void}>} views
 * @param {T[]} items
 * @param {(item: T) => string} keyOf
 * @param {() => {element: HTMLElement, update: (item: T) => void}} create
 */
function placeKeyed(body, views, items, keyOf, create) {
  const present = new Set(items.map(keyOf));
  for (const key of views.keys()) if (!present.has(key)) views.delete(key);
  const children = items.map((item) => {
    const key = keyOf(item);
    let view = views.get(key);
    if (!view) views.set(key, view = create());
    view.update(item);
    return view.element;
  });
  placeChildren(body, children);
}

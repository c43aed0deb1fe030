// The Tunables panel: a service's live-tweakable constants, one row and control each, grouped by the schema's
// group and searchable. Single values go out as `tune` requests through the worker's WebSocket, and so do new keys
// ("Add key") and the removal of keys the defaults lack (marked "new"); reset all and import replace the whole set
// (`POST /tune`, sent by the worker) after a confirmation that lists what changes. On a fleet dashboard the panel
// is the picked instance's (its schema and defaults too), and single edits go to it, another instance or every
// live one (each one's answer under the row); reset all and import replace the picked instance's set.

import { shortStoreName } from "../../lib/format.mjs";
import { FeatureMessage, ToWorker } from "../../lib/messages.mjs";
import { countsText, groupRows } from "../../lib/tunables.mjs";
import { h, icon, placeChildren, saveBlob, setProp, setText } from "./dom.mjs";
import { FleetTarget } from "./fleet-target.mjs";
import { panelStatus } from "./panel-status.mjs";
import { TunablesAdd } from "./tunables-add.mjs";
import { TunablesConfirm } from "./tunables-confirm.mjs";
import { TunableRowView } from "./tunable-row.mjs";

const readOnlyText = "This server is read-only (started with --read-only): it refuses changes to tunables. Restart it without --read-only to tweak them here.";

export class TunablesPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    /** @type {Map<string, TunableRowView>} */
    this.views = new Map();
    /** @type {Map<string, {element: HTMLElement, title: HTMLElement, count: HTMLElement, rows: HTMLElement}>} */
    this.groups = new Map();
    this.model = undefined;
    this.drawnKey = "";
    this.counts = h("span", { className: "tunables-counts", attrs: { "data-testid": "tunables-counts" } });
    this.search = h("input", {
      type: "search", className: "input tunables-search", placeholder: "Search keys, descriptions, groups", spellcheck: false,
      attrs: { "data-testid": "tunables-search", "aria-label": "Search tunables" }, on: { input: () => app.requestFrame() },
    });
    this.storeName = h("span", { className: "tunables-store mono muted" });
    this.target = new FleetTarget({ testid: "tunables-target", label: "Send edits to", onChange: () => { this.drawnKey = ""; app.requestFrame(); } });
    this.resetAll = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-reset-all" }, on: { click: () => this.confirm.ask("defaults") } }, icon("revert"), "Reset all");
    this.exportButton = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-export" }, on: { click: () => this.export() } }, "Export");
    this.file = h("input", { type: "file", accept: ".json,application/json", hidden: true, attrs: { "data-testid": "tunables-import-file" }, on: { change: () => this.importFile() } });
    this.addButton = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-add-open" }, on: { click: () => this.adder.show() } }, icon("plus"), "Add key");
    this.adder = new TunablesAdd({
      send: (key, json) => this.send(key, json), toast: (text, kind) => app.toast(text, kind),
      keys: () => new Set(this.model?.rows.map((r) => r.key) ?? []), closed: () => this.addButton.focus(),
    });
    this.importButton = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-import" }, on: { click: () => this.file.click() } }, "Import…");
    this.confirm = new TunablesConfirm(app);
    this.readOnlyText = h("span", { textContent: readOnlyText });
    this.readOnlyNote = h("div", { className: "readonly-note", hidden: true, attrs: { "data-testid": "tunables-readonly" } }, icon("lock"), this.readOnlyText);
    this.status = panelStatus({ testid: "tunables", className: "tunables", onRetry: () => app.bridge.post({ type: FeatureMessage.tunables, action: "reload" }), empty: [
      h("h2", { textContent: "This service has no tunables" }),
      h("p", { textContent: "Tunables are constants you tweak while the service runs (sizes, colors, timings, switches), kept in a JSON file and checked against an optional schema." }),
      h("ul", { className: "tunables-how" },
        h("li", {}, "Start the inspector with a file of them: ", h("code", { textContent: "keyscope serve --tunables live-constants.json" })),
        h("li", {}, "or, in an embedding service, serve its tunables: ", h("code", { textContent: "Inspector.start(features: [TunablesFeature(tunables)])" }))),
      h("p", { className: "muted" }, "How to write the file and its schema: ", h("code", { textContent: "docs/tunables.md" }), "."),
    ] });
    this.noMatch = h("p", { className: "empty", hidden: true });
    this.list = h("fieldset", { className: "tunables-list" });
    this.element = h("section", { className: "panel panel-tunables", id: "panel-tunables", attrs: { role: "tabpanel", "data-testid": "tunables-panel" } },
      h("div", { className: "toolbar" },
        this.counts, this.search, h("span", { className: "toolbar-spacer" }), this.target.element, this.storeName,
        this.addButton, this.resetAll, this.exportButton, this.importButton, this.file),
      h("div", { className: "tunables-body" }, this.readOnlyNote, this.confirm.element, this.adder.element, ...this.status.elements, this.list, this.noMatch));
  }

  /** @param {any} latest */
  render(latest) {
    const model = latest.tunables;
    this.target.render(latest.fleet);
    const readOnly = this.target.readOnly(this.app.readOnly());
    setText(this.readOnlyText, this.target.readOnlyText(readOnlyText, "to tweak the others"));
    const key = `${this.search.value}\u0000${readOnly}`;
    if (model !== this.model || key !== this.drawnKey) {
      this.model = model;
      this.drawnKey = key;
      this.draw(model, readOnly);
    }
    for (const view of this.views.values()) view.tick();
  }

  draw(model, readOnly) {
    const status = model?.status ?? "loading";
    const rows = model?.rows ?? [];
    const ready = status === "ready" || (status !== "none" && rows.length > 0);
    setProp(this.readOnlyNote, "hidden", !readOnly || status === "none");
    setProp(this.list, "disabled", readOnly);
    setProp(this.resetAll, "disabled", readOnly || !ready);
    // A closed schema ("additionalKeys": false) refuses new keys: no way to add one is offered.
    setProp(this.addButton, "hidden", !model?.additionalKeys);
    setProp(this.addButton, "disabled", readOnly || !ready);
    setProp(this.addButton, "title", readOnly ? "This server is read-only" : "Add a tunable the defaults do not have");
    if ((readOnly || !model?.additionalKeys) && this.adder.open) this.adder.close();
    setProp(this.importButton, "disabled", readOnly || !ready);
    setProp(this.exportButton, "disabled", !ready);
    setProp(this.search, "hidden", !ready);
    this.status.draw(status, model?.message ?? "", "Loading the tunables…", ready && !model.live
      ? `The store ${model.store} is not in the dashboard's copy of the stores: these values are from when the panel loaded and do not follow changes.`
      : "");
    setText(this.storeName, model?.store ? shortStoreName(model.store) : "");
    setProp(this.storeName, "title", model?.store ? `The tunables' store: ${model.store}` : "");
    const groups = ready ? groupRows(rows, this.search.value) : [];
    const shown = groups.reduce((n, g) => n + g.rows.length, 0);
    setText(this.counts, !ready ? "" : countsText(rows, shown));
    setText(this.noMatch, `No tunable matches “${this.search.value.trim()}”.`);
    setProp(this.noMatch, "hidden", !ready || shown > 0 || rows.length === 0);
    this.placeRows(rows, groups);
  }

  /** Updates, adds and removes rows, keeping the elements of those that stay (a focused field keeps its focus). */
  placeRows(rows, groups) {
    const present = new Set(rows.map((r) => r.key));
    for (const [key, view] of this.views) {
      if (!present.has(key)) {
        view.element.remove();
        this.views.delete(key);
      }
    }
    for (const row of rows) {
      let view = this.views.get(row.key);
      if (view && view.controlKey !== JSON.stringify(row.control)) {
        view.element.remove();
        view = undefined;
      }
      if (view) view.update(row);
      else this.views.set(row.key, new TunableRowView(row, { send: (key, json) => this.send(key, json), remove: (key) => this.remove(key), toast: (text, kind) => this.app.toast(text, kind) }));
    }
    const sections = groups.map((group) => {
      const section = this.group(group.name);
      setText(section.count, String(group.rows.length));
      placeChildren(section.rows, group.rows.map((r) => this.views.get(r.key).element));
      return section.element;
    });
    placeChildren(this.list, sections);
    for (const [name, section] of this.groups) if (!section.element.isConnected) this.groups.delete(name);
  }

  group(name) {
    let section = this.groups.get(name);
    if (!section) {
      const title = h("span", { textContent: name });
      const count = h("span", { className: "tunables-group-count" });
      const rows = h("div", { className: "tunables-rows" });
      const element = h("section", { className: "tunables-group", attrs: { "data-testid": "tunables-group", "data-group": name } },
        h("h3", { className: "tunables-group-title" }, title, count), rows);
      section = { element, title, count, rows };
      this.groups.set(name, section);
    }
    return section;
  }

  /**
   * One `tune` request through the worker's WebSocket (on a fleet dashboard, to the target chosen); resolves with
   * the server's reply (with each instance's answer when sent to all of them).
   */
  send(key, json) {
    return this.app.bridge.ask({ type: ToWorker.send, kind: "tune", key, json, target: this.target.value() });
  }

  /** One `tune` remove request through the worker's WebSocket; resolves with the server's reply. */
  remove(key) {
    return this.app.bridge.ask({ type: ToWorker.send, kind: "untune", key, target: this.target.value() });
  }

  async export() {
    const { text } = await this.app.bridge.ask({ type: FeatureMessage.tunables, action: "export" });
    if (text === null) return;
    saveBlob(new Blob([text], { type: "application/json" }), "live-constants.json");
    this.app.toast(`Exported ${this.model?.rows.length ?? 0} tunables as live-constants.json`, "ok");
  }

  async importFile() {
    const file = this.file.files?.[0];
    this.file.value = ""; // the same file can be picked again
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (error) {
      this.app.toast(`Cannot read ${file.name}: ${error.message}`, "error");
      return;
    }
    this.confirm.ask("import", text, file.name);
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
    if (this.adder.open) {
      this.adder.close();
      return true;
    }
    if (this.confirm.open) {
      this.confirm.close();
      return true;
    }
    if (this.search.value) {
      this.search.value = "";
      this.app.requestFrame();
      return true;
    }
    return false;
  }
}

// Live subscriptions: store, key path, label, since, deliveries and deliveries per second. Paths many subscribers
// watch, and subscriptions to paths that do not exist in the store, stand out.

import { formatCount } from "../../lib/format.mjs";
import { hotThreshold } from "../../lib/subscriptions.mjs";
import { formatAge, parseTime } from "../../lib/time.mjs";
import { h, setText } from "./dom.mjs";

/** Rows drawn at most (the panel is a plain table; thousands of subscriptions are rare). */
const rowLimit = 2000;

export class SubscriptionsPanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    this.summary = h("span", { className: "subs-summary" });
    this.body = h("tbody");
    this.element = h("section", { className: "panel panel-subscriptions", id: "panel-subscriptions", attrs: { role: "tabpanel" } },
      h("div", { className: "toolbar" }, this.summary, h("span", { className: "toolbar-spacer" }),
        h("span", { className: "legend" },
          h("span", { className: "flag flag-hot", textContent: "hot" }), h("span", { className: "muted", textContent: `${hotThreshold}+ subscribers on one path` }),
          h("span", { className: "flag flag-missing", textContent: "missing" }), h("span", { className: "muted", textContent: "path not in the store" }))),
      h("div", { className: "table-wrap" },
        h("table", { className: "table subs-table" },
          h("thead", {}, h("tr", {}, ...["id", "store", "key path", "label", "since", "deliveries", "per second", ""].map((label, i) => h("th", { className: i === 5 || i === 6 ? "num" : "", textContent: label })))),
          this.body)));
    this.rows = [];
    this.lastRender = 0;
  }

  /** @param {any} latest */
  render(latest) {
    const rows = latest.subscriptions;
    // While time travelling, ages count from the selected event's recorded time.
    const now = latest.replay?.active ? latest.replay.timeMs : latest.now ?? Date.now();
    // Ages tick every second even when the list does not change.
    if (rows === this.rows && Math.abs(now - this.lastRender) < 1000) return;
    this.rows = rows ?? [];
    this.lastRender = now;
    const hot = new Set(this.rows.filter((r) => r.hot).map((r) => `${r.store}\u0000${r.path}`)).size;
    const missing = this.rows.filter((r) => r.missing).length;
    setText(this.summary, `${formatCount(this.rows.length)} subscription${this.rows.length === 1 ? "" : "s"} · ${hot} hot path${hot === 1 ? "" : "s"} · ${missing} to missing paths`);
    if (this.rows.length === 0) {
      const none = latest.replay?.active ? "No subscriptions at this point of the recording (or none were recorded)." : "No live subscriptions.";
      this.body.replaceChildren(h("tr", {}, h("td", { colSpan: 8, className: "empty", textContent: none })));
      return;
    }
    this.body.replaceChildren(...this.rows.slice(0, rowLimit).map((row) => this.row(row, now)));
    if (this.rows.length > rowLimit) this.body.append(h("tr", {}, h("td", { colSpan: 8, className: "muted", textContent: `…${formatCount(this.rows.length - rowLimit)} more not shown` })));
  }

  row(row, now) {
    const since = parseTime(row.since);
    const flags = h("td", { className: "flags" },
      row.hot ? h("span", { className: "flag flag-hot", title: `${row.watchers} subscriptions watch this path`, textContent: `hot ×${row.watchers}` }) : null,
      row.missing ? h("span", { className: "flag flag-missing", title: "Nothing is at this path in the store now", textContent: "missing" }) : null);
    return h("tr", {
      className: `${row.hot ? "row-hot" : ""} ${row.missing ? "row-missing" : ""}`,
      attrs: { "data-testid": "subscription-row", "data-store": row.store, "data-path": row.path, "data-hot": String(row.hot), "data-missing": String(row.missing) },
    },
    h("td", { className: "mono muted", textContent: String(row.id) }),
    h("td", { className: "mono", textContent: row.store }),
    h("td", {}, h("button", { type: "button", className: "link-button mono", title: "Show in the tree", textContent: row.path || "(root)", on: { click: () => this.app.showInTree(row.store, row.path) } })),
    h("td", { textContent: row.label ?? "—", className: row.label ? "" : "muted" }),
    h("td", { className: "muted", title: row.since, textContent: Number.isNaN(since) ? row.since : `${formatAge(since, now)} ago` }),
    h("td", { className: "num mono", textContent: formatCount(row.deliveries) }),
    h("td", { className: "num mono", title: "From the last two lists the server sent", textContent: row.rate === null ? "—" : row.rate < 10 ? row.rate.toFixed(1) : formatCount(row.rate) }),
    flags);
  }

  handleKey() {
    return false;
  }

  escape() {
    return false;
  }
}

// The selected log entry in full: its transaction, every patch with old → new (a structural diff for objects and
// arrays), the raw JSON as the server sent it, and actions (revert, rewind the stores to it, key history, show in
// tree; while time travelling, travel to it). On a fleet dashboard's merged log it names the entry's instance, and
// its actions go to that instance (show in tree and history open it first).

import { ToWorker } from "../../lib/messages.mjs";
import { splitStoreId } from "../../lib/protocol.mjs";
import { h, icon } from "./dom.mjs";
import { RewindConfirm } from "./rewind-confirm.mjs";
import { valueElement } from "./value-view.mjs";

const changeSigns = { added: "+", removed: "−", changed: "~" };

export class LogDetail {
  /** @param {{app: any, onClose: () => void}} options */
  constructor({ app, onClose }) {
    this.app = app;
    this.onClose = onClose;
    this.element = h("aside", { className: "log-detail", hidden: true, attrs: { "data-testid": "log-detail", "aria-label": "Selected change" } });
    this.rewind = new RewindConfirm(app);
  }

  /** @param {any} detail the worker's detail section, null to close */
  render(detail) {
    this.element.hidden = !detail;
    if (!detail || detail.seq !== this.rewind.seq) this.rewind.close();
    if (!detail) return;
    const { app } = this;
    const replaying = Boolean(app.latest.replay?.active);
    const [scope, storage] = splitStoreId(detail.store);
    const head = h("div", { className: "detail-head" },
      h("span", { className: "detail-title" },
        h("span", { className: "mono", textContent: detail.kind === "gap" ? "gap" : `#${detail.seq}` }),
        h("span", { className: `op op-${detail.kind === "event" ? "event" : detail.op}`, textContent: detail.op })),
      h("button", { type: "button", className: "icon-button", title: "Close (Esc)", attrs: { "aria-label": "Close" }, on: { click: this.onClose } }, icon("close")));
    const facts = h("dl", { className: "facts" },
      ...(detail.instance ? fact("instance", detail.instance) : []),
      ...fact("store", detail.store ? `${scope} / ${storage}` : "—"),
      ...fact("time", detail.fullTime),
      ...(detail.txn ? fact("txn", detail.txn) : []),
      ...(detail.version ? fact("version", detail.version) : []));
    const actions = h("div", { className: "detail-actions" });
    if (detail.kind === "change") {
      const revert = h("button", { type: "button", className: "button", attrs: { "data-testid": "detail-revert" }, on: { click: () => app.revert(detail.seq, detail.instance) } }, icon("revert"), "Revert");
      revert.disabled = !detail.revertable;
      revert.title = detail.revertable ? "Apply the inverse of this change as a new change"
        : app.readOnly() ? "The server is read-only" : detail.epochOld ? "This change came from an earlier server process" : "";
      actions.append(revert);
    }
    // Rewinding needs the whole log of one server: not on a merged log.
    if (detail.kind !== "gap" && !replaying && !app.readOnly() && !detail.epochOld && !detail.merged) {
      actions.append(h("button", {
        type: "button", className: "button", title: "Undo every change after this one in the live stores (asks first)",
        attrs: { "data-testid": "detail-rewind" }, on: { click: () => this.rewind.ask(detail.seq) },
      }, icon("history"), "Rewind stores to here"));
    }
    if (detail.instance) {
      actions.append(h("button", {
        type: "button", className: "button", title: `Show ${detail.instance} alone: its stores, log and panels`,
        attrs: { "data-testid": "detail-instance" }, on: { click: () => app.pickInstance(detail.instance) },
      }, `Open ${detail.instance}`));
    }
    if (detail.kind !== "gap" && replaying) {
      actions.append(h("button", {
        type: "button", className: "button", title: "Move the replay to this change",
        attrs: { "data-testid": "detail-travel" }, on: { click: () => app.bridge.post({ type: ToWorker.replay, action: "seek", seq: detail.seq }) },
      }, icon("play"), `Travel to #${detail.seq}`));
    }
    const patches = h("div", { className: "patches" }, ...detail.patches.map((patch) => this.patch(detail, patch)));
    if (detail.kind === "gap") patches.append(h("p", { className: "muted", textContent: `The server did not send changes ${detail.from}…${detail.to} (the dashboard was too far behind); it sent a snapshot instead.` }));
    const raw = h("details", { className: "raw" }, h("summary", { textContent: "Raw JSON" }), h("pre", { className: "raw-json", textContent: detail.raw }));
    this.element.replaceChildren(head, facts, actions, this.rewind.element, patches, raw);
  }

  patch(detail, patch) {
    const { app } = this;
    const header = h("div", { className: "patch-head" },
      h("span", { className: `op op-${patch.op}`, textContent: patch.op }),
      h("button", {
        type: "button", className: "link-button mono patch-path", title: detail.instance ? `Show in ${detail.instance}'s tree` : "Show in the tree", textContent: patch.path || "(root)",
        on: { click: () => app.showInTree(detail.store, patch.path, detail.instance) },
      }),
      h("button", { type: "button", className: "icon-button", title: "Who changed this?", attrs: { "aria-label": "History of this path" }, on: { click: () => app.showHistory(detail.store, patch.path, detail.instance) } }, icon("history")));
    const body = patch.diff
      ? h("div", { className: "diff", attrs: { "data-testid": "diff" } },
        ...patch.diff.rows.map((row) => h("div", { className: `diff-row diff-${row.change}` },
          h("span", { className: "diff-sign", textContent: changeSigns[row.change] }),
          h("span", { className: "diff-path mono", textContent: row.path || "(value)" }),
          h("span", { className: "diff-values" },
            row.change !== "added" ? valueElement(row.old) : null,
            row.change === "changed" ? h("span", { className: "arrow", textContent: "→" }) : null,
            row.change !== "removed" ? valueElement(row.new) : null))),
        patch.diff.rows.length === 0 ? h("div", { className: "muted", textContent: "Same value written again." }) : null,
        patch.diff.truncated ? h("div", { className: "muted", textContent: "…more differences not shown" }) : null)
      : h("div", { className: "patch-values" },
        h("span", { className: "pv-label", textContent: "old" }), valueElement(patch.old),
        h("span", { className: "pv-label", textContent: "new" }), valueElement(patch.new));
    return h("div", { className: "patch", attrs: { "data-testid": "patch" } }, header, body);
  }
}

function fact(label, value) {
  return [h("dt", { textContent: label }), h("dd", { className: "mono", textContent: value })];
}

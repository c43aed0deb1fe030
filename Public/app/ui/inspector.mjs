// The inspector beside the tree: the selected value in full, its path (copyable), its type and size, and the last
// writes that touched it, with one click to the full history ("who changed this?").

import { formatCount } from "../../lib/format.mjs";
import { h, icon, setProp, setText } from "./dom.mjs";
import { valueElement } from "./value-view.mjs";

const typeNames = { integer: "integer", number: "number", string: "string", bool: "boolean", null: "null", color: "color", url: "URL", array: "array", object: "object" };

export class Inspector {
  /**
   * @param {{app: any, onClose: () => void, onHistory: () => void, onEdit: () => void}} options
   */
  constructor({ app, onClose, onHistory, onEdit }) {
    this.app = app;
    this.path = h("code", { className: "insp-path", attrs: { "data-testid": "inspector-path" } });
    this.meta = h("div", { className: "insp-meta" });
    this.body = h("div", { className: "insp-body" });
    this.recent = h("ol", { className: "insp-recent" });
    this.editButton = h("button", { type: "button", className: "button", on: { click: onEdit }, attrs: { "data-testid": "inspector-edit" } }, icon("edit"), "Edit");
    this.element = h("aside", { className: "inspector", hidden: true, attrs: { "data-testid": "inspector", "aria-label": "Selected value" } },
      h("div", { className: "insp-head" },
        this.path,
        h("button", { type: "button", className: "icon-button", title: "Copy key path", attrs: { "aria-label": "Copy key path" }, on: { click: () => app.copyPath(this.current?.path ?? "") } }, icon("copy")),
        h("button", { type: "button", className: "icon-button", title: "Close (Esc)", attrs: { "aria-label": "Close" }, on: { click: onClose } }, icon("close"))),
      this.meta,
      h("div", { className: "insp-actions" },
        this.editButton,
        h("button", { type: "button", className: "button", on: { click: onHistory }, attrs: { "data-testid": "who-changed" } }, icon("history"), "Who changed this?"),
        h("button", { type: "button", className: "button", on: { click: () => app.copyValue(this.current) } }, icon("copy"), "Copy value")),
      this.body,
      h("div", { className: "insp-section-title", textContent: "Recent writes" }),
      this.recent);
    this.current = null;
    this.key = "";
  }

  /**
   * @param {any} inspector the worker's inspector section (null when nothing is selected)
   * @param {any} recent the worker's history section for the selected path
   */
  render(inspector, recent) {
    setProp(this.element, "hidden", !inspector);
    if (!inspector) return;
    this.current = inspector;
    setProp(this.editButton, "disabled", this.app.readOnly() || !inspector.exists);
    setText(this.path, inspector.path);
    const key = `${inspector.store}|${inspector.path}|${inspector.exists}|${inspector.pretty}|${inspector.text}`;
    if (key !== this.key) {
      this.key = key;
      if (!inspector.exists) {
        setText(this.meta, "");
        this.body.replaceChildren(h("p", { className: "muted", textContent: "Nothing is at this path now (it was removed, or never existed)." }));
      } else {
        const size = inspector.size >= 0 ? ` · ${formatCount(inspector.size)} ${inspector.type === "array" ? "elements" : "keys"}` : "";
        setText(this.meta, `${typeNames[inspector.type] ?? inspector.type}${size}`);
        this.body.replaceChildren(inspector.size >= 0
          ? h("pre", { className: "insp-json", textContent: inspector.pretty })
          : h("div", { className: "insp-scalar" }, valueElement(inspector)));
      }
      this.element.animate?.([{ opacity: 0.6 }, { opacity: 1 }], { duration: 120 });
    }
    this.renderRecent(recent);
  }

  renderRecent(recent) {
    const rows = recent?.rows ?? [];
    const key = rows.map((r) => r.n).join(",") + (recent?.count ?? 0);
    if (key === this.recentKey) return;
    this.recentKey = key;
    if (rows.length === 0) {
      this.recent.replaceChildren(h("li", { className: "muted", textContent: "No writes in the dashboard's log yet." }));
      return;
    }
    this.recent.replaceChildren(...rows.map((row) => h("li", { className: "insp-write", title: row.fullTime },
      h("span", { className: "mono muted", textContent: row.time }),
      row.kind === "event"
        ? h("span", { className: "op op-event", textContent: row.op })
        : h("span", { className: `op op-${row.op}`, textContent: row.op }),
      row.kind === "event" ? h("span", { className: "muted", textContent: `store v${row.version}` }) : h("span", { className: "insp-change" }, valueElement(row.known ? row.before : { type: "absent", text: "?" }, { linkURLs: false }), h("span", { className: "arrow", textContent: "→" }), valueElement(row.after, { linkURLs: false })),
    )));
    if (recent.count > rows.length) {
      this.recent.append(h("li", { className: "muted", textContent: `…and ${formatCount(recent.count - rows.length)} earlier` }));
    }
  }
}

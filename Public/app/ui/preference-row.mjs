// One preference in the Preferences panel: key, value (a redacted secret as its placeholder with a badge), type,
// when it last changed, and, while editing is allowed, a switch (booleans), Edit (an editor of its type in place)
// and Delete (after a confirmation in the row). The server's refusal appears under the row as `code: message`
// and the row goes back to the value the server has.

import { readPreferenceEdit } from "../../lib/preference-input.mjs";
import { redactionLabel, timestampText } from "../../lib/preferences.mjs";
import { h, icon, setAttr, setProp, setText } from "./dom.mjs";
import { PreferenceEditor } from "./preference-editor.mjs";

/** How long a saved value is shown before the re-fetched panel confirms it, at most. */
const pendingMs = 3000;

export class PreferenceRowView {
  /**
   * @param {import("../../lib/preferences.mjs").PreferenceRow} row
   * @param {{send: (action: "set"|"delete", row: any, json?: string) => Promise<{ok: boolean, seq: number|null,
   *   error: {code: string, message: string}|null}>, toast: (text: string, kind: string) => void}} actions
   */
  constructor(row, actions) {
    this.actions = actions;
    this.id = row.id;
    this.editable = false;
    /** @type {PreferenceEditor|null} */
    this.editor = null;
    this.confirming = false;
    this.busy = false;
    /** A saved value shown until the panel has it: {json, text, until}. */
    this.pending = null;
    this.key = h("code", { className: "pref-key", textContent: row.key, title: row.key });
    this.systemBadge = h("span", { className: "badge pref-system", textContent: "system", title: "A system key (Apple*, NS*, com.apple.*, keyscope.*)", hidden: true });
    this.value = h("span", { className: "value pref-value", attrs: { "data-testid": "preference-value" }, on: { dblclick: () => this.startEdit() } });
    this.redacted = h("span", { className: "badge pref-redacted", attrs: { "data-testid": "preference-redacted" }, hidden: true }, icon("lock"), h("span"));
    this.toggle = h("input", {
      type: "checkbox", className: "toggle", hidden: true,
      attrs: { role: "switch", "data-testid": "preference-input", "aria-label": `${row.key}` },
      on: { change: () => this.save(readPreferenceEdit("bool", String(this.toggle.checked))) },
    });
    this.display = h("div", { className: "pref-display" }, this.toggle, this.value, this.redacted);
    this.valueCell = h("div", { className: "pref-value-cell" }, this.display);
    this.type = h("span", { className: "pref-type mono", attrs: { "data-testid": "preference-type" } });
    this.time = h("span", { className: "pref-time", attrs: { "data-testid": "preference-time" } });
    this.editButton = h("button", {
      type: "button", className: "icon-button pref-action", title: "Edit", attrs: { "data-testid": "preference-edit", "aria-label": `Edit ${row.key}` },
      on: { click: () => this.startEdit() },
    }, icon("edit"));
    this.deleteButton = h("button", {
      type: "button", className: "icon-button pref-action pref-delete", title: "Delete", attrs: { "data-testid": "preference-delete", "aria-label": `Delete ${row.key}` },
      on: { click: () => this.askDelete() },
    }, icon("trash"));
    this.confirmDelete = h("button", { type: "button", className: "button button-danger", attrs: { "data-testid": "preference-delete-confirm" }, on: { click: () => this.delete() } }, "Delete");
    this.cancelDelete = h("button", { type: "button", className: "button", attrs: { "data-testid": "preference-delete-cancel" }, on: { click: () => this.closeConfirm(true) } }, "Keep");
    this.confirmText = h("span", { className: "pref-confirm-text" });
    this.confirm = h("div", { className: "pref-confirm", hidden: true, attrs: { "data-testid": "preference-confirm", role: "group", "aria-label": "Confirm the delete" },
      on: { keydown: (event) => { if (event.key === "Escape") { event.stopPropagation(); this.closeConfirm(true); } } } },
    this.confirmText, this.confirmDelete, this.cancelDelete);
    this.buttons = h("div", { className: "pref-buttons" }, this.editButton, this.deleteButton);
    this.error = h("p", { className: "pref-error", hidden: true, attrs: { "data-testid": "preference-error", role: "alert" } });
    this.element = h("div", { className: "pref-row", attrs: { "data-testid": "preference-row", "data-id": row.id } },
      h("div", { className: "pref-name" }, this.key, this.systemBadge),
      this.valueCell, this.type, this.time,
      h("div", { className: "pref-actions" }, this.buttons),
      this.confirm, this.error);
    this.update(row, false, Date.now());
  }

  /**
   * Shows the preference's latest row.
   * @param {import("../../lib/preferences.mjs").PreferenceRow} row
   * @param {boolean} editable editing is on and the server is not read-only
   * @param {number} now
   */
  update(row, editable, now) {
    this.row = row;
    const e = this.element;
    for (const [name, value] of [["data-key", row.key], ["data-source", row.source], ["data-container", row.container],
      ["data-type", row.type], ["data-redacted", String(row.redacted)], ["data-system", String(row.system)]]) setAttr(e, name, value);
    setProp(this.systemBadge, "hidden", !row.system);
    setText(this.type, row.type);
    setText(this.time, timestampText(row.timestamp, now));
    setProp(this.time, "title", row.timestamp ? `Last changed ${row.timestamp}` : "");
    if (this.pending && (this.pending.json === row.json || now > this.pending.until)) this.pending = null;
    if (!editable && this.editor) this.closeEditor(false);
    if (!editable && this.confirming) this.closeConfirm(false);
    this.editable = editable;
    this.showValue();
  }

  /** The value (or the switch of a boolean) as the server has it, or a saved value on its way. */
  showValue() {
    const { row } = this;
    const toggle = row.editor === "toggle" && this.editable;
    setProp(this.toggle, "hidden", !toggle);
    if (toggle && !this.busy) setProp(this.toggle, "checked", this.pending ? this.pending.json === "true" : row.checked === true);
    setProp(this.redacted, "hidden", !row.redacted);
    setText(this.redacted.lastChild, redactionLabel(row));
    setProp(this.redacted, "title", row.redacted ? "The secret's value is not sent to the dashboard (reveal is off); the length is in bytes." : "");
    const text = this.pending ? this.pending.text : row.value.text;
    setText(this.value, text);
    setProp(this.value, "className", `value pref-value v-${row.value.type}${this.pending ? " pref-pending" : ""}`);
    setProp(this.value, "title", row.redacted ? "redacted" : text.length > 300 ? `${text.slice(0, 300)}…` : text);
    setProp(this.buttons, "hidden", !this.editable || this.confirming);
    setProp(this.editButton, "hidden", row.editor === "toggle" || this.editor !== null);
  }

  startEdit() {
    if (!this.editable || this.editor || this.row.editor === "toggle") return;
    this.closeConfirm(false);
    this.clearError();
    this.editor = new PreferenceEditor(this.row, { save: () => this.save(this.editor.read()), cancel: () => this.closeEditor(true) });
    this.valueCell.replaceChildren(this.editor.element);
    this.element.classList.add("pref-row-editing");
    this.showValue();
    this.editor.focus();
  }

  /** @param {boolean} focus put the focus back on the Edit button (after Esc or Cancel) */
  closeEditor(focus) {
    if (!this.editor) return;
    this.editor = null;
    this.valueCell.replaceChildren(this.display);
    this.element.classList.remove("pref-row-editing");
    this.showValue();
    if (focus && !this.editButton.hidden) this.editButton.focus();
  }

  /**
   * Sends a value read from the editor or the switch. A text that is not of the type is refused here, before
   * anything is sent.
   * @param {import("../../lib/preference-input.mjs").EditInput} read
   */
  async save(read) {
    if (this.busy) return;
    if (!read.ok) {
      // The editor's check line already says what is wrong (a switch always reads).
      if (this.editor) this.editor.invalid();
      else this.showError(read.message);
      return;
    }
    if (read.json === this.row.json && !this.row.redacted) {
      this.clearError();
      this.closeEditor(true);
      return;
    }
    this.setBusy(true);
    const reply = await this.actions.send("set", this.row, read.json);
    this.setBusy(false);
    if (reply.ok) {
      this.clearError();
      if (!this.row.redacted) this.pending = { json: read.json, text: read.text, until: Date.now() + pendingMs };
      this.closeEditor(true);
      return;
    }
    // Refused: the row goes back to the value the server has, and says why.
    this.pending = null;
    this.closeEditor(true);
    this.showValue();
    this.showError(`${reply.error.code}: ${reply.error.message}`, true);
  }

  askDelete() {
    if (!this.editable) return;
    this.closeEditor(false);
    this.confirming = true;
    setText(this.confirmText, `Delete ${this.row.key} from ${this.row.container}?`);
    setProp(this.confirm, "hidden", false);
    this.showValue();
    this.cancelDelete.focus();
  }

  /** @param {boolean} focus */
  closeConfirm(focus) {
    if (!this.confirming) return;
    this.confirming = false;
    setProp(this.confirm, "hidden", true);
    this.showValue();
    if (focus) this.deleteButton.focus();
  }

  async delete() {
    if (this.busy) return;
    this.setBusy(true);
    const reply = await this.actions.send("delete", this.row);
    this.setBusy(false);
    this.closeConfirm(false);
    if (reply.ok) {
      this.clearError();
      this.element.classList.add("pref-row-deleted");
      return;
    }
    this.showError(`${reply.error.code}: ${reply.error.message}`, true);
  }

  setBusy(busy) {
    this.busy = busy;
    this.editor?.setBusy(busy);
    setProp(this.toggle, "disabled", busy);
    setProp(this.confirmDelete, "disabled", busy);
    this.element.classList.toggle("pref-row-busy", busy);
  }

  /**
   * @param {string} message
   * @param {boolean} [fromServer] also as a toast
   */
  showError(message, fromServer = false) {
    setText(this.error, message);
    setProp(this.error, "hidden", false);
    if (fromServer) this.actions.toast(`${this.row.key}: ${message}`, "error");
  }

  clearError() {
    setProp(this.error, "hidden", true);
  }
}

// The in-place editor of one preference, in its stored type: a text field for strings, integers and numbers; a
// masked field for a redacted secret (it starts empty: the page never has the secret); a date and time picker for
// dates (sent as ISO 8601 in UTC); base64 text for data; JSON text for arrays and objects. What the text becomes
// is checked as it is typed, and the line under the field says what will be sent or what is wrong.

import { dateFromInput, dateInputValue, readPreferenceEdit } from "../../lib/preference-input.mjs";
import { h, setProp, setText } from "./dom.mjs";

/** Characters of the value shown in the "sends" line at most. */
const previewLimit = 120;

export class PreferenceEditor {
  /**
   * @param {import("../../lib/preferences.mjs").PreferenceRow} row
   * @param {{save: () => void, cancel: () => void}} actions
   */
  constructor(row, { save, cancel }) {
    this.row = row;
    this.kind = row.editor;
    const label = `New value of ${row.key}`;
    const keydown = (event) => {
      const multiline = this.input.tagName === "TEXTAREA";
      if (event.key === "Enter" && (!multiline || event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        save();
      } else if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        cancel();
      }
    };
    const common = { spellcheck: false, autocomplete: "off", attrs: { "data-testid": "preference-input", "aria-label": label }, on: { keydown, input: () => this.check() } };
    if (this.kind === "json" || this.kind === "data") {
      const lines = row.edit.split("\n").length;
      this.input = h("textarea", { className: "input mono pref-textarea", rows: Math.min(10, Math.max(2, lines)), value: row.edit, ...common });
    } else if (this.kind === "date" && dateInputValue(row.edit) !== "") {
      this.input = h("input", { type: "datetime-local", step: "0.001", className: "input mono pref-date", value: dateInputValue(row.edit), ...common });
    } else {
      const numeric = this.kind === "integer" || this.kind === "number";
      this.input = h("input", {
        type: this.kind === "secret" ? "password" : "text", className: `input pref-field${numeric || this.kind === "date" ? " mono" : ""}`,
        value: row.edit, inputMode: numeric ? (this.kind === "integer" ? "numeric" : "decimal") : undefined,
        placeholder: this.kind === "secret" ? "new value (the current one is never shown)" : this.kind === "date" ? "2026-11-21T10:00:00Z" : "",
        ...common,
      });
      if (this.kind === "secret") this.input.autocomplete = "new-password";
    }
    this.checkLine = h("p", { className: "check pref-check", attrs: { "data-testid": "preference-check", role: "status" } });
    this.saveButton = h("button", { type: "button", className: "button button-primary pref-save", attrs: { "data-testid": "preference-save" }, on: { click: () => save() } }, "Save");
    this.cancelButton = h("button", { type: "button", className: "button pref-cancel", attrs: { "data-testid": "preference-cancel" }, on: { click: () => cancel() } }, "Cancel");
    const hint = this.input.tagName === "TEXTAREA" ? "Ctrl+Enter saves, Esc cancels" : "Enter saves, Esc cancels";
    this.element = h("div", { className: "pref-editor", attrs: { "data-testid": "preference-editor", "data-kind": this.kind } },
      h("div", { className: "pref-editor-main" }, this.input, this.saveButton, this.cancelButton),
      h("div", { className: "pref-editor-foot" }, this.checkLine, h("span", { className: "pref-editor-hint", textContent: hint })));
    this.check();
  }

  /**
   * What the field's text becomes in the preference's type.
   * @returns {import("../../lib/preference-input.mjs").EditInput}
   */
  read() {
    if (this.input.type === "datetime-local") {
      if (this.input.value === "") return { ok: false, message: "Pick a date and a time" };
      const iso = dateFromInput(this.input.value);
      return iso === null ? { ok: false, message: "Pick a date and a time" } : readPreferenceEdit("date", iso);
    }
    // A redacted secret is a string or data like any other; its type says which.
    if (this.kind === "secret" && this.input.value === "") return { ok: false, message: "Type the new value" };
    return readPreferenceEdit(this.row.type, this.input.value);
  }

  /** Checks the text as it is typed: what would be sent, or what is wrong. */
  check() {
    const read = this.read();
    let text;
    if (!read.ok) text = read.message;
    else if (this.kind === "secret") text = `sends a new ${this.row.type} of ${new TextEncoder().encode(this.input.value).length} bytes`;
    else text = `sends ${read.json.length > previewLimit ? `${read.json.slice(0, previewLimit)}…` : read.json}`;
    setText(this.checkLine, text);
    const blank = this.kind === "secret" && this.input.value === "";
    setProp(this.checkLine, "className", `check pref-check ${read.ok ? "check-ok" : blank ? "check-blank" : "check-bad"}`);
    this.input.setAttribute("aria-invalid", String(!read.ok));
    return read;
  }

  /** Save was asked for with text that is not of the type: the check line says why; the field keeps the focus. */
  invalid() {
    this.check();
    this.checkLine.classList.replace("check-blank", "check-bad");
    this.checkLine.classList.remove("pref-shake");
    void this.checkLine.offsetWidth; // restart the animation
    this.checkLine.classList.add("pref-shake");
    this.input.focus();
  }

  /** @param {boolean} busy a save is on its way */
  setBusy(busy) {
    setProp(this.saveButton, "disabled", busy);
    setProp(this.input, "readOnly", busy);
  }

  focus() {
    this.input.focus();
    if (typeof this.input.select === "function" && this.input.type !== "datetime-local") this.input.select();
  }
}

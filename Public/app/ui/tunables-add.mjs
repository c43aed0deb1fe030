// The Tunables panel's "Add key" form: a new tunable's key and value, sent as one `tune` request (the tunables are
// an open JSON object, so the server creates the key). Hidden when the schema is closed ("additionalKeys": false).

import { readNewValue } from "../../lib/tunable-input.mjs";
import { newKeyProblem } from "../../lib/tunables.mjs";
import { h, setProp, setText } from "./dom.mjs";

export class TunablesAdd {
  /**
   * @param {{send: (key: string, json: string) => Promise<any>, toast: (text: string, kind: string) => void,
   *   keys: () => Set<string>, closed: () => void}} actions   `keys`: the tunables there are now; `closed`: the form was
   *   closed (the panel gives the focus back)
   */
  constructor(actions) {
    this.actions = actions;
    this.key = h("input", {
      type: "text", className: "input mono", placeholder: "new_key", spellcheck: false, autocomplete: "off",
      attrs: { "data-testid": "tunables-add-key", "aria-label": "New tunable's key" },
      on: { keydown: (event) => this.keydown(event), input: () => this.clearError() },
    });
    this.value = h("input", {
      type: "text", className: "input mono tunables-add-value", placeholder: "64, 1.5, true, \"text\" or plain text", spellcheck: false, autocomplete: "off",
      attrs: { "data-testid": "tunables-add-value", "aria-label": "New tunable's value" },
      on: { keydown: (event) => this.keydown(event), input: () => this.clearError() },
    });
    this.submit = h("button", { type: "submit", className: "button button-primary", attrs: { "data-testid": "tunables-add-submit" } }, "Add");
    this.cancel = h("button", { type: "button", className: "button", attrs: { "data-testid": "tunables-add-cancel" }, on: { click: () => this.close() } }, "Cancel");
    this.error = h("p", { className: "tunable-error", hidden: true, attrs: { "data-testid": "tunables-add-error", role: "alert" } });
    this.element = h("form", {
      className: "tunables-add", hidden: true, attrs: { "data-testid": "tunables-add", "aria-label": "Add a tunable" },
      on: { submit: (event) => { event.preventDefault(); this.add(); } },
    },
    h("h3", { className: "tunables-add-title", textContent: "Add a tunable" }),
    h("div", { className: "tunables-add-fields" },
      h("label", { className: "tunables-add-field" }, h("span", { textContent: "Key" }), this.key),
      h("label", { className: "tunables-add-field tunables-add-field-value" }, h("span", { textContent: "Value" }), this.value),
      this.submit, this.cancel),
    h("p", { className: "tunables-add-hint muted" },
      "The service gets it at once and saves it to its file; bring it into your code with ", h("code", { textContent: "keyscope tune pull" }), "."),
    this.error);
  }

  get open() { return !this.element.hidden; }

  show() {
    setProp(this.element, "hidden", false);
    this.key.focus();
  }

  close() {
    if (!this.open) return;
    setProp(this.element, "hidden", true);
    this.key.value = "";
    this.value.value = "";
    this.clearError();
    this.actions.closed();
  }

  keydown(event) {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      this.close();
    }
  }

  async add() {
    const key = this.key.value;
    const problem = newKeyProblem(key, this.actions.keys());
    if (problem) return this.showError(problem, this.key);
    const read = readNewValue(this.value.value);
    if (!read.ok) return this.showError(read.message, this.value);
    setProp(this.submit, "disabled", true);
    const reply = await this.actions.send(key, read.json);
    setProp(this.submit, "disabled", false);
    if (!reply.ok) return this.showError(`${reply.error.code}: ${reply.error.message}`, this.key);
    this.actions.toast(reply.seq === null ? `Added ${key}.` : `Added ${key} (change #${reply.seq}).`, "ok");
    this.close();
  }

  showError(message, field) {
    setText(this.error, message);
    setProp(this.error, "hidden", false);
    field.focus();
  }

  clearError() {
    setProp(this.error, "hidden", true);
  }
}

// One tunable in the Tunables panel: key, description, its control, a modified marker and reset, and the server's
// refusal next to the control. Controls follow the live value, except while the user holds them (a slider being
// dragged, a field with typed text) and while a value just sent is on its way back from the server. A value sent to
// every instance of a fleet lists each instance's answer under the row.

import { pickedColor, readControlInput, sliderInput, stepInput } from "../../lib/tunable-input.mjs";
import { h, icon, setAttr, setProp, setText } from "./dom.mjs";
import { answersElement } from "./fleet-answers.mjs";

/** How long a sent value wins over live values that differ (its change is still on its way), at most. */
const pendingMs = 2000;

export class TunableRowView {
  /**
   * @param {import("../../lib/tunables.mjs").TunableRow} row
   * @param {{send: (key: string, json: string) => Promise<any>, remove: (key: string) => Promise<any>,
   *   toast: (text: string, kind: string) => void}} actions
   */
  constructor(row, actions) {
    this.actions = actions;
    this.key = row.key;
    this.controlKey = JSON.stringify(row.control);
    this.control = row.control;
    /** @type {{json: string, until: number}|null} */
    this.pending = null;
    this.requests = 0;
    this.dragging = false;
    /** The text the field was last given; typed text differs from it. */
    this.shown = "";
    /** Slider and picker moves waiting for the next frame (at most one `tune` per frame). */
    this.queued = null;
    this.frame = 0;
    this.lastQueuedSent = null;
    this.description = h("p", { className: "tunable-description" });
    this.allowed = h("span", { className: "tunable-allowed" });
    this.marker = h("span", { className: "tunable-modified", textContent: "modified", hidden: true });
    this.newMarker = h("span", {
      className: "tunable-new", textContent: "new", hidden: true,
      title: "Not in the bundled defaults: added while the service runs. Pull it into your code, or remove it.",
      attrs: { "data-testid": "tunable-new" },
    });
    this.removeButton = h("button", { type: "button", className: "button tunable-remove", attrs: { "data-testid": "tunable-remove" }, hidden: true, on: { click: () => this.remove() } }, icon("trash"), "Remove");
    this.reset = h("button", { type: "button", className: "button tunable-reset", attrs: { "data-testid": "tunable-reset" }, hidden: true, on: { click: () => this.resetToDefault() } }, "Reset");
    this.error = h("p", { className: "tunable-error", hidden: true, attrs: { "data-testid": "tunable-error", role: "alert" } });
    this.answers = h("div", { className: "tunable-answers", hidden: true, attrs: { role: "status" } });
    this.element = h("div", { className: "tunable-row", attrs: { "data-testid": "tunable-row", "data-key": row.key, "data-kind": row.control.kind, "data-type": row.control.type } },
      h("div", { className: "tunable-label" },
        h("div", { className: "tunable-name" }, h("code", { className: "tunable-key", textContent: row.key, title: row.key }), this.newMarker, this.marker),
        this.description),
      h("div", { className: "tunable-input" }, ...this.buildControl(row.control), this.allowed),
      h("div", { className: "tunable-actions" }, this.reset, this.removeButton),
      this.error, this.answers);
    this.update(row);
  }

  /** The control's elements; `this.main` is the one with the `tunable-control` test id. */
  buildControl(control) {
    const testid = { "data-testid": "tunable-control", "aria-label": this.key };
    if (control.kind === "toggle") {
      this.main = h("input", { type: "checkbox", className: "toggle", attrs: { ...testid, role: "switch" }, on: { change: () => this.sendInput(readControlInput(control, String(this.main.checked))) } });
      return [this.main];
    }
    if (control.kind === "select") {
      this.main = h("select", { className: "select", attrs: testid, on: { change: () => this.choose() } },
        ...control.options.map((option, i) => h("option", { value: String(i), textContent: option.label })));
      return [this.main];
    }
    const numeric = control.kind === "slider" || control.kind === "stepper" || control.kind === "number";
    this.field = h("input", {
      type: "text", className: `input mono tunable-field tunable-field-${control.kind}`, spellcheck: false, autocomplete: "off",
      inputMode: numeric ? (control.type === "integer" ? "numeric" : "decimal") : undefined, placeholder: "not set",
      attrs: testid, on: { keydown: (event) => this.fieldKey(event), blur: () => this.commit() },
    });
    this.main = this.field;
    const parts = [];
    if (control.kind === "slider") {
      this.slider = h("input", {
        type: "range", className: "tunable-slider", min: String(control.min), max: String(control.max), step: String(control.step),
        attrs: { "data-testid": "tunable-slider", "aria-label": `${this.key} slider` },
        on: {
          pointerdown: () => {
            this.dragging = true;
            // A click that does not move the thumb fires no change event; the drag still ends.
            window.addEventListener("pointerup", () => { if (this.dragging) this.release(); }, { once: true });
          },
          input: () => this.queue(sliderInput(control, this.slider.value)),
          change: () => this.release(),
          blur: () => { if (this.dragging) this.release(); },
        },
      });
      parts.push(this.slider);
    }
    if (control.kind === "color") {
      this.picker = h("input", {
        type: "color", className: "color-picker", attrs: { "data-testid": "tunable-color", "aria-label": `${this.key} color` },
        on: { input: () => this.queue(pickedColor(this.picker.value, this.row.value.text)), change: () => this.release() },
      });
      parts.push(this.picker);
    }
    if (control.type === "integer") {
      const button = (direction, label) => h("button", {
        type: "button", className: "button stepper-button", title: direction < 0 ? "One step down" : "One step up",
        attrs: { "aria-label": `${this.key} ${direction < 0 ? "down" : "up"}`, "data-testid": direction < 0 ? "tunable-down" : "tunable-up" },
        on: { click: () => this.sendInput(stepInput(control, this.field.value, this.row.value.number, direction)) },
      }, label);
      parts.push(h("span", { className: "stepper" }, button(-1, "−"), this.field, button(1, "+")));
    } else {
      parts.push(this.field);
    }
    return parts;
  }

  /**
   * Takes the tunable's latest row (from the worker) and shows it.
   * @param {import("../../lib/tunables.mjs").TunableRow} row
   */
  update(row) {
    this.row = row;
    setAttr(this.element, "data-modified", String(row.modified));
    setAttr(this.element, "data-new", String(row.isNew));
    setProp(this.newMarker, "hidden", !row.isNew);
    setProp(this.removeButton, "hidden", !row.isNew || !row.removable);
    setProp(this.removeButton, "title", `Remove ${row.key} from the tunables (one change in the log, revertible)`);
    setText(this.description, row.description);
    setProp(this.description, "hidden", row.description === "");
    setText(this.allowed, row.allowed);
    setProp(this.marker, "hidden", !row.modified);
    setProp(this.reset, "hidden", !row.modified);
    setProp(this.reset, "title", row.defaultValue ? `Back to the default, ${row.defaultValue.text}` : "");
    this.sync();
  }

  /** The user is editing this control: typed text not applied yet, or a slider held. */
  holding() {
    return this.dragging || (this.field !== undefined && this.field.value !== this.shown);
  }

  /** Shows the live value in the control, unless the user holds it or a sent value is still on its way. */
  sync() {
    const live = this.row.value;
    if (this.pending) {
      if (live.json === this.pending.json || performance.now() > this.pending.until) this.pending = null;
      else return;
    }
    if (this.holding()) return;
    this.show(live);
  }

  /** Called every frame the panel draws: a sent value that never came back stops winning after a while. */
  tick() {
    if (this.pending && performance.now() > this.pending.until) this.sync();
  }

  /** @param {import("../../lib/tunables.mjs").ValueShown} value */
  show(value) {
    if (this.field) {
      setProp(this.field, "value", value.text);
      this.shown = value.text;
    }
    if (this.slider && value.number !== undefined && !this.dragging) setProp(this.slider, "value", String(value.number));
    if (this.picker && value.picker) setProp(this.picker, "value", value.picker);
    if (this.control.kind === "toggle") setProp(this.main, "checked", value.checked === true);
    if (this.control.kind === "select") {
      // A value outside the options (an older file, a schema changed since) is shown as it is, not as option 0.
      let extra = this.main.querySelector("option[data-current]");
      if (value.selected === undefined || value.selected < 0) {
        if (!extra) this.main.append(extra = h("option", { disabled: true, dataset: { current: "" } }));
        setText(extra, value.present ? `${value.text} (not an option)` : "not set");
        extra.value = "current";
        setProp(this.main, "value", "current");
      } else {
        extra?.remove();
        setProp(this.main, "value", String(value.selected));
      }
    }
  }

  fieldKey(event) {
    if (event.key === "Enter") {
      event.preventDefault();
      this.commit();
    } else if (event.key === "Escape") {
      // Back to the live value; the page's Esc handler then leaves the field (and the blur has nothing to apply).
      this.shown = this.field.value;
      this.pending = null;
      this.clearError();
      this.show(this.row.value);
    }
  }

  /** Applies typed text (Enter, or leaving the field). */
  commit() {
    if (!this.field || this.field.value === this.shown) return;
    const read = readControlInput(this.control, this.field.value);
    if (!read.ok) {
      this.showError(read.message, false);
      return;
    }
    this.sendInput(read);
  }

  choose() {
    const option = this.control.options[Number(this.main.value)];
    if (option) this.sendInput({ ok: true, json: option.json, text: option.label });
  }

  /** Takes a new tunable out again (a `tune` remove); the row goes when the change comes back. */
  async remove() {
    const reply = await this.actions.remove(this.key);
    if (reply.ok) {
      this.clearError();
      this.actions.toast(reply.seq === null ? `${this.key} was already gone.` : `Removed ${this.key} (change #${reply.seq}).`, "ok");
    } else {
      this.showError(`${reply.error.code}: ${reply.error.message}`, true);
    }
  }

  resetToDefault() {
    const fallback = this.row.defaultValue;
    if (fallback) this.sendInput({ ok: true, json: fallback.json, text: fallback.text });
  }

  /** Slider and picker moves: the control shows each at once; the server gets the latest once per frame. */
  queue(read) {
    if (!read.ok) return;
    if (this.field) {
      this.field.value = read.text;
      this.shown = read.text;
    }
    this.queued = read;
    if (!this.frame) this.frame = requestAnimationFrame(() => this.flushQueued());
  }

  flushQueued() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const read = this.queued;
    this.queued = null;
    if (read && read.json !== this.lastQueuedSent) {
      this.lastQueuedSent = read.json;
      this.sendInput(read);
    }
  }

  /** The slider or picker was let go: its last value is always sent. */
  release() {
    this.flushQueued();
    this.dragging = false;
    this.lastQueuedSent = null;
    this.sync();
  }

  /**
   * Sends a value read from the control; a refusal is shown next to it (and as a toast), and the control snaps
   * back to the live value.
   * @param {import("../../lib/tunable-input.mjs").ControlInput} read
   */
  async sendInput(read) {
    if (!read.ok) return this.showError(read.message, false);
    if (this.field) {
      this.field.value = read.text;
      this.shown = read.text;
    }
    if (read.json === this.row.value.json && !this.pending) return this.clearError();
    this.pending = { json: read.json, until: performance.now() + pendingMs };
    const request = ++this.requests;
    const reply = await this.actions.send(this.key, read.json);
    if (request !== this.requests) return; // a later value was sent since; its reply decides
    this.showAnswers(reply.instances);
    if (reply.instances) {
      // Each instance's answer is listed; the control follows the instance shown.
      this.clearError();
      if (!reply.ok) this.pending = null;
      return;
    }
    if (reply.ok) return this.clearError();
    this.pending = null;
    this.showError(`${reply.error.code}: ${reply.error.message}`, true);
    if (!this.dragging) this.show(this.row.value);
  }

  /**
   * Lists each instance's answer to a value sent to all of them (nothing for a single answer).
   * @param {import("../../lib/fleet.mjs").InstanceAnswer[]|null|undefined} instances
   */
  showAnswers(instances) {
    setProp(this.answers, "hidden", !instances);
    this.answers.replaceChildren(...(instances ? [answersElement(instances, { testid: "tunable-answers" })] : []));
  }

  showError(message, fromServer) {
    const changed = this.error.hidden || this.error.textContent !== message;
    setText(this.error, message);
    setProp(this.error, "hidden", false);
    // The server's messages usually name the key already.
    if (fromServer && changed) this.actions.toast(message.includes(this.key) ? message : `${this.key}: ${message}`, "error");
  }

  clearError() {
    setProp(this.error, "hidden", true);
  }

  focus() {
    this.main.focus();
  }
}

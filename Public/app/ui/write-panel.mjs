// Manual test writes: one op (set, insert, remove, merge) with a value checked against the StoreValue rules as it is typed,
// or several ops staged into a transaction that applies all or nothing. The server's refusal, when it comes, is
// shown as it said it. Everything is disabled, with the reason, on a read-only server. On a fleet dashboard a
// request goes to the instance shown, another one, or every live one, and each instance's answer is listed.

import { ToWorker } from "../../lib/messages.mjs";
import { readValueInput, valueModes } from "../../lib/value-input.mjs";
import { h, icon, setProp, setText, syncOptions } from "./dom.mjs";
import { answersElement } from "./fleet-answers.mjs";
import { FleetTarget } from "./fleet-target.mjs";
import { PathInput } from "./path-input.mjs";

const opHints = {
  set: "Sets the value; missing parent objects are created. An index equal to the array's length appends.",
  insert: "Inserts into an array at the index the path ends with; later elements shift up.",
  remove: "Removes the key or the array element. Removing what is not there changes nothing.",
  merge: "Sets each key of the object on the object at the path (not recursive).",
};
/** Requests kept in the "Results" list. */
const resultLimit = 12;
const readOnlyText = "This server is read-only (started with --read-only): it refuses writes, transactions and reverts. Restart it without --read-only to test writes here.";
const modeLabels = { json: "JSON value", string: "string", integer: "integer", number: "number", bool: "boolean", null: "null", color: "color", url: "URL" };

export class WritePanel {
  /** @param {any} app */
  constructor(app) {
    this.app = app;
    /** @type {{store: string, op: string, path: string, json: string}[]} */
    this.staged = [];
    this.target = new FleetTarget({ testid: "write-target", label: "Send to", onChange: () => this.render(this.app.latest) });
    this.store = h("select", { className: "select", attrs: { "data-testid": "write-store", "aria-label": "Store" }, on: { change: () => this.refresh() } });
    this.path = new PathInput({ app, store: () => this.store.value, testId: "write-path", placeholder: "cart.total", onInput: () => this.refresh() });
    this.op = h("select", { className: "select", attrs: { "data-testid": "write-op", "aria-label": "Operation" }, on: { change: () => this.refresh() } },
      ...Object.keys(opHints).map((op) => h("option", { value: op, textContent: op })));
    this.opHint = h("p", { className: "hint" });
    this.mode = h("select", { className: "select", attrs: { "data-testid": "write-type", "aria-label": "Value type" }, on: { change: () => this.refresh() } },
      ...valueModes.map((mode) => h("option", { value: mode, textContent: modeLabels[mode] })));
    this.value = h("textarea", { className: "input mono value-editor", rows: 6, spellcheck: false, placeholder: '42   4.2   "text"   {"$color": "#FF8800"}', attrs: { "data-testid": "write-value", "aria-label": "Value" }, on: { input: () => this.refresh() } });
    this.colorPicker = h("input", { type: "color", className: "color-picker", hidden: true, attrs: { "aria-label": "Pick a color" }, on: { input: () => { this.value.value = this.colorPicker.value.toUpperCase(); this.refresh(); } } });
    this.check = h("p", { className: "check", attrs: { "data-testid": "write-check" } });
    this.current = h("p", { className: "hint current", attrs: { "data-testid": "write-current" } });
    this.submit = h("button", { type: "submit", className: "button button-primary", attrs: { "data-testid": "write-submit" } }, "Apply");
    this.add = h("button", { type: "button", className: "button", attrs: { "data-testid": "write-add" }, on: { click: () => this.stage() } }, icon("plus"), "Add to transaction");
    this.error = h("div", { className: "write-error", hidden: true, attrs: { "data-testid": "write-error", role: "alert" } });
    this.result = h("div", { className: "write-result", hidden: true, attrs: { "data-testid": "write-result", role: "status" } });
    this.readOnlyText = h("span", { textContent: readOnlyText });
    this.readOnlyNote = h("div", { className: "readonly-note", hidden: true, attrs: { "data-testid": "write-readonly" } }, icon("lock"), this.readOnlyText);
    this.fieldset = h("fieldset", { className: "write-fields" },
      field("Store", this.store),
      field("Key path", this.path.element),
      field("Operation", this.op, this.opHint),
      this.valueField = field("Value", h("div", { className: "value-row" }, this.mode, this.colorPicker), this.value, this.check),
      this.current,
      h("div", { className: "actions" }, this.submit, this.add),
      this.error,
      this.result);
    const form = h("form", { className: "card write-form", attrs: { "data-testid": "write-form" }, on: { submit: (event) => { event.preventDefault(); this.apply(); } } },
      h("h2", { textContent: "Write" }), this.target.element, this.readOnlyNote, this.fieldset);
    this.txnList = h("ol", { className: "txn-ops", attrs: { "data-testid": "txn-ops" } });
    this.txnTitle = h("h2", {});
    this.txnSubmit = h("button", { type: "button", className: "button button-primary", attrs: { "data-testid": "txn-submit" }, on: { click: () => this.applyTransaction() } }, "Apply transaction");
    this.txnClear = h("button", { type: "button", className: "button", attrs: { "data-testid": "txn-clear" }, on: { click: () => { this.staged = []; this.renderStaged(); } } }, "Clear");
    this.txnError = h("div", { className: "write-error", hidden: true, attrs: { "data-testid": "txn-error", role: "alert" } });
    this.txnResult = h("div", { className: "write-result", hidden: true, attrs: { "data-testid": "txn-result", role: "status" } });
    const txn = h("section", { className: "card txn" }, this.txnTitle,
      h("p", { className: "hint", textContent: "Ops staged here apply together or not at all: one change, one txn." }),
      this.txnList, h("div", { className: "actions" }, this.txnSubmit, this.txnClear), this.txnError, this.txnResult);
    const help = h("section", { className: "card help" }, h("h2", { textContent: "Values" }),
      h("dl", { className: "cheats" },
        ...cheat("3", "integer"), ...cheat("3.0", "number (always a fraction or exponent)"),
        ...cheat('{"$number": "nan"}', "nan, inf, -inf"), ...cheat('{"$color": "#FF8800"}', "color, #RRGGBB or #RRGGBBAA"),
        ...cheat('{"$url": "https://…"}', "absolute URL"), ...cheat('{"$$beta": true}', "the key $beta inside objects"),
        ...cheat('prefs["com.app.theme"]', "a key with dots, in a path")));
    this.resultList = h("ol", { className: "results", attrs: { "data-testid": "write-history" } });
    const results = h("section", { className: "card" }, h("h2", { textContent: "Results" }),
      h("p", { className: "hint", textContent: "Writes, transactions, reverts and edits sent from this page, newest first." }), this.resultList);
    /** @type {Array<{time: string, what: string, reply: any}>} */
    this.results = [];
    this.element = h("section", { className: "panel panel-write", id: "panel-write", attrs: { role: "tabpanel" } },
      h("div", { className: "write-layout" }, form, h("div", { className: "write-side" }, txn, results, help)));
    this.storesKey = "";
    this.renderStaged();
    this.renderResults();
    this.refresh();
  }

  /**
   * Fills the form (from the tree's edit, or a link).
   * @param {{store?: string, path?: string, op?: string, mode?: string, text?: string}} values
   */
  fill({ store, path, op, mode, text }) {
    if (store) this.wantedStore = store;
    if (store && [...this.store.options].some((o) => o.value === store)) this.store.value = store;
    if (path !== undefined) this.path.setValue(path);
    if (op) this.op.value = op;
    if (mode) this.mode.value = mode;
    if (text !== undefined) this.value.value = text;
    this.refresh();
    this.value.focus();
  }

  /** Checks the value as it is typed and shows what would be sent, or why it cannot be. */
  refresh() {
    const op = this.op.value;
    setText(this.opHint, opHints[op]);
    this.valueField.hidden = op === "remove";
    this.colorPicker.hidden = this.mode.value !== "color";
    this.value.disabled = this.mode.value === "null";
    this.parsed = op === "remove" ? { ok: true, json: "" } : readValueInput(this.mode.value, this.value.value);
    if (op === "merge" && this.parsed.ok && !this.parsed.json.startsWith("{")) this.parsed = { ok: false, message: "merge needs an object" };
    const blank = this.mode.value !== "null" && this.mode.value !== "string" && this.value.value.trim() === "";
    this.check.className = `check ${this.parsed.ok ? "check-ok" : blank ? "check-blank" : "check-bad"}`;
    setText(this.check, op === "remove" ? "" : this.parsed.ok ? `Sends ${short(this.parsed.json)}` : this.parsed.message);
    if (this.parsed.ok && this.mode.value === "color" && /^#[0-9A-Fa-f]{6}/.test(this.value.value.trim())) this.colorPicker.value = this.value.value.trim().slice(0, 7).toLowerCase();
    this.showCurrent();
  }

  async showCurrent() {
    const store = this.store.value;
    const path = this.path.value().trim();
    const key = `${store}\u0000${path}`;
    if (key === this.currentKey) return;
    this.currentKey = key;
    // All instances merged keep no state: there is no one current value.
    const merged = this.app.latest.fleet?.mode === "all";
    const answer = path && !merged ? await this.app.bridge.ask({ type: ToWorker.value, store, path }) : null;
    if (this.currentKey !== key) return;
    setText(this.current, merged && path ? "Each instance has its own value here: pick one in the instance picker to see it."
      : !answer ? "" : answer.exists ? `Now: ${short(answer.text)} (${answer.mode === "json" ? "container" : answer.mode})` : "Nothing is at this path now.");
  }

  currentOp() {
    const op = this.op.value;
    return { op, path: this.path.value().trim(), ...(op === "remove" ? {} : { json: this.parsed.json }) };
  }

  /** Sends the single op. */
  async apply() {
    if (!this.parsed.ok) return this.show(this.error, this.result, this.parsed.message);
    const store = this.store.value;
    const op = this.currentOp();
    this.submit.disabled = true;
    const reply = await this.app.send({ kind: "write", store, op, target: this.target.value() });
    this.submit.disabled = false;
    this.report(reply, this.error, this.result, `${op.op} ${op.path || "(root)"}`);
  }

  stage() {
    if (!this.parsed.ok) return this.show(this.error, this.result, this.parsed.message);
    if (this.staged.length && this.staged[0].store !== this.store.value) {
      return this.show(this.error, this.result, `A transaction is for one store: the staged ops are for ${this.staged[0].store}.`);
    }
    this.staged.push({ store: this.store.value, ...this.currentOp() });
    this.error.hidden = true;
    this.renderStaged();
  }

  async applyTransaction() {
    if (this.staged.length === 0) return;
    this.txnSubmit.disabled = true;
    const reply = await this.app.send({ kind: "transaction", store: this.staged[0].store, ops: this.staged.map(({ op, path, json }) => ({ op, path, json })), target: this.target.value() });
    this.txnSubmit.disabled = false;
    this.report(reply, this.txnError, this.txnResult, `transaction of ${this.staged.length} op${this.staged.length === 1 ? "" : "s"}`);
    if (reply.ok) {
      this.staged = [];
      this.renderStaged();
    }
  }

  /**
   * Shows the server's answer: its error message as it is, or the change it made with a link to the log; every
   * instance's answer for a request to all of them.
   */
  report(reply, errorBox, resultBox, what) {
    if (reply.instances) {
      errorBox.hidden = true;
      resultBox.hidden = false;
      resultBox.classList.toggle("write-result-mixed", !reply.ok);
      resultBox.replaceChildren(`Sent ${what} to every live instance.`, this.answers(reply.instances, "write-answers"));
      return;
    }
    resultBox.classList.remove("write-result-mixed");
    if (!reply.ok) return this.show(errorBox, resultBox, `${reply.error.code}: ${reply.error.message}`);
    errorBox.hidden = true;
    resultBox.hidden = false;
    if (reply.seq === null) {
      resultBox.replaceChildren(`Applied ${what}: nothing changed.`);
      return;
    }
    if (!this.target.toShown()) {
      resultBox.replaceChildren(`Applied ${what} on ${this.target.value()} as its change #${reply.seq}.`);
      return;
    }
    resultBox.replaceChildren(`Applied ${what} as change #${reply.seq}. `,
      h("button", { type: "button", className: "link-button", textContent: "Show in log", on: { click: () => this.app.showEntry(reply.seq) } }));
  }

  /** Each instance's answer; the change on the instance shown links to the log. */
  answers(instances, testid) {
    const fleet = this.app.latest.fleet;
    return answersElement(instances, { testid, shown: fleet?.mode === "instance" ? fleet.picked : "", onShow: (seq) => this.app.showEntry(seq) });
  }

  show(errorBox, resultBox, message) {
    resultBox.hidden = true;
    errorBox.hidden = false;
    errorBox.textContent = message;
  }

  /**
   * Adds a request sent from anywhere on the page (form, tree edit, revert) to the results list.
   * @param {{kind: string, store?: string, op?: any, ops?: any[], seq?: number}} request
   * @param {{ok: boolean, seq: number|null, error: {code: string, message: string}|null}} reply
   */
  record(request, reply) {
    const what = request.kind === "revert" ? `revert #${request.seq}`
      : request.kind === "rewind" ? `rewind the stores to #${request.seq}`
      : request.kind === "transaction" ? `transaction of ${request.ops.length} op${request.ops.length === 1 ? "" : "s"} on ${request.store}`
      : `${request.op.op} ${request.op.path || "(root)"} on ${request.store}`;
    const fleet = this.app.latest.fleet;
    const to = fleet && request.target && request.target !== fleet.picked ? ` → ${request.target === "*" ? "all" : request.target}` : "";
    this.results.unshift({ time: new Date().toLocaleTimeString("en-GB"), what: `${what}${to}`, reply, elsewhere: to !== "" });
    this.results.length = Math.min(this.results.length, resultLimit);
    this.renderResults();
  }

  renderResults() {
    if (this.results.length === 0) {
      this.resultList.replaceChildren(h("li", { className: "muted", textContent: "Nothing sent yet." }));
      return;
    }
    this.resultList.replaceChildren(...this.results.map(({ time, what, reply, elsewhere }) => h("li", { className: `result ${reply.instances ? "result-fleet" : reply.ok ? "result-ok" : "result-error"}` },
      h("span", { className: "mono muted", textContent: time }),
      h("span", { className: "result-what mono", textContent: what }),
      reply.instances
        ? this.answers(reply.instances, "write-history-answers")
        : reply.ok
          ? (reply.seq === null
            ? h("span", { className: "muted", textContent: "no change" })
            : elsewhere
              ? h("span", { className: "mono", textContent: `#${reply.seq}` })
              : h("button", { type: "button", className: "link-button mono", textContent: `#${reply.seq}`, title: "Show in log", on: { click: () => this.app.showEntry(reply.seq) } }))
          : h("span", { className: "result-error-text", title: reply.error.message, textContent: `${reply.error.code}: ${reply.error.message}` }))));
  }

  renderStaged() {
    setText(this.txnTitle, `Transaction${this.staged.length ? ` · ${this.staged.length} op${this.staged.length === 1 ? "" : "s"}` : ""}`);
    this.txnSubmit.disabled = this.staged.length === 0 || this.target.readOnly(this.app.readOnly());
    this.txnClear.disabled = this.staged.length === 0;
    if (this.staged.length === 0) {
      this.txnList.replaceChildren(h("li", { className: "muted", textContent: "No ops staged. Fill in the form and use “Add to transaction”." }));
      return;
    }
    this.txnList.replaceChildren(...this.staged.map((op, i) => h("li", { className: "txn-op" },
      h("span", { className: `op op-${op.op}`, textContent: op.op }),
      h("span", { className: "mono txn-path", textContent: op.path || "(root)" }),
      h("span", { className: "mono muted txn-value", textContent: op.json ? short(op.json) : "" }),
      h("button", { type: "button", className: "icon-button", title: "Remove from the transaction", attrs: { "aria-label": "Remove" }, on: { click: () => { this.staged.splice(i, 1); this.renderStaged(); } } }, icon("close")))));
  }

  /** @param {any} latest */
  render(latest) {
    this.target.render(latest.fleet);
    const stores = latest.stores ?? [];
    const key = stores.map((s) => s.id).join("\n");
    if (key !== this.storesKey) {
      this.storesKey = key;
      const selected = this.wantedStore || this.store.value || latest.store;
      syncOptions(this.store, stores.map((s) => ({ value: s.id, label: s.id })), selected);
      this.refresh();
    }
    // A fleet instance that is read-only refuses what is sent to it; the others may still take it.
    const readOnly = this.target.readOnly(this.app.readOnly());
    setProp(this.fieldset, "disabled", readOnly);
    setProp(this.readOnlyNote, "hidden", !readOnly);
    setText(this.readOnlyText, this.target.readOnlyText(readOnlyText, "to write to the others"));
    setProp(this.txnSubmit, "disabled", this.staged.length === 0 || readOnly);
  }

  focusPath() {
    this.path.focus();
  }

  handleKey() {
    return false;
  }

  escape() {
    return false;
  }
}

function field(label, ...controls) {
  return h("div", { className: "field" }, h("span", { className: "field-label", textContent: label }), ...controls);
}

function cheat(code, meaning) {
  return [h("dt", { className: "mono", textContent: code }), h("dd", { textContent: meaning })];
}

function short(text) {
  const line = text.replace(/\s+/g, " ");
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

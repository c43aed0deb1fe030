// A key-path input that completes from the store's tree (the worker lists the paths the text can continue to),
// through a native datalist.

import { ToWorker } from "../../lib/messages.mjs";
import { h } from "./dom.mjs";

let nextListId = 1;

export class PathInput {
  /**
   * @param {{app: any, store: () => string, testId: string, placeholder: string, onEnter?: () => void,
   *   onInput?: () => void}} options
   */
  constructor({ app, store, testId, placeholder, onEnter, onInput }) {
    const listId = `paths-${nextListId++}`;
    this.datalist = h("datalist", { id: listId });
    this.input = h("input", {
      className: "input mono path-input",
      placeholder,
      spellcheck: false,
      autocomplete: "off",
      attrs: { list: listId, "data-testid": testId, "aria-label": "Key path" },
      on: {
        input: () => {
          this.complete(app, store());
          onInput?.();
        },
        focus: () => this.complete(app, store()),
        keydown: (event) => { if (event.key === "Enter") onEnter?.(); },
      },
    });
    this.element = h("span", { className: "path-field" }, this.input, this.datalist);
    this.asked = "";
  }

  async complete(app, store) {
    const text = this.input.value;
    const key = `${store}\u0000${text}`;
    if (key === this.asked) return;
    this.asked = key;
    const { items } = await app.bridge.ask({ type: ToWorker.complete, store, text });
    if (this.asked !== key) return;
    this.datalist.replaceChildren(...items.map((path) => h("option", { value: path })));
  }

  value() { return this.input.value; }

  /** @param {string} text */
  setValue(text) {
    if (this.input.value !== text) this.input.value = text;
  }

  focused() { return document.activeElement === this.input; }

  focus() {
    this.input.focus();
    this.input.select();
  }
}

// What a panel fetched over HTTP (Tunables, Preferences, Watches) shows besides its content: a status line (loading,
// the fetch's error with "Try again", or a note), the card for a server that has none of what it lists, with
// what the server said.

import { h, setProp, setText } from "./dom.mjs";

/**
 * @param {{testid: string, className: string, onRetry: () => void, empty: Array<Node|string>}} options `testid` and
 *   `className` prefix the elements' (`<testid>-status`, `<className>-empty`…); `empty` is the card's text
 * @returns {{elements: HTMLElement[], draw: (status: string, message: string, loading: string, note?: string) => void}}
 *   `elements`: the status line and the card, for the panel's body; `draw` shows the model's status
 */
export function panelStatus({ testid, className, onRetry, empty }) {
  const text = h("span", {});
  const retry = h("button", { type: "button", className: "link-button", textContent: "Try again", hidden: true, on: { click: onRetry } });
  const line = h("p", { className: `${className}-status`, hidden: true, attrs: { "data-testid": `${testid}-status`, role: "status" } }, text, " ", retry);
  const reason = h("p", { className: `muted ${className}-empty-reason` });
  const card = h("div", { className: `card ${className}-empty`, hidden: true, attrs: { "data-testid": `${testid}-empty` } }, ...empty, reason);
  return {
    elements: [line, card],
    /**
     * @param {string} status the model's: idle, loading, ready, none or error
     * @param {string} message the model's (the error, or why there is none)
     * @param {string} loading the line while loading
     * @param {string} [note] the line otherwise
     */
    draw(status, message, loading, note = "") {
      setProp(card, "hidden", status !== "none");
      setText(reason, status === "none" && message ? `The server said: ${message}` : "");
      const shown = status === "loading" || status === "idle" ? loading : status === "error" ? message : note;
      setText(text, shown);
      setProp(line, "hidden", shown === "");
      setProp(retry, "hidden", status !== "error");
    },
  };
}

/**
 * Whether a panel's model has nothing to show from this server.
 * @param {string} status
 */
export function absent(status) {
  return status === "none";
}

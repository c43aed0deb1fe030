// The types of the messages between the page and its worker, in one place so that both ends (and the tests) name
// them the same way. A feature panel's messages are typed by its name (lib/panels.mjs): the page sends
// `{type: "tunables", action: "export"}` and the worker answers `{type: answerType("tunables"), tag, …}`.

import { featurePanels } from "./panels.mjs";

/** What the page sends the worker. */
export const ToWorker = Object.freeze({
  /** Connect: `{url, token, state}`. */
  start: "start",
  /** The page drew the last update: the next one may go. */
  ack: "ack",
  /** The view changed (panel, selection, scroll windows, filters): `{patch}`. */
  view: "view",
  /** The tree's expansions and keyboard moves: `{action, store, path, …}`. */
  tree: "tree",
  /** The log's pause, clear, selection and keyboard moves: `{action, …}`. */
  log: "log",
  /** A request to the server (`write`, `transaction`, `revert`, `tune`, `untune`, `rewind`): `{kind, …}`. */
  send: "send",
  /** The value at a path, for the write form's editor: `{store, path}`. */
  value: "value",
  /** Key path completions: `{store, text}`. */
  complete: "complete",
  /** Ask the server for a fresh snapshot. */
  resync: "resync",
  /** The server's recordings (Record button, Replay tab): `{action, id}`. */
  recordings: "recordings",
  /** Time travel: `{action, …}`. */
  replay: "replay",
  /** What rewinding to a seq would undo: `{seq}`. */
  rewindPreview: "rewind-preview",
  /** A banner was closed: `{key}`. */
  dismiss: "dismiss",
});

/** What the worker sends the page. */
export const ToPage = Object.freeze({
  /** The sections to draw next (one in flight at a time). */
  update: "update",
  /** The keyboard moved the tree's selection: `{path}`. */
  select: "select",
  /** The server's reply to a `send`: `{tag, ok, seq, error, result}`. */
  reply: "reply",
  /** The answer to `value`. */
  value: "value",
  /** The answer to `complete`: `{tag, items}`. */
  completions: "completions",
  /** The answer to `rewind-preview`. */
  rewindPreview: "rewind-preview",
  /** The answer to a `recordings` message. */
  recordingsAnswer: "recordings-answer",
});

/**
 * The type of the worker's answer to a feature panel's message (`tunables` → `tunables-answer`).
 * @param {string} feature a feature panel's name
 */
export function answerType(feature) {
  return `${feature}-answer`;
}

/** The message type of each feature panel (lib/panels.mjs): its name. */
export const FeatureMessage = Object.freeze(Object.fromEntries(featurePanels.map((name) => [name, name])));

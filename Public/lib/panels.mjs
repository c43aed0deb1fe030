// The dashboard's panels, in tab order (keys 1…9): the one table the page, the worker and the URL agree on.
//
// A panel that shows a feature of the server (tunables, preferences, watches) is a *feature panel*: its worker model
// (app/worker/feature-models.mjs) fills the update section named after it while it is shown, and its page side sends
// the worker messages of that type (`{type: "tunables", action, …}`, answered with `tunables-answer`, see
// messages.mjs). Adding one is an entry here, its page class in app/panel-classes.mjs and its model in
// app/worker/feature-models.mjs; nothing else names it.

/**
 * @typedef {{name: string, label: string, live: boolean, feature: boolean}} PanelSpec   `live`: shows the live
 *   server only (off while time travelling: a replay is read-only); `feature`: a feature panel (see above)
 */

/** @type {readonly PanelSpec[]} */
export const panelSpecs = Object.freeze([
  { name: "stores", label: "Stores", live: false, feature: false },
  { name: "log", label: "Log", live: false, feature: false },
  { name: "history", label: "History", live: false, feature: false },
  { name: "subscriptions", label: "Subscriptions", live: false, feature: false },
  { name: "write", label: "Write", live: true, feature: false },
  { name: "tunables", label: "Tunables", live: true, feature: true },
  { name: "preferences", label: "Preferences", live: true, feature: true },
  { name: "watches", label: "Watches", live: true, feature: true },
  { name: "replay", label: "Replay", live: false, feature: false },
].map((spec) => Object.freeze(spec)));

/** Every panel's name, in tab order. */
export const panels = panelSpecs.map((spec) => spec.name);

/** The panels that show the live server only (hidden while time travelling: a replay is read-only). */
export const livePanels = panelSpecs.filter((spec) => spec.live).map((spec) => spec.name);

/** The feature panels: each one's name is its update section and its message type. */
export const featurePanels = panelSpecs.filter((spec) => spec.feature).map((spec) => spec.name);

/**
 * A panel's tab label.
 * @param {string} name
 */
export function panelLabel(name) {
  return panelSpecs.find((spec) => spec.name === name)?.label ?? name;
}

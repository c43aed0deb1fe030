// The dashboard's panels, in tab order (keys 1…9, then 0): the one table the page, the worker and the URL agree on.
//
// A panel that shows a feature of the server (tunables, preferences, watches) is a *feature panel*: its worker model
// (app/worker/feature-models.mjs) fills the update section named after it while it is shown, and its page side sends
// the worker messages of that type (`{type: "tunables", action, …}`, answered with `tunables-answer`, see
// messages.mjs). Adding one is an entry here, its page class in app/panel-classes.mjs and its model in
// app/worker/feature-models.mjs; nothing else names it.
//
// On a fleet dashboard (`keyscope fleet`, docs/fleet.md) every panel shows the instance picked in the top bar.
// With "All instances" picked, the panels that need one instance's stores are off (`allInstances: false`); the
// `fleetOnly` ones (the Diff) exist on a fleet dashboard only.

/**
 * @typedef {{name: string, label: string, live: boolean, feature: boolean, allInstances: boolean,
 *   fleetOnly: boolean}} PanelSpec   `live`: shows the live server only (off while time travelling: a replay is
 *   read-only); `feature`: a feature panel (see above); `allInstances`: works with every instance of a fleet at
 *   once (the merged log, writes to all); `fleetOnly`: shown on a fleet dashboard only
 */

/** @type {readonly PanelSpec[]} */
export const panelSpecs = Object.freeze([
  { name: "stores", label: "Stores", live: false, feature: false, allInstances: false },
  { name: "log", label: "Log", live: false, feature: false, allInstances: true },
  { name: "history", label: "History", live: false, feature: false, allInstances: false },
  { name: "subscriptions", label: "Subscriptions", live: false, feature: false, allInstances: false },
  { name: "write", label: "Write", live: true, feature: false, allInstances: true },
  { name: "tunables", label: "Tunables", live: true, feature: true, allInstances: false },
  { name: "preferences", label: "Preferences", live: true, feature: true, allInstances: false },
  { name: "watches", label: "Watches", live: true, feature: true, allInstances: false },
  { name: "replay", label: "Replay", live: false, feature: false, allInstances: true },
  { name: "diff", label: "Diff", live: true, feature: true, allInstances: true, fleetOnly: true },
].map((spec) => Object.freeze({ fleetOnly: false, ...spec })));

/** Every panel's name, in tab order. */
export const panels = panelSpecs.map((spec) => spec.name);

/** The panels that show the live server only (hidden while time travelling: a replay is read-only). */
export const livePanels = panelSpecs.filter((spec) => spec.live).map((spec) => spec.name);

/** The feature panels: each one's name is its update section and its message type. */
export const featurePanels = panelSpecs.filter((spec) => spec.feature).map((spec) => spec.name);

/** The panels shown on a fleet dashboard only. */
export const fleetPanels = panelSpecs.filter((spec) => spec.fleetOnly).map((spec) => spec.name);

/** The panels that show one instance of a fleet (off while "All instances" is picked). */
export const oneInstancePanels = panelSpecs.filter((spec) => !spec.allInstances).map((spec) => spec.name);

/**
 * The key that shows the panel at `index` in tab order: 1…9, then 0 for the tenth ("" beyond).
 * @param {number} index
 */
export function panelKey(index) {
  return index < 9 ? String(index + 1) : index === 9 ? "0" : "";
}

/**
 * The panel a key shows, or undefined.
 * @param {string} key
 */
export function panelOfKey(key) {
  if (!/^[0-9]$/.test(key)) return undefined;
  return panels[key === "0" ? 9 : Number(key) - 1];
}

/**
 * A panel's tab label.
 * @param {string} name
 */
export function panelLabel(name) {
  return panelSpecs.find((spec) => spec.name === name)?.label ?? name;
}

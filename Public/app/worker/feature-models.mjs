// The worker models of the feature panels (lib/panels.mjs), by panel name: the one place the worker learns of them.
//
// Each is made with `(session, {origin, token, onChange})` and offers
// - `build()`: its update section while its panel is shown (undefined when the page has it already);
// - `act(message, answer)`: the page's `{type: <name>, action, …}` messages; `answer(data)` sends the page
//   `{type: "<name>-answer", tag, …data}`;
// - optionally `setShown(shown)` (its panel was shown or hidden) and `noteChanges(entries)` (changes arrived).
//
// On a fleet dashboard (docs/fleet.md) the panels show the instance picked, whose own HTTP routes the fleet does
// not carry: `fleetFeatureModels` are the models used there instead.

import { DiffModel } from "./diff-model.mjs";
import { FleetTunablesModel, unavailableModel } from "./fleet-tunables-model.mjs";
import { PreferencesModel } from "./preferences-model.mjs";
import { TunablesModel } from "./tunables-model.mjs";
import { WatchesModel } from "./watches-model.mjs";

/** @type {Readonly<Record<string, new (session: any, options: {origin: string, token: string, onChange: () => void}) => any>>} */
export const featureModels = Object.freeze({
  tunables: TunablesModel,
  preferences: PreferencesModel,
  watches: WatchesModel,
  diff: DiffModel,
});

/** The models on a fleet dashboard, by panel name (the same names as `featureModels`). */
export const fleetFeatureModels = Object.freeze({
  tunables: FleetTunablesModel,
  preferences: unavailableModel("Preferences and secrets are read and edited by each instance's own inspector (GET /api/preferences), which the fleet dashboard does not carry: open the instance's own dashboard for them. Their mirror stores are in the Stores tab."),
  watches: unavailableModel("Watched statuses and rules are served by each instance's own inspector (GET /api/watches), which the fleet dashboard does not carry: open the instance's own dashboard for them."),
  diff: DiffModel,
});

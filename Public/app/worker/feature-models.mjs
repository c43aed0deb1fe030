// The worker models of the feature panels (lib/panels.mjs), by panel name: the one place the worker learns of them.
//
// Each is made with `(session, {origin, token, onChange})` and offers
// - `build()`: its update section while its panel is shown (undefined when the page has it already);
// - `act(message, answer)`: the page's `{type: <name>, action, …}` messages; `answer(data)` sends the page
//   `{type: "<name>-answer", tag, …data}`;
// - optionally `setShown(shown)` (its panel was shown or hidden) and `noteChanges(entries)` (changes arrived).
//
// On a fleet dashboard (docs/fleet.md) the same models show the instance picked: their HTTP requests name it
// (`?instance=ID`, see http.mjs) and the dashboard carries them to it.

import { DiffModel } from "./diff-model.mjs";
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

// The page side of every panel (lib/panels.mjs), by panel name: the one place the page learns of them. Each class is
// made with the page's `app` and offers `element`, `render(latest)`, `handleKey(event)` and `escape()`, and
// optionally `focusFind()` (what "/" focuses in it; without one, "/" goes to the Stores panel's search).

import { DiffPanel } from "./ui/diff-panel.mjs";
import { HistoryPanel } from "./ui/history-panel.mjs";
import { LogPanel } from "./ui/log-panel.mjs";
import { PreferencesPanel } from "./ui/preferences-panel.mjs";
import { ReplayPanel } from "./ui/replay-panel.mjs";
import { StoresPanel } from "./ui/stores-panel.mjs";
import { SubscriptionsPanel } from "./ui/subscriptions-panel.mjs";
import { TunablesPanel } from "./ui/tunables-panel.mjs";
import { WatchesPanel } from "./ui/watches-panel.mjs";
import { WritePanel } from "./ui/write-panel.mjs";

/** @type {Readonly<Record<string, new (app: any) => any>>} */
export const panelClasses = Object.freeze({
  stores: StoresPanel,
  log: LogPanel,
  history: HistoryPanel,
  subscriptions: SubscriptionsPanel,
  write: WritePanel,
  tunables: TunablesPanel,
  preferences: PreferencesPanel,
  watches: WatchesPanel,
  replay: ReplayPanel,
  diff: DiffPanel,
});

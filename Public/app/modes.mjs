// What the page follows of the worker's state besides drawing it: time travel (in and out of a replay, its seq into
// the URL) and what the server turned out to be (a single server, or a fleet dashboard showing one instance or all
// of them), and the tabs either allows.

import { fleetPanels, livePanels, oneInstancePanels } from "../lib/panels.mjs";

/** How long the replay's seq must stay put before it goes into the URL (scrubbing would rewrite it every frame). */
const replayURLDelayMs = 400;

/**
 * Follows the replay's state: into time travel (the live-only tabs off, to the Stores tab when the Replay tab was
 * showing the progress) and out of it, its seq into the URL once it stays put, and a failed load as a toast.
 * @param {any} app the page
 * @param {any} replay the worker's replay section
 */
export function followReplay(app, replay) {
  if (!replay) return;
  const replaying = Boolean(replay.active);
  if (replaying !== app.replaying) {
    app.replaying = replaying;
    updateTabs(app);
    if (replaying && (app.state.panel === "replay" || livePanels.includes(app.state.panel))) {
      app.setState({ panel: app.tabs.usable("stores") ? "stores" : "log" });
    }
  }
  if (replay.status !== app.replayStatus) {
    app.replayStatus = replay.status;
    if (replay.status === "error") {
      // The Replay tab shows the reason; elsewhere (a reload with a recording that is gone), a toast does.
      if (app.state.panel !== "replay") app.toasts.show(replay.message, "error");
      if (app.state.replay) app.setState({ replay: "", seq: 0 });
    }
  }
  // A server recording's place goes into the URL (an uploaded file cannot be found again after a reload).
  if (!replaying || !replay.id || replay.playing) return;
  const wanted = { replay: replay.id, seq: replay.seq };
  const key = `${wanted.replay}\u0000${wanted.seq}`;
  if ((app.state.replay === wanted.replay && app.state.seq === wanted.seq) || key === app.replayURLWanted) return;
  // Frames keep coming while the live server changes: the timer restarts only when the seq moves.
  app.replayURLWanted = key;
  clearTimeout(app.replayURLTimer);
  app.replayURLTimer = setTimeout(() => app.setState(wanted), replayURLDelayMs);
}

/**
 * Follows what the server turned out to be: a single server (no picker, no fleet-only tabs, no instance in the
 * URL) or a fleet dashboard (the instance the worker follows in the URL when it had to move on its own).
 * @param {any} app the page
 * @param {Record<string, any>} latest
 */
export function followFleet(app, latest) {
  const mode = latest.conn?.mode ?? "unknown";
  // Not known: before the hello, while another instance's stream starts, while time travelling.
  if (mode === "unknown") return;
  app.fleetMode = mode;
  const { state } = app;
  if (mode === "single" && (state.instance || state.filter.instance || state.diffA || state.diffB)) {
    app.setState({ instance: "", diffA: "", diffB: "", filter: { ...state.filter, instance: "" } });
  } else if (latest.fleet && latest.fleet.moved !== app.fleetMoved) {
    app.fleetMoved = latest.fleet.moved;
    if (latest.fleet.following !== state.instance) app.setState({ instance: latest.fleet.following });
  }
  updateTabs(app);
}

/**
 * Hides the tabs this server does not have and turns off those that cannot show now: the live-only ones while
 * time travelling, those of one instance while a fleet dashboard shows all of them. A panel turned off gives way.
 */
function updateTabs(app) {
  const mode = app.fleetMode ?? "unknown";
  // All instances: the stream is the merged one and the page is not on its way to one instance (a replay shows a
  // recording's stores).
  const allShown = mode === "all" && !app.state.instance && !app.replaying;
  const key = `${mode}\u0000${allShown}\u0000${app.replaying}`;
  if (key === app.tabsKey) return;
  app.tabsKey = key;
  app.tabs.hide(mode === "all" || mode === "instance" ? [] : fleetPanels);
  const reasons = new Map();
  if (allShown) for (const panel of oneInstancePanels) reasons.set(panel, "shows one instance: pick one in the instance picker (i)");
  if (app.replaying) for (const panel of livePanels) reasons.set(panel, "shows the live server only; exit the replay first");
  app.tabs.disable(reasons);
  if (mode === "single" && fleetPanels.includes(app.state.panel)) app.setState({ panel: "stores" });
  if (allShown && oneInstancePanels.includes(app.state.panel)) app.setState({ panel: "log" });
}

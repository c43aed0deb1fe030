// The dashboard page: starts the worker (which owns the connection and the data), keeps the view state in the
// URL, draws the latest update once per animation frame, and routes the keyboard. The page never parses server
// frames itself, nor recordings: a file chosen or dropped goes to the worker as it is. On a fleet dashboard (the
// first hello names an instance) the top bar's instance picker chooses what every panel shows.

import { ToWorker } from "../lib/messages.mjs";
import { featurePanels, panelOfKey, panels } from "../lib/panels.mjs";
import { readViewState, writeViewState } from "../lib/url-state.mjs";
import { Bridge } from "./bridge.mjs";
import { followFleet, followReplay } from "./modes.mjs";
import { panelClasses } from "./panel-classes.mjs";
import { copyText } from "./ui/dom.mjs";
import { Header } from "./ui/header.mjs";
import { InstancePicker } from "./ui/instance-picker.mjs";
import { Banners, Toasts } from "./ui/notices.mjs";
import { RecordButton } from "./ui/record-button.mjs";
import { ReplayBar } from "./ui/replay-bar.mjs";
import { Tabs } from "./ui/tabs.mjs";

/**
 * Counters (seq, rate, entries kept) are redrawn at most this often: at 50,000 changes per second they change at
 * every frame, and each redraw of text costs a layout.
 */
const counterRefreshMs = 250;

/** The parts of an update that replace what the page holds; each feature panel's section is named after it. */
const sections = [
  "now", "stats", "conn", "problems", "stores", "store", "tree", "inspector", "recent", "log", "detail", "history",
  "subscriptions", "replay", "recordings", "fleet", ...featurePanels,
];

const app = {
  state: readViewState(location.search),
  /** @type {Record<string, any>} */
  latest: {},
  framesRendered: 0,
  firstTreeMarked: false,
  replaying: false,
  replayStatus: "idle",
  replayURLTimer: 0,
  replayURLWanted: "",
  frameRequested: false,
  ackPending: false,
  countersDrawnAt: 0,
  /** What the server turned out to be (modes.mjs): "unknown" until its hello. */
  fleetMode: "unknown",
  /** The worker's count of its own moves to another instance, as last followed. */
  fleetMoved: 0,
  tabsKey: "",

  /**
   * Changes the view: updates the URL (so reload and shared links land here) and tells the worker.
   * @param {Partial<import("../lib/url-state.mjs").ViewState>} patch
   */
  setState(patch) {
    const changed = Object.keys(patch).filter((key) => JSON.stringify(app.state[key]) !== JSON.stringify(patch[key]));
    if (changed.length === 0) return;
    Object.assign(app.state, patch);
    history.replaceState(null, "", writeViewState(app.state) + location.hash);
    const forWorker = {};
    for (const key of changed) forWorker[key] = app.state[key];
    app.bridge.post({ type: ToWorker.view, patch: forWorker });
    if (changed.includes("panel")) showPanel();
    app.requestFrame();
  },

  requestFrame() {
    if (app.frameRequested) return;
    app.frameRequested = true;
    requestAnimationFrame(renderFrame);
  },

  readOnly() {
    return app.latest.conn?.readOnly ?? false;
  },

  /** Sends a write, transaction or revert through the worker; resolves with the server's reply. */
  async send(request) {
    const reply = await app.bridge.ask({ type: ToWorker.send, ...request });
    app.panels.write.record(request, reply);
    return reply;
  },

  /**
   * @param {number} seq
   * @param {string} [instance] the entry's instance, on a fleet dashboard's merged log
   */
  async revert(seq, instance = "") {
    const reply = await app.send({ kind: "revert", seq, target: instance });
    if (reply.ok) app.toasts.show(reply.seq === null ? `Reverting #${seq} changed nothing (the values were equal).` : `Reverted #${seq} as change #${reply.seq}.`, "ok");
    else app.toasts.show(`Revert of #${seq} refused: ${reply.error.message}`, "error");
  },

  toast(text, kind) {
    app.toasts.show(text, kind);
  },

  async copyPath(path) {
    const ok = await copyText(path);
    app.toasts.show(ok ? `Copied ${path || "(root)"}` : "Copying is not allowed here", ok ? "ok" : "error");
  },

  async copyValue(inspector) {
    if (!inspector?.exists) return;
    const ok = await copyText(inspector.size >= 0 ? inspector.pretty : inspector.text);
    app.toasts.show(ok ? "Copied the value" : "Copying is not allowed here", ok ? "ok" : "error");
  },

  /** @param {string} [instance] on a fleet dashboard's merged log: the instance to show it in */
  showHistory(store, path, instance = "") {
    app.setState({ ...(instance ? { instance } : {}), store, path, panel: "history" });
  },

  /** @param {string} [instance] on a fleet dashboard's merged log: the instance to show it in */
  showInTree(store, path, instance = "") {
    app.setState({ ...(instance ? { instance, entry: null } : {}), store, path, search: "", panel: "stores" });
    app.panels.stores.reveal(store, path);
  },

  /**
   * Shows one instance of the fleet (or all of them: "*"); the panels follow it, and so does the URL.
   * @param {string} id
   * @param {Partial<import("../lib/url-state.mjs").ViewState>} [also] more of the view to change with it
   */
  pickInstance(id, also = {}) {
    const instance = id === "*" ? "" : id;
    app.setState({ instance, entry: null, ...also });
    if (also.path) app.panels.stores.reveal(also.store ?? app.state.store, also.path);
  },

  showEntry(seq) {
    app.setState({ panel: "log", entry: seq, filter: { store: "", path: "", op: "", text: "", instance: "" } });
    app.bridge.post({ type: ToWorker.log, action: "close" });
    app.bridge.post({ type: ToWorker.view, patch: { entry: seq } });
  },

  openWrite(values) {
    app.setState({ panel: "write" });
    app.panels.write.fill(values);
  },

  /** Loads a recording the reader chose or dropped (a File); its progress shows in the Replay tab. */
  loadRecording(file) {
    app.bridge.post({ type: ToWorker.replay, action: "load-file", file });
    app.setState({ panel: "replay", replay: "", seq: 0 });
  },

  /** @param {string} id a recording the server lists (`fixtures/checkout-session.kslog`) */
  openServerRecording(id) {
    app.bridge.post({ type: ToWorker.replay, action: "load-server", id, seq: 0 });
    app.setState({ replay: id, seq: 0 });
  },

  exitReplay() {
    app.bridge.post({ type: ToWorker.replay, action: "exit" });
    app.setState({ replay: "", seq: 0 });
  },

  /** The benchmark's mark: the first time a store's tree is in the DOM. */
  markFirstTree() {
    if (app.firstTreeMarked) return;
    app.firstTreeMarked = true;
    requestAnimationFrame(() => performance.mark("keyscope:first-tree-render"));
  },
};

function renderFrame() {
  app.frameRequested = false;
  try {
    const { latest } = app;
    const now = performance.now();
    const counters = now - app.countersDrawnAt >= counterRefreshMs;
    if (counters) app.countersDrawnAt = now;
    followReplay(app, latest.replay);
    followFleet(app, latest);
    app.drawnReplaySeq = latest.replay?.seq ?? null;
    app.header.render(latest, counters);
    app.picker.render(latest.fleet);
    app.recordButton.render(latest.recordings, app.replaying);
    app.replayBar.render(latest.replay);
    app.tabs.render(app.state.panel, counters ? { log: latest.stats?.entriesKept, subscriptions: latest.stats?.subscriptions } : null);
    app.banners.render(latest.problems, latest.conn);
    app.panels[app.state.panel].render(latest);
  } catch (error) {
    console.error(error);
    app.toasts.show(`Drawing failed: ${error.message}`, "error");
  }
  app.framesRendered++;
  if (app.ackPending) {
    app.ackPending = false;
    app.bridge.post({ type: ToWorker.ack });
  }
}

function showPanel() {
  for (const [name, panel] of Object.entries(app.panels)) panel.element.hidden = name !== app.state.panel;
}

function onKey(event) {
  if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
  const target = /** @type {HTMLElement} */ (event.target);
  const typing = target.closest("input, textarea, select, [contenteditable]") !== null;
  const panel = app.panels[app.state.panel];
  if (event.key === "Escape") {
    // The first Esc leaves the field; the next one closes what is open.
    if (typing) target.blur();
    if (typing || panel.escape()) event.preventDefault();
    return;
  }
  if (typing) return;
  if (event.key === "/") {
    event.preventDefault();
    if (panel.focusFind) panel.focusFind();
    else {
      app.setState({ panel: "stores" });
      app.panels.stores.focusFind();
    }
    return;
  }
  const keyed = panelOfKey(event.key);
  if (keyed) {
    if (app.tabs.usable(keyed)) app.setState({ panel: keyed });
    event.preventDefault();
    return;
  }
  if (event.key === "i" && !app.picker.element.hidden) {
    app.picker.show();
    event.preventDefault();
    return;
  }
  if (app.replaying && (event.key === "," || event.key === ".")) {
    app.bridge.post({ type: ToWorker.replay, action: "step", delta: event.key === "," ? -1 : 1 });
    event.preventDefault();
    return;
  }
  if (panel.handleKey(event)) event.preventDefault();
}

function start() {
  const worker = new Worker(new URL("./worker/worker.mjs", import.meta.url), { type: "module" });
  worker.onerror = (event) => app.toasts.show(`The dashboard's worker failed: ${event.message ?? "unknown error"}`, "error");
  app.bridge = new Bridge(worker, {
    onUpdate(update) {
      for (const key of sections) if (key in update) app.latest[key] = update[key];
      app.ackPending = true;
      app.requestFrame();
    },
    onSelect(path) {
      app.setState({ path });
    },
  });
  app.header = new Header(document.getElementById("topbar"));
  app.recordButton = new RecordButton(app);
  app.header.actions.append(app.recordButton.element);
  app.picker = new InstancePicker({ onPick: (id) => app.pickInstance(id) });
  app.header.fleetSlot.append(app.picker.element);
  app.replayBar = new ReplayBar(document.getElementById("replaybar"), app);
  app.tabs = new Tabs(document.getElementById("tabs"), panels, (panel) => app.setState({ panel }));
  app.banners = new Banners(document.getElementById("banners"), (key) => app.bridge.post({ type: ToWorker.dismiss, key }));
  app.toasts = new Toasts(document.getElementById("toasts"));
  app.panels = Object.fromEntries(panels.map((name) => [name, new panelClasses[name](app)]));
  document.getElementById("panels").append(...Object.values(app.panels).map((panel) => panel.element));
  showPanel();
  document.addEventListener("keydown", onKey);
  // A file dropped anywhere on the page is a recording to replay (rather than a page the browser opens instead).
  const carriesFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  document.addEventListener("dragover", (event) => {
    if (carriesFiles(event)) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (file) app.loadRecording(file);
  });
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  app.bridge.post({ type: ToWorker.start, url: `${scheme}://${location.host}/ws`, token: app.state.token, state: app.state });
  // For the benchmark harness: counters it can read at any time.
  window.keyscopeStats = () => ({
    seq: app.latest.stats?.seq ?? null,
    entriesReceived: app.latest.stats?.entriesReceived ?? 0,
    entriesKept: app.latest.stats?.entriesKept ?? 0,
    framesRendered: app.framesRendered,
    // The replay as the worker last reported it, and the seq of the last frame drawn (the replay benchmark's
    // jumps end when a frame shows their seq).
    replay: app.latest.replay ? {
      status: app.latest.replay.status, message: app.latest.replay.message, active: app.latest.replay.active,
      seq: app.latest.replay.seq ?? null, events: app.latest.replay.events ?? null, drawnSeq: app.drawnReplaySeq ?? null,
      loadMs: app.latest.replay.loadMs ?? null, seekMs: app.latest.replay.seekMs ?? null,
      indexBytes: app.latest.replay.indexBytes ?? null, checkpointEvery: app.latest.replay.checkpointEvery ?? null,
    } : { status: "idle", active: false, seq: null, drawnSeq: null },
  });
  app.requestFrame();
}

start();

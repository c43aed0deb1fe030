// The dashboard's worker: owns the WebSocket, reads every frame, keeps the session, and sends the page compact
// updates for what is on screen. Updates go out one at a time: the next only after the page says it drew the last
// (an "ack" from its animation frame), so a flood of changes never floods the page. While time travelling, the
// panels draw from the replay's session and models instead of the live ones; the live connection keeps going. On a
// fleet dashboard (docs/fleet.md) the live connection is to the instance picked (`/ws?instance=ID`) or to all of
// them merged (`/ws?instance=*`), and picking another starts a new live session.

import { completePath } from "../../lib/complete.mjs";
import { ToPage, ToWorker, answerType } from "../../lib/messages.mjs";
import { valueAtPath } from "../../lib/mirror.mjs";
import { livePanels } from "../../lib/panels.mjs";
import { resyncRequest } from "../../lib/requests.mjs";
import { editorFor } from "../../lib/value-input.mjs";
import { Connection } from "./connection.mjs";
import { FeaturePanels } from "./feature-panels.mjs";
import { FleetChannel } from "./fleet-channel.mjs";
import { FleetModel, fleetMode } from "./fleet-model.mjs";
import { HistoryModel } from "./history-model.mjs";
import { LogModel } from "./log-model.mjs";
import * as panelActions from "./panel-actions.mjs";
import { RecordingsModel } from "./recordings-model.mjs";
import { ReplayModel } from "./replay-model.mjs";
import { RequestRouter, rewindResult } from "./request-router.mjs";
import { Session } from "./session.mjs";
import { TreeModel } from "./tree-model.mjs";
import { UpdateBuilder } from "./update-builder.mjs";

/** @type {import("./replay-model.mjs").ReplayParts} the live session and the models over it */
let live;
/** @type {import("./replay-model.mjs").ReplayParts} what the panels show: `live`, or the replay's parts */
let shown;
let connection;
/** @type {FeaturePanels} the feature panels' models of the live session */
let features;
let recordings;
let replay;
/** @type {((message: any) => void)|undefined} time travel's actions on `replay` */
let replayAction;
/** @type {FleetModel} the fleet's instances (for the picker) */
let fleet;
/** @type {RequestRouter} */
let router;
/** How often the worker left the instance the page asked for on its own (the fleet does not list it). */
let fleetMoves = 0;
/** Where the server is: `url` its WebSocket endpoint, `origin` its http://host:port. */
const server = { url: "", origin: "", token: "" };
/** @type {{store: string, path: string}|null} */
let pendingReveal = null;
const view = {
  panel: "stores", store: "", path: "", search: "", entry: null, instance: "",
  filter: null, order: "newest", limit: 100_000,
  tree: { start: 0, count: 80 }, log: { visible: 40, count: 120 }, history: { start: 0, count: 80 },
};
const phase = { phase: "connecting", attempt: 0, retryIn: 0, reason: "", refused: false };
let credit = true;
let dirty = true;
let flushTimer = 0;

self.onmessage = (event) => {
  try {
    handle(event.data);
  } catch (error) {
    shown?.session.report("internal", `Internal error: ${error.message}`);
    markDirty();
  }
};

function handle(message) {
  switch (message.type) {
    case ToWorker.start: return start(message);
    case ToWorker.ack:
      credit = true;
      return schedule();
    case ToWorker.view: return changeView(message.patch);
    case ToWorker.tree: return treeAction(message);
    case ToWorker.log: return logAction(message);
    case ToWorker.send: return sendRequest(message);
    case ToWorker.value: return postMessage({ type: ToPage.value, tag: message.tag, ...valueEditor(message.store, message.path) });
    case ToWorker.complete: {
      const root = shown.session.mirror.stores.get(message.store)?.root;
      return postMessage({ type: ToPage.completions, tag: message.tag, items: root ? completePath(root, message.text) : [] });
    }
    case ToWorker.resync:
      live.session.send(resyncRequest(live.session.nextRequestId++));
      return;
    case ToWorker.recordings: return recordingsAction(message);
    case ToWorker.replay: return replayAction?.(message);
    case ToWorker.rewindPreview: return postMessage({ type: ToPage.rewindPreview, tag: message.tag, ...live.session.rewindPreview(message.seq) });
    case ToWorker.dismiss:
      shown.session.dismiss(message.key);
      return markDirty();
    default: return featureAction(message);
  }
}

/** A feature panel's message (its type is the panel's name): its model acts, and may answer the page. */
function featureAction(message) {
  if (features.act(message, (data) => postMessage({ type: answerType(message.type), tag: message.tag, ...data }))) markDirty();
}

function start({ url, token, state }) {
  // The HTTP endpoints are on the WebSocket's host and port.
  const origin = url.replace(/^ws/, "http").replace(/\/ws$/, "");
  Object.assign(server, { url, origin, token });
  fleet = new FleetModel({ origin, token, onChange: markDirty });
  router = new RequestRouter({ channel: new FleetChannel({ url, token }) });
  features = new FeaturePanels({ origin, token, onChange: markDirty });
  replay = new ReplayModel({ origin, token, view, onChange: replayChanged });
  replayAction = panelActions.replayActions(replay);
  Object.assign(view, {
    panel: state.panel, store: state.store, path: state.path, search: state.search, entry: state.entry,
    filter: state.filter, order: state.order, limit: state.limit,
  });
  if (state.path) pendingReveal = { store: state.store, path: state.path };
  replay.logViewChanged({ filter: state.filter, order: state.order });
  if (state.replay && token) replay.loadServer(state.replay, state.seq ?? 0);
  openLive(token ? state.instance : "");
  if (!token) {
    Object.assign(phase, { phase: "stopped", reason: "This page needs the token: open the URL the server printed (…/?token=…)." });
    return markDirty();
  }
  // A quiet second still changes what is on screen: deliveries per second fall to 0, ages grow.
  setInterval(markDirty, 1000);
}

/**
 * Starts a live session and its connection: to the server's `/ws`, or on a fleet dashboard to one instance
 * (`instance`) or to all of them ("" asks for the server's default, which is all of them). The session before
 * (another instance's) ends.
 * @param {string} instance
 */
function openLive(instance) {
  connection?.stop();
  live?.session.disconnected();
  view.instance = instance;
  // Entry numbers go on from the last session's, so the page never mistakes a new entry for an old one.
  const session = new Session({ limit: view.limit, send: (text) => connection.send(text), firstEntry: live?.session.ring.end ?? 0 });
  const log = new LogModel(session);
  const tree = new TreeModel(session);
  const history = new HistoryModel(session, log);
  session.onEntries = (entries) => features.noteChanges(entries);
  const updates = new UpdateBuilder({ session, tree, log, history, view, phase });
  const wasShown = shown === live;
  live = { session, tree, log, history, updates };
  if (wasShown || !shown) {
    shown = live;
    shown.updates.forget();
    if (view.path) pendingReveal = { store: view.store, path: view.path };
  }
  session.logView.order = view.order;
  if (view.filter) session.setFilter(view.filter);
  features.make(session, Boolean(instance));
  recordings = new RecordingsModel(session, {
    origin: server.origin, token: server.token, onChange: markDirty, instance: instance === "*" ? "" : instance,
  });
  fleet.follow(session);
  if (!server.token) return;
  connection = new Connection({
    url: server.url,
    token: server.token,
    query: instance ? { instance } : {},
    explain: instance ? () => explainRefusal(instance) : undefined,
    resumeSeq: () => session.resumeSeq(),
    onText: receive,
    onPhase: (next, detail) => {
      if (next === "reconnecting" && phase.phase === "connected") session.disconnected();
      Object.assign(phase, { phase: next, ...detail });
      // A server that does not answer never says what it is: the panels try their own reads (and say why not).
      if (next === "reconnecting") startPanels();
      markDirty();
    },
  });
  connection.start();
  markDirty();
}

/**
 * The panels' own reads (the feature panels' HTTP, the recordings for the Record button) start once the hello said
 * what the server is, so that a fleet dashboard is never asked for an instance's routes.
 */
function startPanels() {
  if (live.started) return;
  live.started = true;
  showPanels();
  // Whether the server keeps recordings (the Record button), and one in progress (after a reload).
  if (features.onFleet) fleetRecordings();
  else recordings.load();
}

/**
 * On a fleet dashboard the Record button records the instance shown, and the dashboard keeps the files; with all
 * instances shown there is none to record: the button goes, and the Replay tab says why.
 */
function fleetRecordings() {
  if (recordings.notHere) return;
  if (recordings.instance) {
    recordings.load();
    return;
  }
  recordings.notAvailable("A recording follows one instance: pick one in the instance list to record it. A file you choose here replays as usual.");
}

/**
 * Why `/ws?instance=ID` was refused: an instance the fleet does not list (the link is old, or for another fleet)
 * leaves for all of them, with a banner saying so.
 * @param {string} instance
 */
async function explainRefusal(instance) {
  await fleet.load();
  if (fleet.knows(instance) !== false) return null;
  setTimeout(() => {
    fleetMoves++;
    openLive("");
    live.session.report("fleet", `No instance "${instance}" in this fleet (the link may be older than the instance, or for another fleet): showing all instances.`, "notice");
  }, 0);
  return { reason: `No instance "${instance}" in this fleet.`, refused: true };
}

function receive(text) {
  const { session } = live;
  const wasConnected = phase.phase === "connected";
  const before = fleetMode(session);
  if (session.receive(text) === "restart") {
    session.report("restart", "The server restarted (another process); loading its state from the start.", "notice");
    connection.restart();
  } else if (!wasConnected && session.server) {
    connection.confirm();
  }
  if (fleetMode(session) !== before) modeKnown(session);
  fleet.follow(session);
  revealLinkedPath();
  markDirty();
}

/** The hello said what the stream is: a fleet dashboard's panels get their fleet models, and no recordings. */
function modeKnown(session) {
  const onFleet = session.instance !== null;
  if (onFleet !== features.onFleet) features.make(session, onFleet);
  if (onFleet) fleetRecordings();
  else if (view.instance || recordings.notHere) {
    // The link named an instance, but this is a single server: it has recordings of its own.
    view.instance = "";
    recordings = new RecordingsModel(session, { origin: server.origin, token: server.token, onChange: markDirty });
    if (live.started) recordings.load();
  }
  if (live.started) showPanels();
  else startPanels();
}

/** The path in the page's URL is shown in the tree (its ancestors expanded) as soon as its store exists. */
function revealLinkedPath() {
  if (!pendingReveal) return;
  const { session, tree } = shown;
  const { stores } = session.mirror;
  if (pendingReveal.store ? !stores.has(pendingReveal.store) : stores.size === 0) return;
  tree.reveal(tree.storeId(pendingReveal.store), pendingReveal.path);
  pendingReveal = null;
}

function changeView(patch) {
  // The replay's place in the URL (`replay`, `seq`) is for reloads; the worker follows the replay itself.
  const { filter, order, limit, instance, replay: _replay, seq: _seq, ...rest } = patch;
  Object.assign(view, rest);
  if (filter) view.filter = filter;
  if (order) view.order = order;
  if (limit) view.limit = limit;
  // Another instance of the fleet: a new live session (a single server has no instances to pick).
  if (instance !== undefined && instance !== view.instance && live.session.instance) {
    openLive(instance);
  }
  // Filters and order apply to both logs, live and replayed; the size limit is the live log's.
  for (const { session } of shown === live ? [live] : [live, shown]) {
    if (filter) session.setFilter(filter);
    if (order) {
      session.logView.order = order;
      session.logView.anchor = { pinned: true };
    }
  }
  replay.logViewChanged({ filter, order });
  if (limit) live.session.setLimit(limit);
  if ("panel" in rest) showPanels();
  if (patch.log && "row" in patch.log) shown.session.logView.scrollTo(patch.log.row, view.log.visible);
  shown.updates.logViewChanged();
  markDirty();
}

/** The replay changed: the panels draw from it while it is active, else from the live session. */
function replayChanged() {
  const next = replay.active ? replay.parts : live;
  if (next !== shown) {
    shown = next;
    shown.updates.forget();
    if (view.path) pendingReveal = { store: view.store, path: view.path };
  }
  if (replay.active) revealLinkedPath();
  markDirty();
}

function treeAction(message) {
  const selected = panelActions.treeAction(shown, view, message);
  if (selected !== null) postMessage({ type: ToPage.select, path: selected });
  markDirty();
}

function logAction(message) {
  panelActions.logAction(shown, view, message);
  markDirty();
}

function sendRequest({ tag, ...request }) {
  // Requests go to the live server only: a replay is read-only.
  router.send(live.session, request).then((reply) => {
    const { kind, seq } = request;
    const result = kind === "rewind" && reply.ok ? rewindResult(reply.result) : null;
    if (kind === "rewind" && !reply.ok) {
      live.session.report("rewind", `Rewind to #${seq} refused (${reply.error.code}): ${reply.error.message}`, "notice");
      markDirty();
    }
    postMessage({ type: ToPage.reply, tag, ok: reply.ok, seq: reply.seq, error: reply.error, result, instances: reply.instances ?? null });
  });
}

/** Tells each feature panel's model whether its panel is shown (they fetch their data while it is). */
function showPanels() {
  if (!live.started) return;
  features.show(view.panel);
  if (view.panel === "replay" && !features.onFleet) recordings.load();
}

/** The Record button's and the Replay tab's requests about the server's recordings. */
function recordingsAction({ tag, action, id }) {
  const answer = (data) => postMessage({ type: ToPage.recordingsAnswer, tag, ...data });
  switch (action) {
    case "reload":
      if (!features.onFleet) recordings.load();
      return markDirty();
    case "start": return void recordings.start().then(answer);
    case "stop": return void recordings.stop().then(answer);
    case "download": return void recordings.download(id).then(answer);
  }
}

function valueEditor(storeId, path) {
  const root = shown.session.mirror.stores.get(storeId)?.root;
  const value = root ? valueAtPath(root, path) : undefined;
  return value === undefined ? { exists: false, mode: "json", text: "" } : { exists: true, ...editorFor(value) };
}

function markDirty() {
  dirty = true;
  schedule();
}

function schedule() {
  if (credit && dirty && !flushTimer) flushTimer = setTimeout(flush, 0);
}

function flush() {
  flushTimer = 0;
  if (!credit || !dirty || !live) return;
  dirty = false;
  credit = false;
  const update = shown.updates.build();
  // The visible feature panel's section (as the update builder does for the others); they show the live server.
  const section = shown === live || !livePanels.includes(view.panel) ? features.build(view.panel) : undefined;
  if (section) update[view.panel] = section;
  const listing = recordings.build();
  if (listing) update.recordings = listing;
  const instances = fleet.build(update.now, { following: view.instance, moved: fleetMoves });
  if (instances) update.fleet = instances;
  // The replay's section goes out when it changed (every step while playing, never while idle).
  const replaying = replay.build();
  if (replaying) update.replay = replaying;
  postMessage(update);
}

// The dashboard's worker: owns the WebSocket, reads every frame, keeps the session, and sends the page compact
// updates for what is on screen. Updates go out one at a time: the next only after the page says it drew the last
// (an "ack" from its animation frame), so a flood of changes never floods the page. While time travelling, the
// panels draw from the replay's session and models instead of the live ones; the live connection keeps going.

import { completePath } from "../../lib/complete.mjs";
import { ToPage, ToWorker, answerType } from "../../lib/messages.mjs";
import { valueAtPath } from "../../lib/mirror.mjs";
import { featurePanels, livePanels } from "../../lib/panels.mjs";
import { revertRequest, resyncRequest, rewindRequest, transactionRequest, tuneRemoveRequest, tuneRequest, writeRequest } from "../../lib/requests.mjs";
import { editorFor } from "../../lib/value-input.mjs";
import { Connection } from "./connection.mjs";
import { featureModels } from "./feature-models.mjs";
import { HistoryModel } from "./history-model.mjs";
import { LogModel } from "./log-model.mjs";
import { RecordingsModel } from "./recordings-model.mjs";
import { ReplayModel } from "./replay-model.mjs";
import { Session } from "./session.mjs";
import { TreeModel } from "./tree-model.mjs";
import { UpdateBuilder } from "./update-builder.mjs";

/** @type {import("./replay-model.mjs").ReplayParts} the live session and the models over it */
let live;
/** @type {import("./replay-model.mjs").ReplayParts} what the panels show: `live`, or the replay's parts */
let shown;
let connection;
/** @type {Map<string, any>} the feature panels' models (feature-models.mjs), by panel name */
const features = new Map();
let recordings;
let replay;
/** @type {{store: string, path: string}|null} */
let pendingReveal = null;
const view = {
  panel: "stores", store: "", path: "", search: "", entry: null,
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
    case ToWorker.replay: return replayAction(message);
    case ToWorker.rewindPreview: return postMessage({ type: ToPage.rewindPreview, tag: message.tag, ...live.session.rewindPreview(message.seq) });
    case ToWorker.dismiss:
      shown.session.dismiss(message.key);
      return markDirty();
    default: return featureAction(message);
  }
}

/** A feature panel's message (its type is the panel's name): its model acts, and may answer the page. */
function featureAction(message) {
  const model = features.get(message.type);
  if (!model) return;
  model.act(message, (data) => postMessage({ type: answerType(message.type), tag: message.tag, ...data }));
  markDirty();
}

function start({ url, token, state }) {
  const session = new Session({ limit: state.limit, send: (text) => connection.send(text) });
  const log = new LogModel(session);
  const tree = new TreeModel(session);
  const history = new HistoryModel(session, log);
  // The HTTP endpoints are on the WebSocket's host and port.
  const origin = url.replace(/^ws/, "http").replace(/\/ws$/, "");
  for (const name of featurePanels) features.set(name, new featureModels[name](session, { origin, token, onChange: markDirty }));
  recordings = new RecordingsModel(session, { origin, token, onChange: markDirty });
  replay = new ReplayModel({ origin, token, view, onChange: replayChanged });
  session.onEntries = (entries) => {
    for (const model of features.values()) model.noteChanges?.(entries);
  };
  const updates = new UpdateBuilder({ session, tree, log, history, view, phase });
  live = { session, tree, log, history, updates };
  shown = live;
  Object.assign(view, { panel: state.panel, store: state.store, path: state.path, search: state.search, entry: state.entry });
  if (state.path) pendingReveal = { store: state.store, path: state.path };
  session.logView.order = state.order;
  session.setFilter(state.filter);
  replay.logViewChanged({ filter: state.filter, order: state.order });
  if (state.replay && token) replay.loadServer(state.replay, state.seq ?? 0);
  if (!token) {
    Object.assign(phase, { phase: "stopped", reason: "This page needs the token: open the URL the server printed (…/?token=…)." });
    return markDirty();
  }
  showPanels();
  connection = new Connection({
    url,
    token,
    resumeSeq: () => session.resumeSeq(),
    onText: receive,
    onPhase: (next, detail) => {
      if (next === "reconnecting" && phase.phase === "connected") session.disconnected();
      Object.assign(phase, { phase: next, ...detail });
      markDirty();
    },
  });
  connection.start();
  // Whether the server keeps recordings (the Record button), and one in progress (after a reload).
  recordings.load();
  // A quiet second still changes what is on screen: deliveries per second fall to 0, ages grow.
  setInterval(markDirty, 1000);
}

function receive(text) {
  const { session } = live;
  const wasConnected = phase.phase === "connected";
  if (session.receive(text) === "restart") {
    session.report("restart", "The server restarted (another process); loading its state from the start.", "notice");
    connection.restart();
  } else if (!wasConnected && session.server) {
    connection.confirm();
  }
  revealLinkedPath();
  markDirty();
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
  const { filter, order, limit, replay: _replay, seq: _seq, ...rest } = patch;
  Object.assign(view, rest);
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

function treeAction({ action, store, path, count, key }) {
  const { tree } = shown;
  if (action === "toggle") tree.setExpanded(store, path);
  else if (action === "more") tree.showMore(store, path, count);
  else if (action === "reveal") tree.reveal(store, path);
  else if (action === "move") {
    const next = tree.move(view, key);
    if (next !== null) {
      view.path = next;
      postMessage({ type: ToPage.select, path: next });
    }
  }
  markDirty();
}

function logAction({ action, delta, n }) {
  const { session, log, updates } = shown;
  const logView = session.logView;
  if (action === "pause") logView.pausedAt = session.ring.end;
  else if (action === "resume") {
    logView.pausedAt = null;
    logView.anchor = { pinned: true };
  } else if (action === "clear") session.clearLog();
  else if (action === "select") log.selected = n;
  else if (action === "close") log.selected = null;
  else if (action === "move") {
    const row = log.move(delta);
    if (row >= 0) revealLogRow(row);
  }
  updates.logViewChanged();
  markDirty();
}

/** Keeps a row the keyboard moved to on screen by moving the anchor. */
function revealLogRow(row) {
  const logView = shown.session.logView;
  const first = logView.firstRow(view.log.visible);
  if (row < first) logView.scrollTo(row, view.log.visible);
  else if (row >= first + view.log.visible - 1) logView.scrollTo(row - view.log.visible + 2, view.log.visible);
}

function sendRequest({ tag, kind, store, op, ops, seq, key, json }) {
  const build = {
    write: (id) => writeRequest(id, store, op),
    transaction: (id) => transactionRequest(id, store, ops),
    revert: (id) => revertRequest(id, seq),
    tune: (id) => tuneRequest(id, key, json),
    untune: (id) => tuneRemoveRequest(id, key),
    rewind: (id) => rewindRequest(id, seq),
  }[kind];
  // Requests go to the live server only: a replay is read-only.
  live.session.request(build, (reply) => {
    const result = kind === "rewind" && reply.ok ? rewindResult(reply.result) : null;
    if (kind === "rewind" && !reply.ok) {
      live.session.report("rewind", `Rewind to #${seq} refused (${reply.error.code}): ${reply.error.message}`, "notice");
      markDirty();
    }
    postMessage({ type: ToPage.reply, tag, ok: reply.ok, seq: reply.seq ?? null, error: reply.error ?? null, result });
  });
}

/** A rewind's result (`{"seq", "changes", "stores", "skipped"}`) as plain data for the page. */
function rewindResult(result) {
  if (!(result instanceof Map)) return null;
  const stores = result.get("stores");
  const skipped = result.get("skipped");
  return {
    changes: typeof result.get("changes") === "number" ? result.get("changes") : 0,
    stores: Array.isArray(stores) ? stores.filter((s) => typeof s === "string") : [],
    skipped: Array.isArray(skipped)
      ? skipped.filter((s) => s instanceof Map).map((s) => ({ store: String(s.get("store") ?? ""), reason: String(s.get("reason") ?? "") }))
      : [],
  };
}

/** Tells each feature panel's model whether its panel is shown (they fetch their data while it is). */
function showPanels() {
  for (const [name, model] of features) model.setShown?.(view.panel === name);
  if (view.panel === "replay") recordings.load();
}

/** The Record button's and the Replay tab's requests about the server's recordings. */
function recordingsAction({ tag, action, id }) {
  const answer = (data) => postMessage({ type: ToPage.recordingsAnswer, tag, ...data });
  switch (action) {
    case "reload":
      recordings.load();
      return markDirty();
    case "start": return void recordings.start().then(answer);
    case "stop": return void recordings.stop().then(answer);
    case "download": return void recordings.download(id).then(answer);
  }
}

/** Time travel: load a recording, move through it, play, leave. */
function replayAction({ action, file, id, seq, delta, speed }) {
  switch (action) {
    case "load-file": return void replay.loadFile(file);
    case "load-server": return void replay.loadServer(id, seq ?? 0);
    case "seek": return seekSoon(seq);
    case "step": return replay.step(delta);
    case "play": return replay.play();
    case "pause": return replay.pause();
    case "speed": return replay.setSpeed(speed);
    case "exit": return replay.exit();
  }
}

let wantedSeq = null;

/**
 * A scrubber sends many seeks while it moves: only the latest one still waiting when the worker gets to it is made.
 * @param {number} seq
 */
function seekSoon(seq) {
  const scheduled = wantedSeq !== null;
  wantedSeq = seq;
  replay.pause();
  if (scheduled) return;
  setTimeout(() => {
    const target = wantedSeq;
    wantedSeq = null;
    replay.goTo(target);
  }, 0);
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
  const feature = features.get(view.panel);
  const section = feature && (shown === live || !livePanels.includes(view.panel)) ? feature.build() : undefined;
  if (section) update[view.panel] = section;
  const listing = recordings.build();
  if (listing) update.recordings = listing;
  // The replay's section goes out when it changed (every step while playing, never while idle).
  const replaying = replay.build();
  if (replaying) update.replay = replaying;
  postMessage(update);
}

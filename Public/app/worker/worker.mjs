// The dashboard's worker: owns the WebSocket, reads every frame, keeps the session, and sends the page compact
// updates for what is on screen. Updates go out one at a time: the next only after the page says it drew the last
// (an "ack" from its animation frame), so a flood of changes never floods the page.

import { completePath } from "../../lib/complete.mjs";
import { valueAtPath } from "../../lib/mirror.mjs";
import { revertRequest, resyncRequest, transactionRequest, tuneRequest, writeRequest } from "../../lib/requests.mjs";
import { editorFor } from "../../lib/value-input.mjs";
import { Connection } from "./connection.mjs";
import { HistoryModel } from "./history-model.mjs";
import { LogModel } from "./log-model.mjs";
import { PreferencesModel } from "./preferences-model.mjs";
import { Session } from "./session.mjs";
import { TreeModel } from "./tree-model.mjs";
import { TunablesModel } from "./tunables-model.mjs";
import { UpdateBuilder } from "./update-builder.mjs";
import { WatchesModel } from "./watches-model.mjs";

let session;
let connection;
let tree;
let log;
let history;
let tunables;
let preferences;
let watches;
let updates;
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
    session?.report("internal", `Internal error: ${error.message}`);
    markDirty();
  }
};

function handle(message) {
  switch (message.type) {
    case "start": return start(message);
    case "ack":
      credit = true;
      return schedule();
    case "view": return changeView(message.patch);
    case "tree": return treeAction(message);
    case "log": return logAction(message);
    case "send": return sendRequest(message);
    case "value": return postMessage({ type: "value", tag: message.tag, ...valueEditor(message.store, message.path) });
    case "complete": {
      const root = session.mirror.stores.get(message.store)?.root;
      return postMessage({ type: "completions", tag: message.tag, items: root ? completePath(root, message.text) : [] });
    }
    case "resync":
      session.send(resyncRequest(session.nextRequestId++));
      return;
    case "tunables": return tunablesAction(message);
    case "preferences": return preferencesAction(message);
    case "watches": return watchesAction(message);
    case "dismiss":
      session.dismiss(message.key);
      return markDirty();
  }
}

function start({ url, token, state }) {
  session = new Session({ limit: state.limit, send: (text) => connection.send(text) });
  log = new LogModel(session);
  tree = new TreeModel(session);
  history = new HistoryModel(session, log);
  // The HTTP endpoints are on the WebSocket's host and port.
  const origin = url.replace(/^ws/, "http").replace(/\/ws$/, "");
  tunables = new TunablesModel(session, { origin, token, onChange: markDirty });
  preferences = new PreferencesModel(session, { origin, token, onChange: markDirty });
  watches = new WatchesModel(session, { origin, token, onChange: markDirty });
  session.onEntries = (entries) => {
    preferences.noteChanges(entries);
    watches.noteChanges(entries);
  };
  updates = new UpdateBuilder({ session, tree, log, history, tunables, view, phase });
  Object.assign(view, { panel: state.panel, store: state.store, path: state.path, search: state.search, entry: state.entry });
  if (state.path) pendingReveal = { store: state.store, path: state.path };
  session.logView.order = state.order;
  session.setFilter(state.filter);
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
  // A quiet second still changes what is on screen: deliveries per second fall to 0, ages grow.
  setInterval(markDirty, 1000);
}

function receive(text) {
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
  const { stores } = session.mirror;
  if (pendingReveal.store ? !stores.has(pendingReveal.store) : stores.size === 0) return;
  tree.reveal(tree.storeId(pendingReveal.store), pendingReveal.path);
  pendingReveal = null;
}

function changeView(patch) {
  const { filter, order, limit, ...rest } = patch;
  Object.assign(view, rest);
  if (filter) session.setFilter(filter);
  if (order) {
    session.logView.order = order;
    session.logView.anchor = { pinned: true };
  }
  if (limit) session.setLimit(limit);
  if ("panel" in rest) showPanels();
  if (patch.log && "row" in patch.log) session.logView.scrollTo(patch.log.row, view.log.visible);
  updates.logViewChanged();
  markDirty();
}

function treeAction({ action, store, path, count, key }) {
  if (action === "toggle") tree.setExpanded(store, path);
  else if (action === "more") tree.showMore(store, path, count);
  else if (action === "reveal") tree.reveal(store, path);
  else if (action === "move") {
    const next = tree.move(view, key);
    if (next !== null) {
      view.path = next;
      postMessage({ type: "select", path: next });
    }
  }
  markDirty();
}

function logAction({ action, delta, n }) {
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
  const logView = session.logView;
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
  }[kind];
  session.request(build, (reply) => postMessage({ type: "reply", tag, ok: reply.ok, seq: reply.seq ?? null, error: reply.error ?? null }));
}

/** The Tunables panel's requests: fetch again, export, and replacing every tunable (reset all, import). */
function tunablesAction({ tag, action, source, text }) {
  const answer = (data) => postMessage({ type: "tunables-answer", tag, ...data });
  switch (action) {
    case "reload":
      tunables.reload();
      return markDirty();
    case "export": return answer({ text: tunables.exportText() });
    case "preview": return answer(tunables.preview(source, text));
    case "replace":
      tunables.replace(source, text).then(answer);
  }
}

/** The panels that fetch their data over HTTP while they are shown. */
function showPanels() {
  preferences.setShown(view.panel === "preferences");
  watches.setShown(view.panel === "watches");
}

/** The Preferences panel's requests: set, delete and refresh (WebSocket `preference` requests), fetch again. */
function preferencesAction({ tag, action, source, container, key, json }) {
  if (action === "reload") {
    preferences.load();
    return markDirty();
  }
  preferences.write({ op: action, source, container, key, json })
    .then((reply) => postMessage({ type: "preferences-answer", tag, ...reply }));
}

/** The Watches panel's requests: re-read the statuses on the server (Refresh), fetch again. */
function watchesAction({ tag, action }) {
  if (action === "reload") {
    watches.load();
    return markDirty();
  }
  if (action === "refresh") watches.refresh().then((answer) => postMessage({ type: "watches-answer", tag, ...answer }));
}

function valueEditor(storeId, path) {
  const root = session.mirror.stores.get(storeId)?.root;
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
  if (!credit || !dirty || !session) return;
  dirty = false;
  credit = false;
  const update = updates.build();
  // The HTTP-fed panels' sections, for the visible one only (as the update builder does for the others).
  const section = view.panel === "preferences" ? preferences.build() : view.panel === "watches" ? watches.build() : undefined;
  if (section) update[view.panel] = section;
  postMessage(update);
}

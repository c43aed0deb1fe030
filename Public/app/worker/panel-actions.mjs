// What the page asks of the panels' models in the worker that is not a request to the server: the tree's
// expansions and keyboard moves, the log's pause, clear, selection and keyboard moves, and time travel's moves
// (a scrubber's many seeks made as one). They act on the parts the panels show (live or replayed).

/**
 * The tree's actions. Returns the path the keyboard moved the selection to, or null.
 * @param {import("./replay-model.mjs").ReplayParts} parts
 * @param {any} view the worker's view (store, path…)
 * @param {{action: string, store?: string, path?: string, count?: number, key?: string}} message
 * @returns {string|null}
 */
export function treeAction({ tree }, view, { action, store, path, count, key }) {
  if (action === "toggle") tree.setExpanded(store, path);
  else if (action === "more") tree.showMore(store, path, count);
  else if (action === "reveal") tree.reveal(store, path);
  else if (action === "move") {
    const next = tree.move(view, key);
    if (next !== null) {
      view.path = next;
      return next;
    }
  }
  return null;
}

/**
 * The log's actions: pause, resume, clear, select, close and keyboard moves (which keep the row on screen).
 * @param {import("./replay-model.mjs").ReplayParts} parts
 * @param {any} view the worker's view (the log's window)
 * @param {{action: string, delta?: number, n?: number}} message
 */
export function logAction({ session, log, updates }, view, { action, delta, n }) {
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
    if (row >= 0) revealLogRow(logView, view.log.visible, row);
  }
  updates.logViewChanged();
}

/** Keeps a row the keyboard moved to on screen by moving the anchor. */
function revealLogRow(logView, visible, row) {
  const first = logView.firstRow(visible);
  if (row < first) logView.scrollTo(row, visible);
  else if (row >= first + visible - 1) logView.scrollTo(row - visible + 2, visible);
}

/**
 * Time travel's actions on a replay model: load a recording, move through it, play, leave.
 * @param {import("./replay-model.mjs").ReplayModel} replay
 * @returns {(message: {action: string, file?: File, id?: string, seq?: number, delta?: number, speed?: string}) => void}
 */
export function replayActions(replay) {
  let wantedSeq = null;
  // A scrubber sends many seeks while it moves: only the latest one still waiting when the worker gets to it is made.
  const seekSoon = (seq) => {
    const scheduled = wantedSeq !== null;
    wantedSeq = seq;
    replay.pause();
    if (scheduled) return;
    setTimeout(() => {
      const target = wantedSeq;
      wantedSeq = null;
      replay.goTo(target);
    }, 0);
  };
  return ({ action, file, id, seq, delta, speed }) => {
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
  };
}

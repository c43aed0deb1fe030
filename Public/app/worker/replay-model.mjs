// Time travel in the worker: loads a recording (a file the page hands over, or one the server lists), reads it a
// slice at a time with the recording reader (so the page can show progress), then keeps a Session of its own with
// its own tree, log and history models, fed with timeline frames: the Stores, Log, History and Subscriptions panels
// show the recording at the selected seq exactly as they show a live server. Playback moves the seq on a timer.

import { RecordingError, RecordingIndexer } from "../../lib/recording-indexer.mjs";
import { recordingPath } from "../../lib/recordings.mjs";
import { SubscriptionRates } from "../../lib/subscriptions.mjs";
import {
  defaultLogWindow, formatLogTime, formatOffset, helloFrame, playbackTarget, seekFrames, speeds, stepFrames,
} from "../../lib/timeline.mjs";
import { HistoryModel } from "./history-model.mjs";
import { authHeaders, errorOf, errorText } from "./http.mjs";
import { LogModel } from "./log-model.mjs";
import { Session } from "./session.mjs";
import { TreeModel } from "./tree-model.mjs";
import { UpdateBuilder } from "./update-builder.mjs";

/** How long one slice of reading may hold the worker before progress goes to the page. */
const sliceMs = 60;
/** Playback moves the seq this often. */
const tickMs = 33;
/** At "max" speed, each tick applies events for about this long. */
const maxSpeedBudgetMs = 24;
/** A replay's log entries are numbered from `load id × this`, apart from the live log's and earlier replays'. */
const entryNumberSpan = 2 ** 40;

/** @typedef {"idle"|"downloading"|"loading"|"ready"|"error"} ReplayStatus */

/**
 * The parts the update builder draws from: the replay's session and its view models.
 * @typedef {{session: Session, tree: TreeModel, log: LogModel, history: HistoryModel, updates: UpdateBuilder}} ReplayParts
 */

export class ReplayModel {
  /**
   * @param {{origin: string, token: string, view: any, onChange: () => void, fetch?: typeof fetch,
   *   logWindow?: number}} options `view` is the worker's live view object (panel, store, path, windows…)
   */
  constructor({ origin, token, view, onChange, fetch = (...args) => globalThis.fetch(...args), logWindow = defaultLogWindow }) {
    Object.assign(this, { origin, token, view, onChange, fetch, logWindow });
    /** @type {ReplayStatus} */
    this.status = "idle";
    this.message = "";
    this.progress = { bytes: 0, total: 0, events: 0 };
    /** @type {import("../../lib/recording.mjs").Recording|null} */
    this.recording = null;
    this.name = "";
    /** @type {string|null} the server's id for the recording, null for an uploaded file */
    this.id = null;
    /** @type {ReplayParts|null} */
    this.parts = null;
    this.seq = 0;
    this.playing = false;
    this.speed = "1";
    this.loadId = 0;
    this.loadMs = 0;
    /** When progress last went to the page during a load. */
    this.sliceStarted = 0;
    this.lastSeekMs = 0;
    this.timer = 0;
    this.anchor = { seq: 0, wall: 0 };
    /** The filter and order the log shows, kept for the next replay session. */
    this.logFilter = null;
    this.logOrder = "newest";
    /** The parts of the section that stay the same while a recording is loaded (see `read`). */
    this.about = null;
    this.version = 0;
    this.sent = -1;
  }

  /** Something the section shows changed. */
  changed() {
    this.version++;
    this.onChange();
  }

  /** Whether the panels show the recording. */
  get active() { return this.status === "ready" && this.parts !== null; }

  /**
   * Loads a file the page handed over (a File or Blob, from the file input or a drop).
   * @param {Blob & {name?: string}} file
   */
  async loadFile(file) {
    const load = this.begin(file.name ?? "recording.kslog", null, "loading");
    const started = Date.now();
    const indexer = new RecordingIndexer({ size: file.size });
    if (!file.stream) {
      let buffer;
      try {
        buffer = await file.arrayBuffer();
      } catch (error) {
        return this.fail(load, `Cannot read ${this.name}: ${error.message}`);
      }
      indexer.add(new Uint8Array(buffer));
      indexer.end();
      return this.read(load, indexer, 0, started);
    }
    // Read while the file arrives: the lines already there are indexed while the next bytes are on their way. The
    // stream's chunks are kept as they are, as the recording's bytes (file-pieces.mjs).
    const stream = file.stream().getReader();
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await stream.read();
        if (done) break;
        if (load !== this.loadId) return void stream.cancel();
        size += value.length;
        if (size > file.size) throw new Error("the file grew while it was read");
        indexer.add(value);
        this.readSlice(indexer);
        // Chunks that are already there resolve at once: let the page's messages in now and then.
        if (Date.now() - this.sliceStarted >= sliceMs) {
          await nextTask();
          if (load !== this.loadId) return void stream.cancel();
        }
      }
      if (size !== file.size) throw new Error("the file shrank while it was read");
    } catch (error) {
      if (error instanceof RecordingError) return this.fail(load, `${this.name} is not a valid recording: ${error.message}.`);
      return this.fail(load, `Cannot read ${this.name}: ${error.message}`);
    }
    indexer.end();
    return this.read(load, indexer, 0, started);
  }

  /**
   * Reads what the indexer has ready, for at most one slice of time, and tells the page how far it is once a
   * slice has passed since it last did.
   */
  readSlice(indexer) {
    const started = Date.now();
    while (indexer.ready && Date.now() - started < sliceMs) indexer.step(500);
    if (Date.now() - this.sliceStarted < sliceMs && !indexer.done) return;
    this.sliceStarted = Date.now();
    this.progress = indexer.progress;
    this.changed();
  }

  /**
   * Downloads one of the server's recordings (`GET /api/recordings/<source>/<name>`) and loads it.
   * @param {string} id `<source>/<name>` as the listing gives it
   * @param {number} [seq] where to start
   */
  async loadServer(id, seq = 0) {
    const slash = id.indexOf("/");
    const load = this.begin(id.slice(slash + 1), id, "downloading");
    let indexer;
    try {
      const response = await this.fetch(`${this.origin}${recordingPath(id)}`, { headers: authHeaders(this.token), cache: "no-store" });
      if (response.status !== 200) {
        const error = errorOf(await response.text(), response.status);
        return this.fail(load, `The server did not send ${id} (${errorText(error)}).`);
      }
      indexer = await this.download(load, response);
    } catch (error) {
      return this.fail(load, `Cannot download ${id}: ${error.message}`);
    }
    if (indexer) return this.read(load, indexer, seq, Date.now());
  }

  /**
   * Reads a response body into an indexer (its chunks are the recording's bytes) while counting its bytes
   * (Content-Length gives the total when the server sends it); null when a newer load took over.
   */
  async download(load, response) {
    const total = Number(response.headers.get("Content-Length")) || 0;
    const indexer = new RecordingIndexer({ size: total });
    this.progress = { bytes: 0, total, events: 0 };
    if (!response.body?.getReader) {
      indexer.add(new Uint8Array(await response.arrayBuffer()));
      indexer.end();
      return indexer;
    }
    const reader = response.body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (load !== this.loadId) {
        reader.cancel();
        return null;
      }
      indexer.add(value);
      size += value.length;
      this.progress = { bytes: size, total: Math.max(total, size), events: 0 };
      this.changed();
    }
    indexer.end();
    return indexer;
  }

  /** Starts a load (ending any replay or load before it); returns its id, which later steps check. */
  begin(name, id, status) {
    this.stop();
    this.parts = null;
    this.recording = null;
    this.about = null;
    this.name = name;
    this.id = id;
    this.status = status;
    this.message = "";
    this.progress = { bytes: 0, total: 0, events: 0 };
    this.changed();
    return ++this.loadId;
  }

  fail(load, message) {
    if (load !== this.loadId) return;
    this.status = "error";
    this.message = message;
    this.changed();
  }

  /**
   * Reads what is left a slice at a time, yielding between slices so progress reaches the page.
   * @param {RecordingIndexer} indexer one with the whole file added (and perhaps part of it read)
   * @param {number} started when reading began (Date.now())
   */
  async read(load, indexer, seq, started) {
    if (load !== this.loadId) return;
    this.status = "loading";
    try {
      while (!indexer.done) {
        this.sliceStarted = 0;
        this.readSlice(indexer);
        await nextTask();
        if (load !== this.loadId) return;
      }
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      return this.fail(load, `${this.name} is not a valid recording: ${error.message}.`);
    }
    const recording = indexer.result();
    this.recording = recording;
    this.loadMs = Date.now() - started;
    const { times, events } = recording;
    this.about = {
      key: load,
      events,
      startTime: formatLogTime(times[0]),
      endTime: formatLogTime(times[events]),
      bytes: recording.file.length,
      tornBytes: recording.tornBytes,
      stores: recording.storeIds.length,
      subscriptionLists: recording.subscriptionLists.length,
      source: recording.header.source,
      checkpoints: recording.checkpoints.length,
      checkpointEvery: recording.checkpointEvery,
      indexBytes: recording.indexBytes,
      loadMs: this.loadMs,
    };
    this.status = "ready";
    this.enter(Math.max(0, Math.min(this.recording.events, seq)));
  }

  /** Builds the replay's session and models, and puts them at `seq`. */
  enter(seq) {
    const session = new Session({ limit: this.logWindow, send: () => false, firstEntry: this.loadId * entryNumberSpan });
    const log = new LogModel(session);
    const tree = new TreeModel(session);
    const history = new HistoryModel(session, log);
    const phase = { phase: "replay", attempt: 0, retryIn: 0, reason: "", refused: false };
    const updates = new UpdateBuilder({ session, tree, log, history, view: this.view, phase });
    if (this.logFilter) session.setFilter(this.logFilter);
    session.logView.order = this.logOrder;
    session.receive(helloFrame(this.recording, this.name));
    this.parts = { session, tree, log, history, updates };
    this.seq = -1;
    this.goTo(seq);
  }

  /**
   * Puts the replay at event `seq`: forward from where it is when that is cheaper, else from the nearest snapshot.
   * @param {number} seq
   */
  goTo(seq) {
    const { recording, parts } = this;
    if (!recording || !parts) return;
    const target = Math.max(0, Math.min(recording.events, Math.round(seq)));
    if (target === this.seq) return;
    const started = performance.now();
    const { session } = parts;
    const forward = this.seq >= 0 && target > this.seq && target - this.seq <= this.logWindow + recording.checkpointEvery;
    if (forward) {
      for (const frame of stepFrames(recording, this.seq, target)) session.receive(frame);
    } else {
      session.clearLog();
      session.rates = new SubscriptionRates();
      for (const frame of seekFrames(recording, target, this.logWindow)) session.receive(frame);
      session.recent.clear(); // a jump is not a change: nothing flashes
      parts.updates.logViewChanged();
    }
    this.seq = target;
    this.lastSeekMs = performance.now() - started;
    this.changed();
  }

  /** @param {number} delta events forward (negative: back) */
  step(delta) {
    this.pause();
    this.goTo(this.seq + delta);
  }

  play() {
    const { recording } = this;
    if (!recording || this.playing) return;
    if (this.seq >= recording.events) this.goTo(0);
    this.playing = true;
    this.anchor = { seq: this.seq, wall: Date.now() };
    this.timer = setInterval(() => this.tick(), tickMs);
    this.changed();
  }

  pause() {
    if (!this.playing) return;
    this.stop();
    this.changed();
  }

  stop() {
    this.playing = false;
    clearInterval(this.timer);
    this.timer = 0;
  }

  /** @param {string} speed one of timeline.speeds */
  setSpeed(speed) {
    if (!speeds.includes(speed)) return;
    this.speed = speed;
    this.anchor = { seq: this.seq, wall: Date.now() };
    this.changed();
  }

  /** Moves playback on: to the recorded time at the chosen speed, or (max) as far as a tick's budget allows. */
  tick() {
    const { recording } = this;
    if (!recording || !this.playing) return;
    if (this.speed === "max") {
      // Chunks sized from what the last one cost, so a tick stays near its budget whatever the events hold.
      const started = performance.now();
      let chunk = 128;
      while (this.seq < recording.events && performance.now() - started < maxSpeedBudgetMs) {
        const chunkStart = performance.now();
        this.goTo(this.seq + chunk);
        const perEvent = Math.max(1e-4, (performance.now() - chunkStart) / chunk);
        const left = maxSpeedBudgetMs - (performance.now() - started);
        chunk = Math.max(64, Math.min(this.logWindow, Math.floor(left / perEvent)));
      }
    } else {
      this.goTo(playbackTarget(recording, this.anchor.seq, Date.now() - this.anchor.wall, Number(this.speed)));
    }
    if (this.seq >= recording.events) this.pause();
  }

  /** Ends time travel: the recording is dropped, the panels go back to the live server. */
  exit() {
    this.stop();
    this.loadId++;
    this.parts = null;
    this.recording = null;
    this.about = null;
    this.status = "idle";
    this.message = "";
    this.name = "";
    this.id = null;
    this.changed();
  }

  /**
   * The log's filter and order changed on the page: the replay's session follows (and the next one starts so).
   * @param {{filter?: any, order?: "newest"|"oldest"}} change
   */
  logViewChanged({ filter, order }) {
    if (filter) this.logFilter = filter;
    if (order) this.logOrder = order;
  }

  /** The Replay tab's and replay bar's section of the next update, or undefined when the page has it already. */
  build() {
    if (this.sent === this.version) return undefined;
    this.sent = this.version;
    return this.section();
  }

  /** The Replay tab's and replay bar's section of an update. */
  section() {
    const { recording } = this;
    const base = { status: this.status, message: this.message, name: this.name, id: this.id, active: this.active, progress: this.progress };
    if (!recording) return base;
    const micros = recording.times[Math.max(0, this.seq)];
    return {
      ...base,
      ...this.about,
      seq: this.seq,
      time: formatLogTime(micros),
      timeMs: micros / 1000,
      offset: formatOffset(micros, recording.times[0]),
      playing: this.playing,
      speed: this.speed,
      seekMs: Math.round(this.lastSeekMs),
    };
  }
}

/** Resolves after the events already queued (the page's messages) had their turn. */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

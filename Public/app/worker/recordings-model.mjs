// The server's recordings in the worker (docs/recording.md "HTTP"): the listing (`GET /api/recordings`, read when
// the page starts, so the Record button knows whether the server keeps recordings and finds one in progress after a
// reload, when the Replay tab is shown and after each recording ends), the Record button's recording
// (`POST /api/recordings`, its event count polled every second, `POST …/stop`), and downloads of listed files. On a
// fleet dashboard the Record button records the instance shown (`POST /api/recordings?instance=ID`, docs/fleet.md):
// the dashboard keeps the file.

import { parseJSON } from "../../lib/json-reader.mjs";
import { endedText, readRecordingStatus, readRecordingsListing, recordingPath } from "../../lib/recordings.mjs";
import { authHeaders, errorOf, errorText, getJSON, postEmpty } from "./http.mjs";

/** While a recording runs, its status is read this often. */
export const pollIntervalMs = 1000;

/** @typedef {"idle"|"loading"|"ready"|"none"|"error"} RecordingsStatus */

export class RecordingsModel {
  /**
   * @param {import("./session.mjs").Session} session the live session (its banners report what went wrong)
   * @param {{origin: string, token: string, onChange: () => void, fetch?: typeof fetch, instance?: string,
   *   clock?: {setRepeat?: (f: () => void, ms: number) => any, clearRepeat?: (t: any) => void}}} options
   *   `instance`: on a fleet dashboard, the instance a recording started here records
   */
  constructor(
    session, { origin, token, onChange, fetch = (...args) => globalThis.fetch(...args), clock = {}, instance = "" },
  ) {
    Object.assign(this, { session, origin, token, onChange, fetch, instance });
    this.setRepeat = clock.setRepeat ?? ((f, ms) => setInterval(f, ms));
    this.clearRepeat = clock.clearRepeat ?? ((t) => clearInterval(t));
    /** @type {RecordingsStatus} */
    this.status = "idle";
    this.message = "";
    /** @type {import("../../lib/recordings.mjs").RecordingFile[]} */
    this.files = [];
    /** @type {import("../../lib/recordings.mjs").RecordingStatus[]} */
    this.active = [];
    /** @type {import("../../lib/recordings.mjs").RecordingStatus|null} the recording the Record button runs */
    this.recording = null;
    /** @type {""|"starting"|"stopping"} */
    this.busy = "";
    this.poll = null;
    this.version = 0;
    this.sent = -1;
    this.notHere = false;
  }

  /** `GET /api/recordings`: the files and the recordings in progress. */
  async load() {
    if (this.notHere) return;
    // A listing on screen stays while it is read again (every second while recording): nothing to send yet.
    if (this.status !== "ready" && this.status !== "loading") {
      this.status = "loading";
      this.changed();
    }
    const answer = await getJSON(this, "/api/recordings", "the recordings", readRecordingsListing);
    if (this.notHere) return;
    if (answer.status === "ready") {
      this.files = answer.body.recordings;
      this.active = answer.body.active;
      this.status = "ready";
      this.message = "";
      this.follow();
    } else if (answer.status === "none") {
      this.unavailable(answer.message);
    } else {
      this.status = "error";
      this.message = answer.message;
    }
    this.changed();
  }

  /**
   * Recordings cannot be reached here (a fleet dashboard does not carry an instance's): the Record button goes
   * and the Replay tab says why, whatever a listing on its way would say.
   * @param {string} message
   */
  notAvailable(message) {
    this.notHere = true;
    this.unavailable(message);
    this.changed();
  }

  /** The server keeps no recordings (404 `no_recordings`, or no such route): upload is all there is. */
  unavailable(message) {
    this.status = "none";
    this.message = message;
    this.files = [];
    this.active = [];
    this.recording = null;
    this.stopPolling();
  }

  /** Keeps the Record button's recording up to date from the listing; says so when it ended by itself. */
  follow() {
    const mine = this.recording ?? this.active.find((status) => status.state === "recording") ?? null;
    if (!mine) return;
    const now = this.active.find((status) => status.id === mine.id);
    if (now && now.state === "recording") {
      this.recording = now;
      this.startPolling();
      return;
    }
    if (this.busy === "stopping") return;
    this.recording = null;
    this.stopPolling();
    if (now) this.session.report("recording", endedText(now), "notice");
  }

  startPolling() {
    if (this.poll === null) this.poll = this.setRepeat(() => this.load(), pollIntervalMs);
  }

  stopPolling() {
    if (this.poll !== null) this.clearRepeat(this.poll);
    this.poll = null;
  }

  /**
   * Starts a recording of the service (`POST /api/recordings` with `{}`; with `?instance=ID` on a fleet dashboard).
   * @returns {Promise<{ok: boolean, message: string}>}
   */
  async start() {
    this.busy = "starting";
    this.changed();
    const target = this.instance ? `/api/recordings?instance=${encodeURIComponent(this.instance)}` : "/api/recordings";
    const answer = await this.post(target, this.instance ? `record ${this.instance}` : "start the recording");
    this.busy = "";
    if (answer.ok) {
      this.recording = readRecordingStatus(answer.body.get("recording"));
      this.startPolling();
      this.load();
    }
    this.changed();
    return { ok: answer.ok, message: answer.message };
  }

  /**
   * Stops the Record button's recording, then downloads its file.
   * @returns {Promise<{ok: boolean, message: string, blob?: Blob, name?: string, events?: number}>}
   */
  async stop() {
    const recording = this.recording;
    if (!recording) return { ok: false, message: "No recording is running." };
    this.busy = "stopping";
    this.changed();
    const answer = await this.post(`${recordingPath(recording.id)}/stop`, `stop ${recording.name}`);
    this.busy = "";
    if (!answer.ok) {
      this.changed();
      return { ok: false, message: answer.message };
    }
    const ended = readRecordingStatus(answer.body.get("recording")) ?? recording;
    this.recording = null;
    this.stopPolling();
    this.load();
    const file = await this.download(ended.id);
    return { ...file, events: ended.events };
  }

  /**
   * Fetches a listed recording's file with the token, for the page to save.
   * @param {string} id
   * @returns {Promise<{ok: boolean, message: string, blob?: Blob, name?: string}>}
   */
  async download(id) {
    const name = id.slice(id.indexOf("/") + 1);
    try {
      const response = await this.fetch(`${this.origin}${recordingPath(id)}`, { headers: authHeaders(this.token), cache: "no-store" });
      if (response.status !== 200) return this.refused(`Could not download ${name}: ${errorText(errorOf(await response.text(), response.status))}`);
      return { ok: true, message: "", blob: await response.blob(), name };
    } catch (error) {
      return this.refused(`Could not download ${name}: ${error.message}`);
    }
  }

  /** A POST with the body `{}`; the answer's JSON body when it worked, else the reason (also as a banner). */
  async post(path, what) {
    const answer = await postEmpty(this, path);
    if (answer.ok) {
      try {
        return { ok: true, message: "", body: parseJSON(answer.text) };
      } catch (error) {
        return this.refused(`Could not ${what}: ${error.message}`);
      }
    }
    // A server without recordings says `no_recordings`; one that predates them has no such route at all.
    if (answer.status === 404 && (answer.error.code === "no_recordings" || path === "/api/recordings")) {
      this.unavailable(answer.error.message);
      return this.refused("This server keeps no recordings: load a .kslog file in the Replay tab instead.");
    }
    return this.refused(`Could not ${what}: ${errorText(answer.error)}`);
  }

  refused(message) {
    this.session.report("recording", message, "notice");
    this.changed();
    return { ok: false, message };
  }

  changed() {
    this.version++;
    this.onChange();
  }

  /** The section of the next update, or undefined when the page has it already. */
  build() {
    if (this.sent === this.version) return undefined;
    this.sent = this.version;
    return {
      status: this.status, message: this.message, files: this.files, active: this.active, recording: this.recording, busy: this.busy,
      notHere: this.notHere,
    };
  }
}

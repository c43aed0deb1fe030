// The server's recordings as the dashboard shows them (docs/recording.md "HTTP"): the listing of
// `GET /api/recordings` read into plain rows, the status of a recording in progress, and the words for both.

import { formatCount } from "./format.mjs";

/**
 * @typedef {{id: string, source: string, name: string, bytes: number, modified: string}} RecordingFile
 * @typedef {{id: string, name: string, state: string, events: number, bytes: number, startedAt: string,
 *   endedAt: string|null, endReason: string|null, message: string|null}} RecordingStatus
 */

const text = (value, fallback = "") => (typeof value === "string" ? value : fallback);
const count = (value) => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/**
 * A recording's status object (`{"id", "name", "state", "events", …}`), read leniently: missing members get
 * neutral values, so a newer server's extra or missing members never break the page.
 * @param {any} value a Map from the StoreValue JSON reader
 * @returns {RecordingStatus|null}
 */
export function readRecordingStatus(value) {
  if (!(value instanceof Map) || typeof value.get("id") !== "string") return null;
  const id = value.get("id");
  return {
    id,
    name: text(value.get("name"), id.slice(id.indexOf("/") + 1)),
    state: text(value.get("state"), "recording"),
    events: count(value.get("events")),
    bytes: count(value.get("bytes")),
    startedAt: text(value.get("startedAt")),
    endedAt: typeof value.get("endedAt") === "string" ? value.get("endedAt") : null,
    endReason: typeof value.get("endReason") === "string" ? value.get("endReason") : null,
    message: typeof value.get("message") === "string" ? value.get("message") : null,
  };
}

/**
 * `GET /api/recordings`: the files the server offers, newest first, and the recordings in progress.
 * @param {any} value
 * @returns {{recordings: RecordingFile[], active: RecordingStatus[]}}
 */
export function readRecordingsListing(value) {
  const list = value instanceof Map && Array.isArray(value.get("recordings")) ? value.get("recordings") : [];
  const recordings = list
    .filter((item) => item instanceof Map && typeof item.get("id") === "string")
    .map((item) => {
      const id = item.get("id");
      const slash = id.indexOf("/");
      return {
        id,
        source: text(item.get("source"), slash > 0 ? id.slice(0, slash) : ""),
        name: text(item.get("name"), id.slice(slash + 1)),
        bytes: count(item.get("bytes")),
        modified: text(item.get("modified")),
      };
    })
    .sort((a, b) => (a.modified === b.modified ? (a.id < b.id ? -1 : 1) : a.modified < b.modified ? 1 : -1));
  const activeList = value instanceof Map && Array.isArray(value.get("active")) ? value.get("active") : [];
  return { recordings, active: activeList.map(readRecordingStatus).filter((status) => status !== null) };
}

/**
 * The download path of a listed recording: `/api/recordings/<source>/<name>`, each segment escaped.
 * @param {string} id `<source>/<name>`
 */
export function recordingPath(id) {
  return `/api/recordings/${id.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * A file size for people: `812 B`, `14.2 KiB`, `3.1 MiB`.
 * @param {number} bytes
 */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Why a recording ended, in words. */
const endReasons = {
  stopped: "stopped",
  duration: "its duration was up",
  "max-bytes": "it reached its size bound",
  "fell-behind": "it fell behind the service's log",
  failed: "it failed",
};

/**
 * One sentence on a recording that ended.
 * @param {RecordingStatus} status
 */
export function endedText(status) {
  const reason = endReasons[status.endReason ?? ""] ?? status.endReason ?? "it ended";
  const detail = status.message ? ` (${status.message})` : "";
  return `The recording ${status.name} ended: ${reason}${detail}. It holds ${formatCount(status.events)} event${status.events === 1 ? "" : "s"}.`;
}

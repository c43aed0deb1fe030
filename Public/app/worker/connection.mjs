// The WebSocket to /ws, kept open: it reconnects on its own with back-off, asks to resume after the last seq the
// session applied, and starts over without resume when the server turns out to be another process. On a fleet
// dashboard it carries the instance it is for (`/ws?instance=ID`), and `stop()` ends it for good when another
// instance is picked.

import { reconnectDelay } from "../../lib/backoff.mjs";

/** @typedef {"connecting"|"connected"|"reconnecting"|"stopped"} ConnectionPhase */

export class Connection {
  /**
   * @param {{url: string, token: string, resumeSeq: () => number|null, onText: (text: string) => void,
   *   onPhase: (phase: ConnectionPhase, detail: {attempt: number, retryIn: number, reason: string}) => void,
   *   query?: Record<string, string>, explain?: () => Promise<{reason: string, refused: boolean}|null>}} options
   *   `url` is the WebSocket endpoint (ws://host:port/ws); `query` more of its query (`{instance: "shop-1"}`);
   *   `explain` says why a handshake was refused when it knows better than `/api/health` (null: it does not)
   */
  constructor({ url, token, resumeSeq, onText, onPhase, query = {}, explain = async () => null }) {
    this.url = url;
    this.token = token;
    this.query = query;
    this.explain = explain;
    this.stopped = false;
    this.resumeSeq = resumeSeq;
    this.onText = onText;
    this.onPhase = onPhase;
    this.attempt = 0;
    /** @type {WebSocket|null} */
    this.socket = null;
    this.timer = 0;
    this.opened = false;
    this.lastReason = "";
    this.lastRefused = false;
  }

  start() {
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const resume = this.resumeSeq();
    const query = new URLSearchParams({ token: this.token, ...this.query });
    if (resume !== null) query.set("resume", String(resume));
    // While retrying, the last failure's reason stays on screen (no banner flicker at every attempt).
    this.onPhase(this.attempt === 0 ? "connecting" : "reconnecting",
      { attempt: this.attempt, retryIn: 0, reason: this.attempt === 0 ? "" : this.lastReason, refused: this.lastRefused });
    let socket;
    try {
      socket = new WebSocket(`${this.url}?${query}`, "keyscope.v1");
    } catch (error) {
      this.retry(`Cannot open the WebSocket: ${error.message}.`);
      return;
    }
    this.socket = socket;
    this.opened = false;
    socket.onopen = () => { this.opened = true; };
    socket.onmessage = (event) => {
      if (typeof event.data === "string") this.onText(event.data);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.opened) {
        this.retry(`The connection closed (${event.code}${event.reason ? `: ${event.reason}` : ""}).`);
      } else {
        // A browser never shows why a handshake failed: ask the health endpoint with the same token instead.
        this.diagnose().then(({ reason, refused }) => { if (this.socket === null && !this.stopped) this.retry(reason, refused); });
      }
    };
  }

  /** Why the WebSocket was refused, found by asking `/api/health` with the same token. */
  async diagnose() {
    const known = await this.explain().catch(() => null);
    if (known) return known;
    const health = this.url.replace(/^ws/, "http").replace(/\/ws$/, "/api/health");
    try {
      const response = await fetch(health, { headers: { Authorization: `Bearer ${this.token}` }, cache: "no-store" });
      return { reason: refusalReason(response.status), refused: response.status === 401 || response.status === 403 };
    } catch {
      return { reason: refusalReason(null), refused: false };
    }
  }

  /** The server said hello: the connection works, so the next failure starts the back-off over. */
  confirm() {
    this.attempt = 0;
    this.onPhase("connected", { attempt: 0, retryIn: 0, reason: "", refused: false });
  }

  /**
   * Schedules the next attempt.
   * @param {string} reason what went wrong, for people
   * @param {boolean} [refused] the server refused this page (token, address): waiting alone will not help
   */
  retry(reason, refused = false) {
    if (this.stopped) return;
    this.lastReason = reason;
    this.lastRefused = refused;
    const delay = reconnectDelay(this.attempt);
    this.attempt++;
    this.onPhase("reconnecting", { attempt: this.attempt, retryIn: delay, reason, refused });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Closes this socket and connects again at once (used when the server turned out to be another process). */
  restart() {
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, "starting over");
    clearTimeout(this.timer);
    this.connect();
  }

  /** Ends the connection for good (another instance of the fleet was picked): no retry, no more messages. */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onmessage = null;
      socket.close(1000, "another instance was picked");
    }
  }

  /**
   * Sends one request; false when there is no open connection.
   * @param {string} text
   */
  send(text) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(text);
    return true;
  }
}

/**
 * What to tell the user when the WebSocket was refused, from the status `/api/health` answered with the same token
 * (`null`: no answer at all).
 * @param {number|null} status
 */
export function refusalReason(status) {
  if (status === null) return "The server is not reachable: is it running?";
  if (status === 401) {
    return "The server refused the token in this page's URL: it belongs to another run of the server. Open the URL it printed.";
  }
  if (status === 403) return "The server refused this page's address: open the dashboard at the address the server printed.";
  if (status >= 200 && status < 300) return "The server is up but refused the WebSocket connection.";
  return `The server answered ${status} and refused the connection.`;
}

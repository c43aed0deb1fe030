// Requests to instances of a fleet that the page's own stream does not speak for (a write to every live instance
// while one is picked): a second WebSocket to the fleet dashboard's `/ws?instance=*`, opened when the first such
// request comes and closed once it has been idle a while. Requests on it name their target (`"instance"`); the
// changes it streams meanwhile are skipped unread.

import { ProtocolError, decodeServerMessage } from "../../lib/protocol.mjs";
import { toInstance } from "../../lib/requests.mjs";

/** A request unanswered this long is given up (the fleet dashboard answers `unavailable` after 5 s itself). */
export const answerTimeoutMs = 15_000;
/** The socket closes after this long without a request in flight. */
export const idleMs = 10_000;

export class FleetChannel {
  /**
   * @param {{url: string, token: string, WebSocket?: typeof WebSocket}} options `url` is the WebSocket endpoint
   *   (ws://host:port/ws)
   */
  constructor({ url, token, WebSocket: Socket = globalThis.WebSocket }) {
    Object.assign(this, { url, token, Socket });
    this.socket = null;
    /** @type {Promise<void>|null} resolved once the hello came */
    this.ready = null;
    this.nextId = 1;
    /** @type {Map<number, {resolve: (reply: any) => void, timer: any}>} */
    this.pending = new Map();
    this.idleTimer = 0;
  }

  /**
   * Sends a request to `target` (an instance id, or "*" for every live one); resolves with the decoded reply, or
   * a local `offline` error when the fleet dashboard cannot be reached or does not answer.
   * @param {(id: number) => string} build the request's JSON text for an id
   * @param {string} target
   * @returns {Promise<{type: "reply", ok: boolean, seq?: number|null, result?: any, error?: {code: string, message: string}}>}
   */
  async request(build, target) {
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    try {
      await this.open();
    } catch (error) {
      this.socket = null;
      this.ready = null;
      return offline(`Could not reach the fleet dashboard to send this: ${error.message}`);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(id, offline(`The fleet dashboard did not answer within ${answerTimeoutMs / 1000} s.`)), answerTimeoutMs);
      this.pending.set(id, { resolve, timer });
      this.socket.send(toInstance(build(id), target));
    });
  }

  /** Opens the socket unless it is open; resolves once the server said hello. */
  open() {
    if (this.ready) return this.ready;
    this.ready = new Promise((resolve, reject) => {
      const query = new URLSearchParams({ token: this.token, instance: "*" });
      const socket = new this.Socket(`${this.url}?${query}`, "keyscope.v1");
      this.socket = socket;
      let greeted = false;
      socket.onmessage = (event) => {
        if (typeof event.data !== "string") return;
        // The merged stream's changes are most of what comes: skip them without reading them.
        if (event.data.startsWith('{"type":"changes"')) return;
        let message;
        try {
          message = decodeServerMessage(event.data);
        } catch (error) {
          if (error instanceof ProtocolError) return;
          throw error;
        }
        if (message.type === "hello" && !greeted) {
          greeted = true;
          resolve();
        } else if (message.type === "reply" && typeof message.id === "number") {
          this.finish(message.id, message);
        }
      };
      socket.onclose = () => {
        if (this.socket === socket) {
          this.socket = null;
          this.ready = null;
        }
        if (!greeted) reject(new Error("the connection was refused or closed"));
        for (const id of [...this.pending.keys()]) this.finish(id, offline("The connection to the fleet dashboard closed before it answered; look at the log to see what was applied."));
      };
    });
    return this.ready;
  }

  finish(id, reply) {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(reply);
    if (this.pending.size === 0) this.closeSoon();
  }

  closeSoon() {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), idleMs);
  }

  /** Closes the socket now (requests in flight get an `offline` answer). */
  close() {
    clearTimeout(this.idleTimer);
    const socket = this.socket;
    this.socket = null;
    this.ready = null;
    socket?.close(1000, "idle");
    for (const id of [...this.pending.keys()]) this.finish(id, offline("The request was given up: the page left the fleet dashboard."));
  }
}

function offline(message) {
  return { type: "reply", ok: false, error: { code: "offline", message } };
}

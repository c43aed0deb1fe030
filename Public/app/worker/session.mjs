// Everything the dashboard knows, kept off the page's thread: the mirror of the stores, the log ring and its
// filtered view, the subscriptions, what just changed, and the problems worth a banner. It reads server
// messages (already text) and answers the questions the view models ask. On a fleet dashboard's merged stream
// (`/ws?instance=*`, docs/fleet.md) it keeps the log of every instance and their list, and no mirror: each
// instance numbers its own changes.

import { FilteredLog, compileFilter, noFilter } from "../../lib/log-filter.mjs";
import { LogRing, opBits } from "../../lib/log-ring.mjs";
import { LogView } from "../../lib/log-view.mjs";
import { Mirror, MirrorError } from "../../lib/mirror.mjs";
import { ProtocolError, decodeServerMessage } from "../../lib/protocol.mjs";
import { RecentChanges } from "../../lib/recent.mjs";
import { resyncRequest } from "../../lib/requests.mjs";
import { SubscriptionRates } from "../../lib/subscriptions.mjs";

/** Problems shown at once; more of the same kind only raise a count. */
const problemLimit = 4;
/** Notices (not errors) leave by themselves after this long. */
const noticeLifetimeMs = 15_000;

export class Session {
  /**
   * @param {{limit: number, send: (text: string) => boolean, now?: () => number, firstEntry?: number}} options
   *   `send` sends a request to the server and says whether it could; `firstEntry` numbers the log's entries from
   *   there (a replay's session keeps its numbers apart from the live one's)
   */
  constructor({ limit, send, now = () => Date.now(), firstEntry = 0 }) {
    this.send = send;
    this.now = now;
    this.mirror = new Mirror();
    this.ring = new LogRing(limit, firstEntry);
    this.filtered = new FilteredLog(this.ring);
    this.logView = new LogView(this.filtered);
    this.filter = noFilter;
    this.recent = new RecentChanges();
    this.rates = new SubscriptionRates();
    /** @type {import("../../lib/protocol.mjs").Subscription[]} */
    this.subscriptions = [];
    /** @type {{name: string, version: string, pid: number}|null} */
    this.server = null;
    this.readOnly = false;
    /**
     * What the server's hello said the stream is: undefined before it, null for a single server, an instance id
     * for one instance of a fleet dashboard, "*" for all of them merged.
     * @type {string|null|undefined}
     */
    this.instance = undefined;
    /** The fleet's name on a fleet dashboard. @type {string|null} */
    this.fleetName = null;
    /** The fleet's instances, from the merged stream's `fleet` messages. @type {import("../../lib/fleet.mjs").FleetList|null} */
    this.fleetList = null;
    /** The seq the mirror had when a fleet instance's stream reconnected without resuming. */
    this.reconnectFrom = null;
    this.epoch = 0;
    this.entriesReceived = 0;
    this.outOfSync = false;
    this.nextRequestId = 1;
    /** @type {Map<number, (reply: any) => void>} */
    this.pending = new Map();
    /** @type {Array<{key: string, message: string, count: number, level: "error"|"notice", time: number}>} */
    this.problems = [];
    /**
     * Called with each batch of change entries once they are applied (the Preferences and Watches panels fetch
     * again when their stores change).
     * @type {((entries: import("../../lib/protocol.mjs").Entry[]) => void)|null}
     */
    this.onEntries = null;
    // Version counters: a view model is rebuilt only when what it shows has changed.
    this.versions = { stores: 0, data: 0, log: 0, subscriptions: 0, problems: 0, server: 0, fleet: 0 };
  }

  /** Whether this is a fleet dashboard's merged stream (every instance's log, no mirror). */
  get merged() {
    return this.instance === "*";
  }

  /**
   * The seq to resume from, or null to start with a snapshot. A fresh page resumes from 0: the server then
   * replays the changes its log still holds (or says `gap` and sends a snapshot), so the log starts with the
   * history from before the page was opened.
   */
  resumeSeq() {
    return this.outOfSync ? null : this.mirror.seq ?? 0;
  }

  /**
   * Reads one server frame. Returns "restart" when the server is another process than the one our seqs came
   * from, so the connection must start over without resume.
   * @param {string} text
   * @returns {"ok"|"restart"}
   */
  receive(text) {
    let message;
    try {
      message = decodeServerMessage(text);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.report("protocol", `Ignored a message the dashboard cannot read: ${error.message}`);
      return "ok";
    }
    switch (message.type) {
      case "hello": return this.hello(message);
      case "snapshot": this.snapshot(message); break;
      case "changes": this.changes(message.entries); break;
      case "subscriptions": this.setSubscriptions(message.list); break;
      case "gap": this.gap(message.from, message.to, message.instance); break;
      case "reply": this.reply(message); break;
      case "fleet":
        this.fleetList = { fleet: message.fleet, instances: message.instances };
        this.versions.fleet++;
        break;
      default: break; // unknown message types are for newer dashboards
    }
    return "ok";
  }

  hello(message) {
    const previous = this.server;
    if (message.resumed && previous && previous.pid !== message.server.pid) {
      // Our seqs and stores belong to the old process; the new one numbers from 1 again and has its own stores.
      this.mirror = new Mirror();
      this.recent.clear();
      this.server = null;
      this.versions.stores++;
      this.versions.data++;
      return "restart";
    }
    if (!previous || previous.pid !== message.server.pid) this.epoch++;
    // A fleet instance's stream that did not resume (the dashboard had not read the instance yet, or an older
    // dashboard): the changes until its snapshot are a hole in this log (see snapshot).
    this.reconnectFrom = message.instance && previous && !message.resumed ? this.mirror.seq : null;
    this.server = message.server;
    this.readOnly = message.readOnly;
    this.instance = message.instance;
    this.fleetName = message.fleet;
    this.versions.server++;
    this.dismiss("connection");
    return "ok";
  }

  snapshot(message) {
    if (this.instance && this.mirror.seq !== null && message.seq < this.mirror.seq) {
      // A fleet instance that restarted numbers from 1 again: its old entries are another process's.
      this.epoch++;
    } else if (this.reconnectFrom !== null && message.seq > this.reconnectFrom) {
      this.gap(this.reconnectFrom + 1, message.seq);
    }
    this.reconnectFrom = null;
    this.mirror.load(message);
    this.outOfSync = false;
    this.dismiss("sync");
    this.recent.clear();
    this.setSubscriptions(message.subscriptions);
    this.versions.stores++;
    this.versions.data++;
  }

  changes(entries) {
    if (this.merged) return this.mergedChanges(entries);
    const now = this.now();
    let storesChanged = false;
    for (const entry of entries) {
      this.entriesReceived++;
      if (!this.outOfSync) {
        try {
          const touched = this.mirror.apply(entry);
          if (touched) for (const segments of touched) this.recent.record(entry.store, segments, now);
          else storesChanged = true;
        } catch (error) {
          if (!(error instanceof MirrorError)) throw error;
          this.loseSync(`The dashboard's copy of the stores disagreed with change ${entry.seq} (${error.message}); reloading the state.`);
        }
      }
      this.record(entry);
    }
    if (storesChanged) this.versions.stores++;
    this.versions.data++;
    this.versions.log++;
    this.onEntries?.(entries);
  }

  /** A merged stream's entries (each names its instance): into the log only. */
  mergedChanges(entries) {
    const stores = this.ring.stores.ids.length;
    for (const entry of entries) {
      this.entriesReceived++;
      this.record(entry);
    }
    if (this.ring.stores.ids.length !== stores) this.versions.stores++;
    this.versions.log++;
    this.onEntries?.(entries);
  }

  /** Adds an entry to the log ring and to the filtered view. */
  record(entry) {
    const n = this.ring.push(entry, this.epoch);
    this.filtered.dropEvicted();
    this.filtered.offer(n);
  }

  /**
   * @param {number} from
   * @param {number} to
   * @param {string} [instance] the instance whose changes were missed (a fleet dashboard's merged stream)
   */
  gap(from, to, instance) {
    // On a fresh page the gap is only the history the server no longer keeps: no banner for that.
    if (instance) {
      if (this.entriesReceived > 0) this.report(`gap:${instance}`, `Missed changes ${from}…${to} of ${instance} (the dashboard fell behind the fleet); the log has a hole there.`, "notice");
    } else if (this.mirror.seq !== null) {
      this.report("gap", `Missed changes ${from}…${to} (the dashboard fell behind the server's log); the state was reloaded, the log has a hole there.`, "notice");
    }
    const raw = `{"gap":{"from":${from},"to":${to}}}`;
    this.record({ seq: to, time: new Date(this.now()).toISOString(), store: "", txn: null, event: "gap", patches: [], raw, instance });
    this.versions.log++;
  }

  loseSync(message) {
    this.outOfSync = true;
    this.report("sync", message);
    this.send(resyncRequest(this.nextRequestId++));
  }

  setSubscriptions(list) {
    this.subscriptions = list;
    this.rates.update(list, this.now());
    this.versions.subscriptions++;
  }

  /**
   * Sends a request built with a fresh id; `onReply` gets the decoded reply (or a local error when offline).
   * @param {(id: number) => string} build
   * @param {(reply: {ok: boolean, seq?: number|null, error?: {code: string, message: string}}) => void} onReply
   */
  request(build, onReply) {
    const id = this.nextRequestId++;
    if (!this.send(build(id))) {
      onReply({ ok: false, error: { code: "offline", message: "Not connected to the server; try again once it is back." } });
      return;
    }
    this.pending.set(id, onReply);
  }

  reply(message) {
    const onReply = this.pending.get(message.id);
    if (!onReply) return;
    this.pending.delete(message.id);
    onReply(message);
  }

  /** The connection dropped: requests in flight will get no reply. */
  disconnected() {
    for (const onReply of this.pending.values()) {
      onReply({ ok: false, error: { code: "offline", message: "The connection dropped before the server replied; check the log to see whether the change was made." } });
    }
    this.pending.clear();
  }

  /**
   * What rewinding the stores to change `seq` would undo, as far as this log tells: how many changes come after it
   * (up to the last one applied), the stores of those the log holds, and whether it holds all of them.
   * @param {number} seq
   * @returns {{seq: number, last: number, count: number, stores: string[], events: number, complete: boolean}}
   */
  rewindPreview(seq) {
    const { ring, epoch } = this;
    const last = Math.max(seq, this.mirror.seq ?? seq);
    const stores = new Set();
    let events = 0;
    let seen = 0;
    const at = ring.find(seq, epoch);
    for (let n = at < 0 ? ring.end : at + 1; n < ring.end; n++) {
      if (ring.epoch(n) !== epoch || (ring.flag(n) & opBits.gap) !== 0) continue;
      seen++;
      stores.add(ring.store(n));
      if (ring.flag(n) & opBits.event) events++;
    }
    return { seq, last, count: last - seq, stores: [...stores].sort(), events, complete: at >= 0 && seen === last - seq };
  }

  /**
   * Sets the log's filter and rebuilds the filtered view.
   * @param {import("../../lib/log-filter.mjs").LogFilter} filter
   */
  setFilter(filter) {
    this.filter = filter;
    this.filtered.rebuild(compileFilter(filter, this.ring));
    this.logView.anchor = { pinned: true };
    this.versions.log++;
  }

  /** @param {number} limit */
  setLimit(limit) {
    this.ring.resize(limit);
    this.filtered.rebuild(this.filtered.test);
    this.versions.log++;
  }

  clearLog() {
    this.ring.clear();
    this.filtered.rebuild(this.filtered.test);
    this.versions.log++;
  }

  /**
   * Shows a banner (or raises the count of the same one).
   * @param {string} key what kind of problem, so repeats collapse
   * @param {string} message
   * @param {"error"|"notice"} [level]
   */
  report(key, message, level = "error") {
    const existing = this.problems.find((p) => p.key === key);
    if (existing) {
      existing.count++;
      existing.message = message;
      existing.time = this.now();
    } else {
      this.problems.push({ key, message, count: 1, level, time: this.now() });
      if (this.problems.length > problemLimit) this.problems.shift();
    }
    this.versions.problems++;
  }

  /** Drops notices older than their lifetime. */
  expireNotices() {
    const now = this.now();
    const before = this.problems.length;
    this.problems = this.problems.filter((p) => p.level !== "notice" || now - p.time < noticeLifetimeMs);
    if (this.problems.length !== before) this.versions.problems++;
  }

  /** @param {string} key */
  dismiss(key) {
    const before = this.problems.length;
    this.problems = this.problems.filter((p) => p.key !== key);
    if (this.problems.length !== before) this.versions.problems++;
  }
}

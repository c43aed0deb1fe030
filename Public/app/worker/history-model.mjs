// Key history: the log entries of one store that touched a watched path, an ancestor or a descendant of it, and
// the store's own events (a reset or a re-registration replaces every path). The index is built once by scanning
// the ring and then extended as entries arrive, so it stays cheap for a hot path.

import { describeValue } from "../../lib/format.mjs";
import { historySteps } from "../../lib/history.mjs";
import { pathRelation } from "../../lib/keypath.mjs";
import { opBits } from "../../lib/log-ring.mjs";
import { formatClock } from "../../lib/time.mjs";

const relationOrder = { self: 0, ancestor: 1, descendant: 2 };

export class HistoryModel {
  /**
   * @param {import("./session.mjs").Session} session
   * @param {import("./log-model.mjs").LogModel} log reads entries back from the ring
   */
  constructor(session, log) {
    this.session = session;
    this.log = log;
    this.target = { store: "", path: "" };
    /** @type {number[]} entry numbers, oldest first */
    this.matches = [];
    this.head = 0; // matches before it were dropped from the ring
    this.scanned = 0; // entries before it were looked at
  }

  /** Watches another path (and starts the index over). */
  watch(store, path) {
    if (store === this.target.store && path === this.target.path) return;
    this.target = { store, path };
    this.matches = [];
    this.head = 0;
    this.scanned = this.session.ring.first;
  }

  /** Whether entry `n` concerns the watched path. */
  concerns(n) {
    const { ring } = this.session;
    if (ring.store(n) !== this.target.store) return false;
    const flags = ring.flag(n);
    if (flags & opBits.gap) return false;
    if (flags & opBits.event) return true;
    let related = false;
    for (const path of ring.pathList(n).split("\n")) if (pathRelation(this.target.path, path) !== null) related = true;
    if (!related) return false;
    // A merge into an ancestor concerns the path only when it merged the key on the way to it: read the entry.
    if (flags & opBits.merge) {
      const entry = this.log.entry(n);
      return entry !== null && historySteps(entry, this.target.path).length > 0;
    }
    return true;
  }

  /** Looks at the entries that arrived since the last call and forgets those the ring dropped. */
  sync() {
    const { ring } = this.session;
    if (this.scanned < ring.first) this.scanned = ring.first;
    for (; this.scanned < ring.end; this.scanned++) if (this.concerns(this.scanned)) this.matches.push(this.scanned);
    while (this.head < this.matches.length && this.matches[this.head] < ring.first) this.head++;
    if (this.head > 4096 && this.head * 2 > this.matches.length) {
      this.matches = this.matches.slice(this.head);
      this.head = 0;
    }
  }

  get count() { return this.matches.length - this.head; }

  /** Row `row` counted from the newest. */
  row(row) {
    const n = this.matches[this.matches.length - 1 - row];
    const { ring } = this.session;
    const base = { n, seq: ring.seq(n), time: formatClock(ring.time(n)), fullTime: ring.time(n), txn: ring.txn(n) ?? "", revertable: this.log.revertable(n) };
    const entry = this.log.entry(n);
    if (!entry) return { ...base, kind: "change", relation: "self", op: "?", path: "", before: null, after: null, known: false, more: 0 };
    if (entry.event) return { ...base, kind: "event", op: entry.event, version: entry.version ?? "" };
    const steps = historySteps(entry, this.target.path).sort((a, b) => relationOrder[a.relation] - relationOrder[b.relation]);
    const step = steps[0];
    return {
      ...base,
      kind: "change",
      relation: step?.relation ?? "self",
      op: step?.op ?? "",
      path: step?.path ?? "",
      before: step ? describeValue(step.before, 80) : null,
      after: step ? describeValue(step.after, 80) : null,
      known: step?.known ?? true,
      more: Math.max(0, steps.length - 1),
    };
  }

  /**
   * The history panel's section (or the inspector's "recent writes"): rows start..start+count, newest first.
   * @param {number} start
   * @param {number} count
   */
  build(start, count) {
    this.sync();
    const total = this.count;
    const from = Math.max(0, Math.min(start, total - 1));
    const rows = [];
    for (let row = from; row < Math.min(total, from + count); row++) rows.push(this.row(row));
    return { store: this.target.store, path: this.target.path, count: total, start: from, rows };
  }
}

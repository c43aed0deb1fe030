// The log panel's data: the rows on screen (each read again from its stored text, with a small cache), the
// counters, and the detail of the selected entry with its patches and their diffs.

import { diffValues } from "../../lib/diff.mjs";
import { describeValue } from "../../lib/format.mjs";
import { maxMessageDepth, parseJSON } from "../../lib/json-reader.mjs";
import { stringifyValue } from "../../lib/json-writer.mjs";
import { opBits } from "../../lib/log-ring.mjs";
import { decodeStoredEntry } from "../../lib/protocol.mjs";
import { formatClock } from "../../lib/time.mjs";
import { isContainer } from "../../lib/values.mjs";

const rowCacheLimit = 4000;
const rawTextLimit = 200_000;

export class LogModel {
  /** @param {import("./session.mjs").Session} session */
  constructor(session) {
    this.session = session;
    /** @type {Map<number, object>} */
    this.rowCache = new Map();
    /** @type {number|null} the selected entry's number */
    this.selected = null;
  }

  /** Reads entry `n` from the ring, or null when its text cannot be read (it was checked on arrival). */
  entry(n) {
    try {
      return decodeStoredEntry(this.session.ring.raw(n));
    } catch {
      return null;
    }
  }

  /**
   * Whether the server can still revert entry `n` as far as the dashboard can tell. On a fleet dashboard's merged
   * log the revert goes to the entry's instance, unless that one is read-only or gone.
   */
  revertable(n) {
    const { ring, epoch, readOnly, merged, fleetList } = this.session;
    if (readOnly || (ring.flag(n) & (opBits.event | opBits.gap)) !== 0) return false;
    if (!merged) return ring.epoch(n) === epoch;
    const instance = fleetList?.instances.find((i) => i.id === ring.instance(n));
    return instance !== undefined && instance.state === "live" && !instance.readOnly;
  }

  /** One log row, formatted once per entry. @param {number} n */
  row(n) {
    let row = this.rowCache.get(n);
    if (!row) {
      row = this.formatRow(n);
      if (this.rowCache.size >= rowCacheLimit) this.rowCache.clear();
      this.rowCache.set(n, row);
    }
    return { ...row, revertable: this.revertable(n) };
  }

  formatRow(n) {
    const { ring } = this.session;
    const base = {
      n, seq: ring.seq(n), time: formatClock(ring.time(n)), fullTime: ring.time(n), store: ring.store(n), txn: ring.txn(n) ?? "",
      instance: ring.instance(n),
    };
    const flags = ring.flag(n);
    if (flags & opBits.gap) {
      const gap = parseJSON(ring.raw(n), maxMessageDepth).get("gap");
      return { ...base, kind: "gap", op: "gap", path: "", from: gap.get("from"), to: gap.get("to") };
    }
    const entry = this.entry(n);
    if (!entry) return { ...base, kind: "change", op: "?", path: "", more: 0 };
    if (entry.event) {
      return { ...base, kind: "event", op: entry.event, path: "", more: 0, version: entry.version ?? "" };
    }
    const first = entry.patches[0];
    return {
      ...base,
      kind: "change",
      op: first?.op ?? "",
      ops: [...new Set(entry.patches.map((patch) => patch.op))].join(" "),
      path: first?.path ?? "",
      more: Math.max(0, entry.patches.length - 1),
      before: first && first.old !== undefined ? describeValue(first.old, 60) : null,
      after: first && first.new !== undefined ? describeValue(first.new, 60) : null,
    };
  }

  /**
   * The log panel's section.
   * @param {{visible: number, count: number, scrollId?: number}} window rows on screen, rows wanted (with
   *   overscan), and the page's last scroll report (echoed, so the page ignores positions that predate it)
   */
  build(window) {
    const { session } = this;
    const view = session.logView;
    const count = view.count;
    const first = view.firstRow(window.visible);
    const overscan = Math.max(0, Math.floor((window.count - window.visible) / 2));
    const start = Math.max(0, first - overscan);
    const end = Math.min(count, start + window.count);
    const rows = [];
    for (let row = start; row < end; row++) rows.push(this.row(session.filtered.at(view.positionAt(row))));
    return {
      count,
      first,
      start,
      rows,
      pinned: view.anchor.pinned,
      order: view.order,
      paused: view.pausedAt !== null,
      waiting: view.waiting,
      kept: session.ring.size,
      limit: session.ring.capacity,
      generation: session.filtered.generation,
      scrollId: window.scrollId ?? 0,
      selected: this.selected,
      selectedRow: this.selected === null ? -1 : this.rowOfEntry(this.selected),
    };
  }

  /** The view row showing entry `n`, or -1. */
  rowOfEntry(n) {
    const position = this.session.filtered.positionOf(n);
    if (position < 0) return -1;
    const row = this.session.logView.rowOf(position);
    return row >= 0 && row < this.session.logView.count ? row : -1;
  }

  /**
   * Selects the entry `delta` rows from the selected one (arrow keys); the first row when none is selected.
   * @param {number} delta
   * @returns {number} the selected view row, or -1
   */
  move(delta) {
    const view = this.session.logView;
    if (view.count === 0) return -1;
    const current = this.selected === null ? -1 : this.rowOfEntry(this.selected);
    const row = current < 0 ? 0 : Math.min(view.count - 1, Math.max(0, current + delta));
    this.selected = this.session.filtered.at(view.positionAt(row));
    return row;
  }

  /**
   * The detail of the selected entry: every patch with old and new values and their diff, and the raw JSON.
   * @returns {object|null}
   */
  detail() {
    const n = this.selected;
    const { ring } = this.session;
    if (n === null || !ring.has(n)) return null;
    const row = this.row(n);
    if (row.kind === "gap") return { ...row, patches: [], raw: ring.raw(n) };
    const entry = this.entry(n);
    let raw = entry ? stringifyValue(parseJSON(ring.raw(n), maxMessageDepth), { indent: 2 }) : ring.raw(n);
    if (raw.length > rawTextLimit) raw = `${raw.slice(0, rawTextLimit)}\n…`;
    const patches = (entry?.patches ?? []).map((patch) => {
      const both = patch.old !== undefined && patch.new !== undefined && (isContainer(patch.old) || isContainer(patch.new));
      const diff = both ? diffValues(patch.old, patch.new, 300) : null;
      return {
        op: patch.op,
        path: patch.path,
        old: patch.old === undefined ? null : describeValue(patch.old, 400),
        new: patch.new === undefined ? null : describeValue(patch.new, 400),
        diff: diff && {
          truncated: diff.truncated,
          rows: diff.rows.map((d) => ({
            path: d.path,
            change: d.change,
            old: d.old === undefined ? null : describeValue(d.old, 200),
            new: d.new === undefined ? null : describeValue(d.new, 200),
          })),
        },
      };
    });
    return {
      ...row, epochOld: !this.session.merged && ring.epoch(n) !== this.session.epoch, merged: this.session.merged,
      patches, raw, version: entry?.version ?? "",
    };
  }
}

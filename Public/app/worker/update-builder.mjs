// Builds the update the page draws next: counters and connection always, the store list, and the sections of the
// visible panel only. Sections that are costly and change constantly (the inspector of a large value, the live
// log at high rates, the subscriptions table) are refreshed at a bounded rate.

import { ToPage } from "../../lib/messages.mjs";
import { valueAtPath } from "../../lib/mirror.mjs";
import { fleetMode } from "./fleet-model.mjs";
import { subscriptionRows } from "../../lib/subscriptions.mjs";

/** How often the subscriptions panel is refreshed while only the data moves (its "missing path" marks). */
const subscriptionRefreshMs = 250;
/** How often the inspector is refreshed while its value keeps changing. */
const inspectorRefreshMs = 200;
/**
 * Above this many changes per second the live log is redrawn at most every `busyLogRefreshMs`: nobody reads rows
 * that fast, and redrawing the whole list at every frame would take the page's time from input.
 */
const busyRate = 1000;
const busyLogRefreshMs = 100;
/** The window over which the incoming rate is measured. */
const rateWindowMs = 2000;

export class UpdateBuilder {
  /**
   * @param {{session: import("./session.mjs").Session, tree: import("./tree-model.mjs").TreeModel,
   *   log: import("./log-model.mjs").LogModel, history: import("./history-model.mjs").HistoryModel,
   *   view: any, phase: any}} parts `view` and `phase` are the worker's live objects
   */
  constructor({ session, tree, log, history, view, phase }) {
    Object.assign(this, { session, tree, log, history, view, phase });
    /** @type {Array<[number, number]>} (time, entries received) samples for the rate */
    this.rateSamples = [];
    // What was last sent, so unchanged costly sections are left out.
    this.sent = {
      problems: -1, subscriptions: -1, subscriptionsTime: 0, detailKey: "",
      inspectorKey: "", inspectorData: -1, inspectorTime: 0, logView: -1, logTime: 0,
    };
    /** Raised by every change of the log's view (filter, order, scroll, selection, pause), not by arriving entries. */
    this.logViewVersion = 0;
  }

  logViewChanged() {
    this.logViewVersion++;
  }

  /** Forgets what was sent, so the next update has every section (the page was showing another session's). */
  forget() {
    for (const key of Object.keys(this.sent)) this.sent[key] = typeof this.sent[key] === "string" ? "" : -1;
    this.logViewVersion++;
  }

  /** Changes per second over the last couple of seconds. */
  entryRate(now) {
    const { rateSamples, session } = this;
    rateSamples.push([now, session.entriesReceived]);
    while (rateSamples.length > 2 && now - rateSamples[0][0] > rateWindowMs) rateSamples.shift();
    const [t0, c0] = rateSamples[0];
    return now > t0 ? ((session.entriesReceived - c0) * 1000) / (now - t0) : 0;
  }

  /** The next update for the page. */
  build() {
    const { session, tree, view, sent } = this;
    const now = Date.now();
    session.recent.prune(now);
    session.expireNotices();
    const update = {
      type: ToPage.update,
      now,
      stats: {
        seq: session.mirror.seq, entriesReceived: session.entriesReceived, entriesKept: session.ring.size,
        rate: this.entryRate(now), subscriptions: session.subscriptions.length,
      },
      conn: {
        ...this.phase, server: session.server, readOnly: session.readOnly, outOfSync: session.outOfSync,
        instance: session.instance ?? null, fleet: session.fleetName, mode: fleetMode(session),
      },
    };
    if (sent.problems !== session.versions.problems) {
      sent.problems = session.versions.problems;
      update.problems = session.problems.map(({ key, message, count, level }) => ({ key, message, count, level }));
    }
    const searches = view.panel === "stores" ? tree.search(view.search) : null;
    update.stores = session.merged ? this.loggedStores() : [...session.mirror.stores.values()]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((s) => ({
        id: s.id, scope: s.scope, storage: s.storage, version: s.version, size: s.root.size,
        changedAt: session.recent.at(s.id, ""), matches: searches ? searches.get(s.id)?.count ?? 0 : null,
      }));
    const storeId = tree.storeId(view.store);
    update.store = storeId;
    switch (view.panel) {
      case "stores": return this.addStores(update, storeId, now);
      case "log": return this.addLog(update, now);
      case "history":
        this.history.watch(storeId, view.path);
        update.history = this.history.build(view.history.start, view.history.count);
        return update;
      case "subscriptions": return this.addSubscriptions(update, now);
      // The feature panels' sections come from their own models (the worker adds them).
      default: return update;
    }
  }

  /**
   * A merged stream has no mirror: its stores are those its log has seen (for the log's filter and the write
   * form), without sizes.
   */
  loggedStores() {
    return this.session.ring.stores.ids.filter((id) => id !== "").sort().map((id) => {
      const slash = id.indexOf("/");
      return { id, scope: id.slice(0, slash), storage: id.slice(slash + 1), version: "", size: 0, changedAt: 0, matches: null };
    });
  }

  addStores(update, storeId, now) {
    const { view, sent, tree } = this;
    update.tree = tree.build(view);
    // The inspector: at once for another path, else at most every `inspectorRefreshMs` while its value changes.
    const key = `${storeId}\u0000${view.path}`;
    const stale = sent.inspectorData !== this.session.versions.data && now - sent.inspectorTime >= inspectorRefreshMs;
    if (key !== sent.inspectorKey || stale) {
      sent.inspectorKey = key;
      sent.inspectorData = this.session.versions.data;
      sent.inspectorTime = now;
      update.inspector = tree.inspect(storeId, view.path);
    }
    if (view.path) {
      this.history.watch(storeId, view.path);
      update.recent = this.history.build(0, 5);
    }
    return update;
  }

  addLog(update, now) {
    const { view, sent, log, session } = this;
    this.selectEntryFromURL();
    if (sent.logView !== this.logViewVersion || update.stats.rate < busyRate || now - sent.logTime >= busyLogRefreshMs) {
      sent.logView = this.logViewVersion;
      sent.logTime = now;
      update.log = log.build(view.log);
    }
    const detailKey = `${log.selected}\u0000${session.readOnly}\u0000${session.epoch}`;
    if (detailKey !== sent.detailKey) {
      sent.detailKey = detailKey;
      update.detail = log.detail();
    }
    return update;
  }

  addSubscriptions(update, now) {
    const { session, sent } = this;
    if (sent.subscriptions !== session.versions.subscriptions || now - sent.subscriptionsTime > subscriptionRefreshMs) {
      sent.subscriptions = session.versions.subscriptions;
      sent.subscriptionsTime = now;
      const exists = (store, path) => {
        const root = session.mirror.stores.get(store)?.root;
        return root !== undefined && valueAtPath(root, path) !== undefined;
      };
      update.subscriptions = subscriptionRows(session.subscriptions, session.rates.current(now), exists);
    }
    return update;
  }

  /** A `?entry=SEQ` link selects that change once it is in the log (it may still be on its way). */
  selectEntryFromURL() {
    const { view, log, session } = this;
    // On a merged log a seq names a change of each instance: a link to one selects nothing.
    if (view.entry === null || log.selected !== null || session.merged) return;
    const n = session.ring.find(view.entry, session.epoch);
    if (n >= 0) {
      log.selected = n;
      const row = log.rowOfEntry(n);
      if (row >= 0) session.logView.scrollTo(Math.max(0, row - 3), view.log.visible);
      view.entry = null;
    } else if (session.mirror.seq !== null && session.mirror.seq >= view.entry) {
      view.entry = null; // the log never got it (it is older than what the server still had)
    }
  }
}

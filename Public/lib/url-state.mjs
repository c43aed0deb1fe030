// The view in the page's URL, so a reload or a shared link lands in the same place: the panel, the selected store
// and path, the tree search, the log's filters, order, size limit and selected entry, the Preferences panel's
// segment and search, the server recording being replayed with its seq, and on a fleet dashboard the picked
// instance and the Diff panel's two instances. The token stays in the URL.

import { isInstanceId } from "./fleet.mjs";
import { panels } from "./panels.mjs";

export { livePanels, panels } from "./panels.mjs";

/** The Preferences panel's segments (as in preferences.mjs). */
const preferenceSegments = ["all", "userDefaults", "secrets"];

/** The log's default size limit (entries kept). */
export const defaultLogLimit = 100_000;

/**
 * @typedef {{token: string, panel: string, store: string, path: string, search: string,
 *   filter: import("./log-filter.mjs").LogFilter, order: "newest"|"oldest", limit: number, entry: number|null,
 *   prefSegment?: string, prefSearch?: string, replay?: string, seq?: number, instance: string, diffA: string,
 *   diffB: string}} ViewState   the Preferences panel's segment and search are absent while at their defaults
 *   ("all", ""); `replay` (a server recording's id, `fixtures/checkout-session.kslog`) and `seq` while one is
 *   replayed; `instance` is the fleet dashboard's picked instance ("" for all of them, and on a single server),
 *   `diffA` and `diffB` the Diff panel's instances
 */

/**
 * Reads the view from a URL's query.
 * @param {string} search `location.search`
 * @returns {ViewState}
 */
export function readViewState(search) {
  const query = new URLSearchParams(search);
  const text = (key) => query.get(key) ?? "";
  const instanceIn = (key) => (isInstanceId(text(key)) ? text(key) : "");
  const limit = Number(query.get("limit"));
  const entry = Number(query.get("entry"));
  const state = {
    token: text("token"),
    panel: panels.includes(text("panel")) ? text("panel") : "stores",
    store: text("store"),
    path: text("path"),
    search: text("q"),
    filter: { store: text("fstore"), path: text("fpath"), op: text("fop"), text: text("ftext"), instance: instanceIn("finst") },
    order: text("order") === "oldest" ? "oldest" : "newest",
    limit: Number.isInteger(limit) && limit >= 1000 && limit <= 5_000_000 ? limit : defaultLogLimit,
    entry: query.has("entry") && Number.isInteger(entry) && entry > 0 ? entry : null,
    instance: instanceIn("instance"),
    diffA: instanceIn("da"),
    diffB: instanceIn("db"),
  };
  if (preferenceSegments.includes(text("pseg")) && text("pseg") !== "all") state.prefSegment = text("pseg");
  if (text("pq")) state.prefSearch = text("pq");
  const seq = Number(query.get("seq"));
  if (/^[^/]+\/[^/]+$/.test(text("replay"))) {
    state.replay = text("replay");
    state.seq = query.has("seq") && Number.isInteger(seq) && seq >= 0 ? seq : 0;
  }
  return state;
}

/**
 * Writes the view as a query string, leaving out what is at its default so links stay short.
 * @param {ViewState} state
 * @returns {string} starting with "?"
 */
export function writeViewState(state) {
  const query = new URLSearchParams();
  const put = (key, value, fallback = "") => {
    if (value !== fallback && value !== null && value !== undefined) query.set(key, String(value));
  };
  put("token", state.token);
  put("instance", state.instance);
  put("panel", state.panel, "stores");
  put("store", state.store);
  put("path", state.path);
  put("q", state.search);
  put("fstore", state.filter.store);
  put("fpath", state.filter.path);
  put("fop", state.filter.op);
  put("ftext", state.filter.text);
  put("finst", state.filter.instance);
  put("order", state.order, "newest");
  put("limit", state.limit, defaultLogLimit);
  put("entry", state.entry, null);
  put("pseg", state.prefSegment, "all");
  put("pq", state.prefSearch);
  put("da", state.diffA);
  put("db", state.diffB);
  if (state.replay) {
    put("replay", state.replay);
    put("seq", state.seq ?? 0);
  }
  return `?${query}`;
}

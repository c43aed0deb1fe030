// The diff of two instances' states (`GET /api/fleet/diff?a=ID&b=ID`, docs/fleet.md) without DOM: read, checked,
// and turned into the rows the Diff panel draws (store by store, each differing key path with both sides' values,
// a side without a value shown as absent), searchable by path and value text.

import { stringifyValue } from "./json-writer.mjs";
import { describeValue } from "./format.mjs";

/**
 * @typedef {{path: string, a: any, b: any}} Difference   `a`/`b` are StoreValues, undefined where a side has none
 * @typedef {{a: string, b: string, stores: Map<string, Difference[]>, onlyIn: {a: string[], b: string[]},
 *   pairs: Map<string, string>, truncated: boolean, count: number}} FleetDiff   `stores` by A's id; `pairs` names
 *   B's id of a file store kept in another folder on B (compared as one store)
 * @typedef {{store: string, path: string, key: string, a: import("./format.mjs").ValueView,
 *   b: import("./format.mjs").ValueView}} DiffRow   `key` names the row (store and path)
 */

/**
 * Reads the endpoint's body (as the StoreValue JSON reader gives it).
 * @param {any} body
 * @returns {FleetDiff}
 * @throws {TypeError} naming what is wrong
 */
export function readFleetDiff(body) {
  if (!(body instanceof Map)) throw new TypeError("the diff is not a JSON object");
  const a = body.get("a");
  const b = body.get("b");
  const stores = body.get("stores");
  const onlyIn = body.get("onlyIn") ?? new Map();
  if (typeof a !== "string" || typeof b !== "string") throw new TypeError('the diff should name its two instances ("a", "b")');
  if (!(stores instanceof Map)) throw new TypeError('the diff\'s "stores" should be an object');
  if (!(onlyIn instanceof Map)) throw new TypeError('the diff\'s "onlyIn" should be an object');
  const byStore = new Map();
  let count = 0;
  for (const store of [...stores.keys()].sort()) {
    const items = stores.get(store);
    if (!Array.isArray(items)) throw new TypeError(`the diff of ${store} should be an array`);
    const differences = items.map((item, i) => {
      if (!(item instanceof Map) || typeof item.get("path") !== "string") {
        throw new TypeError(`difference ${i} of ${store} should be an object with a "path"`);
      }
      return { path: item.get("path"), a: item.get("a"), b: item.get("b") };
    });
    count += differences.length;
    if (differences.length > 0) byStore.set(store, differences);
  }
  const side = (name) => {
    const list = onlyIn.get(name) ?? [];
    if (!Array.isArray(list)) throw new TypeError(`the diff's "onlyIn.${name}" should be an array`);
    return list.filter((id) => typeof id === "string");
  };
  const pairs = new Map();
  const listed = body.get("pairs") ?? new Map();
  if (!(listed instanceof Map)) throw new TypeError('the diff\'s "pairs" should be an object');
  for (const [idA, idB] of listed) if (typeof idB === "string") pairs.set(idA, idB);
  return { a, b, stores: byStore, onlyIn: { a: side("a"), b: side("b") }, pairs, truncated: body.get("truncated") === true, count };
}

/**
 * Whether a difference matches a search: every word (case-insensitive) is in its store, path or either value.
 * @param {string} store
 * @param {Difference} difference
 * @param {string[]} words lower case
 */
function matches(store, difference, words) {
  if (words.length === 0) return true;
  const text = (value) => (value === undefined ? "" : stringifyValue(value, { maxLength: 2000 }));
  const haystack = `${store}\n${difference.path}\n${text(difference.a)}\n${text(difference.b)}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * The Diff panel's groups: one per store with differences, each row with both sides' short previews.
 * @param {FleetDiff} diff
 * @param {string} [search] words every shown row contains
 * @param {number} [limit] rows drawn at most (the rest are counted)
 * @returns {{groups: Array<{store: string, rows: DiffRow[], total: number}>, shown: number, hidden: number}}
 */
export function diffGroups(diff, search = "", limit = 2000) {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = [];
  let shown = 0;
  let hidden = 0;
  for (const [store, differences] of diff.stores) {
    const rows = [];
    let total = 0;
    for (const difference of differences) {
      if (!matches(store, difference, words)) continue;
      total++;
      if (shown >= limit) {
        hidden++;
        continue;
      }
      shown++;
      rows.push({
        store, path: difference.path, key: diffKey(store, difference.path),
        a: describeValue(difference.a, 90), b: describeValue(difference.b, 90),
      });
    }
    if (total > 0) groups.push({ store, rows, total });
  }
  return { groups, shown, hidden };
}

/**
 * A row's name: its store and path.
 * @param {string} store
 * @param {string} path
 */
export function diffKey(store, path) {
  return `${store}\u0000${path}`;
}

/**
 * One difference in full, for the detail: both sides as indented StoreValue JSON (null where a side has none).
 * @param {FleetDiff} diff
 * @param {string} store
 * @param {string} path
 * @param {number} [max] characters of each side at most
 * @returns {{store: string, storeB: string, path: string, a: string|null, b: string|null, aView: any, bView: any}|null}
 *   `storeB`: the store's id on B (another one for a file store kept in another folder there)
 */
export function diffDetail(diff, store, path, max = 100_000) {
  const difference = diff.stores.get(store)?.find((d) => d.path === path);
  if (!difference) return null;
  const full = (value) => {
    if (value === undefined) return null;
    return stringifyValue(value, { indent: 2, maxLength: max });
  };
  return {
    store, storeB: diff.pairs.get(store) ?? store, path, a: full(difference.a), b: full(difference.b),
    aView: describeValue(difference.a, 200), bView: describeValue(difference.b, 200),
  };
}

/**
 * The diff's counts in words: `14 differing paths in 2 stores · 1 store only in shop-1`.
 * @param {FleetDiff} diff
 */
export function diffSummary(diff) {
  const stores = diff.stores.size;
  const parts = [diff.count === 0 && diff.onlyIn.a.length === 0 && diff.onlyIn.b.length === 0
    ? "No difference: both states are equal"
    : `${diff.count.toLocaleString("en-US")} differing path${diff.count === 1 ? "" : "s"} in ${stores} store${stores === 1 ? "" : "s"}${diff.truncated ? " (the first ones only)" : ""}`];
  for (const [side, id] of [["a", diff.a], ["b", diff.b]]) {
    const only = diff.onlyIn[side].length;
    if (only) parts.push(`${only} store${only === 1 ? "" : "s"} only in ${id}`);
  }
  return parts.join(" · ");
}

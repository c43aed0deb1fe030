// Subscriptions as the panel shows them: deliveries per second computed from successive lists (the server sends
// counts, not rates: the list again at most once a second while counts move, so a quiet one means nothing was
// delivered), and the two things worth a second look: paths many subscribers watch, and subscriptions to
// paths that do not exist in the store.

/** A store path with at least this many subscriptions is "hot". */
export const hotThreshold = 3;

/**
 * @typedef {{id: number|string, store: string, path: string, label: string|null, since: string, deliveries: number,
 *   rate: number|null, watchers: number, hot: boolean, missing: boolean}} SubscriptionRow
 */

export class SubscriptionRates {
  constructor() {
    /** @type {Map<string, {deliveries: number, time: number, rate: number|null}>} */
    this.previous = new Map();
  }

  /**
   * Reads a new list; rates compare each subscription's deliveries with the last list that had it.
   * @param {import("./protocol.mjs").Subscription[]} list
   * @param {number} now milliseconds
   * @returns {Map<string, number|null>} deliveries per second by subscription key, null until two lists are seen
   */
  update(list, now) {
    const next = new Map();
    const rates = new Map();
    for (const item of list) {
      const key = subscriptionKey(item);
      const last = this.previous.get(key);
      let rate = last?.rate ?? null;
      if (last && now > last.time) {
        rate = Math.max(0, (item.deliveries - last.deliveries) / ((now - last.time) / 1000));
      }
      next.set(key, { deliveries: item.deliveries, time: now, rate });
      rates.set(key, rate);
    }
    this.previous = next;
    return rates;
  }

  /**
   * The rates as of `now`: the server re-sends the list within about a second whenever counts move, so a list older
   * than `quietMs` means nothing was delivered since, and its rates are 0 (not the last burst's, frozen).
   * @param {number} now milliseconds
   * @param {number} [quietMs]
   * @returns {Map<string, number|null>}
   */
  current(now, quietMs = quietAfterMs) {
    const rates = new Map();
    for (const [key, { time, rate }] of this.previous) {
      rates.set(key, rate !== null && now - time > quietMs ? 0 : rate);
    }
    return rates;
  }
}

/** How long without a list (the server checks counts once a second) before rates are taken to be 0. */
export const quietAfterMs = 2500;

/**
 * One item per subscription and path (a subscription on several paths has several items with the same id).
 * @param {{id: number|string, path: string}} item
 */
export function subscriptionKey(item) {
  return `${item.id}\u0000${item.path}`;
}

/**
 * The rows of the panel.
 * @param {import("./protocol.mjs").Subscription[]} list
 * @param {Map<string, number|null>} rates
 * @param {(store: string, path: string) => boolean} exists whether the path holds a value in the mirror
 * @returns {SubscriptionRow[]}
 */
export function subscriptionRows(list, rates, exists) {
  const watchers = new Map();
  for (const item of list) {
    const key = `${item.store}\u0000${item.path}`;
    watchers.set(key, (watchers.get(key) ?? 0) + 1);
  }
  return list.map((item) => {
    const count = watchers.get(`${item.store}\u0000${item.path}`);
    return {
      ...item,
      rate: rates.get(subscriptionKey(item)) ?? null,
      watchers: count,
      hot: count >= hotThreshold,
      missing: !exists(item.store, item.path),
    };
  });
}

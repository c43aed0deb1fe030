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
    /** @type {Map<string, {samples: Array<[number, number]>, rate: number|null}>} */
    this.previous = new Map();
  }

  /**
   * Reads a new list. A rate is the deliveries over the last few seconds of lists (`windowMs`), once they span at
   * least `minSpanMs`: two lists a moment apart (a subscription started just after the timer's list) would make
   * one delivery look like many per second.
   * @param {import("./protocol.mjs").Subscription[]} list
   * @param {number} now milliseconds
   * @returns {Map<string, number|null>} deliveries per second by subscription key, null until lists span enough
   */
  update(list, now) {
    const next = new Map();
    const rates = new Map();
    for (const item of list) {
      const key = subscriptionKey(item);
      const last = this.previous.get(key);
      const older = (last?.samples ?? []).filter(([time]) => time < now);
      // The samples within the window, or (after a quiet spell) the newest one, so the rate spans the quiet too.
      const samples = older.filter(([time]) => now - time <= windowMs);
      if (samples.length === 0 && older.length > 0) samples.push(older[older.length - 1]);
      samples.push([now, item.deliveries]);
      const [firstTime, firstCount] = samples[0];
      const rate = now - firstTime >= minSpanMs
        ? Math.max(0, (item.deliveries - firstCount) / ((now - firstTime) / 1000))
        : last?.rate ?? null;
      next.set(key, { samples, rate });
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
    for (const [key, { samples, rate }] of this.previous) {
      const lastTime = samples[samples.length - 1][0];
      rates.set(key, rate !== null && now - lastTime > quietMs ? 0 : rate);
    }
    return rates;
  }
}

/** Rates are averaged over the lists of this many milliseconds… */
export const windowMs = 5000;
/** …and need lists at least this far apart. */
export const minSpanMs = 900;

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

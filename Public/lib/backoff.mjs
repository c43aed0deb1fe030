// Reconnect delays: quick at first (a server restart takes about a second), then doubling up to a ceiling, with
// jitter so that many open dashboards do not reconnect in lockstep.

export const firstDelay = 250;
export const maxDelay = 5000;

/**
 * The wait before reconnect attempt `attempt` (0 for the first).
 * @param {number} attempt
 * @param {() => number} [random] a source in [0, 1)
 * @returns {number} milliseconds
 */
export function reconnectDelay(attempt, random = Math.random) {
  const base = Math.min(maxDelay, firstDelay * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

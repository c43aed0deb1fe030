// Log times are RFC 3339 UTC with microseconds; the dashboard shows them as a local clock with milliseconds.

/**
 * Milliseconds since the epoch of an RFC 3339 time (microseconds are cut to milliseconds), or NaN.
 * @param {string} text
 */
export function parseTime(text) {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!match) return NaN;
  const millis = (match[2] ?? "").slice(0, 3).padEnd(3, "0");
  return Date.parse(`${match[1]}.${millis}${match[3]}`);
}

/**
 * `HH:MM:SS.mmm` in the local time zone (or UTC), or the text itself when it is not a time.
 * @param {string} text
 * @param {{utc?: boolean}} [options]
 */
export function formatClock(text, { utc = false } = {}) {
  const time = parseTime(text);
  if (Number.isNaN(time)) return text;
  const date = new Date(time);
  const [h, m, s, ms] = utc
    ? [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()]
    : [date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()];
  const two = (x) => String(x).padStart(2, "0");
  return `${two(h)}:${two(m)}:${two(s)}.${String(ms).padStart(3, "0")}`;
}

/**
 * How long ago, short: "4 s", "12 min", "3 h", "2 d".
 * @param {number} then milliseconds
 * @param {number} now milliseconds
 */
export function formatAge(then, now) {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

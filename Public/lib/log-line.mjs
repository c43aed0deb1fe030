// One line of a recording (docs/recording.md, docs/store.md): its time, its store id, and its patches read with the fields
// each op needs, as `keyscope replay` checks them. Whether a patch applies to the state as it stands (`old` equal to
// the value there, presence included) is checked as it is applied: recording-state.mjs.

import { patchOps } from "./protocol.mjs";

export const versionPattern = /^\d+\.\d+\.\d+$/;
const timePattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})\.(\d{6})[Zz]$/;

/**
 * Microseconds since 1970 of a docs/recording.md time (`YYYY-MM-DDTHH:MM:SS.ffffffZ`, UTC, six fraction digits).
 * @param {string} text
 * @returns {number}
 * @throws {Error} saying what is wrong
 */
export function parseLogTime(text) {
  // Events come many to a second: the date and time of day are read once per second of them.
  const code = text.charCodeAt(26);
  if (text.length === 27 && text.startsWith(lastSecond.prefix) && text.charCodeAt(19) === 0x2e && (code === 0x5a || code === 0x7a)) {
    let fraction = 0;
    for (let i = 20; i < 26; i++) {
      const digit = text.charCodeAt(i) - 0x30;
      if (digit < 0 || digit > 9) {
        fraction = -1;
        break;
      }
      fraction = fraction * 10 + digit;
    }
    if (fraction >= 0) return lastSecond.micros + fraction;
  }
  const match = timePattern.exec(text);
  if (!match) throw new Error(`"${text}" is not an RFC 3339 UTC time with microseconds (YYYY-MM-DDTHH:MM:SS.ffffffZ)`);
  const [year, month, day, hour, minute, second, fraction] = match.slice(1).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw new Error(`"${text}" is not a date that exists`);
  if (hour > 23 || minute > 59 || second > 59) throw new Error(`"${text}" has a time of day out of range`);
  const micros = (((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second) * 1e6;
  lastSecond.prefix = text.slice(0, 19);
  lastSecond.micros = micros;
  return micros + fraction;
}

/** The last whole second read (its text up to the seconds, `YYYY-MM-DDTHH:MM:SS`), for the next times in it. */
const lastSecond = { prefix: "\u0000", micros: 0 };

function daysInMonth(year, month) {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(year, month, day) {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Whether `text` is a store id (docs/store.md "Store ids"): `app` or `scenario:<id>`, then `memory`, `userPrefs`,
 * `userPrefs:<suite>`, `file:<path>`, `backend:<namespace>` or `secrets:<service>`.
 * @param {string} text
 */
export function isStoreId(text) {
  const slash = text.indexOf("/");
  if (slash < 0) return false;
  const scope = text.slice(0, slash);
  const storage = text.slice(slash + 1);
  // eslint-disable-next-line no-control-regex
  const plain = (name) => name.length > 0 && !/[/\u0000-\u001f\u007f-\u009f]/.test(name);
  const scopeOK = scope === "app" || (scope.startsWith("scenario:") && plain(scope.slice(9)));
  return scopeOK && (storage === "memory" || storage === "userPrefs" || (storage.startsWith("userPrefs:") && plain(storage.slice(10)))
    || (storage.startsWith("file:") && storage.length > 5) || (storage.startsWith("backend:") && plain(storage.slice(8)))
    || (storage.startsWith("secrets:") && plain(storage.slice(8))));
}

/**
 * One patch of a line, checked for the fields its op needs (as the server's patch reader checks them).
 * @returns {import("./protocol.mjs").Patch}
 */
export function readPatch(value, index, paths) {
  if (!(value instanceof Map)) throw new Error(`patch ${index + 1} is not an object`);
  return patchOf(value.get("op"), value.get("path"), value.get("old"), value.get("new"), index, paths);
}

/**
 * A patch from its fields, checked as `readPatch` checks them (with the same messages): for readers that take a
 * patch apart themselves. `old` and `new` are undefined when absent.
 * @returns {{patch: import("./protocol.mjs").Patch, segments: import("./keypath.mjs").Segment[]}}
 */
export function patchOf(op, path, old, value, index, paths) {
  const where = `patch ${index + 1}`;
  if (!patchOps.has(op)) throw new Error(`${where}: "op" must be set, insert, remove or merge`);
  if (typeof path !== "string") throw new Error(`${where}: "path" must be a string`);
  let segments;
  try {
    segments = paths.segments(path);
  } catch (error) {
    throw new Error(`${where}: ${error.message}`);
  }
  const patch = { op, path, old, new: value };
  if ((op === "set" || op === "insert") && patch.new === undefined) throw new Error(`${where}: a ${op} patch needs "new"`);
  if (op === "insert" && patch.old !== undefined) throw new Error(`${where}: an insert patch has no "old"`);
  if (op === "insert" && typeof segments[segments.length - 1] === "string") throw new Error(`${where}: an insert patch needs an index path`);
  if (op === "remove" && (patch.old === undefined || patch.new !== undefined)) throw new Error(`${where}: a remove patch has "old" and no "new"`);
  if (op === "merge" && (!(patch.new instanceof Map) || !(patch.old instanceof Map))) throw new Error(`${where}: a merge patch needs "old" and "new" objects`);
  if (segments.length === 0 && (op === "insert" || op === "remove")) throw new Error(`${where}: a ${op} patch cannot address the root`);
  if (segments.length === 0 && op === "set" && !(patch.new instanceof Map)) throw new Error(`${where}: the root must be an object`);
  return { patch, segments };
}

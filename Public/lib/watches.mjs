// The Watches panel's model, without DOM: the body of `GET /api/watches` (docs/preferences.md) read and checked,
// and the rows the page draws: statuses by name (history newest first), rules by id with what they allow in words,
// violations newest first with their rule's label, each value as display text.

import { describeValue } from "./format.mjs";
import { compareScalars } from "./json-writer.mjs";

/**
 * @typedef {{type: string, text: string}} Shown   a value as display text (see format.describeValue)
 * @typedef {{time: string, before: any, after: any}} HistoryItem   before and after are StoreValues (null: created)
 * @typedef {{name: string, key: string, suite: string, value: any, stored: any, inSync: boolean, checked: string,
 *   history: HistoryItem[]}} Status
 * @typedef {{id: string, label: string, store: string, path: string, expected: any, allowed: any[]|null,
 *   current: any, ok: boolean, violations: number}} Rule
 * @typedef {{rule: string, store: string, path: string, seq: number|null, time: string, value: any,
 *   message: string}} Violation
 * @typedef {{statuses: Status[], rules: Rule[], violations: Violation[]}} WatchesPanel
 * @typedef {{name: string, key: string, suite: string, value: Shown, stored: Shown, inSync: boolean,
 *   checked: string, history: Array<{time: string, before: Shown|null, after: Shown}>}} StatusRow
 *   history newest first; `before` is null when the change created the key
 * @typedef {{id: string, label: string, store: string, path: string, expectation: string, current: Shown,
 *   ok: boolean, violations: number}} RuleRow
 * @typedef {{key: string, rule: string, label: string, store: string, path: string, seq: number|null,
 *   inLog: boolean, time: string, value: Shown, message: string}} ViolationRow
 * @typedef {{statuses: number, outOfSync: number, rules: number, violated: number, violations: number}} WatchCounts
 */

const text = (raw, key) => (typeof raw.get(key) === "string" ? raw.get(key) : "");

function list(body, key) {
  const value = body.get(key) ?? [];
  if (!Array.isArray(value)) throw new TypeError(`"${key}" should be an array`);
  return value.map((raw, i) => {
    if (!(raw instanceof Map)) throw new TypeError(`${key}[${i}] should be an object`);
    return raw;
  });
}

/**
 * Reads the body of `GET /api/watches` (already read by the StoreValue JSON reader).
 * @param {any} body
 * @returns {WatchesPanel}
 * @throws {TypeError} naming the member that is wrong
 */
export function readWatchesPanel(body) {
  if (!(body instanceof Map)) throw new TypeError("the answer is not a JSON object");
  const statuses = list(body, "statuses").map((raw) => {
    const history = raw.get("history");
    return {
      name: text(raw, "name") || text(raw, "key"), key: text(raw, "key"), suite: text(raw, "suite"),
      value: raw.get("value") ?? null, stored: raw.get("stored") ?? null, inSync: raw.get("inSync") === true,
      checked: text(raw, "checked"),
      history: Array.isArray(history)
        ? history.filter((h) => h instanceof Map).map((h) => ({ time: text(h, "time"), before: h.get("before") ?? null, after: h.get("after") ?? null }))
        : [],
    };
  });
  const rules = list(body, "rules").map((raw) => {
    const allowed = raw.get("allowed");
    const count = raw.get("violations");
    return {
      id: text(raw, "id"), label: text(raw, "label"), store: text(raw, "store"), path: text(raw, "path"),
      expected: raw.get("expected") ?? null, allowed: Array.isArray(allowed) ? allowed : null,
      current: raw.get("current") ?? null, ok: raw.get("ok") === true, violations: typeof count === "number" ? count : 0,
    };
  });
  const violations = list(body, "violations").map((raw) => {
    const seq = raw.get("seq");
    return {
      rule: text(raw, "rule"), store: text(raw, "store"), path: text(raw, "path"),
      seq: typeof seq === "number" && Number.isInteger(seq) && seq > 0 ? seq : null,
      time: text(raw, "time"), value: raw.get("value") ?? null, message: text(raw, "message"),
    };
  });
  return { statuses, rules, violations };
}

/** @returns {Shown} */
function shown(value) {
  const view = describeValue(value, 80);
  return { type: view.type, text: view.text };
}

/**
 * In words, what a rule allows: `= "dark"`, `one of "light", "dark", "system"`.
 * @param {Rule} rule
 */
export function expectationText(rule) {
  if (rule.allowed) return rule.allowed.length === 0 ? "nothing allowed" : `one of ${rule.allowed.map((v) => shown(v).text).join(", ")}`;
  return `= ${shown(rule.expected).text}`;
}

/**
 * The panel's rows: statuses by name, rules by id, violations newest first (by seq, then time), history newest
 * first; `inLog` says whether the dashboard's log holds the violating change (its link then selects it).
 * @param {WatchesPanel} panel
 * @param {(seq: number) => boolean} [inLog]
 * @returns {{statuses: StatusRow[], rules: RuleRow[], violations: ViolationRow[], counts: WatchCounts}}
 */
export function watchesView(panel, inLog = () => false) {
  const labels = new Map(panel.rules.map((r) => [r.id, r.label]));
  const statuses = [...panel.statuses]
    .sort((a, b) => compareScalars(a.name, b.name) || compareScalars(a.key, b.key))
    .map((s) => ({
      name: s.name, key: s.key, suite: s.suite, value: shown(s.value), stored: shown(s.stored), inSync: s.inSync, checked: s.checked,
      history: s.history.map((h) => ({ time: h.time, before: h.before === null ? null : shown(h.before), after: shown(h.after) })).reverse(),
    }));
  const rules = [...panel.rules]
    .sort((a, b) => compareScalars(a.id, b.id))
    .map((r) => ({
      id: r.id, label: r.label, store: r.store, path: r.path, expectation: expectationText(r), current: shown(r.current),
      ok: r.ok, violations: r.violations,
    }));
  const violations = panel.violations
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (b.v.seq ?? -1) - (a.v.seq ?? -1) || compareScalars(b.v.time, a.v.time) || a.i - b.i)
    .map(({ v, i }) => ({
      key: v.seq === null ? `${v.rule}\u0000${v.time}\u0000${i}` : `${v.rule}\u0000${v.seq}`,
      rule: v.rule, label: labels.get(v.rule) ?? "", store: v.store, path: v.path, seq: v.seq,
      inLog: v.seq !== null && inLog(v.seq), time: v.time, value: shown(v.value), message: v.message,
    }));
  const counts = {
    statuses: statuses.length, outOfSync: statuses.filter((s) => !s.inSync).length,
    rules: rules.length, violated: rules.filter((r) => !r.ok).length, violations: violations.length,
  };
  return { statuses, rules, violations, counts };
}

/**
 * The header's summary: `3 statuses · 1 out of sync · 2 rules · 1 violated`.
 * @param {WatchCounts} counts
 */
export function watchesSummary(counts) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
  const parts = [plural(counts.statuses, "status")];
  if (counts.outOfSync) parts.push(`${counts.outOfSync} out of sync`);
  parts.push(plural(counts.rules, "rule"));
  if (counts.violated) parts.push(`${counts.violated} violated`);
  return parts.join(" · ");
}

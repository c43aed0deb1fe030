// Requests to the server as JSON text. Values arrive already written by the StoreValue JSON writer (see value-input),
// because JSON.stringify cannot write a number like 3.0 (it would arrive as the integer 3).

/**
 * @typedef {{op: "set"|"insert"|"remove"|"merge", path: string, json?: string}} WriteOp
 *   `json` is the value's StoreValue JSON text, absent for remove
 */

function opMembers({ op, path, json }) {
  const members = `"op":${JSON.stringify(op)},"path":${JSON.stringify(path)}`;
  return op === "remove" ? members : `${members},"value":${json}`;
}

/**
 * @param {number} id
 * @param {string} store
 * @param {WriteOp} op
 */
export function writeRequest(id, store, op) {
  return `{"id":${id},"type":"write","store":${JSON.stringify(store)},${opMembers(op)}}`;
}

/**
 * Sets one tunable (a top-level key of the tunables' store, checked against their schema by the server).
 * @param {number} id
 * @param {string} key
 * @param {string} json the value as StoreValue JSON text
 */
export function tuneRequest(id, key, json) {
  return `{"id":${id},"type":"tune","key":${JSON.stringify(key)},"value":${json}}`;
}

/**
 * Removes one tunable (a `tune` request with `"op": "remove"`); reading it then gives its default, if any.
 * @param {number} id
 * @param {string} key
 */
export function tuneRemoveRequest(id, key) {
  return `{"id":${id},"type":"tune","op":"remove","key":${JSON.stringify(key)}}`;
}

/**
 * All or nothing: one change with one txn.
 * @param {number} id
 * @param {string} store
 * @param {WriteOp[]} ops
 */
export function transactionRequest(id, store, ops) {
  return `{"id":${id},"type":"transaction","store":${JSON.stringify(store)},"ops":[${ops.map((op) => `{${opMembers(op)}}`).join(",")}]}`;
}

/**
 * Applies the inverse of change `seq`.
 * @param {number} id
 * @param {number} seq
 */
export function revertRequest(id, seq) {
  return `{"id":${id},"type":"revert","seq":${seq}}`;
}

/**
 * Puts every live store back as it was at change `seq`, undoing every change after it (docs/recording.md "Rewind").
 * @param {number} id
 * @param {number} seq
 */
export function rewindRequest(id, seq) {
  return `{"id":${id},"type":"rewind","seq":${seq}}`;
}

/** @param {number} id */
export function resyncRequest(id) {
  return `{"id":${id},"type":"resync"}`;
}

/**
 * A request (as built above) addressed to one instance of a fleet, or to every live one with "*": a fleet
 * dashboard's `/ws?instance=*` carries it there (docs/fleet.md).
 * @param {string} text a request object's JSON text
 * @param {string} instance an instance id, or "*"
 */
export function toInstance(text, instance) {
  if (!text.startsWith("{")) throw new TypeError("a request is a JSON object");
  return `{"instance":${JSON.stringify(instance)},${text.slice(1)}`;
}

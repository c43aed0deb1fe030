// The names a change line's reader (change-bytes.mjs) knows, in bytes: the members of a line and of a patch, each
// a bit of what the reader has seen, recognized by their bytes in one pass; the ops; and a UUID's shape, byte by byte.

// The members of a line and of a patch, as bits of what was seen.
export const SEQ = 1, TIME = 2, STORE = 4, TXN = 8, PATCHES = 16, OTHER = 32, SUBSCRIPTIONS = 64, EVENT = 128;
export const OP = 1, PATH = 2, OLD = 4, NEW = 8;
/** The members a change line must have. */
export const required = SEQ | TIME | STORE | PATCHES;

const ascii = (text) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/**
 * Names the reader knows, by their first byte, so that a key is recognized by its bytes in one pass (its quotes
 * included): for each byte, [name, bit, name, bit, …].
 */
function nameTable(names) {
  const table = Array.from({ length: 256 }, () => []);
  for (const [name, bit] of names) table[name.charCodeAt(0)].push(ascii(`${name}"`), bit);
  return table;
}
export const lineNames = nameTable([["seq", SEQ], ["txn", TXN], ["time", TIME], ["store", STORE], ["event", EVENT], ["patches", PATCHES], ["subscriptions", SUBSCRIPTIONS]]);
export const patchNames = nameTable([["op", OP], ["old", OLD], ["new", NEW], ["path", PATH]]);
const [setName, mergeName, insertName, removeName] = ["set", "merge", "insert", "remove"].map(ascii);

// A UUID, byte by byte: what each of its 36 characters is (1: a hex digit, 2: "-"), and what each byte is.
export const uuidShape = Uint8Array.from({ length: 36 }, (_, i) => (i === 8 || i === 13 || i === 18 || i === 23 ? 2 : 1));
export const uuidByte = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") uuidByte[c.charCodeAt(0)] = 1;
uuidByte[0x2d] = 2;

/** Whether the bytes at `start` are `name` (the caller knows the lengths are the same). */
export function is(bytes, start, name) {
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
  return true;
}

/** The op at bytes start..<end (inside its quotes), null for anything else. */
export function opAt(bytes, start, end) {
  switch (end - start) {
    case 3: return is(bytes, start, setName) ? "set" : null;
    case 5: return is(bytes, start, mergeName) ? "merge" : null;
    case 6: return is(bytes, start, insertName) ? "insert" : is(bytes, start, removeName) ? "remove" : null;
    default: return null;
  }
}

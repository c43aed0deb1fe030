// Loads the shared docs/store.md vectors from fixtures/values/ with the platform's JSON.parse (never with the reader
// under test). Key-path indexes can exceed 2^53, so they are read as strings.

import { readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);

/** @param {string} name a file in fixtures/values/ */
export function loadVectors(name) {
  let text = readFileSync(new URL(`fixtures/values/${name}`, root), "utf8");
  if (name === "keypaths.json") text = text.replace(/"index": (\d+)/g, '"index": "$1"');
  return JSON.parse(text);
}


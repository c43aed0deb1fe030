// A formatted value (from the worker's describeValue) as a span: colored by type, a swatch for colors, a link for
// URLs. Used by the tree, the log, the history and the diff view.

import { h, setProp, setText } from "./dom.mjs";

/**
 * @param {import("../../lib/format.mjs").ValueView|null} view null renders as "absent"
 * @param {{linkURLs?: boolean}} [options]
 * @returns {HTMLElement}
 */
export function valueElement(view, { linkURLs = true } = {}) {
  if (!view) return h("span", { className: "value v-absent", textContent: "absent" });
  const span = h("span", { className: `value v-${view.type}`, title: typeTitle(view) });
  fillValue(span, view, linkURLs);
  return span;
}

/**
 * Fills an existing span with a value, so recycled rows keep their elements.
 * @param {HTMLElement} span
 * @param {import("../../lib/format.mjs").ValueView|null} view
 * @param {boolean} [linkURLs]
 */
export function fillValue(span, view, linkURLs = true) {
  setProp(span, "className", `value v-${view ? view.type : "absent"}`);
  setProp(span, "title", view ? typeTitle(view) : "absent");
  if (!view) {
    setText(span, "absent");
    return;
  }
  if (view.swatch) {
    span.replaceChildren(h("i", { className: "swatch", style: `--swatch:${cssColor(view.swatch)}` }), view.text);
  } else if (view.href && linkURLs && /^https?:/i.test(view.href)) {
    span.replaceChildren(h("a", { href: view.href, target: "_blank", rel: "noopener noreferrer", textContent: view.text }));
  } else if (span.firstElementChild || span.textContent !== view.text) {
    span.textContent = view.text;
  }
}

/** A `#RRGGBB[AA]` color as CSS (already validated as hex by the reader; checked again, as it goes into a style). */
function cssColor(hex) {
  return /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/.test(hex) ? hex : "transparent";
}

const typeNames = {
  integer: "integer", number: "number", string: "string", bool: "boolean", null: "null", color: "color", url: "URL",
  array: "array", object: "object", absent: "absent",
};

function typeTitle(view) {
  return `${typeNames[view.type] ?? view.type}: ${view.text.length > 300 ? `${view.text.slice(0, 300)}…` : view.text}`;
}

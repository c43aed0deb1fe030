// Small DOM helpers. Text only ever goes in through textContent (or attributes), never as HTML.

/**
 * Creates an element. `props` are properties (className, type, title…), except `dataset`, `attrs` (attributes,
 * such as data-testid and aria-*), `on` (event listeners) and `style` (a CSS text).
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...(Node|string|null|undefined|false)} children strings become text nodes
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "attrs") for (const [name, v] of Object.entries(value)) { if (v !== undefined && v !== null && v !== false) element.setAttribute(name, String(v)); }
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "on") for (const [type, listener] of Object.entries(value)) element.addEventListener(type, listener);
    else if (key === "style") element.style.cssText = value;
    else element[key] = value;
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/**
 * Sets an element's text only when it differs (assigning the same text still costs a layout).
 * @param {Element} element
 * @param {string} text
 */
export function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * Adds or removes a class only when needed.
 * @param {Element} element
 * @param {string} name
 * @param {boolean} on
 */
export function setClass(element, name, on) {
  if (element.classList.contains(name) !== on) element.classList.toggle(name, on);
}

/**
 * Sets a property (hidden, disabled, className…) only when it changes: assigning the same value still records a
 * mutation and can cost a style pass.
 * @param {HTMLElement} element
 * @param {string} name
 * @param {any} value
 */
export function setProp(element, name, value) {
  if (element[name] !== value) element[name] = value;
}

/**
 * Sets or removes an attribute only when it changes.
 * @param {Element} element
 * @param {string} name
 * @param {string|null} value null removes it
 */
export function setAttr(element, name, value) {
  if (value === null) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) {
    element.setAttribute(name, value);
  }
}

/**
 * Copies text to the clipboard; falls back to a hidden text area where the Clipboard API is not allowed.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { value: text, style: "position:fixed;opacity:0" });
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

/** An icon from the inline sprite in index.html. @param {string} name @param {string} [label] */
export function icon(name, label) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", label ? "false" : "true");
  if (label) svg.setAttribute("aria-label", label);
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#i-${name}`);
  svg.append(use);
  return svg;
}

/**
 * Makes a select's options match `choices` by changing only what differs: options that stay keep their elements,
 * so an open list or a pointer over it is not disturbed when one store comes or goes.
 * @param {HTMLSelectElement} select
 * @param {Array<{value: string, label: string}>} choices
 * @param {string} selected the value to select (kept as it is when not among the choices)
 */
export function syncOptions(select, choices, selected) {
  const wanted = new Set(choices.map((c) => c.value));
  for (const option of [...select.options]) if (!wanted.has(option.value)) option.remove();
  choices.forEach((choice, i) => {
    let option = select.options[i];
    if (option?.value !== choice.value) {
      option = [...select.options].find((o) => o.value === choice.value) ?? h("option", { value: choice.value });
      select.insertBefore(option, select.options[i] ?? null);
    }
    setText(option, choice.label);
  });
  if (wanted.has(selected) && select.value !== selected) select.value = selected;
}

/**
 * Makes `parent`'s children exactly `children`, in order, moving only what is out of place: moving an element
 * that holds the focus would blur it, and rebuilding rows under the pointer would swallow clicks.
 * @param {HTMLElement} parent
 * @param {HTMLElement[]} children
 */
export function placeChildren(parent, children) {
  children.forEach((child, i) => {
    if (parent.children[i] !== child) parent.insertBefore(child, parent.children[i] ?? null);
  });
  while (parent.children.length > children.length) parent.lastElementChild.remove();
}

/**
 * Saves a Blob as a download named `name` (a recording fetched with the token, which a plain link could not send).
 * @param {Blob} blob
 * @param {string} name
 */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

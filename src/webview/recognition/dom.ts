/** DOM building: elements with attributes and text children only (server text never becomes markup). */

/** An element with attributes and children; strings become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string>,
  children?: (Node | string)[],
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children || []) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

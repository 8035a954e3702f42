/* A small DOM builder, so the view reads like the markup it makes. */

type Child = Node | string | number | null | undefined | false;

/**
 * Makes an element: `on…` props become event listeners, other props are set as attributes.
 *
 * @example
 * h("button", { "data-testid": "join", onclick: () => join() }, "Join")
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string | boolean | ((event: Event) => void)> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, "");
    else if (value !== false) element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(typeof child === "number" ? String(child) : child);
  }
  return element;
}

/** The element with this id (the page's markup has it). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}

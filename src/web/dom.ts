/// <reference lib="dom" />
/**
 * Tiny DOM helpers for the explorer. Text is always set through textContent (never innerHTML),
 * so values from the API cannot inject markup.
 */

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/** The element with `id`, of the expected kind; a missing one is a bug in index.html. */
export function byId<T extends HTMLElement>(id: string, kind: { new (): T }): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind))
    throw new Error(`explorer: #${id} is missing or not a ${kind.name}`);
  return element;
}

export function showMessage(element: HTMLElement, text: string): void {
  element.textContent = text;
  element.hidden = text === "";
}

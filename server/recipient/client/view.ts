// The page's few elements, made with the DOM (no framework: the page carries no third-party code).
// Every text is set as text, never as HTML: the file's name comes from the server.

type Child = Node | string;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<
    Record<'id' | 'className' | 'role' | 'type' | 'href' | 'for' | 'name' | 'aria-label', string>
  > = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props))
    node.setAttribute(name === 'className' ? 'class' : name, value);
  node.append(...children);
  return node;
}

/** The main area, emptied and filled with `children`. */
export function show(...children: Child[]): void {
  const main = document.getElementById('app')!;
  main.replaceChildren(...children);
}

/** A sentence that something went wrong; read out at once by screen readers. */
export function problem(...sentences: string[]): HTMLElement {
  return el('div', { className: 'problem', role: 'alert' }, ...sentences.map((s) => el('p', {}, s)));
}

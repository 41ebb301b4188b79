// The extension's Origin Private File System as one of its pages sees it (all its pages and
// workers share it): where large uploads keep their encrypted copy until sent.

/** Names in the OPFS root, sorted, read in an extension page (a driver's page or Playwright's). */
export function opfsNames(page: { evaluate<R>(fn: () => Promise<R>): Promise<R> }): Promise<string[]> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const name of (root as any).keys()) names.push(name as string);
    return names.sort();
  });
}

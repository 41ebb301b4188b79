// Where a fetch that followed redirects ended up. A server, or a page that chose the address, can
// redirect a request to another site; what arrives from there is not what was asked for (or what a
// permission was asked for), so the callers refuse it.

/** The host the answer came from when a redirect left the requested URL's origin; undefined when it stayed. */
export function landedElsewhere(requested: string, res: { url: string }): string | undefined {
  // An answer made in code has no url: it was not redirected.
  if (!res.url) return undefined;
  const landed = new URL(res.url);
  return landed.origin === new URL(requested).origin ? undefined : landed.host;
}

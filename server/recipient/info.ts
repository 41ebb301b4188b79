// GET /_hushdrop/info: what this server is, so a client (the extension's "Test connection") can
// tell a Hushdrop server from any other Teknik-API server. Public: it holds nothing secret.

const INFO = {
  server: 'hushdrop',
  /** Version of this description. */
  version: 1,
  /** Links of client-encrypted uploads open in any browser (the recipient page). */
  recipientPage: true,
  /** The API variants it speaks. */
  variants: ['legacy', 'current'],
};

export const serverInfo = {
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache' },
  body: Buffer.from(JSON.stringify(INFO)),
};

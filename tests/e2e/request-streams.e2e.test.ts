// The request-stream feature test (lib/upload/capabilities.ts) run in the real browsers: headless
// firefox-esr, which must say no (it would send a stream body as the text "[object
// ReadableStream]", shown here on a loopback server), and Chromium, which must say yes. The
// extension also never streams in a Firefox build (import.meta.env.FIREFOX), whatever this says.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../devkit/chromium';
import { launchFirefox } from '../../devkit/firefox';
import { requestStreamsSupported } from '../../lib/upload/capabilities';

// The detector as the page runs it: its own source, called with the page's Request.
const detect = `(${requestStreamsSupported.toString()})(globalThis.Request)`;
// What the page's fetch does with a stream body: the server answers with what it received.
const sendStream = `fetch('/echo', {
  method: 'POST',
  body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('streamed bytes')); c.close(); } }),
  duplex: 'half',
}).then((r) => r.text(), (e) => 'refused: ' + e)`;

const received: string[] = [];
const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>streams</title>');
    return;
  }
  let body = '';
  req.setEncoding('latin1');
  req.on('data', (d: string) => {
    body += d;
  });
  req.on('end', () => {
    received.push(`${req.headers['content-type'] ?? ''} ${body}`);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(body);
  });
});
let origin: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A page script given as source text (Marionette is sent a function's source). */
const script = (code: string) => ({ toString: () => `() => ${code}` }) as unknown as () => unknown;

describe('Firefox', () => {
  it('fails the feature test, and indeed sends a stream body as text', async () => {
    const fx = await launchFirefox();
    try {
      const tab = await fx.openUrl(`${origin}/`);
      expect(await fx.run(tab, script(detect))).toBe(false);
      // Why the test exists: Firefox ESR neither streams nor throws.
      expect(await fx.run(tab, script(sendStream))).toBe('[object ReadableStream]');
      expect(received.at(-1)).toMatch(/^text\/plain/);
    } finally {
      await fx.close();
    }
  });
});

describe('Chromium', () => {
  it('passes the feature test (it streams over HTTP/2; to this HTTP/1.1 server it refuses)', async () => {
    // Without the extension: the feature test is the page's own.
    const browser = await launchChromium({ extensionDir: false });
    try {
      const page = await browser.ctx.newPage();
      await page.goto(`${origin}/`);
      expect(await page.evaluate(detect)).toBe(true);
      const before = received.length;
      expect(await page.evaluate(sendStream)).toMatch(/^refused: TypeError/);
      expect(received.length).toBe(before);
    } finally {
      await browser.close();
    }
  });
});

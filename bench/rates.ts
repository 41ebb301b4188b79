// Row l's use of the rates that choose an encrypted upload's one-request way (lib/upload/plan.ts, kept
// in each server's record: lib/upload/capabilities.ts), read and written from one of the extension's
// pages (devkit/capabilities.ts): to start each link from none, to know what the warm-up uploads
// taught, and to send one upload the other way and then put the record back. The records written
// here say the server's info was asked (and lists no parts), so no upload asks it in a timed run.
import type { Page } from 'playwright-core';
import { readStoredCapabilities as readRecords } from '../devkit/capabilities';
import type { Capabilities, ServerRates } from '../lib/upload';
import type { OneRequestWay } from '../lib/upload/capabilities';

export { writeCapabilities as writeRecords } from '../devkit/capabilities';
export { readRecords };

/** Samples the rates hold for `origin` (each finished upload there adds one, just after it ends). */
export function samplesFor(caps: Capabilities, origin: string): number {
  const rates = caps.servers[origin]?.rates;
  return (rates?.stream?.samples ?? 0) + (rates?.send?.samples ?? 0);
}

/** Waits until an upload's sample has been written (it is written as the upload ends). */
export async function sampleWritten(page: Page, origin: string, before: number, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  while (samplesFor(await readRecords(page), origin) === before) {
    if (Date.now() > end) throw new Error(`No upload rate was recorded for ${origin}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A record that sends the next upload to `origin` (a server without parts) the given way (no rates: the stream first). */
export function recordsFor(origin: string, way: OneRequestWay): Capabilities {
  const now = Date.now();
  const figure = (rate: number) => ({ rate, samples: 1, at: now });
  const rates: ServerRates | undefined =
    way === 'disk'
      ? { stream: figure(1), send: figure(1e12), chosen: 'disk', streamsSinceDisk: 0 }
      : undefined;
  return {
    servers: {
      [origin]: { infoAt: now, parts: false, formats: ['teknik'], at: now, ...(rates ? { rates } : {}) },
    },
    encrypt: way === 'disk' ? { teknik: figure(1e12), ece: figure(1e12) } : {},
  };
}

// Row l's use of the figures that choose an encrypted upload's way (lib/upload/transport-choice.ts),
// read and written from one of the extension's pages (devkit/transport-figures.ts): to start
// each link from none, to know what the warm-up uploads taught, and to send one upload the other
// way and then put the figures back.
import type { Page } from 'playwright-core';
import { readTransportFigures as readFigures } from '../devkit/transport-figures';
import { NO_FIGURES, type TransportFigures, type UploadWay } from '../lib/upload';

export { writeTransportFigures as writeFigures } from '../devkit/transport-figures';
export { readFigures };

/** Samples the figures hold for `origin` (each finished upload there adds one, just after it ends). */
export function samplesFor(figures: TransportFigures, origin: string): number {
  const o = figures.origins[origin];
  return (o?.stream?.samples ?? 0) + (o?.send?.samples ?? 0);
}

/** Waits until an upload's sample has been written (it is written as the upload ends). */
export async function sampleWritten(page: Page, origin: string, before: number, limitMs = 30_000) {
  const end = Date.now() + limitMs;
  while (samplesFor(await readFigures(page), origin) === before) {
    if (Date.now() > end) throw new Error(`No upload rate was recorded for ${origin}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Figures that send the next upload to `origin` the given way (none at all: the stream first). */
export function figuresFor(origin: string, way: UploadWay): TransportFigures {
  if (way === 'stream') return NO_FIGURES;
  const figure = (rate: number) => ({ rate, samples: 1, at: Date.now() });
  return {
    origins: { [origin]: { stream: figure(1), send: figure(1e12), chosen: 'disk', streamsSinceDisk: 0 } },
    encrypt: { teknik: figure(1e12), ece: figure(1e12) },
  };
}

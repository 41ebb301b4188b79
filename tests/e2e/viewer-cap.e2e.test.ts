// The viewer caps what it writes at the size an upload recorded (issue 17, finding 2), in both
// browsers: an upload in the history whose server answers with more bytes than the upload had is
// stopped with a sentence, and no copy of it is kept or offered. Two ways a server sends more:
// it announces a longer length (refused before a byte is written), or it announces none and never
// stops (only the viewer's cap can end that download: the server sees the viewer hang up).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { opfsNames } from '../../devkit/opfs';
import { until } from '../../devkit/wait';
import type { Driver, DriverPage } from './driver/driver';
import { forEachBrowser } from './driver/each-browser';
import { putUpload } from './support/history';
import { UNGRANTED_HOST } from './support/hosts';
import { type OversizedServer, startOversized } from './support/oversized';
import { openFromList } from './support/uploads';

/** What the uploads recorded: the file had this many bytes. */
const RECORDED = 100_000;
/** A Teknik key (32 letters and digits): the bytes are random, so any key decrypts them to noise. */
const KEY = 'k'.repeat(32);
let server: OversizedServer;

beforeAll(async () => {
  server = await startOversized(RECORDED + 1000, UNGRANTED_HOST);
});

afterAll(async () => {
  await server?.close();
});

/**
 * Puts a client-mode upload of RECORDED bytes at `path` of the server in the history, as the
 * upload would have recorded it: an upload the viewer decrypts, so its Open goes to the viewer.
 */
async function recorded(d: Driver, name: string, path: string): Promise<void> {
  const url = `${server.origin}${path}`;
  const list = await d.open('uploads.html');
  try {
    const entry = {
      id: `${d.name}-${name}`,
      link: `${url}#${KEY}`,
      url,
      fileName: path.slice(1),
      variant: 'current',
      mode: 'client',
      key: KEY,
      size: RECORDED,
      type: 'application/octet-stream',
      name,
      time: Date.now(),
      server: server.origin,
    };
    await until(() => list.evaluate(putUpload, entry).then((put) => put || undefined), 'the history');
  } finally {
    await list.close();
  }
}

/** The viewer stopped with the size sentence; nothing is offered, and no copy is left on disk. */
async function expectStopped(viewer: DriverPage) {
  const alert = '.error.card[role="alert"]';
  await viewer.waitFor(alert);
  expect(await viewer.text(alert)).toBe(
    'The server sent more than the 100,000 bytes this file has, so the download was stopped and nothing was kept.',
  );
  expect(await viewer.count('#save')).toBe(0);
  expect((await opfsNames(viewer)).filter((n) => n.startsWith('open-'))).toEqual([]);
}

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  it('a server that announces more than the upload recorded: refused, nothing kept or offered', async () => {
    await recorded(d, `announced-${d.name}.bin`, '/announced.bin');
    const viewer = await openFromList(d, `announced-${d.name}.bin`);
    await expectStopped(viewer);
    await viewer.close();
  });

  it('a server that announces no length and never stops: stopped at the recorded size', async () => {
    const before = server.hangUps();
    await recorded(d, `endless-${d.name}.bin`, '/endless.bin');
    const viewer = await openFromList(d, `endless-${d.name}.bin`);
    await expectStopped(viewer);
    // The viewer hung up on its own: the server would have gone on sending.
    await until(async () => server.hangUps() > before || undefined, 'the viewer to hang up');
    await viewer.close();
  });
});

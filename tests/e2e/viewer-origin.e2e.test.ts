// The viewer stays on the link's origin (issue 17, finding 2), in both browsers: a pasted link
// whose server redirects the download to another site is refused with a sentence, and no file is
// offered. The browser is the point: it follows the redirect, and only its answer's URL tells.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachBrowser } from './driver/each-browser';
import { UNGRANTED_HOST } from './support/hosts';
import { type Site, startSite } from './support/site';
import { openInViewer } from './support/uploads';

let site: Site;
let elsewhere: Site;

beforeAll(async () => {
  site = await startSite(randomBytes(1000), UNGRANTED_HOST);
  // On 127.0.0.1, which the manifest grants: only the origin check stands in the way.
  elsewhere = await startSite(randomBytes(1000));
});

afterAll(async () => {
  await site?.close();
  await elsewhere?.close();
});

forEachBrowser({ grantHosts: [UNGRANTED_HOST] }, (d) => {
  it('a link whose server redirects to another site: refused, nothing offered', async () => {
    const to = encodeURIComponent(`${elsewhere.origin}/cat.png`);
    const viewer = await openInViewer(d, `${site.origin}/redirect?to=${to}#${'a'.repeat(32)}`);
    const alert = '.error.card[role="alert"]';
    await viewer.waitFor(alert);
    expect(await viewer.text(alert)).toContain(`another server (${new URL(elsewhere.origin).host})`);
    expect(await viewer.count('#save')).toBe(0);
    await viewer.close();
  });
});

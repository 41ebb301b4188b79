import { describe, expect, it } from 'vitest';
import {
  chromiumFacts,
  type ExtensionFacts,
  firefoxFacts,
  type SenderKind,
  senderAllowed,
  senderKind,
} from '../../lib/messaging/senders';
import { ALLOWED_SENDERS } from '../../platform/messaging/protocol';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const ORIGIN = `chrome-extension://${ID}`;
const CHROMIUM: ExtensionFacts = {
  id: ID,
  origin: ORIGIN,
  backgroundUrl: `${ORIGIN}/background.js`,
  offscreenUrl: `${ORIGIN}/offscreen.html`,
};
const FIREFOX: ExtensionFacts = { id: 'hushdrop@hushdrop.invalid', origin: 'moz-extension://0c6f2a3e-1111' };

const tab = { id: 7, index: 0 };
/** One sender of each kind, as Chromium reports it. */
const SENDERS: Record<Exclude<SenderKind, 'unknown'>, object> = {
  'content-script': { id: ID, url: 'https://shop.example/cart', tab },
  page: { id: ID, url: `${ORIGIN}/popup.html` },
  background: { id: ID, url: `${ORIGIN}/background.js` },
  offscreen: { id: ID, url: `${ORIGIN}/offscreen.html` },
};

describe('senderKind', () => {
  it('places each of our contexts from what the browser reports', () => {
    for (const [kind, sender] of Object.entries(SENDERS)) expect(senderKind(sender, CHROMIUM)).toBe(kind);
    // Our pages in a tab (the upload page, the popup opened as a tab) are pages.
    expect(senderKind({ id: ID, url: `${ORIGIN}/upload.html`, tab }, CHROMIUM)).toBe('page');
    expect(senderKind({ id: ID, url: `${ORIGIN}/uploads.html?x=1#y`, tab }, CHROMIUM)).toBe('page');
  });

  it('a tab showing the background or offscreen address is a page, not that context', () => {
    expect(senderKind({ id: ID, url: `${ORIGIN}/offscreen.html`, tab }, CHROMIUM)).toBe('page');
    expect(senderKind({ id: ID, url: `${ORIGIN}/background.js`, tab }, CHROMIUM)).toBe('page');
  });

  it('a content script is known by its web page and its tab', () => {
    expect(senderKind({ id: ID, url: 'http://127.0.0.1:8080/', tab }, CHROMIUM)).toBe('content-script');
    // The URL a web page reports never makes it one of ours, whatever its path says.
    expect(senderKind({ id: ID, url: 'https://evil.example/background.js', tab }, CHROMIUM)).toBe(
      'content-script',
    );
    expect(senderKind({ id: ID, url: `https://evil.example/${ORIGIN}/offscreen.html`, tab }, CHROMIUM)).toBe(
      'content-script',
    );
    // Without a tab, or from a page that is not http(s), it is nothing we know.
    expect(senderKind({ id: ID, url: 'https://shop.example/' }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ id: ID, url: 'about:blank', tab }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ id: ID, url: 'file:///etc/passwd', tab }, CHROMIUM)).toBe('unknown');
  });

  it('another extension, a missing or broken URL: unknown', () => {
    expect(senderKind({ id: 'other', url: `${ORIGIN}/background.js` }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ url: `${ORIGIN}/background.js` }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ id: ID }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ id: ID, url: 'not a url' }, CHROMIUM)).toBe('unknown');
    expect(senderKind({ id: ID, url: `chrome-extension://${'x'.repeat(32)}/background.js` }, CHROMIUM)).toBe(
      'unknown',
    );
  });

  it('Firefox: no worker and no offscreen document, so nothing is either', () => {
    const bg = { id: FIREFOX.id, url: `${FIREFOX.origin}/_generated_background_page.html` };
    expect(senderKind(bg, FIREFOX)).toBe('page');
    expect(senderKind({ id: FIREFOX.id, url: `${FIREFOX.origin}/offscreen.html` }, FIREFOX)).toBe('page');
    expect(senderKind({ id: FIREFOX.id, url: 'https://shop.example/', tab }, FIREFOX)).toBe('content-script');
  });
});

describe('the table of allowed senders', () => {
  const allowedKinds = (type: keyof typeof ALLOWED_SENDERS, ext: ExtensionFacts) =>
    Object.entries(SENDERS)
      .filter(([, sender]) => senderAllowed(ALLOWED_SENDERS[type], sender, ext))
      .map(([kind]) => kind);

  it('tabs may send only paymentLinksFound and openPayment', () => {
    const fromTabs = Object.keys(ALLOWED_SENDERS).filter((type) =>
      senderAllowed(
        ALLOWED_SENDERS[type as keyof typeof ALLOWED_SENDERS],
        SENDERS['content-script'],
        CHROMIUM,
      ),
    );
    expect(fromTabs.sort()).toEqual(['openPayment', 'paymentLinksFound']);
  });

  it('each message from its one legitimate sender only', () => {
    expect(allowedKinds('startUpload', CHROMIUM)).toEqual(['page']);
    expect(allowedKinds('cancelJob', CHROMIUM)).toEqual(['page']);
    expect(allowedKinds('jobUpdate', CHROMIUM)).toEqual(['offscreen']);
    expect(allowedKinds('runJob', CHROMIUM)).toEqual(['background']);
    expect(allowedKinds('abortJob', CHROMIUM)).toEqual(['background']);
    expect(allowedKinds('copyText', CHROMIUM)).toEqual(['background']);
    expect(allowedKinds('paymentLinksFound', CHROMIUM)).toEqual(['content-script']);
    expect(allowedKinds('openPayment', CHROMIUM)).toEqual(['content-script']);
  });

  it('Firefox runs jobs in the background page itself: a jobUpdate message is never legitimate', () => {
    const senders = [
      { id: FIREFOX.id, url: `${FIREFOX.origin}/_generated_background_page.html` },
      { id: FIREFOX.id, url: `${FIREFOX.origin}/offscreen.html` },
      { id: FIREFOX.id, url: 'https://shop.example/', tab },
    ];
    for (const sender of senders)
      expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, sender, FIREFOX)).toBe(false);
    expect(senderAllowed(ALLOWED_SENDERS.startUpload, senders[0], FIREFOX)).toBe(true);
  });

  it('the upload page reports the jobs it runs, from its tab; no other page may', () => {
    for (const facts of [chromiumFacts(ID, ORIGIN), firefoxFacts(FIREFOX.id, FIREFOX.origin)]) {
      const page = (path: string, inTab = true) => ({
        id: facts.id,
        url: `${facts.origin}/${path}`,
        ...(inTab ? { tab } : {}),
      });
      expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, page('upload.html'), facts)).toBe(true);
      expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, page('upload.html?x#y'), facts)).toBe(true);
      for (const other of [page('popup.html'), page('options.html'), page('upload.html', false)])
        expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, other, facts), other.url).toBe(false);
      // A web page whose path looks like ours is still a web page.
      const web = { id: facts.id, url: 'https://evil.example/upload.html', tab };
      expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, web, facts)).toBe(false);
      // Only the upload page: it may not start runs, copy, or stop jobs on the background's behalf.
      for (const type of ['runJob', 'abortJob', 'copyText', 'readClipboard'] as const)
        expect(senderAllowed(ALLOWED_SENDERS[type], page('upload.html'), facts), type).toBe(false);
    }
  });

  it('Firefox’s background page is the background: it may stop a job an upload page runs', () => {
    const facts = firefoxFacts(FIREFOX.id, FIREFOX.origin);
    const bg = { id: FIREFOX.id, url: `${FIREFOX.origin}/_generated_background_page.html` };
    expect(senderKind(bg, facts)).toBe('background');
    expect(senderAllowed(ALLOWED_SENDERS.abortJob, bg, facts)).toBe(true);
    // The same address in a tab is a page, and there is no offscreen document at all.
    expect(senderKind({ ...bg, tab }, facts)).toBe('page');
    expect(senderKind({ id: FIREFOX.id, url: `${FIREFOX.origin}/offscreen.html` }, facts)).toBe('page');
    expect(senderAllowed(ALLOWED_SENDERS.jobUpdate, bg, facts)).toBe(false);
  });

  it('no sender at all is refused', () => {
    expect(senderAllowed(['page'], undefined, CHROMIUM)).toBe(false);
  });
});

// The server's pages carry only the messages they can show (server/recipient/build.ts): every
// message key their built scripts still name must be one they keep, or the page shows an empty
// sentence where it should say something (as the resume notices did for a while after a rename).
// The built scripts are read (unminified, so that each `t("key")` call is there by name), not the
// sources: a function the pages never call is not in them.
import { expect, it } from 'vitest';
import en from '../../public/_locales/en/messages.json';
import { buildRecipientFiles, PAGE_MESSAGES } from '../../server/recipient/build';

it('keeps every message key its built scripts name', async () => {
  const { files } = await buildRecipientFiles({ minify: false });
  const scripts = [...files].filter(([name]) => name.endsWith('.js'));
  expect(scripts.map(([name]) => name).sort()).toEqual([
    'home.js',
    'parts-worker.js',
    'recipient.js',
    'sw.js',
  ]);
  const named = new Set<string>();
  for (const [, file] of scripts) {
    for (const [, key] of file.body.toString('utf8').matchAll(/\bt\d*\)?\(\s*"([A-Za-z0-9_]+)"/g))
      if (key! in en) named.add(key!);
  }
  expect(named.has('resumeInterrupted')).toBe(true);
  expect([...named].filter((key) => !PAGE_MESSAGES.test(key))).toEqual([]);
});

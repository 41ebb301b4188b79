// Which addresses the server's links and its info endpoint name: public URLs from the config, else what a
// trusted proxy reports per request, else the listening address; never what an untrusted client claims.

import { describe, expect, it } from 'vitest';
import { SERVER_VERSION } from '../../server/version';
import {
  bytesOf,
  currentUploadUrl,
  form,
  legacyUploadUrl,
  post,
  serversStoppedAfterEach,
} from './test-helpers';

const start = serversStoppedAfterEach();

const forwarded = {
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'files.example.net',
  'X-Forwarded-For': '192.0.2.4',
};
const upload = () => form({ encrypt: 'false', file: { bytes: bytesOf('a'), name: 'a.txt' } });

describe('links and the info endpoint', () => {
  it('say what the server is, with its variants, limits and addresses', async () => {
    const t = await start({ maxUploadBytes: 5_000_000 });
    const res = await fetch(`${t.server.baseUrl}/_hushdrop/info`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      server: 'hushdrop',
      version: SERVER_VERSION,
      api: 'teknik-upload-v1',
      linkFormats: ['teknik', 'ece1'],
      variants: {
        legacy: {
          base_url: t.server.baseUrl,
          upload: `${t.server.baseUrl}/v1/Upload?sub=api`,
          uploads: 'open',
          expiry: ['never', 'view', 'minute', 'hour', 'day', 'month', 'year'],
        },
        current: {
          api_url: t.server.apiUrl,
          upload_url: t.server.uploadUrl,
          upload: `${t.server.apiUrl}/v1/Upload`,
          uploads: 'open',
          expiry: [],
        },
      },
      maxUploadBytes: 5_000_000,
      maxAgeSeconds: null,
      accounts: { required: false, auth: 'basic' },
      parts: { partBytes: 16 * 1024 * 1024 },
    });
    expect(await (await fetch(`${t.server.baseUrl}/_hushdrop/health`)).json()).toEqual({ status: 'ok' });
    // The reserved prefix is the server's: nothing else there, and no upload could be named so.
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/anything`)).status).toBe(404);
    expect((await fetch(`${t.server.baseUrl}/_hushdrop/info?sub=u`)).status).toBe(200);
  });

  it('use what a trusted proxy reports, per request, when no public URL is set', async () => {
    const t = await start({ settings: { trustedProxies: ['127.0.0.1'] } });
    const viaProxy = await post(currentUploadUrl(t.server), upload(), forwarded);
    expect(viaProxy.json.result.url).toBe(`https://files.example.net/u/${viaProxy.json.result.fileName}`);
    const legacy = await post(legacyUploadUrl(t.server), upload(), forwarded);
    expect(legacy.json.result.url).toBe(`https://files.example.net/${legacy.json.result.fileName}?sub=u`);
    const info = await (await fetch(`${t.server.baseUrl}/_hushdrop/info`, { headers: forwarded })).json();
    expect(info.variants.current.upload_url).toBe('https://files.example.net/u');
    // A malformed host is not believed.
    const odd = await post(currentUploadUrl(t.server), upload(), {
      ...forwarded,
      'X-Forwarded-Host': 'evil.example/x?',
    });
    expect(odd.json.result.url.startsWith(t.server.uploadUrl)).toBe(true);
  });

  it('ignore X-Forwarded-* from anyone not configured as a proxy', async () => {
    const t = await start();
    const direct = await post(currentUploadUrl(t.server), upload(), forwarded);
    expect(direct.json.result.url).toBe(`${t.server.uploadUrl}/${direct.json.result.fileName}`);
  });

  it('use the public URLs from the settings, whatever a proxy says', async () => {
    const t = await start({
      settings: {
        trustedProxies: ['127.0.0.1'],
        publicUrls: { baseUrl: 'https://drop.example.org', uploadUrl: 'https://u.example.org' },
      },
    });
    expect([t.server.baseUrl, t.server.apiUrl, t.server.uploadUrl]).toEqual([
      'https://drop.example.org',
      'https://drop.example.org/api',
      'https://u.example.org',
    ]);
    // Asked at its listening address, as a proxy would.
    const made = await post(`http://127.0.0.1:${t.server.hushdrop.port}/api/v1/Upload`, upload(), forwarded);
    expect(made.json.result.url).toBe(`https://u.example.org/${made.json.result.fileName}`);
  });
});

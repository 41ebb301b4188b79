// The deployment's settings: defaults, the config file, environment variables (which win), and a sentence
// naming the key for every mistake.

import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadSettings } from '../../server/config/load';
import { defaultSettings, MIB, MIN_PART_BYTES, type ServerSettings } from '../../server/config/settings';
import { startServer } from '../../server/server';
import { startTestServer } from './test-helpers';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hushdrop-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withConfig(config: unknown, env: Record<string, string> = {}) {
  const path = join(dir, 'config.json');
  await writeFile(path, typeof config === 'string' ? config : JSON.stringify(config));
  return loadSettings({ CONFIG: path, HOME: dir, ...env }, '/work');
}

describe('settings', () => {
  it('take the file, then the environment, with paths relative to where each came from', async () => {
    const s = await withConfig(
      {
        port: 9000,
        dataDir: 'data',
        publicUrl: 'https://drop.example.org/',
        trustedProxies: ['10.0.0.0/8', '::1'],
        maxUploadBytes: 1000,
        limits: { requestsPerMinute: 10 },
        expiry: { maxAgeDays: 2, sweepIntervalSeconds: 5 },
        timeouts: { slowClientSeconds: 7 },
        accessLog: 'logs/access.log',
      },
      { PORT: '0', MAX_UPLOAD_BYTES: '2000', REQUIRE_ACCOUNT: 'yes' },
    );
    expect(s).toMatchObject({
      port: 0,
      dataDir: join(dir, 'data'),
      publicUrls: { baseUrl: 'https://drop.example.org' },
      trustedProxies: ['10.0.0.0/8', '::1'],
      maxUploadBytes: 2000,
      requireAccount: true,
      accountsFile: join(dir, 'data', 'accounts.json'),
      maxAgeMs: 2 * 86_400_000,
      sweepIntervalMs: 5000,
      accessLog: join(dir, 'logs', 'access.log'),
    });
    expect(s.limits).toMatchObject({ requestsPerMinute: 10, uploadsPerHourPerAddress: 240 });
    expect(s.timeouts).toMatchObject({ slowClientMs: 7000, headersMs: 20_000 });
    expect(loadSettings({ DATA_DIR: 'rel', XDG_DATA_HOME: '/x' }, '/work').dataDir).toBe('/work/rel');
    expect(loadSettings({ XDG_DATA_HOME: '/x' }, '/work').dataDir).toBe('/x/hushdrop/server');
  });

  it('refuse every mistake with a sentence that names it', async () => {
    const cases: [unknown, Record<string, string>, RegExp][] = [
      ['{ nope', {}, /is not valid JSON/],
      [{ prot: 1 }, {}, /unknown key "prot"/],
      [
        { limits: { requestsPerMinut: 1 } },
        {},
        /"limits" in the config file: unknown key "requestsPerMinut"/,
      ],
      [{ port: 70000 }, {}, /"port" in the config file must be a whole number from 0 to 65535/],
      [{}, { PORT: 'eighty' }, /PORT must be a whole number/],
      [{ publicUrl: 'drop.example.org' }, {}, /must be an absolute URL/],
      [{ publicUrl: 'https://x.org/?a=1' }, {}, /without user, query or fragment/],
      [{ trustedProxies: ['10.0.0.0/33'] }, {}, /"10\.0\.0\.0\/33" is not an IP address or CIDR range/],
      [{}, { REQUIRE_ACCOUNT: 'maybe' }, /REQUIRE_ACCOUNT must be true or false/],
      [{ accounts: [{ username: 'a b', tokenHash: 'x' }] }, {}, /cannot be a username/],
      [{ accounts: [{ username: 'a', tokenHash: 'sha256:abc' }] }, {}, /must look like scrypt/],
      [{ tls: { certFile: 'c.pem' } }, {}, /needs both a certificate file and a key file/],
      [{ uploadUrl: 'https://u.example.org' }, {}, /need publicUrl/],
      [{ tls: { maxConcurrentStreams: 0 } }, {}, /tls\.maxConcurrentStreams must be at least 1/],
      [{ limits: { scryptConcurrency: 'two' } }, {}, /limits\.scryptConcurrency must be a whole number/],
    ];
    for (const [config, env, message] of cases) {
      await expect(withConfig(config, env), JSON.stringify(config)).rejects.toThrow(message);
      await expect(withConfig(config, env)).rejects.toBeInstanceOf(ConfigError);
    }
    expect(() => loadSettings({ CONFIG: join(dir, 'absent.json') })).toThrow(/cannot be read/);
  });

  it('name the line and column of a config file that is not JSON', async () => {
    const path = join(dir, 'config.json');
    const cases: [string, string][] = [
      ['{\n  "port": 8787\n  "host": "x"\n}', 'line 3, column 3: a comma was expected'],
      [
        '{\n  "port": 8787,\n}\n',
        'line 3, column 1: a key in double quotes was expected (a comma too many?)',
      ],
      ['{\n  // a comment\n  "port": 1\n}', 'line 2, column 3: JSON has no comments'],
      ['{\r\n  "host": "x"\r\n}\r\n}', 'line 4, column 1: the text goes on after the end of the JSON'],
      ['', 'the file is empty'],
    ];
    for (const [text, where] of cases) {
      await writeFile(path, text);
      expect(() => loadSettings({ CONFIG: path }), JSON.stringify(text)).toThrow(
        `The config file ${path} is not valid JSON: ${where}.`,
      );
    }
  });

  it('turn metrics on with a token of at least 24 characters, from the file or METRICS_TOKEN', async () => {
    expect((await withConfig({})).metrics).toBeUndefined();
    const token = 'a-token-of-24-characters';
    expect((await withConfig({ metrics: { token } })).metrics).toEqual({ token });
    expect((await withConfig({ metrics: { token } }, { METRICS_TOKEN: `${token}!` })).metrics).toEqual({
      token: `${token}!`,
    });
    await expect(withConfig({ metrics: { token: 'short' } })).rejects.toThrow(
      /metrics\.token must be at least 24 characters/,
    );
    await expect(withConfig({}, { METRICS_TOKEN: 'short' })).rejects.toThrow(
      /METRICS_TOKEN must be at least 24/,
    );
    await expect(withConfig({ metrics: { tokn: token } })).rejects.toThrow(
      /"metrics" in the config file: unknown key "tokn"/,
    );
  });
});

describe('hardening settings (issue 31)', () => {
  it('default to 10 and 30 failed logins a minute, one token check at once, 100 streams, and take the file', async () => {
    const defaults = loadSettings({ DATA_DIR: dir }, '/work');
    expect(defaults.limits).toMatchObject({
      failedLoginsPerMinutePerAddress: 10,
      failedLoginsPerMinutePerUsername: 30,
      scryptConcurrency: 1,
    });
    expect(defaults.maxConcurrentStreams).toBe(100);
    const s = await withConfig({
      limits: {
        failedLoginsPerMinutePerAddress: 3,
        failedLoginsPerMinutePerUsername: 0,
        scryptConcurrency: 2,
      },
      tls: { certFile: 'c.pem', keyFile: 'k.pem', maxConcurrentStreams: 16 },
    });
    expect(s.limits).toMatchObject({
      failedLoginsPerMinutePerAddress: 3,
      failedLoginsPerMinutePerUsername: 0,
      scryptConcurrency: 2,
    });
    expect(s.maxConcurrentStreams).toBe(16);
  });
});

describe('uploads in parts settings', () => {
  it('default to 16 MiB parts, an hour, 4 sessions per address, 10 minutes a part, and take the file\'s "parts"', async () => {
    expect(loadSettings({ DATA_DIR: dir }, '/work').parts).toEqual({
      partBytes: 16 * 1024 * 1024,
      sessionLifetimeMs: 3_600_000,
      sessionsPerAddress: 4,
      partDeadlineMs: 600_000,
    });
    const s = await withConfig({
      parts: { partSizeMiB: 5, sessionMinutes: 90, sessionsPerAddress: 0, partDeadlineSeconds: 120 },
    });
    expect(s.parts).toEqual({
      partBytes: 5 * 1024 * 1024,
      sessionLifetimeMs: 90 * 60_000,
      sessionsPerAddress: 0,
      partDeadlineMs: 120_000,
    });
    await expect(withConfig({ parts: { partDeadlineSeconds: -1 } })).rejects.toThrow(
      /parts\.partDeadlineSeconds must be a whole number from 0 to 86400/,
    );
  });

  it('refuse parts smaller than S3 takes, and unknown keys', async () => {
    await expect(withConfig({ parts: { partSizeMiB: 4 } })).rejects.toThrow(/partSizeMiB must be at least 5/);
    await expect(withConfig({ parts: { partSize: 8 } })).rejects.toThrow(
      /"parts" in the config file: unknown key/,
    );
    await expect(withConfig({ parts: 8 })).rejects.toThrow(/"parts" in the config file must be an object/);
  });

  it('refuse parts smaller than S3 takes when written in code too, before anything is opened', async () => {
    const settings = (partBytes: number): ServerSettings => {
      const base = defaultSettings(join(dir, 'data'));
      return { ...base, port: 0, accessLog: 'off', parts: { ...base.parts, partBytes } };
    };
    const refused = (err: unknown) =>
      err instanceof ConfigError &&
      err.message === "parts.partSizeMiB must be at least 5 (S3's smallest part).";
    await expect(startServer(settings(MIN_PART_BYTES - 1))).rejects.toSatisfy(refused);
    expect(await readdir(dir)).toEqual([]);
    // The way tests start a server (settings merged over the test defaults) goes through the same check.
    await expect(
      startTestServer({
        settings: { parts: { partBytes: 4 * MIB, sessionLifetimeMs: 60_000, sessionsPerAddress: 0 } },
      }),
    ).rejects.toSatisfy(refused);
    // The smallest legal size, which tests use, still starts.
    const started = await startServer(settings(MIN_PART_BYTES));
    await started.close();
  });
});

describe('object storage settings', () => {
  it('leave the disk store in place without a storage URL', async () => {
    expect((await withConfig({})).s3).toBeUndefined();
  });

  it('take storageUrl and "s3" from the file, the SDK variables over them, credentials from the environment only', async () => {
    const s = await withConfig(
      {
        storageUrl: 's3://drops/prod',
        s3: {
          endpoint: 'http://127.0.0.1:7480',
          region: 'eu-1',
          partSizeMiB: 16,
          partsInFlight: 3,
          timeoutSeconds: 90,
        },
      },
      { AWS_REGION: 'eu-2', AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'secret' },
    );
    expect(s.s3).toMatchObject({
      bucket: 'drops',
      prefix: 'prod/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'eu-2',
      partSize: 16 * 1024 * 1024,
      partsInFlight: 3,
      requestTimeoutMs: 90_000,
      readIdleTimeoutMs: 90_000,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    const fromEnv = loadSettings({
      HOME: dir,
      STORAGE_URL: 's3://other/',
      AWS_ENDPOINT_URL_S3: 'https://s3.example',
    });
    expect(fromEnv.s3).toMatchObject({ bucket: 'other', prefix: '', endpoint: 'https://s3.example' });
  });

  it('refuse every mistake with a sentence that names it', async () => {
    const cases: [unknown, Record<string, string>, RegExp][] = [
      [
        { storageUrl: 'https://drops' },
        {},
        /"storageUrl" in the config file must look like s3:\/\/<bucket>\/<prefix>/,
      ],
      [{}, { STORAGE_URL: 'https://drops' }, /^STORAGE_URL must look like s3:\/\/<bucket>\/<prefix>/],
      [{ storageUrl: 's3://No_Such' }, {}, /not a valid S3 bucket name/],
      [{ s3: { region: 'x' } }, {}, /"s3" in the config file needs "storageUrl"/],
      [{ storageUrl: 's3://drops/', s3: { secretAccessKey: 'x' } }, {}, /secretAccessKey/],
      [{ storageUrl: 's3://drops/', s3: { partSizeMiB: 1 } }, {}, /at least 5242880 bytes/],
      [
        { storageUrl: 's3://drops/', s3: { endpoint: 'ftp://x' } },
        {},
        /must be an http:\/\/ or https:\/\/ address/,
      ],
      [{ storageUrl: 's3://drops/' }, { AWS_ACCESS_KEY_ID: 'id' }, /AWS_SECRET_ACCESS_KEY is not/],
    ];
    for (const [config, env, message] of cases) {
      await expect(withConfig(config, env), JSON.stringify(config)).rejects.toSatisfy(
        (err) => err instanceof ConfigError && message.test((err as Error).message),
      );
    }
  });
});

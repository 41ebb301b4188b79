// The server as an operator installs it: `npm run pack:server` writes the package, `npm install -g
// --omit=dev` puts it into an empty prefix (dependencies from the npm registry, through npm's cache), and
// the `hushdrop-server` command it gives starts, takes an upload, serves the recipient page and stops.
// The README's systemd unit is checked with `systemd-analyze verify` and its ExecStart line is run.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packServer } from '../../scripts/pack-server';
import { clientModeForm, post, randomBytesOf } from './test-helpers';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
/** Where the README's unit file has the package installed (`npm install -g --prefix /opt/hushdrop`). */
const README_PREFIX = '/opt/hushdrop';
const KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';
const IV = 'VY3CdcZ6gKGKHh0T';
/** What an operator's install must never hold: build, test and browser tools. */
const FORBIDDEN = ['wxt', 'vitest', 'playwright', 'playwright-core', 'esbuild', '@esbuild', 'tsx', 'vite'];

let scratch: string;
let prefix: string;
let packageDir: string;
let tarball: string;
/** A copy of the repository's files the server needs, installed with `npm ci --omit=dev`. */
let runtimeOnly: Promise<string>;

const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };
const quiet = ['--prefer-offline', '--no-audit', '--no-fund'];

async function installRuntimeOnly(): Promise<string> {
  const copy = join(scratch, 'repository');
  for (const path of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'scripts',
    'server',
    'lib',
    'public',
  ])
    await cp(join(ROOT, path), join(copy, path), {
      recursive: true,
      filter: (source) => !source.includes(join('lib', 'payments', 'gen')),
    });
  await run('npm', ['ci', '--omit=dev', ...quiet], { cwd: copy, env: npmEnv });
  return copy;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-package-'));
  // At the same time as the package's install: both mostly wait on npm.
  runtimeOnly = installRuntimeOnly();
  runtimeOnly.catch(() => {});
  ({ tarball } = await packServer(join(scratch, 'out')));
  prefix = join(scratch, 'prefix');
  // As the README says, into a prefix of its own; npm's cache (warm after `npm ci`) spares the network.
  await run('npm', ['install', '-g', '--omit=dev', '--prefix', prefix, ...quiet, tarball], {
    cwd: scratch,
    env: npmEnv,
  });
  packageDir = join(prefix, 'lib', 'node_modules', 'hushdrop-server');
}, 300_000);
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** Every package folder under `dir`'s node_modules, nested ones too, by name. */
async function installedPackages(dir: string): Promise<string[]> {
  const names: string[] = [];
  const walk = async (modules: string) => {
    const entries = await readdir(modules, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (entry.name.startsWith('@')) {
        for (const scoped of await readdir(join(modules, entry.name))) {
          names.push(`${entry.name}/${scoped}`);
          await walk(join(modules, entry.name, scoped, 'node_modules'));
        }
        names.push(entry.name);
      } else {
        names.push(entry.name);
        await walk(join(modules, entry.name, 'node_modules'));
      }
    }
  };
  await walk(join(dir, 'node_modules'));
  return names;
}

interface Started {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** Runs `command` and resolves once it printed its three addresses and the listening line. */
function startCommand(command: string[], env: Record<string, string>, cwd = scratch): Promise<Started> {
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH!, HOME: scratch, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      lines.push(line);
      if (/ listening on /.test(line)) resolve({ child, lines, exited });
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    void exited.then((code) => reject(new Error(`exited at start (${code}):\n${lines.join('\n')}`)));
  });
}

const address = (lines: string[], name: string) =>
  lines.find((l) => l.startsWith(`${name}=`))!.slice(name.length + 1);

describe('the installed package', () => {
  it('holds plain JavaScript, the page built at pack time and no build, test or browser tool', async () => {
    const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
    expect(manifest.engines).toEqual({ node: '>=20.19.0' });
    expect(manifest.bin).toEqual({ 'hushdrop-server': 'bin/hushdrop-server.js' });
    const ours = JSON.parse(await readFile(join(__dirname, '..', '..', 'package.json'), 'utf8'));
    expect(manifest.version).toBe(ours.version);
    // Every dependency is one of the repository's run-time dependencies, pinned as there.
    for (const [name, version] of Object.entries(manifest.dependencies))
      expect(ours.dependencies[name], name).toBe(version);
    expect(await readdir(join(packageDir, 'recipient'))).toEqual(
      ['home.js', 'icon.png', 'parts-worker.js', 'recipient.css', 'recipient.js', 'sw.js'].sort(),
    );
    const script = await readFile(join(packageDir, 'bin', 'hushdrop-server.js'), 'utf8');
    expect(script.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(script).not.toMatch(/from ["'](esbuild|tsx|vite|vitest|wxt)["']/);
    // Its own messages (the page's only), not the extension's files (only esbuild's comments name them).
    expect(script).not.toMatch(/["'`][^"'`\n]*public\/_locales/);
    expect(script).not.toContain('Payment request');
    const installed = await installedPackages(packageDir);
    expect(installed.length).toBeGreaterThan(3);
    expect(installed.filter((name) => FORBIDDEN.includes(name))).toEqual([]);
    expect((await stat(join(prefix, 'bin', 'hushdrop-server'))).isFile()).toBe(true);
  });

  it('runs as `hushdrop-server`: takes an upload, opens the recipient page and the home page, and stops on SIGTERM', async () => {
    const dataDir = join(scratch, 'data-cli');
    const server = await startCommand([join(prefix, 'bin', 'hushdrop-server')], {
      PORT: '0',
      DATA_DIR: dataDir,
      ACCESS_LOG: 'off',
    });
    try {
      expect(server.lines[0]).toMatch(/^base_url=http:\/\/127\.0\.0\.1:\d+$/);
      const baseUrl = address(server.lines, 'base_url');
      expect(server.lines.slice(1, 3)).toEqual([`api_url=${baseUrl}/api`, `upload_url=${baseUrl}/u`]);
      const made = await post(
        `${baseUrl}/api/v1/Upload`,
        clientModeForm(randomBytesOf(3000, 9), KEY, IV, 'photo.png'),
      );
      expect(made.status).toBe(200);
      const page = await fetch(made.json.result.url, { headers: { 'Accept-Language': 'de' } });
      expect(page.status).toBe(200);
      const html = await page.text();
      const src = /<script src="([^"]+recipient\.js)"/.exec(html)?.[1];
      expect(src).toBeDefined();
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      const pageScript = await fetch(new URL(src!, made.json.result.url));
      expect(pageScript.status).toBe(200);
      expect(pageScript.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await pageScript.text()).toContain('Herunterladen und entschlüsseln');
      // The home page is the upload page, its script built at pack time too.
      const home = await (await fetch(`${baseUrl}/`, { headers: { 'Accept-Language': 'de' } })).text();
      expect(home).toContain('<title>Datei senden – Hushdrop</title>');
      const homeSrc = /<script src="([^"]+home\.js)"/.exec(home)?.[1];
      expect(homeSrc).toBeDefined();
      expect(await (await fetch(new URL(homeSrc!, `${baseUrl}/`))).text()).toContain('Dateien auswählen');
      const info = await (await fetch(`${baseUrl}/_hushdrop/info`)).json();
      expect(info.version).toBe(JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')).version);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});

describe('the repository installed without development dependencies', () => {
  it('runs `npm run server` (its install step skips the extension’s generated code)', async () => {
    const copy = await runtimeOnly;
    expect(await installedPackages(copy)).not.toContain('wxt');
    const server = await startCommand(
      ['npm', 'run', 'server'],
      {
        PORT: '0',
        DATA_DIR: join(scratch, 'data-repository'),
        ACCESS_LOG: 'off',
      },
      copy,
    );
    try {
      const baseUrl = address(server.lines, 'base_url');
      expect((await fetch(`${baseUrl}/_hushdrop/health`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    await server.exited;
  }, 120_000);
});

/** The README's unit file (the ini block after its marker). */
async function readmeUnit(): Promise<string> {
  const text = await readFile(README, 'utf8');
  const marker = text.indexOf('<!-- tested systemd unit -->');
  expect(marker).toBeGreaterThan(0);
  return /```ini\n([\s\S]*?)\n```/.exec(text.slice(marker))![1]!;
}

/** The README's config example (the JSON block after its marker). */
async function readmeConfig(): Promise<Record<string, any>> {
  const text = await readFile(README, 'utf8');
  const marker = text.indexOf('<!-- tested config example -->');
  return JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text.slice(marker))![1]!);
}

const settingOf = (unit: string, key: string) =>
  [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

describe('the README’s systemd unit', () => {
  it('passes systemd-analyze verify, runs node directly and stops later than the server’s grace', async () => {
    const unit = (await readmeUnit())
      .replaceAll(README_PREFIX, prefix)
      .replace(/^ExecStart=\/usr\/bin\/node /m, `ExecStart=${process.execPath} `);
    const path = join(scratch, 'hushdrop.service');
    await writeFile(path, `${unit}\n`);
    const verified = await run('systemd-analyze', ['verify', path]);
    expect(`${verified.stdout}${verified.stderr}`).toBe('');

    const original = await readmeUnit();
    expect(settingOf(original, 'ExecStart')[0]).toMatch(
      /^\/usr\/bin\/node \/opt\/hushdrop\/lib\/node_modules\//,
    );
    expect(settingOf(original, 'StateDirectory')).toEqual(['hushdrop']);
    expect(settingOf(original, 'Restart')).toEqual(['on-failure']);
    const grace = (await readmeConfig()).timeouts.shutdownGraceSeconds as number;
    // The grace, then up to 10 s for requests whose connections were cut (server.ts), then the store closes.
    expect(Number(settingOf(original, 'TimeoutStopSec')[0])).toBeGreaterThan(grace + 10);
  });

  it('its ExecStart line, with its Environment, starts the server the package installed', async () => {
    const unit = (await readmeUnit()).replaceAll(README_PREFIX, prefix);
    const [node, ...args] = settingOf(unit, 'ExecStart')[0]!.split(' ');
    expect(node).toBe('/usr/bin/node');
    const env = Object.fromEntries(
      settingOf(unit, 'Environment').map((e) => e.split('=', 2) as [string, string]),
    );
    expect(Object.keys(env)).toEqual(['CONFIG']);
    // The README's config, with the folders the unit's StateDirectory and LogsDirectory would make moved here.
    const config = await readmeConfig();
    config.dataDir = join(scratch, 'state');
    config.accessLog = join(scratch, 'access.log');
    config.port = 0;
    await writeFile(join(scratch, 'config.json'), JSON.stringify(config));
    const server = await startCommand([process.execPath, ...args], { CONFIG: join(scratch, 'config.json') });
    try {
      const health = await fetch(
        `http://127.0.0.1:${/:(\d+)/.exec(server.lines[3]!.split(' on ')[1]!)![1]}/_hushdrop/health`,
      );
      expect(health.status).toBe(200);
      expect(address(server.lines, 'base_url')).toBe(config.publicUrl);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  });
});

// The layer rules hold in the tree as it is, and the check finds an import that breaks one.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, cyclesUnder, importsOf, readTree } from './rules';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('the layer rules', () => {
  it('hold for every source file of the project', () => {
    const tree = readTree(ROOT);
    // The walk reaches every layer (an empty walk would pass everything).
    for (const folder of [
      'lib/',
      'platform/',
      'components/',
      'entrypoints/',
      'server/',
      'scripts/',
      'bench/',
      'devkit/',
    ])
      expect(
        [...tree.keys()].some((f) => f.startsWith(folder)),
        folder,
      ).toBe(true);
    const broken = check(tree).map((v) => `${v.file} imports ${v.specifier}: ${v.rule.why}`);
    expect(broken).toEqual([]);
  });

  it('find a planted import of tests/ from scripts/, of a page from platform/, and of Node from lib/', () => {
    const planted = new Map([
      ['scripts/start/firefox.ts', importsOf("import { Marionette } from '../../tests/testkit/marionette';")],
      ['platform/upload/x.ts', importsOf("export { App } from '../../entrypoints/upload/App';")],
      [
        'lib/upload/x.ts',
        importsOf("const fs = await import('node:fs');\nimport type { Browser } from 'wxt/browser';"),
      ],
      ['tests/e2e/x.test.ts', importsOf("import { until } from '../../devkit/wait';")],
    ]);
    expect(
      check(planted)
        .map((v) => `${v.file} → ${v.specifier}`)
        .sort(),
    ).toEqual([
      'lib/upload/x.ts → node:fs',
      'lib/upload/x.ts → wxt/browser',
      'platform/upload/x.ts → ../../entrypoints/upload/App',
      'scripts/start/firefox.ts → ../../tests/testkit/marionette',
    ]);
  });

  it('the server has no import cycle, type-only imports included, and a planted one is found', () => {
    expect(cyclesUnder(readTree(ROOT), 'server/')).toEqual([]);
    const planted = new Map([
      ['server/app.ts', ['./recipient/mount']],
      ['server/recipient/mount.ts', ['../app']],
      ['server/router.ts', []],
    ]);
    expect(cyclesUnder(planted, 'server/')).toEqual([['server/app.ts', 'server/recipient/mount.ts']]);
  });

  it('lib/ typechecks with no DOM and no Node types (only ES2023 and the worker globals)', () => {
    // tsc exits non-zero and prints each error when a file in lib/ needs a page's DOM or Node's types.
    execFileSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.lib.json'],
      {
        cwd: ROOT,
        stdio: 'pipe',
      },
    );
  }, 120_000);
});

// `npm run pack:server [-- --out <folder>]`: writes hushdrop-server-<version>.tgz, the Hushdrop server as a
// package of its own. It holds plain JavaScript (server/main.ts and what it imports from server/ and lib/,
// bundled by esbuild; npm packages stay outside and are the package's dependencies), the recipient page
// built now (recipient/), only the page's messages (bundled), the operator's README section, and an
// npm-shrinkwrap.json that pins the dependencies' whole tree to the versions of this repository's lockfile.
// `npm install -g --omit=dev ./hushdrop-server-<version>.tgz` then gives a `hushdrop-server` command.

import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { buildRecipientFiles, pageMessagesPlugin } from '../server/recipient/build';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The script's place in the package; assets-packed.ts finds `recipient/` beside its folder. */
const SCRIPT = 'bin/hushdrop-server.js';
/** Node 20.19 is the oldest Node the server runs on (`require(esm)`, the fs calls it uses). */
const ENGINES = { node: '>=20.19.0' };
const README_SECTION = '## Run a Hushdrop server for other people';

/** Bundles assets-packed.ts where the server imports assets-source.ts (which builds with esbuild). */
const packedAssetsPlugin: Plugin = {
  name: 'packed-recipient-assets',
  setup(b) {
    b.onResolve({ filter: /[\\/]assets-source$/ }, ({ resolveDir }) => ({
      path: join(resolveDir, 'assets-packed.ts'),
    }));
  },
};

/** The npm package an import names (`@aws-sdk/client-s3/x` → `@aws-sdk/client-s3`), or null for node:. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The operator's section of the README, as the package's README. */
async function packageReadme(version: string): Promise<string> {
  const text = await readFile(join(root, 'README.md'), 'utf8');
  const start = text.indexOf(README_SECTION);
  const end = text.indexOf('\n## ', start + README_SECTION.length);
  if (start < 0 || end < 0) throw new Error(`pack:server: README.md has no section "${README_SECTION}".`);
  return (
    `# hushdrop-server ${version}\n\nThe Hushdrop server: both variants of the Teknik Upload API v1, with a ` +
    `recipient page that decrypts links in any browser. Installed, its command is \`hushdrop-server\` ` +
    `(where the text below says \`npm run server --\`).\n\n${text.slice(start, end).replace(/^## /, '## ')}\n`
  );
}

export interface PackResult {
  tarball: string;
  bytes: number;
  dependencies: Record<string, string>;
}

export async function packServer(outDir: string): Promise<PackResult> {
  const rootPackage = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const version: string = rootPackage.version;
  const stage = await mkdtemp(join(tmpdir(), 'hushdrop-pack-'));
  try {
    const bundled = await build({
      entryPoints: [join(root, 'server', 'main.ts')],
      outfile: join(stage, SCRIPT),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: ['node20.19'],
      packages: 'external',
      banner: { js: '#!/usr/bin/env node' },
      legalComments: 'none',
      charset: 'utf8',
      logLevel: 'warning',
      metafile: true,
      plugins: [packedAssetsPlugin, pageMessagesPlugin],
    });
    // Every npm package the script imports must be a run-time dependency of this repository (pinned),
    // so a build tool can never slip in as one.
    const imported = new Set<string>();
    for (const output of Object.values(bundled.metafile.outputs))
      for (const use of output.imports) {
        const name = use.external ? packageOf(use.path) : null;
        if (name) imported.add(name);
      }
    const dependencies: Record<string, string> = {};
    for (const name of [...imported].sort()) {
      const pinned = rootPackage.dependencies?.[name];
      if (!pinned)
        throw new Error(
          `pack:server: the server imports "${name}", which is not in package.json's dependencies.`,
        );
      dependencies[name] = pinned;
    }
    const inputs = Object.keys(bundled.metafile.inputs);
    if (inputs.some((i) => i.endsWith('assets-source.ts') || i.endsWith('recipient/build.ts')))
      throw new Error('pack:server: the page builder was bundled; the package would need esbuild.');

    const page = await buildRecipientFiles();
    await mkdir(join(stage, 'recipient'));
    for (const [name, file] of page.files) await writeFile(join(stage, 'recipient', name), file.body);

    const manifest = {
      name: 'hushdrop-server',
      version,
      description:
        'The Hushdrop server: private uploads over the Teknik Upload API v1, and links that open in any browser.',
      type: 'module',
      bin: { 'hushdrop-server': SCRIPT },
      files: ['bin/', 'recipient/', 'README.md', 'npm-shrinkwrap.json'],
      engines: ENGINES,
      dependencies,
    };
    await writeFile(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(join(stage, 'README.md'), await packageReadme(version));
    // The dependencies' tree as this repository locked and tested it: npm keeps the locked versions of
    // what stays and drops the rest; no registry is asked for what the lockfile already holds.
    await copyFile(join(root, 'package-lock.json'), join(stage, 'package-lock.json'));
    await run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: stage,
    });
    await rename(join(stage, 'package-lock.json'), join(stage, 'npm-shrinkwrap.json'));

    await mkdir(outDir, { recursive: true });
    const packed = await run('npm', ['pack', '--json', '--pack-destination', resolve(outDir)], {
      cwd: stage,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    const tarball = join(resolve(outDir), filename);
    return { tarball, bytes: (await stat(tarball)).size, dependencies };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const outDir = at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : root;
  packServer(outDir).then(
    ({ tarball, bytes, dependencies }) => {
      console.log(
        `${tarball} (${(bytes / 1024).toFixed(0)} KiB; dependencies: ${Object.keys(dependencies).join(', ')})`,
      );
    },
    (err: unknown) => {
      console.error((err as Error).message);
      process.exit(1);
    },
  );
}

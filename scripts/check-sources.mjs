// Proves the sources zip (for AMO's reviewers) rebuilds the Firefox zip's files byte for byte, by
// the README's commands: unzip it in a temporary folder, `npm ci`, `npm run build:firefox`, compare.
// Run after `npm run zip`. Needs `unzip` (Debian: apt-get install unzip) and the npm registry.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'hushdrop-sources-'));
const files = (dir) =>
  readdirSync(dir, { recursive: true })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => relative(dir, f))
    .sort();
try {
  const src = join(work, 'src');
  const pkg = join(work, 'zip');
  execFileSync('unzip', ['-q', `.output/${name}-${version}-sources.zip`, '-d', src]);
  execFileSync('unzip', ['-q', `.output/${name}-${version}-firefox.zip`, '-d', pkg]);
  console.log('npm ci, then npm run build:firefox, in the unzipped sources…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: src, stdio: 'ignore' });
  execFileSync('npm', ['run', 'build:firefox'], { cwd: src, stdio: 'ignore' });
  const built = join(src, '.output/firefox-mv2');
  const [a, b] = [files(built), files(pkg)];
  const differ = [...new Set([...a, ...b])].filter(
    (f) =>
      !a.includes(f) || !b.includes(f) || !readFileSync(join(built, f)).equals(readFileSync(join(pkg, f))),
  );
  if (differ.length) {
    console.error(`The rebuild differs from the Firefox zip in: ${differ.join(', ')}`);
    process.exitCode = 1;
  } else console.log(`The sources rebuild the Firefox zip's ${b.length} files byte for byte.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// npm run bench: builds the extension (unless --no-build), then runs bench/run.ts under tsx and
// prints its table. Stops a run that takes longer than 60 minutes (every row: 22–30 minutes on the
// 2-core test machine), 20 with BENCH_ROWS, and prints the rows measured until then. Method:
// bench/README.md. `--4g` (npm run bench:4g) runs row g alone (a 4 GiB upload each way), with 30
// minutes.
// Env: BENCH_ROWS (e.g. f), BENCH_REPS (default 3), BENCH_UPLOAD_MIB (default 1024), BENCH_RECIPIENT_MIB
// (default 1024, row i), BENCH_LINK_MIB (default 256, row l), BENCH_HOME_MIB (default 512, row o),
// BENCH_4G=1 (add row g), CHROME_PATH.
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const BIG_ONLY = process.argv.includes('--4g');
const LIMIT_MS = (BIG_ONLY ? 30 : process.env.BENCH_ROWS ? 20 : 60) * 60 * 1000;
const root = resolve(import.meta.dirname, '..');
const bin = (name) => resolve(root, 'node_modules/.bin', name);

if (!process.argv.includes('--no-build')) {
  console.error('[bench] building the extension (npx wxt build)…');
  const built = spawnSync(bin('wxt'), ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // Row m runs Firefox on .output/firefox-mv2.
  const firefox =
    built.status === 0 &&
    spawnSync(bin('wxt'), ['build', '-b', 'firefox'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0 || firefox.status !== 0) {
    console.error(
      '[bench] the build failed; fix it or run with --no-build to use .output/chrome-mv3 as it is',
    );
    process.exit(1);
  }
}

const env = BIG_ONLY ? { ...process.env, BENCH_4G: 'only' } : process.env;
const child = spawn(bin('tsx'), ['bench/run.ts'], { cwd: root, stdio: 'inherit', env });
const timer = setTimeout(() => {
  console.error(`[bench] over ${LIMIT_MS / 60000} minutes: stopping`);
  child.kill('SIGTERM');
}, LIMIT_MS);
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  process.exit(code ?? (signal ? 1 : 0));
});

// Lints the Firefox package as AMO receives it: the zip itself, with addons-linter (the linter
// `web-ext lint` runs; web-ext lint only takes a folder). Fails on any error.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
const zip = `.output/${name}-${version}-firefox.zip`;
const run = spawnSync('node_modules/.bin/addons-linter', ['--output', 'json', zip], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`addons-linter gave no report for ${zip}:\n${run.stdout}${run.stderr}`);
  process.exit(1);
}
for (const m of [...report.errors, ...report.warnings])
  console.log(`${m.code} ${m.file ?? ''} — ${m.message}`);
console.log(`${zip}: ${report.errors.length} errors, ${report.warnings.length} warnings`);
process.exit(report.errors.length ? 1 : 0);

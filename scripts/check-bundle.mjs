// The extension CSP forbids eval; protobufjs reflection would need it. Fail the build if any
// built bundle carries eval, new Function or a script loaded from the network, or if the
// manifest asks for a permission the README does not justify or replaces a browser page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['.output/chrome-mv3', '.output/firefox-mv2'];
const banned = [
  [/\bnew Function\s*\(/, 'new Function('],
  [/(^|[^A-Za-z0-9_$.])Function\s*\(\s*["'`]/, 'Function("...")'],
  [/(^|[^A-Za-z0-9_$.])eval\s*\(/, 'eval('],
  [/<script[^>]+src=["']https?:/i, 'remote <script src>'],
  [/importScripts\s*\(\s*["'`]https?:/, 'remote importScripts'],
];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(m?js|html)$/.test(name)) yield p;
  }
}

let problems = 0;
let checked = 0;
for (const root of roots) {
  for (const file of files(root)) {
    checked++;
    const text = readFileSync(file, 'utf8');
    for (const [re, label] of banned) {
      if (re.test(text)) {
        console.error(`${file}: contains ${label}`);
        problems++;
      }
    }
  }
}
// Every permission the built manifests ask for must be justified in the README's table.
const readme = readFileSync('README.md', 'utf8');
for (const root of roots) {
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
  const asked = [
    ...(manifest.permissions ?? []),
    ...(manifest.optional_permissions ?? []),
    ...(manifest.host_permissions ?? []),
    ...(manifest.optional_host_permissions ?? []),
  ];
  // An entrypoint named after a browser page (history, newtab, bookmarks) makes WXT replace that page.
  for (const key of ['chrome_url_overrides', 'chrome_settings_overrides'])
    if (manifest[key]) {
      console.error(
        `${root}/manifest.json: ${key} replaces a browser page: ${JSON.stringify(manifest[key])}`,
      );
      problems++;
    }
  for (const p of asked) {
    const plain = p.replace(/^(https?):\/\/([^/]+)\/\*$/, '$1://$2/*');
    if (!readme.includes(`\`${plain}\``)) {
      console.error(`${root}/manifest.json: permission ${p} is not justified in README.md`);
      problems++;
    }
  }
}

if (checked === 0) {
  console.error('check-bundle: no built files found; run the builds first');
  process.exit(1);
}
console.log(`check-bundle: ${checked} files, ${problems} problems`);
process.exit(problems ? 1 : 0);

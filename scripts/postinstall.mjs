// After `npm ci`: generates what the extension's build and type-check need (lib/payments/gen, the DNS
// root's trust anchors among it, and .wxt) with development tools (pbjs, wxt). A runtime-only install (`npm ci --omit=dev`, to run `npm run server` from
// the repository) has none of those tools and needs none of it: it says so and generates nothing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const tools = ['pbjs', 'wxt'].filter((tool) => !existsSync(`node_modules/.bin/${tool}`));
if (tools.length > 0) {
  console.log(
    `postinstall: ${tools.join(' and ')} not installed (npm ci --omit=dev?): the extension's generated code ` +
      'is left out; `npm run server` does not need it.',
  );
} else {
  execSync('npm run gen:proto && npm run gen:roots && npm run gen:anchors && wxt prepare', {
    stdio: 'inherit',
  });
}

// Runs the local test merchant on its own, e.g. for trying the extension by hand:
//   npx tsx tests/merchant/main.ts [port] [path-to-write-the-test-CA.pem]
// Install the printed CA as an extra root in a test build to see its requests as verified.
import { writeFileSync } from 'node:fs';
import { REQUEST_KINDS, startMerchant } from './server';

const port = Number(process.argv[2] ?? 0);
const merchant = await startMerchant({ port });
const pemPath = process.argv[3];
if (pemPath) writeFileSync(pemPath, merchant.rootPem);
console.log(`Hushdrop test merchant at ${merchant.origin}`);
console.log(`  shop page: ${merchant.pageUrl}`);
for (const kind of REQUEST_KINDS) console.log(`  ${kind.padEnd(13)} ${merchant.requestUrl(kind)}`);
console.log(pemPath ? `  test CA written to ${pemPath}` : `  test CA:\n${merchant.rootPem}`);
const stop = () => merchant.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

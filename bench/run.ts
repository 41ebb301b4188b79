// `npm run bench` (through scripts/bench.mjs): measures every row in one run and prints a table of
// ratios, each measured here on the same data, with its target. Method of each row: bench/README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyExtension, launch } from './chromium';
import { fmt, GIB, MIB, median, mibps } from './common';
import { contentRatio, contentRow } from './row-content';
import { cryptoRow, summarize } from './row-crypto';
import { paymentsRow } from './row-payments';
import { serverRow } from './row-server';
import { uploadRow } from './row-upload';
import { startBenchServer } from './server';

interface Row {
  id: string;
  what: string;
  ratio: number;
  target: string;
  met?: boolean;
  detail: string;
}

const REPS = Number(process.env.BENCH_REPS ?? 3);
const UPLOAD_BYTES = Number(process.env.BENCH_UPLOAD_MIB ?? 1024) * MIB;
const started = performance.now();
const rows: Row[] = [];
const log = (text: string) =>
  console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${text}`);

const ms = (values: number[]) => values.map((v) => Math.round(v)).join(' ');
const atLeast = (t: number) => (r: number) => r >= t;
const atMost = (t: number) => (r: number) => r <= t;
function add(
  id: string,
  what: string,
  ratio: number,
  target: string,
  test: ((r: number) => boolean) | undefined,
  detail: string,
) {
  rows.push({ id, what, ratio, target, met: test?.(ratio), detail });
}

function printTable(): void {
  const head = ['Row', 'Measure (same run, same data)', 'Ratio', 'Target', 'Met', 'Medians'];
  const body = rows.map((r) => [
    r.id,
    r.what,
    fmt(r.ratio),
    r.target,
    r.met === undefined ? '–' : r.met ? 'yes' : 'NO',
    r.detail,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const b of body) console.log(line(b));
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'hushdrop-bench-'));
  const server = await startBenchServer(join(tmp, 'server'));
  try {
    const extDir = copyExtension(tmp);

    log('a: encryption in an extension page (256 MiB)');
    let browser = await launch(extDir);
    try {
      // Cheap (seconds per round) and noisy: more rounds than the other rows.
      const c = await cryptoRow(browser, tmp, REPS + 2);
      log(
        `  ms per round: raw ${ms(c.raw)}; loop ${ms(c.loop)}; pipeline ${ms(c.pipeline)}; crypto-js ${ms(c.cryptoJs)}`,
      );
      const s = summarize(c);
      if (c.checks.length) throw new Error(`row a: ${c.checks.join('; ')}`);
      const raw = mibps(c.size, s.raw);
      const loop = mibps(c.size, s.loop);
      const pipe = mibps(c.size, s.pipeline);
      const cjs = 1 / MIB / (s.cryptoJsPerByte / 1000);
      add(
        'a1',
        'cryptAt loop, 1 MiB chunks, vs one WebCrypto call',
        s.raw / s.loop,
        '≥ 0.8',
        atLeast(0.8),
        `${fmt(loop, 0)} vs ${fmt(raw, 0)} MiB/s`,
      );
      add(
        'a2',
        'worker + OPFS pipeline (read, encrypt, write) vs one WebCrypto call',
        s.raw / s.pipeline,
        '≥ 0.8',
        atLeast(0.8),
        `${fmt(pipe, 0)} vs ${fmt(raw, 0)} MiB/s`,
      );
      add(
        'a3',
        'worker + OPFS pipeline vs crypto-js CTR (4 MiB, per byte)',
        pipe / cjs,
        '≥ 10',
        atLeast(10),
        `${fmt(pipe, 0)} vs ${fmt(cjs, 1)} MiB/s`,
      );
      add(
        'a4',
        'cryptAt loop (encryption alone) vs crypto-js CTR (per byte)',
        loop / cjs,
        '≥ 10',
        atLeast(10),
        `${fmt(loop, 0)} vs ${fmt(cjs, 1)} MiB/s`,
      );
    } finally {
      await browser.close();
    }

    log(`b, c: ${UPLOAD_BYTES / MIB} MiB uploads through the upload page and with curl`);
    browser = await launch(extDir);
    try {
      const u = await uploadRow(browser, server, tmp, REPS, UPLOAD_BYTES);
      log(
        `  ms per round: curl ${ms(u.curl)}; client ${ms(u.client.map((r) => r.ms))} (encrypting ${ms(u.client.map((r) => r.encryptMs))}); none ${ms(u.none.map((r) => r.ms))}`,
      );
      log(
        `  extra MiB per round: client ${u.client.map((r) => Math.round(r.extraRss / MIB))}; none ${u.none.map((r) => Math.round(r.extraRss / MIB))}`,
      );
      const curl = median(u.curl);
      const client = median(u.client.map((r) => r.ms));
      const enc = median(u.client.map((r) => r.encryptMs));
      const none = median(u.none.map((r) => r.ms));
      const mb = (ms: number) => fmt(mibps(u.size, ms), 0);
      add(
        'b1',
        'encrypted upload (client mode) vs curl -F, throughput',
        curl / client,
        '≥ 0.5',
        atLeast(0.5),
        `${mb(client)} vs ${mb(curl)} MiB/s (${fmt(client / 1000, 1)} s, of which encrypting ${fmt(enc / 1000, 1)} s; curl ${fmt(curl / 1000, 1)} s)`,
      );
      add(
        'b2',
        'plain upload (mode none) vs curl -F, throughput',
        curl / none,
        '≥ 0.7',
        atLeast(0.7),
        `${mb(none)} vs ${mb(curl)} MiB/s (${fmt(none / 1000, 1)} s)`,
      );
      const extra = median(u.client.map((r) => r.extraRss));
      const extraNone = median(u.none.map((r) => r.extraRss));
      add(
        'c1',
        'browser peak RSS − idle during the encrypted upload / file size',
        extra / u.size,
        '≤ 0.25',
        atMost(0.25),
        `+${fmt(extra / MIB, 0)} MiB over idle ${fmt(median(u.client.map((r) => r.idleRss)) / MIB, 0)} MiB`,
      );
      add(
        'c2',
        'same, plain upload',
        extraNone / u.size,
        '≤ 0.25',
        atMost(0.25),
        `+${fmt(extraNone / MIB, 0)} MiB`,
      );
    } finally {
      await browser.close();
    }

    log('d: reference server, 8 × 64 MiB concurrent vs one at a time');
    const d = await serverRow(server, tmp, REPS);
    log(`  ms per round: one at a time ${ms(d.sequential)}; concurrent ${ms(d.concurrent)}`);
    const seq = median(d.sequential);
    const conc = median(d.concurrent);
    add(
      'd',
      'reference server: 8 concurrent 64 MiB uploads vs one at a time, throughput',
      seq / conc,
      'none given',
      undefined,
      `${fmt(mibps(d.bytes, conc), 0)} vs ${fmt(mibps(d.bytes, seq), 0)} MiB/s`,
    );

    log('e: payment requests: evaluate vs bare decode and vs bitcore-payment-protocol');
    const e = await paymentsRow();
    if ('skipped' in e) {
      console.error(`row e skipped: ${e.skipped}`);
      add('e', `payment requests: SKIPPED (${e.skipped})`, Number.NaN, 'none given', undefined, '');
    } else {
      log(
        `  ms per request (medians): again ${fmt(e.again, 2)}; first sight ${fmt(e.firstSight, 2)}; bitcore ${fmt(e.bitcore, 2)}; bitcore found ${e.bitcoreSignatures} signatures and ${e.bitcoreChains} chains good of ${e.requests}`,
      );
      add(
        'e1',
        `payment request decode + verify vs bare protobuf decode (${e.requests} requests)`,
        e.again / e.decode,
        'none given',
        undefined,
        `${fmt(e.again, 2)} ms vs ${fmt(e.decode * 1000, 1)} µs per request`,
      );
      add(
        'e2',
        'decode + verify, time vs bitcore-payment-protocol 8.1.1 (it checks less), request judged again',
        e.againVsBitcore,
        '≤ 1.0',
        atMost(1),
        `${fmt(e.again, 2)} vs ${fmt(e.bitcore, 2)} ms per request (median of per-request ratios)`,
      );
      add(
        'e2f',
        'same, first sight of the request (fresh certificate cache)',
        e.firstSightVsBitcore,
        '≤ 1.0',
        atMost(1),
        `${fmt(e.firstSight, 2)} vs ${fmt(e.bitcore, 2)} ms per request`,
      );
    }

    log('f: content script on a page of 10,000 links, with and without the extension');
    const withExt = await launch(extDir);
    const without = await launch();
    try {
      const f = await contentRow(withExt, without, Math.max(5, 5 * REPS));
      log(`  task ms per load: with ${ms(f.withExtension)}; without ${ms(f.without)}`);
      if (f.injected !== f.withExtension.length)
        throw new Error(`row f: the content script ran in ${f.injected} of ${f.withExtension.length} loads`);
      add(
        'f',
        'page of 10,000 links: main-thread task time with vs without the extension',
        contentRatio(f),
        '≤ 1.05',
        atMost(1.05),
        `${fmt(median(f.withExtension), 0)} vs ${fmt(median(f.without), 0)} ms (${f.withExtension.length} loads each)`,
      );
    } finally {
      await withExt.close();
      await without.close();
    }
  } finally {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  log('done');
  console.log(
    `\nHushdrop bench, ${new Date().toISOString()}, ${REPS} repetitions, medians; upload size ${UPLOAD_BYTES / GIB} GiB\n`,
  );
  printTable();
  console.log(`\nTotal time ${fmt((performance.now() - started) / 1000, 0)} s. Method: bench/README.md`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

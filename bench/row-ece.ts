// Row h: the authenticated format (RFC 8188 aes128gcm, 64 KiB records) against today's Teknik CTR
// stream, both as lib/crypto runs them, in an extension page of Chromium, on one 1 GiB file on disk:
//   ctr-enc  cryptStream(file.stream(), AES-CTR)          (256 KiB chunks, 3 in flight: its defaults)
//   ece-enc  eceEncryptStream(file.stream(), secret)      (64 KiB records, 4 in flight: its defaults)
//   ctr-dec  cryptStream over the sealed file (CTR decryption is the same operation)
//   ece-dec  eceDecryptStream(sealed.stream(), secret)    (every tag verified, or it throws)
// The sealed file is made beforehand in Node by the same lib code, from the same plaintext.
import { openAsBlob } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { eceCiphertextSize, eceEncryptStream } from '../lib/crypto';
import { type BenchBrowser, benchFileInput } from './chromium';
import { MIB, writeRandomFile } from './common';
import { pageCipherBundle } from './row-crypto';

export interface EceResult {
  size: number;
  sealedSize: number;
  /** ms per round for each measure. */
  ctrEnc: number[];
  eceEnc: number[];
  ctrDec: number[];
  eceDec: number[];
  /** Bytes the page's ECE encryption gave (header + records). */
  eceOut: number;
}

async function sealInNode(plainPath: string, sealedPath: string, secret: Uint8Array): Promise<void> {
  const sealed = eceEncryptStream((await openAsBlob(plainPath)).stream(), secret);
  const out = await open(sealedPath, 'w');
  try {
    for await (const chunk of sealed as unknown as AsyncIterable<Uint8Array>) await out.write(chunk);
  } finally {
    await out.close();
  }
}

export async function eceRow(
  b: BenchBrowser,
  tmp: string,
  reps: number,
  size = 1024 * MIB,
): Promise<EceResult> {
  const plainPath = join(tmp, 'ece-plain.bin');
  const sealedPath = join(tmp, 'ece-sealed.bin');
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(16));
  await writeRandomFile(plainPath, size);
  await sealInNode(plainPath, sealedPath, secret);
  const page = await b.ctx.newPage();
  try {
    await page.goto(b.url('upload.html'));
    await page.locator('#file').waitFor({ state: 'attached' });
    await benchFileInput(page, [plainPath, sealedPath]);
    await page.evaluate(await pageCipherBundle());
    await page.evaluate(async (secret) => {
      const g = globalThis as any;
      const [plain, sealed] = (document.querySelector('#bench-file') as HTMLInputElement).files!;
      g.benchPlain = plain;
      g.benchSealed = sealed;
      g.benchSecret = Uint8Array.from(secret);
      g.benchCtr = await g.hushdropBench.createCipher('abcdefghijklmnopqrstuvwxyzABCDEF', '0123456789ABCDEF');
    }, Array.from(secret));

    /** Reads the named stream to its end; resolves with ms and the bytes it gave. */
    const measure = (which: 'ctr-enc' | 'ece-enc' | 'ctr-dec' | 'ece-dec') =>
      page.evaluate(async (which) => {
        const g = globalThis as any;
        const h = g.hushdropBench;
        const t0 = performance.now();
        const stream: ReadableStream<Uint8Array> =
          which === 'ctr-enc'
            ? h.cryptStream(g.benchPlain.stream(), g.benchCtr)
            : which === 'ece-enc'
              ? h.eceEncryptStream(g.benchPlain.stream(), g.benchSecret)
              : which === 'ctr-dec'
                ? h.cryptStream(g.benchSealed.stream(), g.benchCtr)
                : h.eceDecryptStream(g.benchSealed.stream(), g.benchSecret);
        const reader = stream.getReader();
        let bytes = 0;
        for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
        return { ms: performance.now() - t0, bytes };
      }, which);

    const result: EceResult = {
      size,
      sealedSize: eceCiphertextSize(size),
      ctrEnc: [],
      eceEnc: [],
      ctrDec: [],
      eceDec: [],
      eceOut: 0,
    };
    const expect = (what: string, got: number, want: number) => {
      if (got !== want) throw new Error(`row h: ${what} gave ${got} bytes, not ${want}`);
    };
    // One untimed round first (JIT, first large allocations), then the timed ones, interleaved so
    // that both formats see the same machine.
    for (let r = -1; r < reps; r++) {
      const ctrEnc = await measure('ctr-enc');
      const eceEnc = await measure('ece-enc');
      const ctrDec = await measure('ctr-dec');
      const eceDec = await measure('ece-dec');
      expect('CTR encryption', ctrEnc.bytes, size);
      expect('ECE encryption', eceEnc.bytes, result.sealedSize);
      expect('CTR over the sealed file', ctrDec.bytes, result.sealedSize);
      // Reaching the end at all means every record's tag was verified.
      expect('ECE decryption', eceDec.bytes, size);
      result.eceOut = eceEnc.bytes;
      if (r < 0) continue;
      result.ctrEnc.push(ctrEnc.ms);
      result.eceEnc.push(eceEnc.ms);
      result.ctrDec.push(ctrDec.ms);
      result.eceDec.push(eceDec.ms);
    }
    return result;
  } finally {
    await page.close();
    await rm(plainPath, { force: true });
    await rm(sealedPath, { force: true });
  }
}

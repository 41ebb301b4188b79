// The page's choice of decoder from the link, and the decoding stream, run in Node's WebCrypto.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ECE_HEADER_BYTES, ECE_RECORD_BYTES, eceCiphertextSize } from '../../lib/crypto/ece';
import { eceEncryptBytes } from '../../lib/crypto/ece-stream';
import { eceFragment } from '../../lib/crypto/link';
import {
  chooseDecoder,
  fragmentOf,
  LinkError,
  LinkIntegrityError,
} from '../../server/recipient/client/decoders';
import { pickLanguage } from '../../server/recipient/client/language';
import { contentDisposition, saveName, saveType } from '../../server/recipient/client/names';
import { CutError, counted } from '../../server/recipient/client/stored';
import { acceptedLanguage } from '../../server/recipient/language';
import { teknikCtr } from '../server/test-helpers';

const KEY = 'abcdefghijklmnopqrstuvwxyzABCDEF';
const PAGE = 'https://files.example/u/AbCdE.png';

/** A stream that hands out `bytes` in pieces of the given sizes (cycled). */
function pieces(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = sizes[n++ % sizes.length]!;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('choosing the decoder', () => {
  it('reads the Teknik format: Teknik’s known answer, with the IV the server stored', async () => {
    const decoder = chooseDecoder(`${PAGE}#${KEY}`, { iv: '0123456789ABCDEF', size: 14 });
    expect(decoder).toMatchObject({ format: 'teknik-ctr', plainSize: 14 });
    const cipher = Buffer.from('c9af65231f222581ab6229ba35e7', 'hex');
    const plain = await collect(await decoder.open(pieces(cipher, [5])));
    expect(new TextDecoder().decode(plain)).toBe('Hello, Teknik!');
  });

  it('decodes the same bytes however the network cuts them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 70_000 }),
        fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 5 }),
        async (plain, sizes) => {
          const iv = 'VY3CdcZ6gKGKHh0T';
          const decoder = chooseDecoder(`${PAGE}#${KEY}`, { iv, size: plain.length });
          const out = await collect(await decoder.open(pieces(teknikCtr(KEY, iv, plain), sizes)));
          expect(out).toEqual(plain);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('says in a sentence what is wrong with a link', () => {
    const problem = (href: string) => {
      try {
        chooseDecoder(href, { iv: 'VY3CdcZ6gKGKHh0T', size: 1 });
      } catch (err) {
        expect(err).toBeInstanceOf(LinkError);
        return [(err as LinkError).problem, (err as LinkError).message];
      }
      return undefined;
    };
    expect(problem(PAGE)).toEqual(['no-key', expect.stringMatching(/has no key/)]);
    expect(problem(`${PAGE}#`)).toEqual(['empty-key', expect.stringMatching(/no key after it/)]);
    expect(problem(`${PAGE}#abc-def`)).toEqual(['key-characters', expect.stringMatching(/letters/)]);
    expect(problem(`${PAGE}#abcdef`)).toEqual(['key-length', expect.stringMatching(/has 6 characters/)]);
  });

  it('reads the authenticated format from an #ece1. fragment, and refuses a changed byte', async () => {
    const secret = crypto.getRandomValues(new Uint8Array(16));
    const plain = new Uint8Array(randomBytes(200_000));
    const sealed = await eceEncryptBytes(plain, secret);
    const href = `${PAGE}#${eceFragment(secret)}`;
    const decoder = chooseDecoder(href, { iv: '', size: sealed.length });
    expect(decoder).toMatchObject({ format: 'ece1', plainSize: plain.length });
    expect(await collect(await decoder.open(pieces(sealed, [777, 65_536])))).toEqual(plain);

    for (const at of [0, 30, 70_000, sealed.length - 1]) {
      const changed = sealed.slice();
      changed[at]! ^= 1;
      const opened = decoder.open(pieces(changed, [4096])).then(collect);
      await expect(opened).rejects.toBeInstanceOf(LinkIntegrityError);
      await expect(opened).rejects.toThrow(/Nothing was saved|not saved/);
    }
  });

  it('refuses a stored size no file of the authenticated format has, before fetching anything', () => {
    const href = `${PAGE}#${eceFragment(new Uint8Array(16))}`;
    // Too short for a header and one record; and a last record that holds nothing, which Hushdrop
    // never writes after a full one.
    expect(() => chooseDecoder(href, { iv: '', size: eceCiphertextSize(0) - 1 })).toThrow(LinkIntegrityError);
    expect(() => chooseDecoder(href, { iv: '', size: ECE_HEADER_BYTES + ECE_RECORD_BYTES + 17 })).toThrow(
      LinkIntegrityError,
    );
    expect(() => chooseDecoder(href, { iv: '', size: 5 })).toThrow(/Nothing was saved/);
  });

  it('takes everything after the first # as the fragment, as Teknik’s page did', () => {
    expect(fragmentOf('https://x/a#b#c')).toBe('b#c');
    expect(fragmentOf('https://x/a')).toBeUndefined();
  });
});

describe('counting what goes through', () => {
  it('fails a stream that ends short of the file, or runs past it', async () => {
    const short = pieces(new Uint8Array(10), [4]).pipeThrough(counted(11, () => {}));
    await expect(collect(short)).rejects.toBeInstanceOf(CutError);
    const long = pieces(new Uint8Array(10), [4]).pipeThrough(counted(9, () => {}));
    await expect(collect(long)).rejects.toMatchObject({ done: 10 });
    const seen: number[] = [];
    await collect(pieces(new Uint8Array(10), [4]).pipeThrough(counted(10, (n) => seen.push(n))));
    expect(seen).toEqual([4, 8, 10]);
  });
});

describe('the saved file’s name and type', () => {
  it('drops bidi tricks, folders and control characters', () => {
    expect(saveName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(saveName('../../etc/passwd')).toBe('....etcpasswd');
    expect(saveName('a\nb\u0000c')).toBe('abc');
    expect(saveName('..')).toBe('download');
    expect(saveName('')).toBe('download');
  });

  it('writes Content-Disposition with an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('Ferien "2026" (Bilder).zip')).toBe(
      `attachment; filename="Ferien _2026_ (Bilder).zip"; filename*=UTF-8''Ferien%20%222026%22%20%28Bilder%29.zip`,
    );
    expect(contentDisposition('hällo.txt')).toBe(
      `attachment; filename="h_llo.txt"; filename*=UTF-8''h%C3%A4llo.txt`,
    );
  });

  it('keeps a type that fits a header, and nothing else', () => {
    expect(saveType('image/svg+xml')).toBe('image/svg+xml');
    expect(saveType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(saveType('')).toBe('application/octet-stream');
  });
});

describe('language', () => {
  it('the page takes the first of the browser’s languages it has', () => {
    expect(pickLanguage(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['en-GB', 'de'])).toBe('en');
    expect(pickLanguage(['ja'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('the server reads Accept-Language by weight', () => {
    expect(acceptedLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(acceptedLanguage('en;q=0.4, de;q=0.7')).toBe('de');
    expect(acceptedLanguage('de;q=0, fr')).toBe('en');
    expect(acceptedLanguage(undefined)).toBe('en');
  });
});

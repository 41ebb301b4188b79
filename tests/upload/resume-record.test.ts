// What an upload page keeps of an upload in parts to resume it after a reload
// (lib/upload/resume-record.ts): written and read back whole, in either format; stored text that is
// not such a record, whole, is no record (never a crash); the same file is the same name, size, time
// and first part, and a chosen file finds the record it resumes.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eceCiphertextSize } from '../../lib/crypto/ece';
import { newFileCipher } from '../../lib/crypto/file-cipher';
import {
  findResumed,
  firstPartDigest,
  firstPartSpan,
  matches,
  type ResumeRecord,
  readRecord,
  recordText,
  sameFacts,
} from '../../lib/upload/resume-record';

const MIB = 1024 * 1024;
const size = 12 * MIB + 7;
const total = eceCiphertextSize(size);
const record: ResumeRecord = {
  session: { id: 'A'.repeat(22), partBytes: 5 * MIB, parts: Math.ceil(total / (5 * MIB)), total },
  variant: 'legacy',
  cipher: { format: 'ece', secret: new Uint8Array(16).fill(7), salt: new Uint8Array(16).fill(9) },
  file: { name: 'Urlaub.mov', size, lastModified: 1_700_000_000_000, firstPart: 'ab'.repeat(32) },
};
const stored = JSON.parse(recordText(record)) as Record<string, unknown>;
/** The same upload in Teknik's format: its ciphertext is as long as the file. */
const teknik: ResumeRecord = {
  ...record,
  session: { ...record.session, parts: Math.ceil(size / (5 * MIB)), total: size },
  cipher: newFileCipher('teknik'),
};
const storedTeknik = JSON.parse(recordText(teknik)) as Record<string, unknown>;

describe('a resume record', () => {
  it('is read back as it was written', () => {
    expect(readRecord(recordText(record))).toEqual(record);
  });

  it('is read back as it was written in Teknik’s format, its IV derived from the key again', () => {
    expect(storedTeknik).not.toHaveProperty('iv');
    expect(readRecord(recordText(teknik))).toEqual(teknik);
  });

  const garbled: Array<[string, unknown]> = [
    ['nothing stored', null],
    ['not text', 42],
    ['not JSON', '{"v":1,'],
    ['JSON of another shape', '[1,2,3]'],
    ['JSON null', 'null'],
    ['another version', JSON.stringify({ ...stored, v: 2 })],
    ['a session id with a slash', JSON.stringify({ ...stored, id: `${'A'.repeat(22)}/..` })],
    ['a session id too short', JSON.stringify({ ...stored, id: 'abc' })],
    ['parts smaller than the protocol allows', JSON.stringify({ ...stored, partBytes: 1024 })],
    ['parts that do not add up', JSON.stringify({ ...stored, parts: 2 })],
    ['a total that is not the sealed size', JSON.stringify({ ...stored, total: total + 1 })],
    ['a size that is not a count', JSON.stringify({ ...stored, size: -1 })],
    ['a size as text', JSON.stringify({ ...stored, size: String(size) })],
    ['an unknown variant', JSON.stringify({ ...stored, variant: 'other' })],
    ['a secret too short', JSON.stringify({ ...stored, secret: 'AAAA' })],
    ['a secret not in base64url', JSON.stringify({ ...stored, secret: '!'.repeat(22) })],
    ['no salt', JSON.stringify({ ...stored, salt: undefined })],
    ['an empty name', JSON.stringify({ ...stored, name: '' })],
    ['a time as text', JSON.stringify({ ...stored, lastModified: 'yesterday' })],
    ['a digest not in hex', JSON.stringify({ ...stored, firstPart: 'zz'.repeat(32) })],
    ['an unknown format', JSON.stringify({ ...storedTeknik, format: 'other' })],
    ['a Teknik key too short', JSON.stringify({ ...storedTeknik, key: 'abc' })],
    ['a Teknik key with other characters', JSON.stringify({ ...storedTeknik, key: `${'a'.repeat(31)}/` })],
    ['no Teknik key', JSON.stringify({ ...storedTeknik, key: undefined })],
    ['a Teknik key beside a secret', JSON.stringify({ ...storedTeknik, secret: stored.secret })],
    ['a secret beside a Teknik key', JSON.stringify({ ...stored, key: storedTeknik.key })],
    ['Teknik’s format with the sealed size', JSON.stringify({ ...storedTeknik, total, parts: stored.parts })],
  ];
  for (const [what, text] of garbled)
    it(`is no record for ${what}`, () => {
      expect(readRecord(text)).toBeUndefined();
    });

  const facts = { name: record.file.name, size, lastModified: record.file.lastModified };
  const table: Array<[string, typeof facts, string, boolean]> = [
    ['the same file', facts, record.file.firstPart, true],
    ['another name', { ...facts, name: 'Urlaub (1).mov' }, record.file.firstPart, false],
    ['another size', { ...facts, size: size + 1 }, record.file.firstPart, false],
    ['another time', { ...facts, lastModified: facts.lastModified + 1 }, record.file.firstPart, false],
    ['another first part', facts, 'cd'.repeat(32), false],
  ];
  for (const [what, file, digest, same] of table)
    it(`${same ? 'matches' : 'does not match'} ${what}`, () => {
      expect(matches(record, file, digest)).toBe(same);
    });

  it('tells the same facts before the file is read', () => {
    expect(sameFacts(record, facts)).toBe(true);
    expect(sameFacts(record, { ...facts, size: 1 })).toBe(false);
  });
});

describe('finding the upload a chosen file resumes', () => {
  const bytes = new Uint8Array(randomBytes(6 * 1024));
  const sha = createHash('sha256').update(bytes.subarray(0, 4096)).digest('hex');
  const chosen = (data: Uint8Array, name = 'a.bin', lastModified = 1000) =>
    new File([new Uint8Array(data)], name, { lastModified });
  const kept = (name: string, firstPart: string, lastModified = 1000): ResumeRecord => ({
    ...record,
    session: { ...record.session, partBytes: 4096 },
    file: { name, size: bytes.length, lastModified, firstPart },
  });

  it('is the record of the same name, size, time and first part', async () => {
    const same = kept('a.bin', sha);
    expect(await findResumed([kept('b.bin', sha), same], chosen(bytes))).toEqual({ record: same });
  });

  it('is none, and says so, when a record of that name is another file', async () => {
    const other = Uint8Array.from(bytes);
    other[4095]! ^= 1;
    expect(await findResumed([kept('a.bin', sha)], chosen(other))).toEqual({ notSame: true });
    expect(await findResumed([kept('a.bin', sha, 999)], chosen(bytes))).toEqual({ notSame: true });
  });

  it('is none, with nothing to say, when no record has its name', async () => {
    expect(await findResumed([kept('b.bin', sha)], chosen(bytes))).toEqual({ notSame: false });
    expect(await findResumed([], chosen(bytes))).toEqual({ notSame: false });
  });
});

describe('the first part’s digest', () => {
  it('is the SHA-256 of the plaintext’s first part’s worth of bytes, or of all of a smaller file', async () => {
    const bytes = Buffer.from(new Uint8Array(randomBytes(3000)));
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(firstPartSpan(1000, 3000)).toEqual([0, 1000]);
    expect(firstPartSpan(1000, 10)).toEqual([0, 10]);
    expect(await firstPartDigest(new Blob([new Uint8Array(bytes)]), 1000)).toBe(sha(bytes.subarray(0, 1000)));
    expect(await firstPartDigest(new Blob([new Uint8Array(bytes)]), 5000)).toBe(sha(bytes));
    // A change past the first part is not seen; one inside it is.
    const later = Buffer.from(bytes);
    later[2000] ^= 1;
    expect(await firstPartDigest(new Blob([new Uint8Array(later)]), 1000)).toBe(sha(bytes.subarray(0, 1000)));
    const early = Buffer.from(bytes);
    early[999] ^= 1;
    expect(await firstPartDigest(new Blob([new Uint8Array(early)]), 1000)).not.toBe(
      sha(bytes.subarray(0, 1000)),
    );
  });
});

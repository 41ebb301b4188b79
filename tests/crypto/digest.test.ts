import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../lib/crypto';

describe('sha256Hex', () => {
  it('agrees with Node for bytes and for a Blob', async () => {
    const data = randomBytes(100_003);
    const expected = createHash('sha256').update(data).digest('hex');
    expect(await sha256Hex(new Uint8Array(data))).toBe(expected);
    expect(await sha256Hex(new Blob([new Uint8Array(data)]))).toBe(expected);
  });
});

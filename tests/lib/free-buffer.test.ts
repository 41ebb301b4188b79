// freeBuffer (lib/free-buffer.ts): only a view of a whole buffer is detached, and a browser without
// transfer, or a buffer that cannot be detached, is left to the collector. Node 20 has no
// ArrayBuffer.prototype.transfer, so each buffer here gets its own.
import { describe, expect, it } from 'vitest';
import { freeBuffer } from '../../lib/free-buffer';

function withTransfer(bytes: number, transfer: (length: number) => ArrayBuffer = () => new ArrayBuffer(0)) {
  const buffer = new ArrayBuffer(bytes);
  const calls: number[] = [];
  Object.defineProperty(buffer, 'transfer', {
    value: (length: number) => {
      calls.push(length);
      return transfer(length);
    },
  });
  return { buffer, calls };
}

describe('freeBuffer', () => {
  it('detaches a buffer the view covers whole, to length 0', () => {
    const { buffer, calls } = withTransfer(1024);
    freeBuffer(new Uint8Array(buffer));
    expect(calls).toEqual([0]);
  });

  it('leaves a buffer the view covers only part of (the rest may be someone else’s)', () => {
    const { buffer, calls } = withTransfer(1024);
    freeBuffer(new Uint8Array(buffer, 16));
    freeBuffer(new Uint8Array(buffer, 0, 1000));
    expect(calls).toEqual([]);
  });

  it('does nothing where the browser has no transfer, or the buffer cannot be detached', () => {
    expect(() => freeBuffer(new Uint8Array(64))).not.toThrow();
    const { buffer, calls } = withTransfer(64, () => {
      throw new TypeError('not detachable');
    });
    expect(() => freeBuffer(new Uint8Array(buffer))).not.toThrow();
    expect(calls).toEqual([0]);
  });
});

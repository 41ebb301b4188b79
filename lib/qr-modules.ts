import { encode } from 'uqr';

/**
 * The dark modules of a QR code for a text, ready to draw, or `too-long` when no QR code can hold
 * it. uqr throws once the text passes the largest version's capacity (about 2,330 bytes at error
 * correction M); a page must draw the rest of itself and say so instead of failing with it.
 */
export type QrModules = { kind: 'drawn'; size: number; path: string } | { kind: 'too-long' };

/** Error correction M: what phone cameras read well, with room for a long link. */
const ECC = 'M';
/** The quiet zone the QR standard asks for, in modules. */
const BORDER = 4;

export function qrModules(text: string): QrModules {
  let data: boolean[][];
  let size: number;
  try {
    ({ data, size } = encode(text, { ecc: ECC, border: BORDER }));
  } catch (e) {
    // The one refusal a text can cause; anything else is a fault of ours and must stay loud.
    if (e instanceof RangeError && /too long/i.test(e.message)) return { kind: 'too-long' };
    throw e;
  }
  // One square per dark module, as an SVG path: drawn as elements, never as markup.
  const parts: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return { kind: 'drawn', size, path: parts.join('') };
}

// Draws Hushdrop's icon (a white padlock with a downward drop on a blue tile) into
// public/icon/<size>.png. Run once when the design changes; the PNGs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Shapes in a 0..1 square: which colour a point has.
function shade(x, y) {
  const r = 0.2;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null; // outside the rounded tile
  const white = [255, 255, 255, 255];
  const blue = [45, 79, 214, 255];
  const inBody = x > 0.24 && x < 0.76 && y > 0.45 && y < 0.84;
  const d = Math.hypot(x - 0.5, y - 0.45);
  const inShackle = y < 0.47 && d > 0.13 && d < 0.21;
  const keyhole = Math.hypot(x - 0.5, y - 0.6) < 0.055 || (Math.abs(x - 0.5) < 0.025 && y > 0.6 && y < 0.74);
  if (inBody && !keyhole) return white;
  if (inShackle) return white;
  return blue;
}

mkdirSync('public/icon', { recursive: true });
for (const size of [16, 32, 48, 128]) {
  const ss = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < ss; sy++)
        for (let sx = 0; sx < ss; sx++) {
          const c = shade((px + (sx + 0.5) / ss) / size, (py + (sy + 0.5) / ss) / size);
          if (!c) continue;
          for (let i = 0; i < 3; i++) acc[i] += c[i];
          acc[3] += 255;
        }
      const n = ss * ss;
      const a = acc[3] / n;
      const o = (py * size + px) * 4;
      const covered = acc[3] / 255 || 1;
      rgba[o] = acc[0] / covered;
      rgba[o + 1] = acc[1] / covered;
      rgba[o + 2] = acc[2] / covered;
      rgba[o + 3] = Math.round(a);
    }
  writeFileSync(`public/icon/${size}.png`, png(size, rgba));
}
console.log('icons written to public/icon');

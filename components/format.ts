const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 1536 → "1.5 KiB" */
export function formatBytes(n: number): string {
  let i = 0;
  let v = n;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[i]}`;
}

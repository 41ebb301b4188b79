// The size limit a server states in its "too large" answer, e.g. Teknik's
// "File Too Large.  Max file size is 1 GB" (binary units).
const UNITS: Record<string, number> = { B: 1, BYTES: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 };

export function limitFromMessage(message: string | undefined): number | undefined {
  const m = /max(?:imum)? file size is\s+([\d.,]+)\s*([KMGT]?i?B|bytes)/i.exec(message ?? '');
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  const unit = UNITS[m[2]!.toUpperCase().replace('IB', 'B')];
  return Number.isFinite(n) && unit ? Math.floor(n * unit) : undefined;
}

/** What to remember after a refusal for size: the stated limit, or else "less than this file". */
export function learnedLimit(message: string | undefined, refusedSize: number): number {
  return limitFromMessage(message) ?? Math.max(0, refusedSize - 1);
}

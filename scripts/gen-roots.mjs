// Placeholder until the payments work lands: writes an empty root store.
import { mkdirSync, writeFileSync } from 'node:fs';
mkdirSync('lib/payments/gen', { recursive: true });
writeFileSync('lib/payments/gen/roots.js', 'export const ROOTS = [];\n');
writeFileSync('lib/payments/gen/roots.d.ts', 'export declare const ROOTS: string[];\n');

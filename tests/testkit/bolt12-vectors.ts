import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The BOLT 12 spec's test vectors (../shared/fixtures/bolt12 from the project root; see its
 * MANIFEST.md), read in place and never copied into the project.
 */

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** BOLT12_VECTORS_DIR overrides the location. */
export const BOLT12_DIR = resolve(projectRoot, process.env.BOLT12_VECTORS_DIR ?? '../shared/fixtures/bolt12');
export const HAVE_BOLT12_VECTORS = existsSync(resolve(BOLT12_DIR, 'MANIFEST.md'));
export const BOLT12_ABSENT_MESSAGE = `BOLT 12 vectors not found at ${BOLT12_DIR}: spec vector tests skipped`;

if (!HAVE_BOLT12_VECTORS) console.warn(`\n*** ${BOLT12_ABSENT_MESSAGE} ***\n`);

export interface OfferVector {
  description: string;
  valid: boolean;
  bolt12: string;
  'field info'?: string;
  fields?: { type: number; length: number; hex: string }[];
}

export interface FormatVector {
  comment: string;
  valid: boolean;
  string: string;
}

const read = <T>(name: string): T[] =>
  HAVE_BOLT12_VECTORS ? JSON.parse(readFileSync(resolve(BOLT12_DIR, name), 'utf8')) : [];

export const OFFER_VECTORS = read<OfferVector>('offers-test.json');
export const FORMAT_VECTORS = read<FormatVector>('format-string-test.json');

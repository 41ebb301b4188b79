/**
 * Trust anchors: DS records in their text form (RFC 4034 §5.3), `<owner> [TTL] [IN] DS <key tag>
 * <algorithm> <digest type> <digest in hex>`, one a line, as Debian's dns-root-data writes the
 * root's. The bundled ones come from that package at build time (scripts/gen-root-anchors.mjs);
 * the person can add more in the options (a test root, a private zone), read by the same reader.
 */
import { hex } from '@scure/base';
import { t } from '../../i18n';
import { PaymentError } from '../errors';
import { ROOT_ANCHORS, ROOT_ANCHORS_SOURCE } from '../gen/root-anchors.js';
import { readDs } from './records';
import type { TrustAnchor } from './validate';
import { concat, type Name, nameFromText, u16 } from './wire';

export { ROOT_ANCHORS_SOURCE };

/** Labels of an anchor's owner: letters, digits, "-", "_" (no escapes). */
const LABEL = /^[A-Za-z0-9_-]{1,63}$/;

const DS_LINE = /^(\S+)\s+(?:\d+\s+)?(?:IN\s+)?DS\s+(\d+)\s+(\d+)\s+(\d+)\s+([0-9A-Fa-f\s]+)$/i;

/** The text of one DS record as a trust anchor; throws PaymentError('bad-input') saying what is wrong. */
export function readAnchorLine(line: string): TrustAnchor {
  const match = DS_LINE.exec(line.trim());
  const bad = () => new PaymentError('bad-input', t('payAnchorUnreadable', line.trim().slice(0, 120)));
  if (!match) throw bad();
  const [, ownerText, tag, algorithm, digestType, digestHex] = match as unknown as string[];
  const owner = ownerText === '.' ? '' : ownerText!.replace(/\.$/, '');
  if (owner !== '' && !owner.split('.').every((label) => LABEL.test(label))) throw bad();
  const numbers = [Number(tag), Number(algorithm), Number(digestType)];
  if (numbers[0]! > 0xffff || numbers[1]! > 0xff || numbers[2]! > 0xff) throw bad();
  const digestText = digestHex!.replace(/\s+/g, '');
  if (digestText.length === 0 || digestText.length % 2 !== 0) throw bad();
  const digest = hex.decode(digestText.toLowerCase());
  const rdata = concat([u16(numbers[0]!), Uint8Array.of(numbers[1]!, numbers[2]!), digest]);
  const name: Name = nameFromText(owner);
  return { owner: name, ds: readDs(rdata) };
}

/** Every DS line of a text (blank lines and `;` comments skipped). */
export function readAnchorText(text: string): { line: string; anchor: TrustAnchor }[] {
  return text
    .split('\n')
    .map((line) => line.replace(/;.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => ({ line, anchor: readAnchorLine(line) }));
}

let bundled: TrustAnchor[] | undefined;

/** The root's DS records from the build. */
export function rootAnchors(): TrustAnchor[] {
  bundled ??= ROOT_ANCHORS.map(readAnchorLine);
  return bundled;
}

/** The root's anchors and the person's own (lines that no longer read are left out). */
export function anchorsWith(extra: readonly string[]): TrustAnchor[] {
  const own = extra.flatMap((line) => {
    try {
      return [readAnchorLine(line)];
    } catch {
      return [];
    }
  });
  return [...rootAnchors(), ...own];
}

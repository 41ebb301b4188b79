/**
 * Why a file in the authenticated format was refused. Every problem means the same for the person:
 * what the server (or the way to it) handed over is not what was uploaded, so no byte of it may be
 * kept. `message` is a sentence to show as it is.
 */
import { type MessageKey, t } from '../i18n';

export type IntegrityProblem =
  /** The header is not the one this format writes (changed, or not a file made for such a link). */
  | 'header'
  /** The first record does not open: the link is not the one made for this file, or the file was changed. */
  | 'wrong-link'
  /** A later record does not open: changed, reordered or cut inside a record. */
  | 'changed'
  /** The bytes end before the record marked as the last one. */
  | 'cut-short'
  /** Bytes follow the record marked as the last one. */
  | 'extended';

const MESSAGES: Record<IntegrityProblem, MessageKey> = {
  header: 'integrityHeader',
  'wrong-link': 'integrityWrongLink',
  changed: 'integrityChanged',
  'cut-short': 'integrityCutShort',
  extended: 'integrityExtended',
};

export class LinkIntegrityError extends Error {
  override readonly name = 'LinkIntegrityError';
  constructor(
    readonly problem: IntegrityProblem,
    /** The record (from 0) where it was found, when it was found in one. */
    readonly record?: number,
  ) {
    super(t(MESSAGES[problem]));
  }
}

// The BIP 353 part of the settings, as the options page edits it: the DNS-over-HTTPS resolver and
// the DS records trusted besides the root's. Stored in the one settings item (version 6).
import { t } from '../../lib/i18n';
import { readAnchorText } from '../../lib/payments/dnssec/anchors';
import { isPaymentError } from '../../lib/payments/errors';
import { namesOf } from '../../lib/settings';
import {
  DEFAULT_RESOLVER,
  MAX_TRUST_ANCHORS,
  type NameSettings,
  resolverProblem,
} from '../../lib/settings/names';
import { loadSettings, saveNameSettings } from '../storage/settings';

export class NamesInputError extends Error {
  override name = 'NamesInputError';
}

export async function loadNames(): Promise<NameSettings> {
  return namesOf(await loadSettings());
}

async function saveNames(change: (names: NameSettings) => NameSettings): Promise<NameSettings> {
  const names = change(namesOf(await loadSettings()));
  await saveNameSettings(names);
  return names;
}

/** Saves the resolver's address (empty: the default); throws NamesInputError with a sentence. */
export async function saveResolver(text: string): Promise<NameSettings> {
  const resolver = text.trim() === '' ? DEFAULT_RESOLVER : text.trim();
  const problem = resolverProblem(resolver);
  if (problem) throw new NamesInputError(problem);
  return saveNames((names) => ({ ...names, resolver }));
}

/** Adds the DS records in `text` (one a line); returns how many were new. */
export async function addTrustAnchors(text: string): Promise<number> {
  let lines: string[];
  try {
    lines = readAnchorText(text).map((a) => a.line);
  } catch (error) {
    if (isPaymentError(error)) throw new NamesInputError(error.message);
    throw error;
  }
  if (lines.length === 0) throw new NamesInputError(t('namesAnchorNone'));
  let added = 0;
  await saveNames((names) => {
    const fresh = [...new Set(lines)].filter((line) => !names.trustAnchors.includes(line));
    if (names.trustAnchors.length + fresh.length > MAX_TRUST_ANCHORS)
      throw new NamesInputError(t('namesAnchorTooMany', MAX_TRUST_ANCHORS));
    added = fresh.length;
    return { ...names, trustAnchors: [...names.trustAnchors, ...fresh] };
  });
  return added;
}

export async function removeTrustAnchor(line: string): Promise<void> {
  await saveNames((names) => ({ ...names, trustAnchors: names.trustAnchors.filter((a) => a !== line) }));
}

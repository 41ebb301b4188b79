// A message with elements in it (a file name, a link): the message is looked up whole, so each
// language puts the elements where its grammar wants them.
import type { ComponentChildren } from 'preact';
import { type MessageKey, t } from '../lib/i18n';

const MARK = '\uE000';

export function Message({ id, args }: { id: MessageKey; args: ComponentChildren[] }) {
  const parts = t(id, ...args.map((_, i) => `${MARK}${i}${MARK}`)).split(new RegExp(`${MARK}(\\d+)${MARK}`));
  return <>{parts.map((part, i) => (i % 2 === 1 ? args[Number(part)] : part))}</>;
}

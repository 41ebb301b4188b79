// The account the home page uploads with, where the server requires one: kept for this tab only
// (sessionStorage) unless the person ticks "remember on this device" (localStorage). Never both: a
// person who unticks it takes it off the device at the next upload.
import type { Credentials } from '../../../lib/upload/types';

const KEY = 'hushdrop.account';

function read(store: Storage): Credentials | undefined {
  try {
    const value = JSON.parse(store.getItem(KEY) ?? 'null') as Partial<Credentials> | null;
    if (typeof value?.username === 'string' && typeof value.token === 'string')
      return { username: value.username, token: value.token };
  } catch {
    // A value this page did not write: as if none.
  }
  return undefined;
}

/** The account kept, and whether it is kept on this device. */
export function keptAccount(): { account?: Credentials; remembered: boolean } {
  const remembered = read(localStorage);
  if (remembered) return { account: remembered, remembered: true };
  return { account: read(sessionStorage), remembered: false };
}

export function keepAccount(account: Credentials, remember: boolean): void {
  const [keep, drop] = remember ? [localStorage, sessionStorage] : [sessionStorage, localStorage];
  drop.removeItem(KEY);
  keep.setItem(KEY, JSON.stringify(account));
}

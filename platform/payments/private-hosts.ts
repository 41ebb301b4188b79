// The origins on this machine or a private network that the person allowed the payment page to
// contact (its button, per origin: each loopback port is a different service). The extension's
// own host permission for loopback (granted in the manifest for the bundled server) does not
// count: it says nothing about what the person wants paid.
import { storage } from '@wxt-dev/storage';
import { isPrivateUrl } from '../../lib/payments/private-address';

export const paymentPrivateOriginsItem = storage.defineItem<string[]>('local:paymentPrivateOrigins', {
  fallback: [],
});

/** Whether the payment flow may contact this URL: a public host, or a private origin allowed. */
export async function mayReachPrivately(url: string): Promise<boolean> {
  if (!isPrivateUrl(url)) return true;
  const origin = new URL(url).origin;
  return (await paymentPrivateOriginsItem.getValue()).includes(origin);
}

/** Remembers the person's word that payments may contact this URL's origin (when private). */
export async function allowPrivateOrigin(url: string): Promise<void> {
  if (!isPrivateUrl(url)) return;
  const origin = new URL(url).origin;
  const current = await paymentPrivateOriginsItem.getValue();
  if (!current.includes(origin)) await paymentPrivateOriginsItem.setValue([...current, origin]);
}

/** Takes that word back: the payment page waits for the person again before contacting `origin`. */
export async function forgetPrivateOrigin(origin: string): Promise<void> {
  const current = await paymentPrivateOriginsItem.getValue();
  await paymentPrivateOriginsItem.setValue(current.filter((o) => o !== origin));
}

// Payment requests on this machine or a private network are fetched only after the person allows
// their origin on the payment page. The suites' merchants and hostile sites all run on loopback, so
// a suite that is not about that step allows its servers up front, the way the page stores it.
import type { DriverPage } from '../driver/driver';

/** Where the payment page keeps the allowed origins (platform/payments/private-hosts.ts). */
const STORAGE_KEY = 'paymentPrivateOrigins';

/**
 * Allows payments with these origins (scheme, host and port), replacing any allowed before.
 * `setStorage` writes extension local storage: the driver's, or a Chromium harness's.
 */
export function allowPaymentOrigins(
  setStorage: (items: Record<string, unknown>) => Promise<void>,
  ...origins: string[]
): Promise<void> {
  return setStorage({ [STORAGE_KEY]: origins.map((o) => new URL(o).origin) });
}

/** The step on the page: it shows the private address and waits; the person allows it. */
export async function allowOnPaymentPage(page: DriverPage): Promise<void> {
  await page.waitFor('#private-host');
  await page.click('#allow-private');
}

// Whether the payment page may contact a site, and asking the person for it.
import { browser } from 'wxt/browser';
import { originPattern } from '../../lib/settings';
import { requestOrigins } from '../permissions';

/** Whether the extension may already fetch from this URL's site (loopback always may). */
export async function mayContact(url: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [originPattern(url)] });
  } catch {
    return false;
  }
}

/** Asks the person for access to the URLs' sites, in one question; call it straight from a click. */
export function askToContact(...urls: string[]): Promise<boolean> {
  return requestOrigins(urls.map(originPattern));
}

/**
 * Firefox lets an extension handle bitcoin: links opened anywhere (the manifest's
 * protocol_handlers), but not lightning: ones: its list of schemes an extension may take has no
 * "lightning". Those reach Hushdrop only when clicked on a web page, or pasted.
 */
export const handlesBitcoinLinksOnly = import.meta.env.FIREFOX === true;

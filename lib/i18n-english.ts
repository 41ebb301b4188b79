// t() connected to the English messages, for code that runs outside a browser: unit tests and
// the command-line payment check. (Extension contexts connect browser.i18n: platform/i18n.ts.)
import en from '../public/_locales/en/messages.json';
import { connectMessages, fillMessage } from './i18n';

const messages: Record<string, { message: string }> = en;

export function connectEnglish(): void {
  connectMessages((key, substitutions) => {
    const entry = messages[key];
    return entry ? fillMessage(entry.message, substitutions) : '';
  }, 'en');
}

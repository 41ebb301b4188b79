// Connects lib/i18n to the browser's messages. Imported first by every entrypoint, so that no
// text is looked up before it. Pages also get the language on <html lang>.
import { browser } from 'wxt/browser';
import { connectMessages } from '../lib/i18n';

// The language of the messages in use, as the messages file itself names it: numbers and dates are
// then written the way the text around them is (getUILanguage can differ from the messages chosen).
const language = browser.i18n.getMessage('languageTag') || browser.i18n.getUILanguage();
connectMessages(
  (key, substitutions) =>
    browser.i18n.getMessage(key as Parameters<typeof browser.i18n.getMessage>[0], substitutions),
  language,
);
if (typeof document !== 'undefined') document.documentElement.lang = language;

// Unit tests read messages from the English file, as the browser would for an English UI.
import { connectEnglish } from '../lib/i18n-english';

connectEnglish();

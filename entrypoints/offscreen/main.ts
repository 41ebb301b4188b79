// Chromium's offscreen document: where the background's jobs run (platform/browser/offscreen.ts).
import { serveOffscreen } from '../../platform/browser/offscreen';

serveOffscreen(document.getElementById('clipboard') as HTMLTextAreaElement);

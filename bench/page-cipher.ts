// Bundled (IIFE) and evaluated in an extension page by the bench, so the page runs Hushdrop's own
// cipher code: lib/crypto's createCipher(...).cryptAt.
import { createCipher } from '../lib/crypto/cipher';

(globalThis as any).hushdropBench = { createCipher };

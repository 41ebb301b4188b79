// Bundled (IIFE) and evaluated in an extension page by the bench, so the page runs Hushdrop's own
// cipher code: lib/crypto's createCipher(...).cryptAt (row a), and the CTR and authenticated-format
// streams (row h).
import { createCipher } from '../lib/crypto/cipher';
import { eceDecryptStream, eceEncryptStream } from '../lib/crypto/ece-stream';
import { cryptStream } from '../lib/crypto/stream';

(globalThis as any).hushdropBench = { createCipher, cryptStream, eceEncryptStream, eceDecryptStream };

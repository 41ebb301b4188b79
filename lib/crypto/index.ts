export {
  BLOCK_BYTES,
  type CtrCipher,
  counterBlock,
  createCipher,
  decryptBytes,
  encryptBytes,
  type KeyMaterial,
} from './cipher';
export { sha256Hex } from './digest';
export { deriveIv } from './iv';
export { LINK_KEY_LENGTHS, LinkError, type LinkProblem, makeLink, type ParsedLink, parseLink } from './link';
export {
  type ChunkSink,
  type CryptBlobOptions,
  type CryptStreamOptions,
  cryptBlob,
  cryptStream,
  DEFAULT_CHUNK_BYTES,
  decryptBlob,
  encryptBlob,
  STREAM_CHUNK_BYTES,
} from './stream';
export {
  ALPHABET,
  IV_LENGTH,
  isAlphabetText,
  KEY_LENGTH,
  type RandomSource,
  randomIv,
  randomKey,
  randomText,
  textBytes,
} from './text';

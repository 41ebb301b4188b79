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
export {
  ECE_HEADER_BYTES,
  ECE_RECORD_BYTES,
  ECE_RECORD_OVERHEAD,
  ECE_SECRET_BYTES,
  type EceLayout,
  eceCiphertextSize,
  ecePlaintextSize,
  randomSecret,
} from './ece';
export {
  type EceEncryptOptions,
  type EceStreamOptions,
  eceDecryptBytes,
  eceDecryptStream,
  eceDecryptTransform,
  eceEncryptBytes,
  eceEncryptStream,
  eceEncryptTransform,
} from './ece-stream';
export { type IntegrityProblem, LinkIntegrityError } from './integrity';
export { deriveIv } from './iv';
export {
  ECE_FORMAT_NAME,
  ECE_LINK_PREFIX,
  type EceLink,
  eceFragment,
  LINK_KEY_LENGTHS,
  LinkError,
  type LinkFormat,
  type LinkProblem,
  makeEceLink,
  makeLink,
  type ParsedLink,
  parseLink,
  parseShareLink,
  type TeknikLink,
} from './link';
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

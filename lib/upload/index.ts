// The Upload API v1 client for both variants: request mapping, answer mapping, errors, links,
// and two transports. No browser-extension API: the platform comes in as parameters.
export { readUploadAnswer, type SendUploadArgs, sendUpload } from './client';
export { UploadError, type UploadErrorKind } from './errors';
export { deletionLink, shareLink, uploadEndpoint } from './links';
export { multipartFrame, multipartStream, randomBoundary, type StreamBody } from './multipart';
export {
  buildPartsStart,
  checkPartAnswer,
  MAX_PART_BYTES,
  MIN_PART_BYTES,
  type PartsSession,
  type PartsStartRequest,
  partSize,
  partsEndpoint,
  partsSessionUrl,
  partUrl,
  readPartsStart,
} from './parts';
export {
  BLOCK_SIZE_BITS,
  basicAuthorization,
  buildFormData,
  buildUploadRequest,
  EXPIRATION_UNITS,
  fieldsForm,
  KEY_SIZE_BITS,
  LINK_FORMAT_FIELD,
  partFileName,
  storedSize,
} from './request';
export { parseUploadResponse } from './response';
export { requestStreamsSupported, type StreamChoice, shouldStream } from './stream-choice';
export {
  fetchTransport,
  REFUSED_WITHIN_BYTES,
  streamTransport,
  type Timers,
  type XhrExchange,
  xhrExchange,
  xhrTransport,
} from './transport';
export {
  type Choice,
  chooseWay,
  MEASURED_FROM_BYTES,
  NO_FIGURES,
  normalizeFigures,
  recordSample,
  type TransportFigures,
  type UploadSample,
  type UploadWay,
} from './transport-choice';
export type {
  Credentials,
  ExpireUnit,
  FileInfo,
  FramedBody,
  Mode,
  ServerAddresses,
  Transport,
  TransportOptions,
  TransportRequest,
  TransportResponse,
  UploadOptions,
  UploadRequest,
  UploadResult,
  UploadTarget,
  Variant,
} from './types';

// The Upload API v1 client for both variants: request mapping, answer mapping, errors, links,
// and two transports. No browser-extension API: the platform comes in as parameters.

export {
  type Capabilities,
  capabilitiesFromRates,
  type Figure,
  type Learned,
  learn,
  MEASURED_FROM_BYTES,
  type Measured,
  NO_CAPABILITIES,
  readCapabilities,
  requestStreamsSupported,
  type ServerRates,
  type ServerRecord,
  type UploadSample,
} from './capabilities';
export { readUploadAnswer, type SendUploadArgs, sendUpload } from './client';
export { UploadError, type UploadErrorKind } from './errors';
export {
  type InfoAnswer,
  PARTS_SEGMENT,
  type PartsStartAnswer,
  type PartsStep,
  partsEndpoint,
  partsSessionUrl,
  partsStepOf,
  partUrl,
} from './hushdrop-api';
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
export {
  fetchTransport,
  REFUSED_WITHIN_BYTES,
  sendSealed,
  streamTransport,
  type Timers,
  type XhrExchange,
  xhrExchange,
  xhrTransport,
} from './transport';
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

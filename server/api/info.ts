// GET /_hushdrop/info: "what is this server", for a client that knows one address of it (the extension's
// Test connection, a first-run page, and its uploads: whether to go in parts). Public facts only;
// documented in server/README.md, typed for both sides in lib/upload/hushdrop-api.ts.

import type { InfoAnswer } from '../../lib/upload/hushdrop-api';
import type { ServerSettings } from '../config/settings';
import { SERVER_VERSION } from '../version';
import type { Links } from './upload';

/** The legacy variant's expiry units (the seed's spelling; the real server's is accepted too). */
const LEGACY_EXPIRY = ['never', 'view', 'minute', 'hour', 'day', 'month', 'year'];

export function serverInfo(settings: ServerSettings, links: Links): InfoAnswer {
  const maxAgeSeconds = settings.maxAgeMs > 0 ? Math.round(settings.maxAgeMs / 1000) : null;
  return {
    server: 'hushdrop',
    version: SERVER_VERSION,
    api: 'teknik-upload-v1',
    /** Client-encrypted formats this server stores and its recipient page is meant to open. */
    linkFormats: ['teknik', 'ece1'],
    variants: {
      legacy: {
        base_url: links.baseUrl,
        upload: `${links.baseUrl}/v1/Upload?sub=api`,
        uploads: settings.requireAccount ? 'closed' : 'open',
        expiry: LEGACY_EXPIRY,
      },
      current: {
        api_url: links.apiUrl,
        upload_url: links.uploadUrl,
        upload: `${links.apiUrl}/v1/Upload`,
        uploads: settings.requireAccount ? 'accounts' : 'open',
        expiry: [],
      },
    },
    maxUploadBytes: settings.maxUploadBytes ?? null,
    maxAgeSeconds,
    accounts: { required: settings.requireAccount, auth: 'basic' },
    /** Uploads in parts (…/v1/Upload/Parts): every part but the last has partBytes bytes. */
    parts: { partBytes: settings.parts.partBytes },
  };
}

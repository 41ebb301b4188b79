// Settings: their shape, defaults and the migrations between shapes. Pure data, no browser API:
// the storage item that persists them lives in platform/settings.ts.
import type { Credentials, ExpireUnit, Mode, UploadOptions, UploadTarget, Variant } from '../upload';

export interface ServerSettings {
  variant: Variant;
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
  username: string;
  token: string;
}

export interface UploadDefaults {
  mode: Mode;
  saveKey: boolean;
  genDeletionKey: boolean;
  expireUnit: ExpireUnit;
  expireLength: number;
  doNotTrack: boolean;
}

export interface Settings {
  server: ServerSettings;
  defaults: UploadDefaults;
}

export const SETTINGS_VERSION = 1;

// The bundled reference server listens here when started with `npm run server`.
export const DEFAULT_SETTINGS: Settings = {
  server: {
    variant: 'current',
    baseUrl: 'http://127.0.0.1:8787',
    apiUrl: 'http://127.0.0.1:8787/api',
    uploadUrl: 'http://127.0.0.1:8787/u',
    username: '',
    token: '',
  },
  defaults: {
    mode: 'client',
    saveKey: true,
    genDeletionKey: true,
    expireUnit: 'never',
    expireLength: 1,
    doNotTrack: true,
  },
};

/** Fills whatever a stored value lacks from the defaults, so a partial or older object is usable. */
export function normalizeSettings(value: unknown): Settings {
  const v = (value ?? {}) as Partial<Settings>;
  return {
    server: { ...DEFAULT_SETTINGS.server, ...(v.server ?? {}) },
    defaults: { ...DEFAULT_SETTINGS.defaults, ...(v.defaults ?? {}) },
  };
}

export function uploadTarget(server: ServerSettings, variant: Variant = server.variant): UploadTarget {
  const credentials: Credentials | undefined =
    variant === 'current' && server.username ? { username: server.username, token: server.token } : undefined;
  return {
    variant,
    addresses: { baseUrl: server.baseUrl, apiUrl: server.apiUrl, uploadUrl: server.uploadUrl },
    credentials,
  };
}

export function uploadOptions(d: UploadDefaults): UploadOptions {
  return { ...d };
}

/** A server address must be an absolute http(s) URL; returns a sentence when it is not. */
export function checkServerAddress(label: string, value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      return `${label} must start with http:// or https://.`;
    return undefined;
  } catch {
    return `${label} is not a web address (for example https://files.example.org).`;
  }
}

/** The origins a server's addresses live on, as host-permission patterns. */
export function serverOriginPatterns(server: ServerSettings): string[] {
  const out = new Set<string>();
  for (const a of [server.baseUrl, server.apiUrl, server.uploadUrl]) {
    try {
      const u = new URL(a);
      out.add(`${u.protocol}//${u.hostname}/*`);
    } catch {
      // invalid addresses are reported by checkServerAddress
    }
  }
  return [...out];
}

// What the API's handlers work with: one per running server.

import type { Accounts } from '../accounts/accounts';
import type { ServerSettings } from '../config/settings';
import type { ByteQuotas } from '../limits/byte-quotas';
import type { Limits } from '../limits/limits';
import type { Uploads } from '../uploads/uploads';

export interface ApiContext {
  settings: ServerSettings;
  uploads: Uploads;
  accounts: Accounts;
  /** Request and upload-count limits, counted in this process. */
  limits: Limits;
  /** The daily byte quotas, kept in the store (shared by every instance on it). */
  quotas: ByteQuotas;
  /** The clock for expiry (tests inject one). */
  now: () => number;
}

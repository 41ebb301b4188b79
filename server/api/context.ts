// What the API's handlers work with: one per running server.

import type { Accounts } from '../accounts/accounts';
import type { ServerSettings } from '../config/settings';
import type { Limits } from '../limits/limits';
import type { Uploads } from '../uploads/uploads';

export interface ApiContext {
  settings: ServerSettings;
  uploads: Uploads;
  accounts: Accounts;
  limits: Limits;
  /** The clock for expiry (tests inject one). */
  now: () => number;
}

// The mount point for the recipient page (server/recipient/, its own part of the project). It sees every
// request after the server's own checks (rate limits, bounded bodies) and before the API's routes, and
// answers the ones it wants (returning true). Until it lands there is nothing mounted:
// replace `null` below by the recipient module's routes, e.g.
//   export { recipientRoutes } from './recipient';
import type { MountedRoutes } from './app';

export const recipientRoutes: MountedRoutes | null = null;

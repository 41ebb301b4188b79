// The mount point for the recipient page (server/recipient/, its own part of the project). It sees every
// request after the server's own checks (rate limits, bounded bodies) and before the API's routes, and
// answers the ones it wants (returning true).
export { recipientRoutes } from './recipient/mount';

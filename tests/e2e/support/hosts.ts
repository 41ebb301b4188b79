// Loopback addresses the manifest does not grant (it grants only 127.0.0.1 and localhost): a
// server or site on one of them needs the extension's permission request, as a real one would.

/** Where the suites' servers and sites live, granted or allowed when asked. */
export const UNGRANTED_HOST = '127.0.0.2';
/** A second site, for files that live elsewhere than the page that links them. */
export const OTHER_HOST = '127.0.0.3';
/** A server saved in the options during a scenario, asked for then. */
export const ASKED_HOST = '127.0.0.4';

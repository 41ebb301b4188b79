// The devkit: what the tests, the bench (bench/) and the tools (scripts/) share. Nothing outside
// tests/ imports tests/ (tests/layers checks it), so whatever a tool needs of the tests' helpers
// lives here. Browser launch recipes (chromium.ts, firefox.ts over marionette.ts), process memory
// from /proc (memory.ts), settings written the one way (settings.ts), large random files
// (files.ts), a large upload history to import (history.ts), opening a link as the README
// documents it (links.ts; stored-bytes.ts for links that open the recipient page), the
// extension's private files (opfs.ts), the Teknik stand-in's command line (reference-server.ts),
// and waiting on a condition (wait.ts).
// Imported by path rather than from here, as they load more than most callers need: WebKit's launch
// recipe (webkit.ts, over webdriver.ts: MiniBrowser by WebKitWebDriver under Xvfb), a single-node
// Ceph (ceph.ts), a TLS identity under a test CA (tls.ts, ca.ts), the BIP70 corpus reader
// (corpus.ts), and what the extension knows of servers, in its IndexedDB (capabilities.ts,
// which loads the storage module). `npm start` imports the launch recipe it needs by path too, so
// that it starts the browser without loading the rest.
export * from './chromium';
export * from './files';
export * from './firefox';
export * from './history';
export * from './links';
export * from './memory';
export * from './opfs';
export * from './reference-server';
export * from './settings';
export * from './stored-bytes';
export * from './wait';

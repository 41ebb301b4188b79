// The testkit: what the tests, the bench (bench/) and the scripts (scripts/) share, and the only
// part of tests/ that code outside tests/ may import. Browser launch recipes (chromium.ts,
// firefox.ts over marionette.ts), process memory from /proc (memory.ts), settings written the one
// way (settings.ts), large random files (files.ts), a large upload history to import
// (history.ts), opening a link as the README documents it (links.ts; stored-bytes.ts for links that
// open the recipient page), the extension's private files (opfs.ts), the reference server
// (server.ts), and waiting on a condition (wait.ts).
// Imported by path rather than from here, as they load the payment code and the BIP70 corpus:
// the fuzz inputs (fuzz.ts), the corpus reader (corpus.ts), and what the extension knows of servers,
// in its IndexedDB (capabilities.ts, which loads the storage module). `npm start` imports the launch
// recipe it needs by path too, so that it starts the browser without loading the rest.
export * from './chromium';
export * from './files';
export * from './firefox';
export * from './history';
export * from './links';
export * from './memory';
export * from './opfs';
export * from './server';
export * from './settings';
export * from './stored-bytes';
export * from './wait';

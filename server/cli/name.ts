// How the operator runs the server's commands, for usage and hints: `hushdrop-server` (the installed
// package), or `npm run server --` in the repository.
export const COMMAND = process.env.npm_lifecycle_event === 'server' ? 'npm run server --' : 'hushdrop-server';

// `serve`: runs the server until SIGTERM or SIGINT (a graceful stop; a second one cuts at once). SIGHUP
// (what logrotate's postrotate or `systemctl reload` sends) opens the access log file again by its name.

import type { ServerSettings } from '../config/settings';
import { bytesReadable } from '../http/responses';
import { startServer } from '../server';

function describeLimits(s: ServerSettings): string {
  const max = s.maxUploadBytes !== undefined ? bytesReadable(s.maxUploadBytes) : 'none';
  const perMinute = s.limits.requestsPerMinute || 'unlimited';
  return `size limit ${max}; ${perMinute} requests a minute per address; accounts ${s.requireAccount ? 'required' : 'optional'}`;
}

export async function serve(settings: ServerSettings): Promise<void> {
  const server = await startServer(settings);
  // Scripts read the first three lines; keep their shape.
  console.log(`base_url=${server.links.baseUrl}`);
  console.log(`api_url=${server.links.apiUrl}`);
  console.log(`upload_url=${server.links.uploadUrl}`);
  console.log(
    `Hushdrop server listening on ${settings.host}:${server.port}${server.protocols ? ' (HTTPS)' : ''}; ` +
      `data in ${settings.s3 ? server.storage.description : settings.dataDir}; ${describeLimits(settings)}; ` +
      `${await server.ctx.accounts.count()} account(s). Ctrl-C stops it.`,
  );
  if (!settings.publicUrls.baseUrl && (settings.host === '0.0.0.0' || settings.host === '::'))
    console.log('Note: links name the listening address; set PUBLIC_URL to the address people use.');
  let stops = 0;
  const stop = () => {
    stops += 1;
    if (stops === 1) {
      console.log('Stopping: uploads in progress may finish (Ctrl-C again cuts them now)…');
      server.close().then(() => process.exit(0));
    } else server.close({ graceMs: 0 });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Node's default for SIGHUP ends the process at once, without a word.
  process.on('SIGHUP', () => {
    if (settings.accessLog === 'stdout' || settings.accessLog === 'off')
      return console.log(`SIGHUP: the access log is ${settings.accessLog}; there is no file to open again.`);
    if (server.reopenAccessLog())
      console.log(`SIGHUP: the access log ${settings.accessLog} was opened again.`);
  });
}

// The recipient page as the Hushdrop server mounts it (server/recipient-mount.ts): its store is the
// server's uploads, and a link's upload is the one the server's router found for the request.
import type { MountedRoutes } from '../exchange';
import type { UploadRecord } from '../uploads/record';
import { recipientPage } from '.';

export const recipientRoutes: MountedRoutes = (x, ctx) => {
  const page = recipientPage<UploadRecord>({
    find: async (name) => (await ctx.uploads.find(name)) ?? undefined,
    claimView: async (upload) => {
      const claim = await ctx.uploads.claimView(upload.fileName);
      return claim.ok ? claim.record : undefined;
    },
    read: (upload) => ctx.uploads.storage.blobs.get(upload.blobId),
  });
  // The server's own paths (info, health, metrics) stay the server's.
  if (x.route.kind === 'info' || x.route.kind === 'health' || x.route.kind === 'metrics')
    return Promise.resolve(false);
  return page.answer(
    x.req,
    x.body,
    x.res,
    x.route.kind === 'download' ? x.route.fileName : undefined,
    x.route.kind === 'index',
  );
};

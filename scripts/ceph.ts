// `npm run ceph`: a throwaway single-node Ceph with an S3 gateway, until Ctrl+C. Prints the variables
// the Hushdrop server's S3 storage reads (a shell can `eval` the lines that hold `=`), having made the
// bucket named by `BUCKET` (default `hushdrop`). Ctrl+C (or SIGTERM) stops every daemon and removes the
// folder; so does this process dying any other way.

import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CephError, startCeph } from '../devkit/ceph';

const bucket = process.env.BUCKET || 'hushdrop';

async function main(): Promise<void> {
  console.error('Starting a single-node Ceph (monitor, memstore OSD, radosgw)…');
  const ceph = await startCeph();
  const stop = () => {
    void ceph.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Nothing of the cluster keeps this process alive (so that it never outlives a test run); this does.
  setInterval(() => {}, 2 ** 30);
  const client = new S3Client({
    endpoint: ceph.endpoint,
    region: ceph.region,
    forcePathStyle: true,
    credentials: { accessKeyId: ceph.accessKeyId, secretAccessKey: ceph.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  console.log(`STORAGE_URL=s3://${bucket}/`);
  console.log(`AWS_ENDPOINT_URL_S3=${ceph.endpoint}`);
  console.log(`AWS_REGION=${ceph.region}`);
  console.log(`AWS_ACCESS_KEY_ID=${ceph.accessKeyId}`);
  console.log(`AWS_SECRET_ACCESS_KEY=${ceph.secretAccessKey}`);
  console.error(
    `Started in ${(ceph.startMs / 1000).toFixed(1)} s, ${(ceph.memoryBytes() / 2 ** 20).toFixed(0)} MiB resident; folder ${ceph.dir}. Ctrl+C stops it.`,
  );
}

main().catch((err) => {
  console.error(err instanceof CephError ? err.message : err);
  process.exit(1);
});

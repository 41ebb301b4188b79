/**
 * A worker's last word on its one job: the job's own report, or its failure as name and message (an
 * Error does not cross postMessage whole). The encrypt workers and the home page's parts worker end so.
 */
export interface WorkerFailure {
  type: 'error';
  name: string;
  message: string;
}

/** Posts the report `job` resolves with, or its failure. */
export function reportOutcome<R>(job: Promise<R>, post: (report: R | WorkerFailure) => void): void {
  job.then(post, (err: unknown) =>
    post({
      type: 'error',
      name: err instanceof Error ? err.name : 'Error',
      message: err instanceof Error ? err.message : String(err),
    }),
  );
}

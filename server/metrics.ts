// What `GET /_hushdrop/metrics` serves (Prometheus text, through prom-client), when the config gives it a
// token: uploads and their bytes, refusals by reason, uploads in parts, store errors, request durations,
// sweeps, and Node's own process metrics. Counted from the access log's entries and from the store's
// calls, so no route needs to know about metrics. Nothing in it names an upload, an address or an account.

import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { AccessEntry } from './http/access-log';
import { isStorageError } from './storage/errors';
import type { JsonRecord, Storage } from './storage/types';
import { parseUploadRecord } from './uploads/record';
import type { SweepReport } from './uploads/sweeper';

/** What a refusal's status says, as the `reason` label (404 and 410 are answers, not refusals). */
const REFUSALS: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  405: 'method',
  408: 'too-slow',
  409: 'conflict',
  411: 'length-required',
  413: 'too-large',
  429: 'too-many',
  500: 'error',
  503: 'unavailable',
  507: 'full',
};

/** What an answered request of the parts routes means for a session. */
const PARTS_EVENTS: Record<string, { status: number; event: string }> = {
  'parts-start': { status: 201, event: 'started' },
  'parts-done': { status: 200, event: 'finished' },
  'parts-abort': { status: 204, event: 'aborted' },
};

export class Metrics {
  readonly registry = new Registry();
  private readonly uploads = new Counter({
    name: 'hushdrop_uploads_total',
    help: 'Uploads stored (one request or in parts), by API variant.',
    labelNames: ['variant'] as const,
    registers: [this.registry],
  });
  private readonly uploadBytes = new Counter({
    name: 'hushdrop_upload_bytes_total',
    help: 'Bytes of the uploads stored, as stored (ciphertext when encrypted), by API variant.',
    labelNames: ['variant'] as const,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'hushdrop_refusals_total',
    help: 'Requests refused, by reason (from the status: too-many is a rate limit or quota, too-large the size limit…).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly cut = new Counter({
    name: 'hushdrop_requests_cut_total',
    help: 'Requests whose connection ended before their answer was complete.',
    registers: [this.registry],
  });
  private readonly partsSessions = new Counter({
    name: 'hushdrop_parts_sessions_total',
    help: 'Uploads in parts: sessions started, finished and aborted (expired ones go with the sweeps).',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'hushdrop_store_errors_total',
    help: 'Calls to the store that failed, by operation and kind (full, unavailable).',
    labelNames: ['operation', 'kind'] as const,
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'hushdrop_request_duration_seconds',
    help: 'Time from a request’s start to its answer’s end, by route and status.',
    labelNames: ['route', 'status'] as const,
    buckets: [0.005, 0.025, 0.1, 0.5, 2.5, 10, 60, 300, 1800],
    registers: [this.registry],
  });
  private readonly swept = new Counter({
    name: 'hushdrop_swept_total',
    help: 'What the sweeper removed: expired uploads and sessions, and orphans (bytes without a record).',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });
  private readonly sweepFailures = new Counter({
    name: 'hushdrop_sweep_failures_total',
    help: 'Sweeps that failed.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** One answered request, as the access log sees it. */
  observeRequest(entry: AccessEntry): void {
    const route = entry.what.replace(/-(legacy|current)$/, '');
    this.durations.observe({ route, status: String(entry.status ?? '-') }, entry.ms / 1000);
    const reason = entry.status === null ? undefined : REFUSALS[entry.status];
    if (reason) this.refusals.inc({ reason });
    if (entry.cut) this.cut.inc();
    const parts = PARTS_EVENTS[route];
    if (parts && entry.status === parts.status && !entry.cut) this.partsSessions.inc({ event: parts.event });
  }

  observeSweep(report: SweepReport): void {
    if (report.error) this.sweepFailures.inc();
    if (report.expired) this.swept.inc({ what: 'expired' }, report.expired);
    if (report.orphans) this.swept.inc({ what: 'orphans' }, report.orphans);
  }

  /** `storage` with every call counted: failures by kind, and uploads as their records are created. */
  instrument<S extends Storage>(storage: S): S {
    const countFailure = (operation: string) => (err: unknown) => {
      if (isStorageError(err) && err.kind !== 'not-found')
        this.storeErrors.inc({ operation, kind: err.kind });
      throw err;
    };
    const counted = <T extends object>(target: T, part: string): T =>
      new Proxy(target, {
        get: (obj, property, receiver) => {
          const value = Reflect.get(obj, property, receiver);
          if (typeof value !== 'function') return value;
          const operation = `${part}.${String(property)}`;
          return (...args: unknown[]) => {
            const result = value.apply(obj, args);
            if (result instanceof Promise) {
              const settled = result.catch(countFailure(operation));
              if (operation === 'records.create') {
                return settled.then((created: boolean) => {
                  if (created) this.countUpload(args[1] as JsonRecord);
                  return created;
                });
              }
              return settled;
            }
            if (result && typeof result[Symbol.asyncIterator] === 'function')
              return this.countedIteration(result, countFailure(operation));
            return result;
          };
        },
      });
    return {
      ...storage,
      blobs: counted(storage.blobs, 'blobs'),
      records: counted(storage.records, 'records'),
      check: () => storage.check().catch(countFailure('check')),
    };
  }

  private async *countedIteration<T>(items: AsyncIterable<T>, failed: (err: unknown) => never) {
    try {
      yield* items;
    } catch (err) {
      failed(err);
    }
  }

  private countUpload(value: JsonRecord): void {
    const upload = parseUploadRecord(value);
    if (!upload) return;
    this.uploads.inc({ variant: upload.variant });
    this.uploadBytes.inc({ variant: upload.variant }, upload.contentLength);
  }

  /** The text Prometheus scrapes, and its content type. */
  async render(): Promise<{ body: string; type: string }> {
    return { body: await this.registry.metrics(), type: this.registry.contentType };
  }
}

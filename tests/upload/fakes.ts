// Test doubles for the platform pieces lib/upload takes as parameters.
import type { Timers } from '../../lib/upload';

/** Timers that only fire when the test says so: no waiting, no timed assertions. */
export class ManualTimers implements Timers {
  private next = 1;
  readonly pending = new Map<number, { callback: () => void; ms: number }>();

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Runs every pending timer, as if their time had come. */
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const { callback } of due) callback();
  }
}

type Handler = ((event: any) => void) | null;

/** A scriptable stand-in for XMLHttpRequest; the last one made is in FakeXHR.last. */
export class FakeXHR {
  static last: FakeXHR | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  responseType = '';
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  aborted = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onprogress: Handler = null;
  onload: Handler = null;
  onerror: Handler = null;
  onabort: Handler = null;
  ontimeout: Handler = null;

  constructor() {
    FakeXHR.last = this;
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: unknown) {
    this.body = body;
  }

  abort() {
    if (this.aborted) return;
    this.aborted = true;
    this.onabort?.({});
  }

  // What the network would do:
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }

  respond(status: number, contentType: string | null, body: string) {
    this.status = status;
    this.responseText = body;
    this.responseHeaders = contentType === null ? {} : { 'content-type': contentType };
    this.onload?.({});
  }

  fail() {
    this.onerror?.({});
  }
}

export const XHR = FakeXHR as unknown as typeof XMLHttpRequest;

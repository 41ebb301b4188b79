// A client of the server's upload in parts (Start, Part, Held, Done, Abort), for the server's tests: plain
// fetch, so each test sees every status and sentence the server answers.

import type { ReferenceServer } from './server';
import { type UploadAnswer as Answer, answerOf as answer, form } from './test-helpers';

export type PartsVariant = 'current' | 'legacy';

/** The parts base P of a variant: its upload address with `/Parts` on the path, the query kept. */
export function partsBase(server: ReferenceServer, variant: PartsVariant): { path: string; query: string } {
  return variant === 'current'
    ? { path: `${server.apiUrl}/v1/Upload/Parts`, query: '' }
    : { path: `${server.baseUrl}/v1/Upload/Parts`, query: '?sub=api' };
}

export function basic(username: string, token: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` };
}

export class PartsClient {
  constructor(
    readonly server: ReferenceServer,
    readonly variant: PartsVariant = 'current',
    readonly headers: Record<string, string> = {},
  ) {}

  private url(...segments: string[]): string {
    const { path, query } = partsBase(this.server, this.variant);
    return `${[path, ...segments].join('/')}${query}`;
  }

  async start(fields: Record<string, string>): Promise<Answer> {
    return answer(await fetch(this.url(), { method: 'POST', body: form(fields), headers: this.headers }));
  }

  async put(id: string, index: number | string, bytes: Uint8Array): Promise<Answer> {
    return answer(
      await fetch(this.url(id, String(index)), {
        method: 'PUT',
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { 'Content-Type': 'application/octet-stream', ...this.headers },
      }),
    );
  }

  /** Which parts the server holds (a client resuming). */
  async held(id: string): Promise<Answer> {
    return answer(await fetch(this.url(id), { headers: this.headers }));
  }

  async done(id: string): Promise<Answer> {
    return answer(await fetch(this.url(id), { method: 'POST', headers: this.headers }));
  }

  async abort(id: string): Promise<Answer> {
    return answer(await fetch(this.url(id), { method: 'DELETE', headers: this.headers }));
  }

  /** Part `index` of `bytes` cut at `partBytes`. */
  static slice(bytes: Uint8Array, partBytes: number, index: number): Uint8Array {
    return bytes.subarray(index * partBytes, Math.min(bytes.length, (index + 1) * partBytes));
  }
}

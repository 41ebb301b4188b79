// W3C WebDriver over HTTP, the few calls ./webkit.ts and the e2e WebKit driver make to
// WebKitWebDriver. Hand-written, as marionette.ts is: a command is one fetch of JSON, and the usual
// clients (selenium-webdriver, webdriverio) bring far more than these calls need.
// Also the one wrapper that runs a function in a page through Execute Async Script, which Marionette
// (./firefox.ts) shares: the function's promise is awaited, and its error comes back as text.

export class WebDriverError extends Error {
  constructor(
    readonly command: string,
    /** The spec's error code, e.g. `no such element`, `stale element reference`. */
    readonly error: string,
    message: string,
  ) {
    super(`${command}: ${error}: ${message}`);
  }
}

/** A connection to one session of a WebDriver server. */
export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  /** Creates a session at `driverUrl` (e.g. http://127.0.0.1:4444) with these capabilities. */
  static async create(
    driverUrl: string,
    alwaysMatch: Record<string, unknown>,
    timeout = 120_000,
  ): Promise<WebDriverSession> {
    const value = await call(
      'POST',
      `${driverUrl}/session`,
      { capabilities: { alwaysMatch } },
      'New Session',
      timeout,
    );
    return new WebDriverSession(`${driverUrl}/session/${value.sessionId}`, value.sessionId);
  }

  /** One command: `path` is under the session, e.g. `/url`, `/element/<id>/click`. */
  send<T = any>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    timeout = 300_000,
  ): Promise<T> {
    return call(
      method,
      this.base + path,
      method === 'POST' ? (body ?? {}) : undefined,
      `${method} ${path}`,
      timeout,
    );
  }

  /** Ends the session (the browser closes); a session already gone is not an error. */
  async delete(timeout = 30_000): Promise<void> {
    await call('DELETE', this.base, undefined, 'Delete Session', timeout).catch(() => {});
  }
}

async function call(
  method: string,
  url: string,
  body: unknown,
  command: string,
  timeout: number,
): Promise<any> {
  if (process.env.WEBDRIVER_LOG)
    console.error(new Date().toISOString(), command, JSON.stringify(body)?.slice(0, 160));
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
  } catch (err) {
    throw new WebDriverError(command, 'unreachable', `the WebDriver server did not answer (${err}).`);
  }
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebDriverError(command, `HTTP ${res.status}`, `the answer was not JSON: ${text.slice(0, 200)}`);
  }
  const value = json?.value;
  if (!res.ok || (value && typeof value === 'object' && typeof value.error === 'string'))
    throw new WebDriverError(command, value?.error ?? `HTTP ${res.status}`, value?.message ?? '');
  return value;
}

/**
 * The script for Execute Async Script that runs `source` (a function's text) with the first argument
 * and hands back `{ value }`, `{ undefined: true }` or `{ error }`; read the answer with scriptResult.
 */
export function asyncScript(source: string): string {
  return `const [arg, done] = arguments;
    Promise.resolve().then(() => (${source})(arg)).then(
      (value) => done(value === undefined ? { undefined: true } : { value }),
      (error) => done({ error: String(error) + (error && error.stack ? ' at ' + error.stack : '') }));`;
}

/** The function's value from asyncScript's answer, or its error thrown as "In the page: …". */
export function scriptResult<R>(answer: any): R {
  if (answer?.error) throw new Error(`In the page: ${answer.error}`);
  return (answer?.undefined ? undefined : answer?.value) as R;
}

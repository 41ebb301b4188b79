// A small client for Marionette, Firefox's own remote protocol, which ./firefox.ts speaks.
// Why not WebDriver BiDi (puppeteer-core): Firefox's BiDi skips extension contexts (a moz-extension
// page never finishes loading for it, and scripts cannot run there). Marionette's content actors do
// run in extension pages once Firefox starts with --remote-allow-system-access. Why hand-written:
// the usual clients (selenium-webdriver, webdriverio) need geckodriver, which Debian does not ship
// and npm can only download from outside the registry. The wire format is small:
// `<byte length>:<JSON>`, commands `[0, id, name, params]`, answers `[1, id, error, result]`.
import { connect, type Socket } from 'node:net';

export class MarionetteError extends Error {
  constructor(
    readonly command: string,
    readonly error: string,
    message: string,
  ) {
    super(`${command}: ${error}: ${message}`);
  }
}

interface Waiter {
  command: string;
  resolve(value: any): void;
  reject(error: Error): void;
}

export class Marionette {
  private buffer = Buffer.alloc(0);
  private readonly waiters = new Map<number, Waiter>();
  private nextId = 0;
  private closed: Error | undefined;

  private constructor(private readonly socket: Socket) {}

  /** Connects and reads the server's greeting. */
  static async connect(port: number): Promise<Marionette> {
    const socket = connect(port, '127.0.0.1');
    const client = new Marionette(socket);
    const hello = new Promise<void>((resolve, reject) => {
      client.onGreeting = resolve;
      socket.once('error', reject);
    });
    socket.on('data', (data) => client.receive(data));
    socket.on('close', () => client.fail(new Error('Firefox closed the Marionette connection.')));
    socket.on('error', (err) => client.fail(err));
    await hello;
    return client;
  }

  private onGreeting: (() => void) | undefined;

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const colon = this.buffer.indexOf(0x3a);
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString('latin1'));
      const end = colon + 1 + length;
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.subarray(colon + 1, end).toString('utf8'));
      this.buffer = this.buffer.subarray(end);
      if (!Array.isArray(message)) {
        this.onGreeting?.();
        this.onGreeting = undefined;
        continue;
      }
      const [, id, error, result] = message as [number, number, any, any];
      const waiter = this.waiters.get(id);
      this.waiters.delete(id);
      if (!waiter) continue;
      if (error) waiter.reject(new MarionetteError(waiter.command, error.error, error.message));
      else waiter.resolve(result);
    }
  }

  private fail(err: Error): void {
    this.closed ??= err;
    for (const w of this.waiters.values()) w.reject(err);
    this.waiters.clear();
  }

  /** Sends one command and returns its result (commands answer in order, one at a time). */
  send<T = any>(command: string, params: Record<string, unknown> = {}): Promise<T> {
    if (this.closed) return Promise.reject(this.closed);
    const id = ++this.nextId;
    const body = Buffer.from(JSON.stringify([0, id, command, params]), 'utf8');
    return new Promise<T>((resolve, reject) => {
      this.waiters.set(id, { command, resolve, reject });
      this.socket.write(`${body.length}:`);
      this.socket.write(body);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

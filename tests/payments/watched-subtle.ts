// WebCrypto as the payment tests watch it: the format of every key import, how many signature
// checks were made (each one a job off the thread, issue 21), and import formats it refuses.

export interface WatchedSubtle {
  subtle: SubtleCrypto;
  /** Formats of the key imports, in order. */
  formats: string[];
  /** Counts of the calls made. */
  counted: { verify: number };
}

export function watchedSubtle(refuse: readonly string[] = []): WatchedSubtle {
  const formats: string[] = [];
  const counted = { verify: 0 };
  const subtle = new Proxy(crypto.subtle, {
    get(target, property) {
      if (property === 'importKey') {
        return (format: string, ...rest: unknown[]) => {
          formats.push(format);
          if (refuse.includes(format)) return Promise.reject(new DOMException('refused here', 'DataError'));
          return (target.importKey as (...args: unknown[]) => Promise<CryptoKey>)(format, ...rest);
        };
      }
      if (property === 'verify') {
        return (...args: unknown[]) => {
          counted.verify++;
          return (target.verify as (...a: unknown[]) => Promise<boolean>)(...args);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { subtle, formats, counted };
}

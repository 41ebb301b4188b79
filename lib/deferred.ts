/** A promise settled from outside (Promise.withResolvers, which Node 20 lacks); its rejection never goes unhandled. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/** One Deferred per index, made when first asked for (by whichever side comes first: the maker or the taker). */
export function deferredByIndex<T>() {
  const entries = new Map<number, Deferred<T>>();
  const of = (index: number): Deferred<T> => {
    let entry = entries.get(index);
    if (!entry) {
      entry = deferred<T>();
      entries.set(index, entry);
    }
    return entry;
  };
  return {
    of,
    /** Rejects every index below `count` not settled yet (settled ones stay as they are). */
    rejectAll(count: number, err: unknown) {
      for (let i = 0; i < count; i++) of(i).reject(err);
    },
    delete: (index: number) => entries.delete(index),
    clear: () => entries.clear(),
  };
}

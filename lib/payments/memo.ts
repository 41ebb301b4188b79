/** The value under `key`, made and stored by `make` the first time (a Map or a WeakMap). */
export function getOrAdd<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * A promise kept under `key` until it rejects (a failed import is tried again next time, not
 * remembered as a failure).
 */
export function keepPromise<K, V>(map: Map<K, Promise<V>>, key: K, make: () => Promise<V>): Promise<V> {
  return getOrAdd(map, key, () => {
    const promise = make();
    promise.catch(() => map.delete(key));
    return promise;
  });
}

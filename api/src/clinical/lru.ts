/*
 * A bounded least-recently-used cache. The readers are pure functions of their text and run on
 * every request over every note of a patient; the bound keeps memory flat whatever the input.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    // most recently used last
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
  }
}

/**
 * A bounded memo without recency bookkeeping, for small values read very often (a phrase, a word):
 * cheaper than Lru per read; when full it starts again.
 */
export class BoundedMemo<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, value);
  }
}

// A least-recently-used cache with a size budget, for values that never change once
// written (stored blocks, the block that includes a transaction) until pruning deletes them. A Map keeps insertion
// order, so the first key is always the least recently used one.

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private used = 0;

  /** `budget` in units of `sizeOf` (bytes for buffers). */
  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The cached value, or `load`'s answer, which is kept unless it is null (not final). */
  getOrLoad(key: string, load: () => V | null): V | null {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const value = load();
    if (value !== null) this.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.budget) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.used -= old.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size });
    this.used += size;
    for (const [oldest, entry] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= entry.size;
    }
  }

  /** Forget every entry (values a later change made stale, such as pruned blocks). */
  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}

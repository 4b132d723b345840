export interface TtlCacheOptions {
  /** How long a value read is used before it is read again; 0 keeps nothing (every get reads). */
  ttlMs: number;
  /** The clock, in milliseconds (Date.now; a fake one in tests). */
  now: () => number;
  /** Most values kept at once; past it, the one stored longest ago goes. */
  maxEntries: number;
}

/**
 * Values by id, each read through `load` and kept `ttlMs`. Concurrent misses of one id share one
 * read. A drop wins over every read begun before it: such a read still answers its own callers, but
 * what it read is not kept (it may predate the change the drop announces). Undefined (not found) is
 * never kept.
 */
export class TtlCache<V> {
  private readonly values = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, Promise<V | undefined>>();
  /** Counts drops; a read keeps its value only when none happened since it began. */
  private drops = 0;

  constructor(
    private readonly load: (id: string) => Promise<V | undefined>,
    private readonly opts: TtlCacheOptions,
  ) {}

  /** The value kept for `id` if read less than `ttlMs` ago, else a new read. `fresh`: always a new read (kept for the next). */
  get(id: string, fresh = false): Promise<V | undefined> {
    if (this.opts.ttlMs <= 0) return this.load(id);
    if (!fresh) {
      const kept = this.values.get(id);
      if (kept && this.opts.now() - kept.at < this.opts.ttlMs) return Promise.resolve(kept.value);
      const pending = this.loading.get(id);
      if (pending) return pending;
    }
    const drops = this.drops;
    const at = this.opts.now();
    const read: Promise<V | undefined> = this.load(id).then(
      (value) => {
        if (this.loading.get(id) === read) this.loading.delete(id);
        if (value !== undefined && drops === this.drops) this.keep(id, value, at);
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(id) === read) this.loading.delete(id);
        throw err;
      },
    );
    if (!fresh) this.loading.set(id, read);
    return read;
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.drops++;
    this.values.delete(id);
    this.loading.delete(id);
  }

  /** Forgets every value `match` selects (and every read under way, whose value is not known yet). */
  deleteWhere(match: (value: V) => boolean): void {
    this.drops++;
    for (const [id, kept] of this.values) if (match(kept.value)) this.values.delete(id);
    this.loading.clear();
  }

  clear(): void {
    this.drops++;
    this.values.clear();
    this.loading.clear();
  }

  private keep(id: string, value: V, at: number): void {
    const current = this.values.get(id);
    if (current && current.at > at) return; // a read begun later already kept a newer value
    this.values.delete(id);
    this.values.set(id, { value, at });
    for (const oldest of this.values.keys()) {
      if (this.values.size <= this.opts.maxEntries) break;
      this.values.delete(oldest);
    }
  }
}

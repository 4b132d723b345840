interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(err: unknown): void;
}

/**
 * Reads of single rows by key, made as one query for all the keys asked for in the same turn of the
 * event loop or while the previous query ran: one database trip for many requests under load.
 *
 * A query starts in the event loop's check phase (setImmediate), after the I/O callbacks of the
 * current turn: the requests whose bytes arrived together are parsed and authenticated first and
 * then share one query. Without that wait, an embedded (PGlite) query, which runs synchronously,
 * would always finish before the next request was even read, and nothing would ever be shared. An
 * idle process loses only the rest of the current turn (microseconds).
 *
 * Every answer is fresh: a read is only ever given the result of a query that started after it was
 * asked for (a key asked for while a query runs waits for the next one, even when the running query
 * reads the same key).
 */
export class CoalescedReads<K, V> {
  private waiting = new Map<K, Array<Waiter<V>>>();
  private running = false;
  private scheduled = false;

  /** `readMany` answers every key it found (missing keys: undefined); `maxKeys` bounds one query. */
  constructor(
    private readonly readMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxKeys = 500,
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.drain();
        });
      }
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.size > 0) {
        const batch = this.take();
        try {
          const found = await this.readMany([...batch.keys()]);
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        } catch (err) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** The first `maxKeys` keys waiting, with their waiters, taken off the waiting list. */
  private take(): Map<K, Array<Waiter<V>>> {
    if (this.waiting.size <= this.maxKeys) {
      const all = this.waiting;
      this.waiting = new Map();
      return all;
    }
    const batch = new Map<K, Array<Waiter<V>>>();
    for (const [key, waiters] of this.waiting) {
      if (batch.size >= this.maxKeys) break;
      batch.set(key, waiters);
    }
    for (const key of batch.keys()) this.waiting.delete(key);
    return batch;
  }
}

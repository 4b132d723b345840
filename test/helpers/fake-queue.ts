import type { JobName } from '../../src/shared/jobs.js';
import type { JobHandler, JobQueue, SendOptions } from '../../src/ports/queue.js';

/** A JobQueue that records what it is sent; it refuses every send from the `failAt`-th on (1-based), like a queue gone down. */
export class FakeQueue implements JobQueue {
  readonly sent: Array<{ name: JobName; payload: unknown; opts?: SendOptions }> = [];
  private attempts = 0;

  constructor(private readonly failAt = Infinity) {}

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  async send<N extends JobName>(name: N, payload: unknown, opts?: SendOptions): Promise<string | null> {
    if (++this.attempts >= this.failAt) throw new Error('queue down');
    this.sent.push({ name, payload, opts });
    return `job-${this.sent.length}`;
  }

  async work<N extends JobName>(_name: N, _handler: JobHandler<N>): Promise<void> {}
  async schedule(): Promise<void> {}
  async recoverOrphans(): Promise<number> {
    return 0;
  }
  async ping(): Promise<void> {}
}

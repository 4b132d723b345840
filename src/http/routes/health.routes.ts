import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { Api } from '../types.js';
import { sendError } from '../errors.js';

export interface HealthRoutesDeps {
  /** The records' database (src/adapters/db/database.ts). */
  database: { readonly kind: 'pglite' | 'postgres'; ping(): Promise<void> };
  queue: Pick<JobQueue, 'ping'>;
  storage: Pick<Storage, 'ping'>;
}

type Check = 'database' | 'queue' | 'storage';

/**
 * Liveness and readiness, outside /api/v1 and without a key. `/healthz` answers while the process
 * runs (nothing else is asked: a restart would not cure a database outage). `/readyz` asks the
 * database, the queue and the storage, each at once, and answers 503 SERVICE_UNAVAILABLE when one
 * fails (the log names which): a load balancer then stops sending requests to this process.
 */
export function healthRoutes(app: Api, deps: HealthRoutesDeps) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    const checks: Record<Check, () => Promise<void>> = {
      database: () => deps.database.ping(),
      queue: () => deps.queue.ping(),
      storage: () => deps.storage.ping(),
    };
    const results = await Promise.allSettled(Object.values(checks).map((check) => check()));
    const failing = (Object.keys(checks) as Check[]).filter((_, i) => results[i].status === 'rejected');
    if (failing.length > 0) {
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      req.log.warn({ failing, errors }, 'not ready');
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
    return { status: 'ready', database: deps.database.kind };
  });
}

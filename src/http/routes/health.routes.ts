import type { JobQueue } from '../../ports/queue.js';
import type { Api } from '../types.js';
import { sendError } from '../errors.js';

export interface HealthRoutesDeps {
  /** The records' database (src/adapters/db/database.ts). */
  database: { readonly kind: 'pglite' | 'postgres'; ping(): Promise<void> };
  queue: Pick<JobQueue, 'ping'>;
}

/** Liveness and readiness, outside /api/v1 and without a key. */
export function healthRoutes(app: Api, deps: HealthRoutesDeps) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    try {
      await deps.database.ping();
      await deps.queue.ping();
      return { status: 'ready', database: deps.database.kind };
    } catch (err) {
      req.log.warn({ err }, 'not ready');
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
  });
}

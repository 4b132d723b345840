import type { Container } from '../../main/container.js';
import type { Api } from '../types.js';
import { sendError } from '../errors.js';

/** Liveness and readiness, outside /api/v1 and without a key. */
export function healthRoutes(app: Api, c: Container) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    try {
      await c.database.ping();
      await c.queue.ping();
      return { status: 'ready', database: c.database.kind };
    } catch (err) {
      req.log.warn({ err }, 'not ready');
      return sendError(reply, 'SERVICE_UNAVAILABLE');
    }
  });
}

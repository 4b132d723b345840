import type { FastifyInstance } from 'fastify';
import type { Metrics, MetricsRegistry } from '../../ports/metrics.js';
import { registerAdminAuth, type AdminAuthDeps } from './admin-auth.js';

export interface MetricsRoutesDeps extends AdminAuthDeps {
  /** This process's metrics (src/adapters/metrics/prometheus.metrics.ts). */
  metrics: MetricsRegistry;
}

/**
 * Times every answer of the app by method, route pattern (`/api/v1/renders/:renderId`, never the raw
 * URL: ids would make one series per resource) and status. Requests no route matched count under
 * `unmatched`. Register on the root instance before the routes.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (req, reply) => {
    metrics.httpRequest({ method: req.method, route: req.routeOptions.url ?? 'unmatched', status: reply.statusCode, seconds: reply.elapsedTime / 1000 });
  });
}

/**
 * GET /metrics: the Prometheus text format, behind the admin token (`Authorization: Bearer`), on the
 * service's own port (docs/api-decisions.md). Register in a scope of its own: the admin check covers the scope.
 */
export function metricsRoutes(app: FastifyInstance, deps: MetricsRoutesDeps) {
  registerAdminAuth(app, deps);
  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const body = await deps.metrics.scrape();
    return reply.type(deps.metrics.contentType).send(body);
  });
}

import Fastify, { type FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { registerErrorHandling } from './errors.js';
import { metricsRoutes, registerRequestMetrics, type MetricsRoutesDeps } from './plugins/metrics.js';
import { healthRoutes, type HealthRoutesDeps } from './routes/health.routes.js';
import type { Api } from './types.js';

export interface OpsAppDeps extends HealthRoutesDeps, MetricsRoutesDeps {
  logger: FastifyBaseLogger;
}

/**
 * What a worker process (role `worker`, no API) answers on its port: /healthz, /readyz and /metrics,
 * so that orchestrators check it and Prometheus scrapes its job, ffmpeg and ASR metrics.
 */
export async function buildOpsApp(c: OpsAppDeps, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: opts.logger === false ? undefined : c.logger, logger: opts.logger === false ? false : undefined });
  registerErrorHandling(app, { bodyLimitBytes: 1024 });
  registerRequestMetrics(app, c.metrics);
  await app.register(async (scope) => healthRoutes(scope as unknown as Api, c));
  await app.register(async (scope) => metricsRoutes(scope, c));
  return app;
}

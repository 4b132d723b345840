import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { AdminTokenService } from '../../domain/auth/admin-token.service.js';
import type { Config } from '../../config/env.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { rateLimitExceeded } from './rate-limit.js';

export interface AdminAuthDeps {
  adminToken: AdminTokenService;
  rateLimiter: RateLimiter;
  config: Pick<Config, 'adminAuthFailuresPerMinute'>;
}

/**
 * /admin/v1 (and /metrics) answer only `Authorization: Bearer $CUTROOM_ADMIN_TOKEN`. Every refused
 * token counts against its client address; once the address has used its failures of the minute,
 * every request from it answers 429 RATE_LIMIT_EXCEEDED with Retry-After before the token is even
 * compared, so a guess cannot be confirmed (docs/security.md). Refusals are logged without the token.
 */
export function registerAdminAuth(app: FastifyInstance, deps: AdminAuthDeps) {
  const max = deps.config.adminAuthFailuresPerMinute;
  app.addHook('onRequest', async (req) => {
    const bucket = `admin-auth-failures:${req.ip}`;
    const now = Date.now();
    const seen = await deps.rateLimiter.peek(bucket, now);
    if (seen.count >= max) {
      req.log.warn({ ip: req.ip, failures: seen.count }, 'admin authentication throttled');
      throw rateLimitExceeded(seen, now);
    }
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    if (deps.adminToken.verify(m?.[1].trim())) return;
    const w = await deps.rateLimiter.hit(bucket, now);
    req.log.warn({ ip: req.ip, failures: w.count, url: req.url.split('?')[0] }, 'admin token refused');
    throw new DomainError('UNAUTHORIZED');
  });
}

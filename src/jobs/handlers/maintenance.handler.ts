import type { IdempotencyService } from '../../domain/idempotency/idempotency.service.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';

export interface MaintenanceHandlerDeps {
  idempotency: Pick<IdempotencyService, 'purgeExpired'>;
  rateLimiter: RateLimiter;
}

/** maintenance.purge: drops idempotency records older than 24 h and finished rate-limit windows. */
export function maintenanceHandler(deps: MaintenanceHandlerDeps) {
  return async () => {
    await deps.idempotency.purgeExpired();
    await deps.rateLimiter.purgeExpired();
  };
}

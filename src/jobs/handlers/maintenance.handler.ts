import type { Container } from '../../main/container.js';
import { purgeRateWindows } from '../../adapters/rate-limit/database.rate-limiter.js';

/** maintenance.purge: drops idempotency records older than 24 h and finished rate-limit windows. */
export function maintenanceHandler(c: Container) {
  return async () => {
    await c.idempotency.purgeExpired();
    await purgeRateWindows(c.database.db);
  };
}

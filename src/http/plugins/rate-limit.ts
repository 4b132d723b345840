import type { FastifyReply } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { RateLimiter, RateWindow } from '../../ports/rate-limiter.js';

/**
 * Counts one request in `bucket` and refuses it past `limit` with 429 RATE_LIMIT_EXCEEDED and
 * Retry-After. With `headers`, the X-RateLimit-* headers describe this bucket on the response.
 */
export async function enforceRateLimit(limiter: RateLimiter, reply: FastifyReply, bucket: string, limit: number, headers: boolean): Promise<void> {
  const now = Date.now();
  const w = await limiter.hit(bucket, now);
  if (headers) {
    reply.header('X-RateLimit-Limit', String(limit));
    reply.header('X-RateLimit-Remaining', String(Math.max(0, limit - w.count)));
    reply.header('X-RateLimit-Reset', String(w.resetAt));
  }
  if (w.count > limit) throw rateLimitExceeded(w, now);
}

/** 429 RATE_LIMIT_EXCEEDED with Retry-After: the seconds until `w` resets (at least 1). */
export function rateLimitExceeded(w: RateWindow, now = Date.now()): DomainError {
  const retryAfter = Math.max(1, Math.ceil(w.resetAt - now / 1000));
  return new DomainError('RATE_LIMIT_EXCEEDED', { retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { requestFingerprint, type IdempotencyService } from '../../domain/idempotency/idempotency.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

/**
 * Optional `Idempotency-Key` on every POST of the scope it is registered in. `scopeOf` separates
 * callers (key + workspace for the API, the operator for the admin API).
 */
export function registerIdempotency(app: FastifyInstance, service: IdempotencyService, scopeOf: (req: FastifyRequest) => string) {
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'POST') return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
      throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'header.idempotency-key', rule: 'maxLength' }] });
    }
    const scope = scopeOf(req);
    const { replay } = await service.begin(scope, header, requestFingerprint(req.method, req.url, req.body));
    if (replay) {
      reply.code(replay.statusCode).headers(replay.headers).header('Idempotent-Replayed', 'true');
      return reply.serializer((p: unknown) => p as string).send(replay.body);
    }
    req.idempotency = { scope, key: header };
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const claim = req.idempotency;
    if (!claim) return payload;
    req.idempotency = undefined;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      const contentType = reply.getHeader('content-type');
      await service.complete(claim.scope, claim.key, {
        statusCode: reply.statusCode,
        body: payload,
        headers: contentType ? { 'content-type': String(contentType) } : {},
      });
    } else {
      await service.release(claim.scope, claim.key);
    }
    return payload;
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { ApiKeysService } from '../../domain/auth/api-keys.service.js';
import type { WorkspaceWithPlan, WorkspacesService } from '../../domain/workspaces/workspaces.service.js';
import { DEFAULT_PLAN } from '../../domain/plans/plans.service.js';
import type { RateLimiter } from '../../ports/rate-limiter.js';
import { enforceRateLimit } from './rate-limit.js';

export interface Caller extends WorkspaceWithPlan {
  keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
  interface FastifyContextConfig {
    /** No key needed (documentation routes). */
    public?: boolean;
    /** An extra per-key limit on top of the global one, read from the plan. */
    rateLimitGroup?: 'analysis';
  }
}

export function presentedKey(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const auth = req.headers.authorization;
  const m = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m ? m[1].trim() : undefined;
}

/** The workspace the request runs in (spec: Authentication 3). */
export function chooseWorkspace(bound: string[], header: string | string[] | undefined): string {
  const requested = typeof header === 'string' && header.trim() ? header.trim() : undefined;
  if (requested) {
    if (!bound.includes(requested)) throw new DomainError('UNAUTHORIZED');
    return requested;
  }
  if (bound.length === 1) return bound[0];
  throw new DomainError('MISSING_WORKSPACE_ID', { workspace_ids: bound });
}

export interface AuthDeps {
  apiKeys: ApiKeysService;
  workspaces: WorkspacesService;
  rateLimiter: RateLimiter;
}

/** Requests that change nothing: their workspace and plan may come from the auth cache. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates every /api/v1 request, picks its workspace and applies the per-key rate limit.
 * Requests without a valid key are counted per client address so the headers are on every answer.
 * The key and, for reads, the workspace and plan come from the auth cache (no database trip while
 * held); a write reads its workspace and plan now, so its checks see the balance and free usage as
 * they are.
 */
export function registerApiAuth(app: FastifyInstance, deps: AuthDeps) {
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.public) return;
    const presented = presentedKey(req);
    const key = presented ? await deps.apiKeys.authenticate(presented) : null;
    let refusal: DomainError | undefined = key ? undefined : new DomainError('UNAUTHORIZED');
    let ctx: WorkspaceWithPlan | undefined;
    if (key) {
      const fresh = !READS.has(req.method);
      try {
        ctx = await deps.workspaces.forRequest(chooseWorkspace(key.workspaceIds, req.headers['x-workspace-id']), { fresh });
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        refusal = err.code === 'WORKSPACE_NOT_FOUND' ? new DomainError('UNAUTHORIZED') : err;
        ctx = await deps.workspaces.forRequest(key.workspaceIds[0], { fresh: false }).catch(() => undefined);
      }
    }
    const limit = ctx?.plan.rateLimitPerMinute ?? DEFAULT_PLAN.rate_limit_per_minute;
    await enforceRateLimit(deps.rateLimiter, reply, key ? `key:${key.keyId}` : `ip:${req.ip}`, limit, true);
    if (refusal) throw refusal;
    const caller: Caller = { keyId: key!.keyId, ...ctx! };
    req.caller = caller;
    if (req.routeOptions.config?.rateLimitGroup === 'analysis') {
      await enforceRateLimit(deps.rateLimiter, reply, `key:${caller.keyId}:analysis`, caller.plan.analysisRateLimitPerMinute, false);
    }
  });
}

/** The caller of an authenticated route (set by the auth hook). */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new DomainError('UNAUTHORIZED');
  return req.caller;
}

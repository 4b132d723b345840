import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { presentedKey } from '../plugins/auth.js';
import type { Api } from '../types.js';

/** What a tool's API call goes through: a fetch answered by this app in process (`inject`), as the caller. */
export type InProcessFetch = (request: Request) => Promise<Response>;

/**
 * The MCP server behind `/mcp` (src/main/mcp/http.ts): answers one JSON-RPC message of the Streamable
 * HTTP transport on `res`, its tools calling the API with the caller's key through `api`.
 */
export interface McpEndpoint {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: { apiKey: string; workspaceId?: string; api: InProcessFetch }): Promise<void>;
}

export interface McpRoutesDeps {
  /** null when CUTROOM_MCP=off: `/mcp` is then an unknown path (404 ROUTE_NOT_FOUND). */
  mcp: McpEndpoint | null;
}

/**
 * A fetch the app answers itself: the request goes through every hook of /api/v1 (the key, the
 * workspace, the rate limit, idempotency, metrics) exactly as over the network, without a socket.
 */
export function inProcessFetch(app: FastifyInstance, requestId: string): InProcessFetch {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = { 'x-request-id': requestId };
    request.headers.forEach((value, name) => (headers[name] = value));
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({ method: request.method as 'GET', url: `${url.pathname}${url.search}`, headers, payload });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
  };
}

/**
 * `/mcp`: the MCP server over the Streamable HTTP transport, stateless (each POST one message; no
 * session, so any process of a scaled-out service answers it). Registered in a scope with the API's key
 * check and rate limit (src/http/app.ts): a missing or wrong key is 401 UNAUTHORIZED before any MCP
 * message is read. GET (a server-to-client stream) and DELETE (ending a session) are 405: a stateless
 * server has neither. docs/mcp.md.
 */
export function mcpRoutes(app: Api, c: McpRoutesDeps): void {
  const mcp = c.mcp;
  if (!mcp) return;
  app.post('/mcp', { schema: { hide: true } }, async (req, reply) => {
    const workspace = req.headers['x-workspace-id'];
    const caller = {
      apiKey: presentedKey(req)!,
      workspaceId: typeof workspace === 'string' && workspace.trim() ? workspace.trim() : undefined,
      api: inProcessFetch(req.server, req.id),
    };
    reply.hijack();
    try {
      await mcp.handle(req.raw, reply.raw, req.body, caller);
    } catch (err) {
      req.log.error({ err }, 'mcp request failed');
      if (!reply.raw.headersSent)
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ code: 'INTERNAL_ERROR' }));
      else reply.raw.end();
    }
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async () => {
        throw new DomainError('METHOD_NOT_ALLOWED', undefined, { allow: 'POST' });
      },
    });
  }
}

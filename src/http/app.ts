import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from './app.deps.js';
import { registerErrorHandling } from './errors.js';
import { validatorCompiler } from './validation.js';
import { API_PREFIX, registerOpenApi } from './openapi.js';
import { registerApiAuth, callerOf } from './plugins/auth.js';
import { registerIdempotency } from './plugins/idempotency.js';
import { registerAdminAuth } from './plugins/admin-auth.js';
import { frameworkErrors, registerTextInputChecks } from './plugins/text-input.js';
import { healthRoutes } from './routes/health.routes.js';
import { metricsRoutes, registerRequestMetrics } from './plugins/metrics.js';
import { adminBackupRoutes } from './admin/backup.admin.routes.js';
import { workspaceRoutes } from './routes/workspace.routes.js';
import { balanceRoutes } from './routes/balance.routes.js';
import { videoRoutes } from './routes/videos.routes.js';
import { clipRoutes } from './routes/clips.routes.js';
import { editRoutes } from './routes/edits.routes.js';
import { fileRoutes } from './routes/files.routes.js';
import { templateRoutes } from './routes/templates.routes.js';
import { renderRoutes } from './routes/renders.routes.js';
import { postRoutes } from './routes/posts.routes.js';
import { connectionRoutes } from './routes/connections.routes.js';
import { publishedRoutes } from './routes/published.routes.js';
import { studioRoutes } from './routes/studio.routes.js';
import { publishedDir } from '../shared/published-files.js';
import { transcriptionRoutes } from './routes/transcriptions.routes.js';
import { generationImageRoutes, generationRoutes } from './routes/generations.routes.js';
import { adminGenerationModelRoutes } from './admin/generation-models.admin.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';
import { monitorRoutes } from './routes/monitors.routes.js';
import { personaRoutes } from './routes/personas.routes.js';
import { personaFaceRoutes } from './routes/persona-faces.routes.js';
import { multipartScope } from './plugins/multipart.js';
import { adminPersonaRoutes } from './admin/personas.admin.routes.js';
import { adminPlanRoutes } from './admin/plans.admin.routes.js';
import { adminWorkspaceRoutes } from './admin/workspaces.admin.routes.js';
import { adminKeyRoutes } from './admin/keys.admin.routes.js';
import { adminTemplateRoutes } from './admin/templates.admin.routes.js';
import { adminConnectionRoutes } from './admin/connections.admin.routes.js';
import { BUILT_SDK_TARBALL, sdkRoutes } from './routes/sdk.routes.js';
import { mcpRoutes } from './routes/mcp.routes.js';
import type { Api } from './types.js';

export { API_PREFIX };
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface AppOptions {
  /** `false` silences request logs (tests); otherwise the deps' logger is used. */
  logger?: boolean;
  /** Sees every route as it is registered (tests iterate over them). */
  onRoute?: (route: RouteOptions) => void;
  /** The SDK tarball served at /sdk/cutroom-sdk.tgz (default: the one `npm run build` packs; tests pass another). */
  sdkTarball?: string;
}

export async function buildApp(c: AppDeps, opts: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: opts.logger === false ? undefined : c.logger,
    logger: opts.logger === false ? false : undefined,
    bodyLimit: c.config.bodyLimitBytes,
    // Only the listed proxies' X-Forwarded-For sets req.ip (CUTROOM_TRUST_PROXY, docs/configuration.md).
    trustProxy: c.config.trustProxy.length > 0 ? c.config.trustProxy : false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as Api;
  app.setValidatorCompiler(validatorCompiler());
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
  registerRequestMetrics(app, c.metrics);
  // NUL and invalid UTF-8 in any path, query, header or body: 400 before anything reaches the database.
  registerTextInputChecks(app);
  registerErrorHandling(app, { bodyLimitBytes: c.config.bodyLimitBytes });
  await registerOpenApi(app, { serverUrl: c.config.publicBaseUrl });

  await app.register(async (scope) => healthRoutes(scope as Api, c));
  // Prometheus text format behind the admin token (docs/operations.md).
  await app.register(async (scope) => metricsRoutes(scope, c));
  // Signed file URLs of the local storage driver: outside /api/v1, no API key (spec: Authentication rule 5).
  await app.register(async (scope) => fileRoutes(scope, c));
  // What the `local` network published: public, read-only, outside /api/v1 (docs/publishing.md).
  await app.register(async (scope) => publishedRoutes(scope, { dir: publishedDir(c.config.dataDir) }));
  // The Studio, the web app of the API: its pages and hashed files (docs/studio.md).
  await app.register(async (scope) => studioRoutes(scope, c.config.studio));
  // The SDK, packed from this service's document: `npm install <service>/sdk/cutroom-sdk.tgz` (sdk/README.md).
  await app.register(async (scope) => sdkRoutes(scope, { file: opts.sdkTarball ?? BUILT_SDK_TARBALL }));

  await app.register(
    async (scope) => {
      const api = scope as Api;
      registerApiAuth(api, c);
      registerIdempotency(api, c.idempotency, (req) => `api:${callerOf(req).keyId}:${callerOf(req).workspace.id}`);
      workspaceRoutes(api, c);
      balanceRoutes(api, c);
      videoRoutes(api, c);
      clipRoutes(api, c);
      templateRoutes(api, c);
      renderRoutes(api, c);
      editRoutes(api, c);
      connectionRoutes(api, c);
      postRoutes(api, c);
      transcriptionRoutes(api, c);
      generationRoutes(api, c);
      await multipartScope(api, (s) => generationImageRoutes(s, c));
      personaRoutes(api, c);
      await multipartScope(api, (s) => personaFaceRoutes(s, c));
      webhookRoutes(api, c);
      monitorRoutes(api, c);
    },
    { prefix: API_PREFIX },
  );

  // The MCP server over Streamable HTTP, with the API's key check and rate limit (docs/mcp.md).
  await app.register(async (scope) => {
    if (!c.mcp) return;
    const api = scope as Api;
    registerApiAuth(api, c);
    mcpRoutes(api, c);
  });

  await app.register(
    async (scope) => {
      const admin = scope as Api;
      registerAdminAuth(admin, c);
      registerIdempotency(admin, c.idempotency, () => 'admin');
      adminPlanRoutes(admin, c);
      adminWorkspaceRoutes(admin, c);
      adminKeyRoutes(admin, c);
      adminTemplateRoutes(admin, c);
      adminConnectionRoutes(admin, c);
      adminGenerationModelRoutes(admin, c);
      adminBackupRoutes(admin, c);
      adminPersonaRoutes(admin, c);
    },
    { prefix: '/admin/v1' },
  );

  return app;
}

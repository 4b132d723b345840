import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env.js';
import type { AdminTokenService } from '../domain/auth/admin-token.service.js';
import type { IdempotencyService } from '../domain/idempotency/idempotency.service.js';
import type { AuthDeps } from './plugins/auth.js';
import type { HealthRoutesDeps } from './routes/health.routes.js';
import type { MetricsRoutesDeps } from './plugins/metrics.js';
import type { AdminBackupRoutesDeps } from './admin/backup.admin.routes.js';
import type { FileRoutesDeps } from './routes/files.routes.js';
import type { WorkspaceRoutesDeps } from './routes/workspace.routes.js';
import type { BalanceRoutesDeps } from './routes/balance.routes.js';
import type { VideoRoutesDeps } from './routes/videos.routes.js';
import type { ClipRoutesDeps } from './routes/clips.routes.js';
import type { EditRoutesDeps } from './routes/edits.routes.js';
import type { TemplateRoutesDeps } from './routes/templates.routes.js';
import type { RenderRoutesDeps } from './routes/renders.routes.js';
import type { ConnectionRoutesDeps } from './routes/connections.routes.js';
import type { PostRoutesDeps } from './routes/posts.routes.js';
import type { TranscriptionRoutesDeps } from './routes/transcriptions.routes.js';
import type { GenerationRoutesDeps } from './routes/generations.routes.js';
import type { AdminGenerationModelRoutesDeps } from './admin/generation-models.admin.routes.js';
import type { WebhookRoutesDeps } from './routes/webhooks.routes.js';
import type { MonitorRoutesDeps } from './routes/monitors.routes.js';
import type { McpRoutesDeps } from './routes/mcp.routes.js';
import type { PersonaRoutesDeps } from './routes/personas.routes.js';
import type { PersonaFaceRoutesDeps } from './routes/persona-faces.routes.js';
import type { AdminPersonaRoutesDeps } from './admin/personas.admin.routes.js';
import type { AdminPlanRoutesDeps } from './admin/plans.admin.routes.js';
import type { AdminWorkspaceRoutesDeps } from './admin/workspaces.admin.routes.js';
import type { AdminKeyRoutesDeps } from './admin/keys.admin.routes.js';
import type { AdminTemplateRoutesDeps } from './admin/templates.admin.routes.js';
import type { AdminConnectionRoutesDeps } from './admin/connections.admin.routes.js';

/** Everything the HTTP app runs on: the plugins' and routes' deps. src/main's Container is one. */
export interface AppDeps
  extends
    AuthDeps,
    HealthRoutesDeps,
    MetricsRoutesDeps,
    AdminBackupRoutesDeps,
    FileRoutesDeps,
    WorkspaceRoutesDeps,
    BalanceRoutesDeps,
    VideoRoutesDeps,
    ClipRoutesDeps,
    EditRoutesDeps,
    TemplateRoutesDeps,
    RenderRoutesDeps,
    ConnectionRoutesDeps,
    PostRoutesDeps,
    TranscriptionRoutesDeps,
    GenerationRoutesDeps,
    AdminGenerationModelRoutesDeps,
    WebhookRoutesDeps,
    MonitorRoutesDeps,
    McpRoutesDeps,
    PersonaRoutesDeps,
    PersonaFaceRoutesDeps,
    AdminPersonaRoutesDeps,
    AdminPlanRoutesDeps,
    AdminWorkspaceRoutesDeps,
    AdminKeyRoutesDeps,
    AdminTemplateRoutesDeps,
    AdminConnectionRoutesDeps {
  config: Pick<Config, 'bodyLimitBytes' | 'trustProxy' | 'publicBaseUrl' | 'dataDir' | 'adminAuthFailuresPerMinute' | 'studio'>;
  logger: FastifyBaseLogger;
  idempotency: IdempotencyService;
  adminToken: AdminTokenService;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { loadConfig, type Config } from '../../src/config/env.js';
import { createContainer, type Container } from '../../src/main/container.js';
import { bootstrap } from '../../src/main/bootstrap.js';
import { buildApp } from '../../src/http/app.js';
import { registerHandlers } from '../../src/jobs/registry.js';
import { buildHandlers } from '../../src/jobs/handlers/index.js';
import { openTestDatabase, type DbKind } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  c: Container;
  adminToken: string;
  dataDir: string;
  /** Creates a workspace (optionally on a plan, with credits) and a key bound to it. */
  workspace(opts?: { credits?: number; plan?: string; name?: string }): Promise<{ id: string; key: string; keyId: string }>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'cutroom-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function createTestApp(
  opts: {
    db?: DbKind;
    env?: Record<string, string>;
    startQueue?: boolean;
    /** Also run the job handlers in this process (implies startQueue), as the `all` role does. */
    workers?: boolean;
    extend?: (app: FastifyInstance) => void;
    /** Sees every route as it is registered (buildApp's onRoute). */
    onRoute?: (route: RouteOptions) => void;
  } = {},
): Promise<TestApp> {
  const dataDir = tempDir();
  const adminToken = 'test-admin-token-0123456789abcdef';
  const config: Config = loadConfig({
    CUTROOM_DATA_DIR: dataDir,
    CUTROOM_ADMIN_TOKEN: adminToken,
    CUTROOM_LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const database = await openTestDatabase(opts.db ?? 'pglite');
  const c = await createContainer({ config, logger: pino({ level: 'silent' }), role: 'all', database, queuePollingSeconds: 0.5 });
  await bootstrap(c);
  if (opts.startQueue || opts.workers) await c.queue.start();
  if (opts.workers) await registerHandlers(c.queue, buildHandlers(c));
  const app = await buildApp(c, { logger: false, onRoute: opts.onRoute });
  opts.extend?.(app);
  await app.ready();
  return {
    app,
    c,
    adminToken,
    dataDir,
    async workspace(w = {}) {
      const ws = await c.workspaces.create({ name: w.name ?? 'Test', plan: w.plan ?? 'default', credits: w.credits ?? 0 });
      const { id, key } = await c.apiKeys.create({ workspaceIds: [ws.workspace.id] });
      return { id: ws.workspace.id, key, keyId: id };
    },
    async close() {
      await app.close();
      if (opts.startQueue || opts.workers) await c.queue.stop({ graceful: false, timeoutMs: 1000 });
      await c.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { InjectOptions, Response } from 'light-my-request';
import { loadConfig, type Config } from '../../src/config/env.js';
import { createContainer, type Container } from '../../src/main/container.js';
import { bootstrap } from '../../src/main/bootstrap.js';
import { buildApp } from '../../src/http/app.js';
import { registerHandlers } from '../../src/jobs/registry.js';
import { buildHandlers } from '../../src/jobs/handlers/index.js';
import { openTestDatabase, type DbKind } from './db.js';

export type Method = NonNullable<InjectOptions['method']>;

/**
 * An answer of `api`/`admin`. `body`: the parsed JSON for a JSON answer, the text for any other type,
 * undefined when there is none (204); `text`: the body as received.
 */
export interface Answer {
  status: number;
  body: any;
  headers: Response['headers'];
  text: string;
}

/** `{ status, body }` of an answer, to compare both at once. */
export const statusAndBody = ({ status, body }: Answer) => ({ status, body });

export interface TestApp {
  app: FastifyInstance;
  c: Container;
  adminToken: string;
  dataDir: string;
  /** Creates a workspace (optionally on a plan, with credits) and a key bound to it. */
  workspace(opts?: { credits?: number; plan?: string; name?: string }): Promise<{ id: string; key: string; keyId: string }>;
  /**
   * `method /api/v1<path>` with the API key `key`. `body`: an object is sent as JSON, a string or Buffer as
   * is (set its content-type in `headers`). `headers` add to the key's; one given as undefined is left out.
   */
  api(key: string, method: Method, path: string, body?: unknown, headers?: Record<string, string | undefined>): Promise<Answer>;
  /** `method /admin/v1<path>` with the admin token, like `api`. */
  admin(method: Method, path: string, body?: unknown, headers?: Record<string, string | undefined>): Promise<Answer>;
  close(): Promise<void>;
}

async function call(app: FastifyInstance, method: Method, url: string, body: unknown, headers: Record<string, string | undefined>): Promise<Answer> {
  const sent = Object.fromEntries(Object.entries(headers).filter((h): h is [string, string] => h[1] !== undefined));
  const res = await app.inject({ method, url, headers: sent, ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}) });
  const type = String(res.headers['content-type'] ?? '');
  const parsed = /^application\/json/.test(type) ? res.json() : type || res.body ? res.body : undefined;
  return { status: res.statusCode, body: parsed, headers: res.headers, text: res.body };
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
    /** The service's logger (request logs included); silent when not given. */
    logger?: pino.Logger;
    /** The SDK tarball served at /sdk/cutroom-sdk.tgz (buildApp's sdkTarball). */
    sdkTarball?: string;
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
  const c = await createContainer({ config, logger: opts.logger ?? pino({ level: 'silent' }), role: 'all', database, queuePollingSeconds: 0.5 });
  await bootstrap(c);
  if (opts.startQueue || opts.workers) await c.queue.start();
  if (opts.workers) await registerHandlers(c.queue, buildHandlers(c), config.workerConcurrency);
  const app = await buildApp(c, { logger: opts.logger ? undefined : false, onRoute: opts.onRoute, sdkTarball: opts.sdkTarball });
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
    api: (key, method, path, body, headers = {}) => call(app, method, `/api/v1${path}`, body, { 'x-api-key': key, ...headers }),
    admin: (method, path, body, headers = {}) => call(app, method, `/admin/v1${path}`, body, { authorization: `Bearer ${adminToken}`, ...headers }),
    async close() {
      await app.close();
      if (opts.startQueue || opts.workers) await c.queue.stop({ graceful: false, timeoutMs: 1000 });
      await c.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config, type Role } from '../config/env.js';
import { buildApp } from '../http/app.js';
import { buildOpsApp } from '../http/ops.app.js';
import { buildHandlers } from '../jobs/handlers/index.js';
import { registerHandlers, registerSchedules } from '../jobs/registry.js';
import { bootstrap, bootstrapBanner } from './bootstrap.js';
import { createContainer } from './container.js';
import { retryOnDeadlock } from '../adapters/db/database.js';
import { acquireDataDirLock, DataDirLockedError } from './lockfile.js';

export interface RunningService {
  app?: FastifyInstance;
  shutdown(): Promise<void>;
}

/** Starts one process of the service in the given role. */
export async function startService(role: Role, config: Config): Promise<RunningService> {
  const logger = pino({ level: config.logLevel, base: { role } });
  if (role !== 'all' && !config.databaseUrl) {
    throw new ConfigError(`--role ${role} needs DATABASE_URL: the embedded database runs in one process (role all).`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  try {
    const c = await createContainer({ config, logger, role });
    const boot = await retryOnDeadlock(() => bootstrap(c));
    // The Studio's address beside the first key, when this process serves its build (docs/studio.md).
    const studio = role !== 'worker' && config.studio.dir && fs.existsSync(path.join(config.studio.dir, 'index.html')) ? `${config.publicBaseUrl}/` : undefined;
    const banner = bootstrapBanner(boot, config.dataDir, config.publicBaseUrl, studio);
    if (banner) process.stdout.write(banner);
    await c.queue.start();
    if (!config.databaseUrl) {
      // Embedded mode is one process: jobs still marked active and claims of earlier runs were cut off by a crash.
      const recovered = await c.queue.recoverOrphans();
      if (recovered > 0) logger.warn({ recovered }, 'returned jobs of a previous run to the queue');
      await c.heartbeat.forgetOthers();
    }
    if (role !== 'api') {
      await registerHandlers(c.queue, buildHandlers(c), config.workerConcurrency);
      await registerSchedules(c.queue);
    }
    // A worker serves no API: only /healthz, /readyz and /metrics, on its own PORT.
    const app: FastifyInstance | undefined = role === 'worker' ? await buildOpsApp(c) : await buildApp(c);
    await app.listen({ port: config.port, host: config.host });
    logger.info({ database: c.database.kind, dataDir: config.dataDir, url: config.publicBaseUrl, studio }, 'cutroom started');

    let stopping: Promise<void> | undefined;
    const shutdown = () =>
      (stopping ??= (async () => {
        logger.info('shutting down');
        // Requests, then running jobs, get the time until `drained`; the rest of CUTROOM_SHUTDOWN_TIMEOUT_MS
        // is kept for returning unfinished jobs to the queue, closing connections and exiting.
        const drained = Date.now() + config.shutdownTimeoutMs - Math.min(5000, config.shutdownTimeoutMs * 0.4);
        if (app) await closeHttp(app, drained - Date.now(), logger);
        await c.queue.stop({ graceful: true, timeoutMs: Math.max(0, drained - Date.now()) });
        await c.close();
        lock?.release();
        logger.info('stopped');
      })());
    return { app, shutdown };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/**
 * Stops taking requests and waits up to `timeoutMs` for those in flight, then closes their
 * connections: a slow upload or download would otherwise hold the shutdown (and the process, which no
 * longer answers) without end.
 */
async function closeHttp(app: FastifyInstance, timeoutMs: number, logger: pino.Logger): Promise<void> {
  const force = setTimeout(
    () => {
      logger.warn('requests still running at the shutdown deadline: closing their connections');
      app.server.closeAllConnections();
    },
    Math.max(0, timeoutMs),
  );
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}

/**
 * `cutroom serve`: runs until SIGTERM/SIGINT, then shuts down gracefully, and in any case ends the
 * process within CUTROOM_SHUTDOWN_TIMEOUT_MS (exit status 1 when the graceful shutdown did not finish).
 */
export async function serve(role: Role): Promise<void> {
  let service: RunningService;
  let timeoutMs: number;
  try {
    const config = loadConfig();
    timeoutMs = config.shutdownTimeoutMs;
    service = await startService(role, config);
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof ConfigError) {
      process.stderr.write(`cutroom: ${err.message}\n`);
      process.exit(err instanceof DataDirLockedError ? 3 : 2);
    }
    throw err;
  }
  const onSignal = (signal: string) => {
    // The last tenth of the limit (at most a second) is left for the exit itself.
    setTimeout(
      () => {
        process.stderr.write(`cutroom: shutdown after ${signal} did not finish within ${timeoutMs} ms (CUTROOM_SHUTDOWN_TIMEOUT_MS); exiting\n`);
        process.exit(1);
      },
      timeoutMs - Math.min(1000, timeoutMs / 10),
    ).unref();
    service.shutdown().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`cutroom: shutdown after ${signal} failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
}

export const DATA_FILES = { adminToken: 'admin-token', apiKey: 'api-key' };
export function dataFile(config: Config, name: keyof typeof DATA_FILES): string {
  return path.join(config.dataDir, DATA_FILES[name]);
}

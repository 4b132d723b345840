import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, type Config, type Role } from '../config/env.js';
import { buildApp } from '../http/app.js';
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
    const banner = bootstrapBanner(boot, config.dataDir, config.publicBaseUrl);
    if (banner) process.stdout.write(banner);
    await c.queue.start();
    if (!config.databaseUrl) {
      // Embedded mode is one process: jobs still marked active were cut off by a crash. Retry them.
      const recovered = await c.queue.recoverOrphans();
      if (recovered > 0) logger.warn({ recovered }, 'returned jobs of a previous run to the queue');
    }
    if (role !== 'api') {
      await registerHandlers(c.queue, buildHandlers(c));
      await registerSchedules(c.queue);
    }
    let app: FastifyInstance | undefined;
    if (role !== 'worker') {
      app = await buildApp(c);
      await app.listen({ port: config.port, host: config.host });
    }
    logger.info({ database: c.database.kind, dataDir: config.dataDir, url: config.publicBaseUrl }, 'cutroom started');

    let stopping: Promise<void> | undefined;
    const shutdown = () =>
      (stopping ??= (async () => {
        logger.info('shutting down');
        // Stop taking requests first, then let running jobs finish (or return them to the queue).
        await app?.close();
        await c.queue.stop({ graceful: true, timeoutMs: config.shutdownTimeoutMs });
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

/** `cutroom serve`: runs until SIGTERM/SIGINT, then shuts down gracefully. */
export async function serve(role: Role): Promise<void> {
  let service: RunningService;
  try {
    service = await startService(role, loadConfig());
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof ConfigError) {
      process.stderr.write(`cutroom: ${err.message}\n`);
      process.exit(err instanceof DataDirLockedError ? 3 : 2);
    }
    throw err;
  }
  const onSignal = (signal: string) => {
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

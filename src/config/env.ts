import path from 'node:path';
import { loadStorageConfig, type StorageConfig } from './storage.env.js';
import { loadSourcesConfig, type SourcesConfig } from './sources.env.js';
import { loadAsrConfig, type AsrConfig } from './asr.env.js';
import { loadLlmConfig, type LlmConfig } from './llm.env.js';
import { loadPublishingConfig, type PublishingConfig } from './publishing.env.js';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  adminToken?: string;
  databaseUrl?: string;
  logLevel: string;
  startingCredits: number;
  bodyLimitBytes: number;
  rateLimitStore: 'memory' | 'database';
  shutdownTimeoutMs: number;
  /** Uploads above this size are sent in parts (spec: above 5 GB). */
  multipartThresholdBytes: number;
  /** Part size of multipart uploads; unset: 128 MiB (more when needed to stay within 10,000 parts). */
  multipartPartSizeBytes?: number;
  /** Files: local folder or S3 (src/config/storage.env.ts, docs/storage.md). */
  storage: StorageConfig;
  /** Link analysis: safe-fetch override, yt-dlp (src/config/sources.env.ts, docs/sources.md). */
  sources: SourcesConfig;
  /** Speech recognition engine (src/config/asr.env.ts, docs/asr.md). */
  asr: AsrConfig;
  /** Optional LLM highlight scorer; undefined = embedded scoring only (docs/highlights.md). */
  llm: LlmConfig | undefined;
  /** Publishing networks, credentials key, post item retries (src/config/publishing.env.ts, docs/publishing.md). */
  publishing: PublishingConfig;
  /** Jobs each worker process runs at once (CUTROOM_WORKER_CONCURRENCY). */
  workerConcurrency: number;
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

/** Reads and validates the environment once. Every variable is documented in docs/configuration.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const store = env.CUTROOM_RATE_LIMIT_STORE || (databaseUrl ? 'database' : 'memory');
  if (store !== 'memory' && store !== 'database') {
    throw new ConfigError('CUTROOM_RATE_LIMIT_STORE must be "memory" or "database"');
  }
  const logLevel = env.CUTROOM_LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('CUTROOM_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  }
  const publicBaseUrl = (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL must be an absolute URL');
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.CUTROOM_DATA_DIR || './data'),
    publicBaseUrl,
    adminToken: env.CUTROOM_ADMIN_TOKEN || undefined,
    databaseUrl,
    logLevel,
    startingCredits: int(env, 'CUTROOM_STARTING_CREDITS', 120),
    bodyLimitBytes: int(env, 'CUTROOM_BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    rateLimitStore: store,
    shutdownTimeoutMs: int(env, 'CUTROOM_SHUTDOWN_TIMEOUT_MS', 30000),
    multipartThresholdBytes: int(env, 'CUTROOM_MULTIPART_THRESHOLD_BYTES', 5 * 1024 ** 3, 5 * 1024 * 1024),
    multipartPartSizeBytes: env.CUTROOM_MULTIPART_PART_SIZE_BYTES ? int(env, 'CUTROOM_MULTIPART_PART_SIZE_BYTES', 0, 5 * 1024 * 1024) : undefined,
    storage: loadStorageConfig(env),
    sources: loadSourcesConfig(env),
    asr: loadAsrConfig(env),
    llm: loadLlmConfig(env),
    publishing: loadPublishingConfig(env),
    workerConcurrency: int(env, 'CUTROOM_WORKER_CONCURRENCY', 1, 1),
  };
}

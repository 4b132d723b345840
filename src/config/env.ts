import path from 'node:path';
import { loadStorageConfig, type StorageConfig } from './storage.env.js';
import { loadSourcesConfig, type SourcesConfig } from './sources.env.js';
import { loadAsrConfig, type AsrConfig } from './asr.env.js';
import { loadLlmConfig, type LlmConfig } from './llm.env.js';
import { loadPublishingConfig, type PublishingConfig } from './publishing.env.js';
import { ConfigError, boolean, durationMs, int, oneOf, parseUrl, secret, text, type Env } from './parse.js';

export { ConfigError } from './parse.js';

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
  /** CUTROOM_TRUST_PROXY: the client address comes from X-Forwarded-For (Fastify's trustProxy). */
  trustProxy: boolean;
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

/** Reads and validates the environment once. Every variable is documented in docs/configuration.md. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', { fallback: 8080, min: 0, max: 65535 });
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  const publicBaseUrl = (text(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  parseUrl('PUBLIC_BASE_URL', publicBaseUrl, { http: false });
  const MIB = 1024 * 1024;
  return {
    port,
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'CUTROOM_DATA_DIR') ?? './data'),
    publicBaseUrl,
    adminToken: secret(env, 'CUTROOM_ADMIN_TOKEN', { trim: false }),
    databaseUrl,
    logLevel: oneOf(env, 'CUTROOM_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    startingCredits: int(env, 'CUTROOM_STARTING_CREDITS', { fallback: 120, min: 0 }),
    bodyLimitBytes: int(env, 'CUTROOM_BODY_LIMIT_BYTES', { fallback: MIB, min: 1024 }),
    rateLimitStore: oneOf(env, 'CUTROOM_RATE_LIMIT_STORE', ['memory', 'database'], databaseUrl ? 'database' : 'memory'),
    trustProxy: boolean(env, 'CUTROOM_TRUST_PROXY', false),
    shutdownTimeoutMs: durationMs(env, 'CUTROOM_SHUTDOWN_TIMEOUT_MS', { fallback: 30000, min: 0 }),
    multipartThresholdBytes: int(env, 'CUTROOM_MULTIPART_THRESHOLD_BYTES', { fallback: 5 * 1024 ** 3, min: 5 * MIB }),
    multipartPartSizeBytes:
      text(env, 'CUTROOM_MULTIPART_PART_SIZE_BYTES') === undefined ? undefined : int(env, 'CUTROOM_MULTIPART_PART_SIZE_BYTES', { fallback: 0, min: 5 * MIB }),
    storage: loadStorageConfig(env),
    sources: loadSourcesConfig(env),
    asr: loadAsrConfig(env),
    llm: loadLlmConfig(env),
    publishing: loadPublishingConfig(env),
    workerConcurrency: int(env, 'CUTROOM_WORKER_CONCURRENCY', { fallback: 1, min: 1 }),
  };
}

import os from 'node:os';
import path from 'node:path';
import { loadStorageConfig, type StorageConfig } from './storage.env.js';
import { loadSourcesConfig, type SourcesConfig } from './sources.env.js';
import { loadAsrConfig, type AsrConfig } from './asr.env.js';
import { loadLlmConfig, type LlmConfig } from './llm.env.js';
import { loadPublishingConfig, type PublishingConfig } from './publishing.env.js';
import { loadMonitorsConfig, type MonitorsConfig } from './monitors.env.js';
import { loadBillingConfig, type BillingConfig } from './billing.env.js';
import { loadGenerationsConfig, type GenerationsConfig } from './generations.env.js';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks.env.js';
import { loadPersonasConfig, type PersonasConfig } from './personas.env.js';
import { loadStudioConfig, type StudioConfig } from './studio.env.js';
import { ConfigError, addressList, durationMs, int, number, oneOf, parseUrl, secret, text, url, type Env } from './parse.js';

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
  /**
   * Where rate-limit counters live: `memory` (embedded default), `redis` (distributed default when
   * CUTROOM_REDIS_URL is set), `database` (distributed default without Redis).
   */
  rateLimitStore: 'memory' | 'database' | 'redis';
  /** CUTROOM_REDIS_URL: redis:// or rediss:// URL of the rate-limit counters' Redis. */
  redisUrl?: string;
  /** Refused admin tokens (/admin/v1, /metrics) allowed per client address and minute; then 429 (CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE). */
  adminAuthFailuresPerMinute: number;
  /** How long an api process reuses a key, its workspaces and their plans before reading them again (CUTROOM_AUTH_CACHE_SECONDS). */
  authCacheMs: number;
  /**
   * CUTROOM_TRUST_PROXY: addresses/CIDR ranges of the reverse proxies whose X-Forwarded-For gives the
   * client address (Fastify's trustProxy); [] = none, the peer's address is the client's.
   */
  trustProxy: string[];
  /**
   * On SIGTERM, the whole shutdown's limit: requests and running jobs get most of it to finish, the rest
   * goes back to the queue, and the process ends by this deadline in any case.
   */
  shutdownTimeoutMs: number;
  /**
   * CUTROOM_JOB_LEASE_SECONDS: every process heartbeats several times per lease; the job runs and
   * `Idempotency-Key` claims of a process silent for half of it are taken over, so a dead worker's job
   * is running again on another worker within the lease (docs/operations.md).
   */
  jobLeaseSeconds: number;
  /** Uploads above this size are sent in parts (spec: above 5 GB). */
  multipartThresholdBytes: number;
  /** Part size of multipart uploads; unset: 128 MiB (more when needed to stay within 10,000 parts). */
  multipartPartSizeBytes?: number;
  /** The web app served at `/` (src/config/studio.env.ts, docs/studio.md). */
  studio: StudioConfig;
  /** `/mcp`, the MCP server over Streamable HTTP (CUTROOM_MCP, default on; docs/mcp.md). */
  mcp: boolean;
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
  /** Monitors: poll interval, live batch length, stall time, Twitch credentials (src/config/monitors.env.ts, docs/monitors.md). */
  monitors: MonitorsConfig;
  /** Paid work: the top-up URL of 402 answers (src/config/billing.env.ts). */
  billing: BillingConfig;
  /** Generations: image and output size limits, hosted polling and timeout (src/config/generations.env.ts, docs/generations.md). */
  generations: GenerationsConfig;
  /** Webhook delivery: private addresses, timeout, retry schedule (src/config/webhooks.env.ts, docs/webhooks.md). */
  webhooks: WebhooksConfig;
  /** Personas: photo and source size ceilings, the head swap's output width (src/config/personas.env.ts, docs/personas.md). */
  personas: PersonasConfig;
  /** Jobs of each kind one process runs at once (CUTROOM_WORKER_CONCURRENCY, default 2). */
  workerConcurrency: number;
  /**
   * Threads that run face detection, voice detection and diarization off the event loop
   * (CUTROOM_COMPUTE_THREADS; default: the cores, os.availableParallelism()); 0 runs them on the event loop.
   */
  computeThreads: number;
}

/** Shortest CUTROOM_ADMIN_TOKEN accepted, the same as for CUTROOM_SIGNING_SECRET. */
const MIN_ADMIN_TOKEN_LENGTH = 32;

/**
 * CUTROOM_TRUST_PROXY: the reverse proxies whose X-Forwarded-For is believed, as addresses or CIDR
 * ranges (or proxy-addr's names). `true` (trust every peer) is refused: any client could then choose
 * the address its unauthenticated requests are counted under.
 */
function trustedProxies(env: Env): string[] {
  const raw = text(env, 'CUTROOM_TRUST_PROXY');
  if (raw === undefined || raw.toLowerCase() === 'false') return [];
  if (raw.toLowerCase() === 'true') {
    throw new ConfigError(
      'CUTROOM_TRUST_PROXY=true is no longer accepted: it lets any client forge X-Forwarded-For. ' +
        'List the reverse proxies in front of the service instead, as addresses or CIDR ranges (e.g. CUTROOM_TRUST_PROXY=127.0.0.1,10.0.0.0/8)',
    );
  }
  return addressList(env, 'CUTROOM_TRUST_PROXY', { names: ['loopback', 'linklocal', 'uniquelocal'] });
}

/** CUTROOM_REDIS_URL: a redis:// or rediss:// URL, or undefined. */
function redisUrl(env: Env): string | undefined {
  const raw = url(env, 'CUTROOM_REDIS_URL', { http: false });
  if (raw !== undefined && !/^rediss?:\/\//.test(raw)) throw new ConfigError(`CUTROOM_REDIS_URL must be a redis:// or rediss:// URL (got "${raw}")`);
  return raw;
}

/**
 * CUTROOM_RATE_LIMIT_STORE, by default: in memory in embedded mode (one process); in distributed
 * mode in Redis when CUTROOM_REDIS_URL is set, else in PostgreSQL rows.
 */
function rateLimitStore(env: Env, databaseUrl: string | undefined, redis: string | undefined): Config['rateLimitStore'] {
  const fallback = databaseUrl ? (redis ? 'redis' : 'database') : 'memory';
  const store = oneOf(env, 'CUTROOM_RATE_LIMIT_STORE', ['memory', 'database', 'redis'], fallback);
  if (store === 'redis' && !redis) throw new ConfigError('CUTROOM_RATE_LIMIT_STORE=redis needs CUTROOM_REDIS_URL');
  return store;
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
  const redis = redisUrl(env);
  const storage = loadStorageConfig(env);
  return {
    port,
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(text(env, 'CUTROOM_DATA_DIR') ?? './data'),
    publicBaseUrl,
    adminToken: secret(env, 'CUTROOM_ADMIN_TOKEN', { minLength: MIN_ADMIN_TOKEN_LENGTH, trim: false }),
    databaseUrl,
    logLevel: oneOf(env, 'CUTROOM_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
    startingCredits: int(env, 'CUTROOM_STARTING_CREDITS', { fallback: 120, min: 0 }),
    bodyLimitBytes: int(env, 'CUTROOM_BODY_LIMIT_BYTES', { fallback: MIB, min: 1024 }),
    rateLimitStore: rateLimitStore(env, databaseUrl, redis),
    redisUrl: redis,
    adminAuthFailuresPerMinute: int(env, 'CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE', { fallback: 10, min: 1 }),
    authCacheMs: Math.round(number(env, 'CUTROOM_AUTH_CACHE_SECONDS', { fallback: 5, min: 0, max: 300 }) * 1000),
    trustProxy: trustedProxies(env),
    shutdownTimeoutMs: durationMs(env, 'CUTROOM_SHUTDOWN_TIMEOUT_MS', { fallback: 30000, min: 0 }),
    jobLeaseSeconds: int(env, 'CUTROOM_JOB_LEASE_SECONDS', { fallback: 60, min: 3, max: 3600 }),
    multipartThresholdBytes: int(env, 'CUTROOM_MULTIPART_THRESHOLD_BYTES', { fallback: 5 * 1024 ** 3, min: 5 * MIB }),
    multipartPartSizeBytes:
      text(env, 'CUTROOM_MULTIPART_PART_SIZE_BYTES') === undefined ? undefined : int(env, 'CUTROOM_MULTIPART_PART_SIZE_BYTES', { fallback: 0, min: 5 * MIB }),
    storage,
    studio: loadStudioConfig(env, storage, publicBaseUrl),
    mcp: oneOf(env, 'CUTROOM_MCP', ['on', 'off'], 'on', { lowercase: true }) === 'on',
    sources: loadSourcesConfig(env),
    asr: loadAsrConfig(env),
    llm: loadLlmConfig(env),
    publishing: loadPublishingConfig(env),
    monitors: loadMonitorsConfig(env),
    billing: loadBillingConfig(env),
    generations: loadGenerationsConfig(env),
    webhooks: loadWebhooksConfig(env),
    personas: loadPersonasConfig(env),
    workerConcurrency: int(env, 'CUTROOM_WORKER_CONCURRENCY', { fallback: 2, min: 1 }),
    computeThreads: int(env, 'CUTROOM_COMPUTE_THREADS', { fallback: os.availableParallelism(), min: 0, max: 256 }),
  };
}

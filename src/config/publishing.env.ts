import { ConfigError } from './env.js';
import { CredentialsCryptoError, parseCredentialsKey } from '../adapters/publishing/credentials-crypto.js';

/** Settings of the publishing networks (docs/publishing.md). Every base URL can point at a local fake. */
export interface PublishingConfig {
  /** CUTROOM_CREDENTIALS_KEY (32 bytes, hex or base64); unset: the service generates one once and keeps it. */
  credentialsKey?: Buffer;
  /** Interval and ceiling of status polling (TikTok, Instagram). */
  pollIntervalMs: number;
  pollTimeoutMs: number;
  /** Ceiling of one HTTP request to a network (not of a whole upload, which is chunked). */
  requestTimeoutMs: number;
  /** Post items: attempts of a retryable publish failure before the item fails (CUTROOM_PUBLISH_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** Post items: delay before the 2nd attempt, doubled each time, capped at one hour (CUTROOM_PUBLISH_RETRY_BASE_MS). */
  retryBaseMs: number;
  /** Post items: how often an item waiting for its render looks again (CUTROOM_PUBLISH_RENDER_WAIT_MS). */
  renderWaitMs: number;
  youtube: {
    apiBase: string;
    oauthBase: string;
    /** Prefix of the published URL; the video id is appended. */
    watchBase: string;
    clientId?: string;
    clientSecret?: string;
    /** Bytes per PUT, a multiple of 256 KiB. */
    chunkBytes: number;
  };
  tiktok: {
    apiBase: string;
    /** Base of the published URL: `<webBase>/@<user>/video/<id>`. */
    webBase: string;
    clientKey?: string;
    clientSecret?: string;
    /** Bytes per chunk (TikTok accepts 5 MB to 64 MB; a smaller file goes in one chunk). */
    chunkBytes: number;
  };
  instagram: {
    graphBase: string;
    uploadBase: string;
    /** Graph API version in paths (`v21.0`). */
    apiVersion: string;
  };
}

const MIB = 1024 * 1024;
const YOUTUBE_CHUNK_UNIT = 256 * 1024;

function baseUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`${name} must be an http:// or https:// URL`);
  if (u.search || u.hash) throw new ConfigError(`${name} must not have a query or fragment`);
  return raw.replace(/\/+$/, '');
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  return n;
}

function secret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (/[\r\n]/.test(raw)) throw new ConfigError(`${name} must be a single line`);
  return raw;
}

function pair(env: NodeJS.ProcessEnv, idName: string, secretName: string): [string | undefined, string | undefined] {
  const id = secret(env, idName);
  const sec = secret(env, secretName);
  if ((id === undefined) !== (sec === undefined)) throw new ConfigError(`${idName} and ${secretName} must be set together`);
  return [id, sec];
}

/** Reads CUTROOM_CREDENTIALS_KEY, CUTROOM_PUBLISH_* and the per-network variables. Throws ConfigError. */
export function loadPublishingConfig(env: NodeJS.ProcessEnv = process.env): PublishingConfig {
  let credentialsKey: Buffer | undefined;
  const rawKey = env.CUTROOM_CREDENTIALS_KEY?.trim();
  if (rawKey) {
    try {
      credentialsKey = parseCredentialsKey(rawKey);
    } catch (err) {
      if (err instanceof CredentialsCryptoError) throw new ConfigError(`CUTROOM_CREDENTIALS_KEY: ${err.message}`);
      throw err;
    }
  }
  const [ytId, ytSecret] = pair(env, 'CUTROOM_YOUTUBE_CLIENT_ID', 'CUTROOM_YOUTUBE_CLIENT_SECRET');
  const [ttKey, ttSecret] = pair(env, 'CUTROOM_TIKTOK_CLIENT_KEY', 'CUTROOM_TIKTOK_CLIENT_SECRET');
  const ytChunk = int(env, 'CUTROOM_YOUTUBE_CHUNK_BYTES', 8 * MIB, YOUTUBE_CHUNK_UNIT, 1024 * MIB);
  if (ytChunk % YOUTUBE_CHUNK_UNIT !== 0) throw new ConfigError('CUTROOM_YOUTUBE_CHUNK_BYTES must be a multiple of 262144 (256 KiB)');
  const apiVersion = env.CUTROOM_INSTAGRAM_API_VERSION?.trim() || 'v21.0';
  if (!/^v\d+\.\d+$/.test(apiVersion)) throw new ConfigError(`CUTROOM_INSTAGRAM_API_VERSION must look like v21.0 (got "${apiVersion}")`);

  const cfg: PublishingConfig = {
    pollIntervalMs: int(env, 'CUTROOM_PUBLISH_POLL_INTERVAL_MS', 5000, 1, 600_000),
    pollTimeoutMs: int(env, 'CUTROOM_PUBLISH_POLL_TIMEOUT_MS', 30 * 60_000, 10, 24 * 3600_000),
    requestTimeoutMs: int(env, 'CUTROOM_PUBLISH_REQUEST_TIMEOUT_MS', 120_000, 100, 3600_000),
    maxAttempts: int(env, 'CUTROOM_PUBLISH_MAX_ATTEMPTS', 5, 1, 20),
    retryBaseMs: int(env, 'CUTROOM_PUBLISH_RETRY_BASE_MS', 30_000, 10, 3600_000),
    renderWaitMs: int(env, 'CUTROOM_PUBLISH_RENDER_WAIT_MS', 5000, 10, 600_000),
    youtube: {
      apiBase: baseUrl(env, 'CUTROOM_YOUTUBE_API_BASE', 'https://www.googleapis.com'),
      oauthBase: baseUrl(env, 'CUTROOM_YOUTUBE_OAUTH_BASE', 'https://oauth2.googleapis.com'),
      watchBase: env.CUTROOM_YOUTUBE_WATCH_BASE?.trim() || 'https://www.youtube.com/watch?v=',
      clientId: ytId,
      clientSecret: ytSecret,
      chunkBytes: ytChunk,
    },
    tiktok: {
      apiBase: baseUrl(env, 'CUTROOM_TIKTOK_API_BASE', 'https://open.tiktokapis.com'),
      webBase: baseUrl(env, 'CUTROOM_TIKTOK_WEB_BASE', 'https://www.tiktok.com'),
      clientKey: ttKey,
      clientSecret: ttSecret,
      chunkBytes: int(env, 'CUTROOM_TIKTOK_CHUNK_BYTES', 10 * MIB, 5 * MIB, 64 * MIB),
    },
    instagram: {
      graphBase: baseUrl(env, 'CUTROOM_INSTAGRAM_GRAPH_BASE', 'https://graph.facebook.com'),
      uploadBase: baseUrl(env, 'CUTROOM_INSTAGRAM_UPLOAD_BASE', 'https://rupload.facebook.com'),
      apiVersion,
    },
  };
  if (credentialsKey) cfg.credentialsKey = credentialsKey;
  try {
    new URL(`${cfg.youtube.watchBase}x`);
  } catch {
    throw new ConfigError('CUTROOM_YOUTUBE_WATCH_BASE must be an absolute URL prefix');
  }
  return cfg;
}

import { ConfigError, baseUrl, decodeCredentialsKey, durationMs, int, secretPair, text, type Env } from './parse.js';

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

function networkBase(env: Env, name: string, fallback: string): string {
  return baseUrl(env, name, { noQuery: true }) ?? fallback;
}

/** Reads CUTROOM_CREDENTIALS_KEY, CUTROOM_PUBLISH_* and the per-network variables. Throws ConfigError. */
export function loadPublishingConfig(env: Env): PublishingConfig {
  let credentialsKey: Buffer | undefined;
  const rawKey = text(env, 'CUTROOM_CREDENTIALS_KEY');
  if (rawKey) {
    const read = decodeCredentialsKey(rawKey);
    if ('error' in read) throw new ConfigError(`CUTROOM_CREDENTIALS_KEY: ${read.error}`);
    credentialsKey = read.key;
  }
  const [ytId, ytSecret] = secretPair(env, 'CUTROOM_YOUTUBE_CLIENT_ID', 'CUTROOM_YOUTUBE_CLIENT_SECRET');
  const [ttKey, ttSecret] = secretPair(env, 'CUTROOM_TIKTOK_CLIENT_KEY', 'CUTROOM_TIKTOK_CLIENT_SECRET');
  const ytChunk = int(env, 'CUTROOM_YOUTUBE_CHUNK_BYTES', { fallback: 8 * MIB, min: YOUTUBE_CHUNK_UNIT, max: 1024 * MIB });
  if (ytChunk % YOUTUBE_CHUNK_UNIT !== 0) throw new ConfigError('CUTROOM_YOUTUBE_CHUNK_BYTES must be a multiple of 262144 (256 KiB)');
  const apiVersion = text(env, 'CUTROOM_INSTAGRAM_API_VERSION') ?? 'v21.0';
  if (!/^v\d+\.\d+$/.test(apiVersion)) throw new ConfigError(`CUTROOM_INSTAGRAM_API_VERSION must look like v21.0 (got "${apiVersion}")`);

  const cfg: PublishingConfig = {
    pollIntervalMs: durationMs(env, 'CUTROOM_PUBLISH_POLL_INTERVAL_MS', { fallback: 5000, min: 1, max: 600_000 }),
    pollTimeoutMs: durationMs(env, 'CUTROOM_PUBLISH_POLL_TIMEOUT_MS', { fallback: 30 * 60_000, min: 10, max: 24 * 3600_000 }),
    requestTimeoutMs: durationMs(env, 'CUTROOM_PUBLISH_REQUEST_TIMEOUT_MS', { fallback: 120_000, min: 100, max: 3600_000 }),
    maxAttempts: int(env, 'CUTROOM_PUBLISH_MAX_ATTEMPTS', { fallback: 5, min: 1, max: 20 }),
    retryBaseMs: durationMs(env, 'CUTROOM_PUBLISH_RETRY_BASE_MS', { fallback: 30_000, min: 10, max: 3600_000 }),
    renderWaitMs: durationMs(env, 'CUTROOM_PUBLISH_RENDER_WAIT_MS', { fallback: 5000, min: 10, max: 600_000 }),
    youtube: {
      apiBase: networkBase(env, 'CUTROOM_YOUTUBE_API_BASE', 'https://www.googleapis.com'),
      oauthBase: networkBase(env, 'CUTROOM_YOUTUBE_OAUTH_BASE', 'https://oauth2.googleapis.com'),
      watchBase: text(env, 'CUTROOM_YOUTUBE_WATCH_BASE') ?? 'https://www.youtube.com/watch?v=',
      clientId: ytId,
      clientSecret: ytSecret,
      chunkBytes: ytChunk,
    },
    tiktok: {
      apiBase: networkBase(env, 'CUTROOM_TIKTOK_API_BASE', 'https://open.tiktokapis.com'),
      webBase: networkBase(env, 'CUTROOM_TIKTOK_WEB_BASE', 'https://www.tiktok.com'),
      clientKey: ttKey,
      clientSecret: ttSecret,
      chunkBytes: int(env, 'CUTROOM_TIKTOK_CHUNK_BYTES', { fallback: 10 * MIB, min: 5 * MIB, max: 64 * MIB }),
    },
    instagram: {
      graphBase: networkBase(env, 'CUTROOM_INSTAGRAM_GRAPH_BASE', 'https://graph.facebook.com'),
      uploadBase: networkBase(env, 'CUTROOM_INSTAGRAM_UPLOAD_BASE', 'https://rupload.facebook.com'),
      apiVersion,
    },
  };
  if (credentialsKey) cfg.credentialsKey = credentialsKey;
  // A prefix the video id is appended to (`…/watch?v=`): only prefix + id must be a URL.
  if (!URL.canParse(`${cfg.youtube.watchBase}x`)) throw new ConfigError('CUTROOM_YOUTUBE_WATCH_BASE must be an absolute URL prefix');
  return cfg;
}

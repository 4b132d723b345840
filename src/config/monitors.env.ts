import { ConfigError, baseUrl, int, text, url, type Env } from './parse.js';

/** Settings of channel monitors and live recording (docs/monitors.md, docs/configuration.md). */
export interface MonitorsConfig {
  /** CUTROOM_MONITOR_POLL_SECONDS: how often a channel is checked (±20 % jitter). Default 60, minimum 1. */
  pollSeconds: number;
  /** CUTROOM_LIVE_BATCH_SECONDS: length of a live batch. Default 600 (spec: 10 minutes), minimum 20. */
  batchSeconds: number;
  /** CUTROOM_LIVE_STALL_SECONDS: a live playlist that gains no segment for this long has ended. Default 120, minimum 5. */
  stallSeconds: number;
  /**
   * CUTROOM_LIVE_BATCH_MAX_BYTES: bytes the stored chunks of one live batch may take (and the batch's
   * joined recording); a stream over it stops its monitor with LIVE_BATCH_TOO_LARGE. Default 2 GiB
   * (about 28 Mbit/s for 10 minutes), minimum 1 MiB.
   */
  batchMaxBytes: number;
  /** Twitch Helix: app access token by client credentials (CUTROOM_TWITCH_CLIENT_ID / _SECRET); null without them. */
  twitch: { clientId: string; clientSecret: string; apiUrl: string; authUrl: string } | null;
}

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

/** Reads CUTROOM_MONITOR_POLL_SECONDS, CUTROOM_LIVE_BATCH_SECONDS, CUTROOM_LIVE_STALL_SECONDS, CUTROOM_LIVE_BATCH_MAX_BYTES and CUTROOM_TWITCH_*. */
export function loadMonitorsConfig(env: Env): MonitorsConfig {
  const clientId = text(env, 'CUTROOM_TWITCH_CLIENT_ID');
  const clientSecret = text(env, 'CUTROOM_TWITCH_CLIENT_SECRET');
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    throw new ConfigError('CUTROOM_TWITCH_CLIENT_ID and CUTROOM_TWITCH_CLIENT_SECRET are set together (or neither)');
  }
  const apiUrl = baseUrl(env, 'CUTROOM_TWITCH_API_URL', { noQuery: true }) ?? 'https://api.twitch.tv/helix';
  const authUrl = url(env, 'CUTROOM_TWITCH_AUTH_URL') ?? 'https://id.twitch.tv/oauth2/token';
  return {
    pollSeconds: int(env, 'CUTROOM_MONITOR_POLL_SECONDS', { fallback: 60, min: 1, max: 86_400 }),
    batchSeconds: int(env, 'CUTROOM_LIVE_BATCH_SECONDS', { fallback: 600, min: 20, max: 3600 }),
    stallSeconds: int(env, 'CUTROOM_LIVE_STALL_SECONDS', { fallback: 120, min: 5, max: 86_400 }),
    batchMaxBytes: int(env, 'CUTROOM_LIVE_BATCH_MAX_BYTES', { fallback: 2 * GIB, min: MIB, max: 64 * GIB }),
    twitch: clientId && clientSecret ? { clientId, clientSecret, apiUrl, authUrl } : null,
  };
}

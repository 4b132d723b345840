import type { Credentials, Publisher } from '../../ports/publisher.js';
import type { PublishingConfig } from '../../config/publishing.env.js';
import { PUBLISH_PLATFORMS, isPublishPlatform, type PublishPlatform } from '../../domain/publishing/metadata.rules.js';
import { LocalPublisher, publishedDir } from './local.publisher.js';
import { YouTubePublisher } from './youtube.publisher.js';
import { TikTokPublisher } from './tiktok.publisher.js';
import { InstagramPublisher } from './instagram.publisher.js';

/** Builds the publishers of every supported network from the validated settings (src/config/publishing.env.ts). */

export interface PublisherFactoryDeps {
  publishing: PublishingConfig;
  /** The service's data folder: `local` publishes into `<dataDir>/published`. */
  dataDir: string;
  /** PUBLIC_BASE_URL: `local`'s published URLs start with it. */
  publicBaseUrl: string;
}

export function createPublisher(platform: PublishPlatform, deps: PublisherFactoryDeps): Publisher {
  const p = deps.publishing;
  const common = { requestTimeoutMs: p.requestTimeoutMs };
  const polling = { pollIntervalMs: p.pollIntervalMs, pollTimeoutMs: p.pollTimeoutMs };
  switch (platform) {
    case 'local':
      return new LocalPublisher({ dir: publishedDir(deps.dataDir), publicBaseUrl: deps.publicBaseUrl.replace(/\/+$/, '') });
    case 'youtube':
      return new YouTubePublisher({ ...p.youtube, ...common });
    case 'tiktok':
      return new TikTokPublisher({ ...p.tiktok, ...common, ...polling });
    case 'instagram':
      return new InstagramPublisher({ ...p.instagram, ...common, ...polling });
  }
}

/** One publisher per network, keyed by lowercase network name (the connection's `platform`). */
export function createPublishers(deps: PublisherFactoryDeps): ReadonlyMap<string, Publisher> {
  return new Map(PUBLISH_PLATFORMS.map((platform) => [platform, createPublisher(platform, deps)] as const));
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/**
 * Checks the credentials an operator gives for a connection (admin API). `null` when usable; otherwise
 * the name of the first missing or malformed field. Unknown platforms report `platform`.
 */
export function checkCredentials(platform: string, credentials: Credentials): string | null {
  if (!isPublishPlatform(platform)) return 'platform';
  for (const key of ['access_token', 'refresh_token', 'client_id', 'client_key', 'client_secret', 'expires_at', 'open_id', 'ig_user_id', 'username']) {
    if (credentials[key] !== undefined && typeof credentials[key] !== 'string') return key;
  }
  if (credentials.expires_at !== undefined && Number.isNaN(Date.parse(credentials.expires_at))) return 'expires_at';
  switch (platform) {
    case 'local':
      return null;
    case 'youtube':
    case 'tiktok':
      if (!nonEmpty(credentials.access_token) && !nonEmpty(credentials.refresh_token)) return 'access_token';
      if ((nonEmpty(credentials.client_id) || nonEmpty(credentials.client_key)) !== nonEmpty(credentials.client_secret)) {
        return nonEmpty(credentials.client_secret) ? (platform === 'tiktok' ? 'client_key' : 'client_id') : 'client_secret';
      }
      return null;
    case 'instagram':
      if (!nonEmpty(credentials.access_token)) return 'access_token';
      if (!/^\d+$/.test(String(credentials.ig_user_id ?? ''))) return 'ig_user_id';
      return null;
  }
}

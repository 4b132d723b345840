import type { Publisher } from '../../ports/publisher.js';
import type { PublishingConfig } from '../../config/publishing.env.js';
import { PUBLISH_PLATFORMS, type PublishPlatform } from '../../domain/publishing/metadata.rules.js';
import { LocalPublisher } from './local.publisher.js';
import { publishedDir } from '../../shared/published-files.js';
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

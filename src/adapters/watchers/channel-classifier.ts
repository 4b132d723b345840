import { DomainError } from '../../domain/errors.js';
import { invalidUrl, type UrlRefusal } from '../../domain/videos/url-refusals.js';
import { platformChannel } from '../../domain/monitors/monitor.rules.js';
import type { ChannelClassifier, ChannelRef } from '../../ports/channel-watcher.js';
import { isPlaylistHead } from '../net/m3u8-syntax.js';
import { readCapped } from '../net/read-body.js';
import { safeFetch } from '../net/safe-fetch.js';
import { isFeed } from './feed-parser.js';
import { MAX_FEED_BYTES, type FeedFetchOptions } from './feed.watcher.js';

/**
 * What a pasted monitor URL is: YouTube and Twitch channels by their path (pure, platformChannel);
 * any other address by its body, read with the safe fetcher like POST /clips/info (private, loopback and
 * link-local addresses refused unless CUTROOM_ALLOW_PRIVATE_SOURCES): `#EXTM3U` → `hls`, an Atom/RSS
 * document → `feed`, anything else (a page, a media file, an error status) → 422 INVALID_URL. The kinds
 * that need a tool the operator did not configure (yt-dlp, Twitch credentials) → 400 PLATFORM_UNAVAILABLE.
 */
export class SafeChannelClassifier implements ChannelClassifier {
  constructor(private readonly o: FeedFetchOptions & { available: (platform: ChannelRef['platform']) => boolean }) {}

  async classify(url: string): Promise<ChannelRef> {
    const known = platformChannel(url);
    const ref = known ?? (await this.byBody(url));
    if (!this.o.available(ref.platform)) throw new DomainError('PLATFORM_UNAVAILABLE');
    return ref;
  }

  private async byBody(url: string): Promise<ChannelRef> {
    let res;
    try {
      res = await safeFetch(url, {
        allowPrivate: this.o.allowPrivate,
        timeoutMs: this.o.timeoutMs ?? 15_000,
        maxBytes: MAX_FEED_BYTES,
        resolve: this.o.resolve,
        treatAsPublic: this.o.treatAsPublic,
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'INVALID_URL') throw invalidUrl((err.extra?.reason as UrlRefusal | undefined) ?? 'unreachable');
      if (err instanceof DomainError && err.code === 'FILE_TOO_LARGE') throw invalidUrl('unsupported_link');
      throw err;
    }
    if (res.status < 200 || res.status >= 300) {
      res.discard();
      throw invalidUrl('http_status', { status: res.status });
    }
    let body: Buffer;
    try {
      body = await readCapped(res, MAX_FEED_BYTES, () => invalidUrl('unsupported_link'));
    } catch (err) {
      throw err instanceof DomainError && err.code === 'INVALID_URL' ? err : invalidUrl('unreachable');
    }
    if (isPlaylistHead(body.subarray(0, 1024), body.length <= 1024)) return { platform: 'hls', watchUrl: res.url };
    if (isFeed(body.toString('utf8'))) return { platform: 'feed', watchUrl: res.url };
    throw invalidUrl('unsupported_link');
  }
}

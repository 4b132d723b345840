import { DomainError } from '../../domain/errors.js';
import type { ChannelEntry, ChannelRef, ChannelWatcher, LiveStatus } from '../../ports/channel-watcher.js';
import { readCapped } from '../net/read-body.js';
import { safeFetch, type SafeFetchOptions } from '../net/safe-fetch.js';
import { isFeed, parseFeed } from './feed-parser.js';

export interface FeedFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  resolve?: SafeFetchOptions['resolve'];
  treatAsPublic?: SafeFetchOptions['treatAsPublic'];
}

export const MAX_FEED_BYTES = 4 * 1024 * 1024;

/** GETs a caller's feed with the safe fetcher (address rules on every hop), at most 4 MiB. */
export async function fetchFeedText(url: string, o: FeedFetchOptions, signal?: AbortSignal): Promise<string> {
  const res = await safeFetch(url, {
    allowPrivate: o.allowPrivate,
    timeoutMs: o.timeoutMs ?? 15_000,
    maxBytes: MAX_FEED_BYTES,
    resolve: o.resolve,
    treatAsPublic: o.treatAsPublic,
    signal,
  });
  if (res.status < 200 || res.status >= 300) {
    res.discard();
    // The feed is gone for good: the monitor stops with SOURCE_GONE. Any other status is tried again later.
    const err = new DomainError(res.status === 404 || res.status === 410 ? 'SOURCE_GONE' : 'SOURCE_UNAVAILABLE');
    err.cause = new Error(`${url} answered HTTP ${res.status}`);
    throw err;
  }
  const body = await readCapped(res, MAX_FEED_BYTES, () => new DomainError('SOURCE_UNREADABLE'));
  return body.toString('utf8');
}

/** `feed`: an Atom/RSS feed of uploads (no live broadcasts). */
export class FeedWatcher implements ChannelWatcher {
  readonly platform = 'feed' as const;
  constructor(private readonly o: FeedFetchOptions) {}

  async uploads(ref: ChannelRef, opts: { signal?: AbortSignal } = {}): Promise<ChannelEntry[]> {
    const text = await fetchFeedText(ref.watchUrl, this.o, opts.signal);
    if (!isFeed(text)) throw new DomainError('SOURCE_UNREADABLE');
    return parseFeed(text);
  }

  async live(): Promise<LiveStatus> {
    return { live: false };
  }
}

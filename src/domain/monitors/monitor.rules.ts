import { DomainError } from '../errors.js';
import { creditsForSeconds } from '../credits/credits.rules.js';
import { parseHttpUrl } from '../videos/link-classifier.js';
import type { ChannelRef } from '../../ports/channel-watcher.js';

/** Monitor rules (pure): what a pasted channel URL is, prices, poll timing. docs/monitors.md. */

export const MONITOR_TYPES = ['live', 'video'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export type MonitorStatus = 'stopped' | 'watching' | 'live';
export const STOP_REASONS = ['USER', 'INSUFFICIENT_CREDITS', 'SOURCE_GONE'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** The ledger's job type of a live batch's charge and refund; the job id is `<broadcast id>:<batch index>`. */
export const LIVE_BATCH_JOB = 'live_batch';

export function batchJobId(broadcastId: string, index: number): string {
  return `${broadcastId}:${index}`;
}

/** The price of a batch of `seconds`: 1 credit per started minute after the plan's discount (credit rule 5). */
export function batchPrice(seconds: number, discountPercent: number): number {
  return creditsForSeconds(seconds, discountPercent);
}

const YT_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const TWITCH_HOSTS = new Set(['twitch.tv', 'www.twitch.tv', 'm.twitch.tv']);
const TWITCH_RESERVED = new Set(['videos', 'directory', 'search', 'settings', 'downloads', 'jobs', 'p', 'subscriptions', 'inventory', 'wallet', 'login', 'signup', 'friends', 'drops', 'turbo']);
const YT_CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const YT_HANDLE = /^@[A-Za-z0-9._-]{3,30}$/;
const YT_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TWITCH_LOGIN = /^[A-Za-z0-9_]{3,25}$/;

const invalid = () => new DomainError('INVALID_URL');

/**
 * A URL on YouTube's or Twitch's hosts as a channel (pure): YouTube `/@handle`, `/channel/UC…`, `/c/name`,
 * `/user/name` (any tab after it) → `youtube` with the channel's canonical URL; YouTube's uploads feed
 * `/feeds/videos.xml?channel_id=UC…` → `feed`; `twitch.tv/<login>[/…]` → `twitch` with the login's URL.
 * Another page of those hosts (a video, a playlist, the home page) → 422 INVALID_URL. Any other host →
 * undefined: its body decides (a playlist or a feed), read with the safe fetcher.
 */
export function platformChannel(raw: string): ChannelRef | undefined {
  const url = parseHttpUrl(raw);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const segs = url.pathname.split('/').filter(Boolean);
  if (YT_HOSTS.has(host)) {
    if (segs[0] === 'feeds' && segs[1] === 'videos.xml') {
      const id = url.searchParams.get('channel_id') ?? '';
      if (!YT_CHANNEL_ID.test(id)) throw invalid();
      return { platform: 'feed', watchUrl: `https://www.youtube.com/feeds/videos.xml?channel_id=${id}` };
    }
    const [a, b] = segs;
    if (a && YT_HANDLE.test(a)) return { platform: 'youtube', watchUrl: `https://www.youtube.com/${a}` };
    if (a === 'channel' && b && YT_CHANNEL_ID.test(b)) return { platform: 'youtube', watchUrl: `https://www.youtube.com/channel/${b}` };
    if ((a === 'c' || a === 'user') && b && YT_NAME.test(b)) return { platform: 'youtube', watchUrl: `https://www.youtube.com/${a}/${b}` };
    throw invalid();
  }
  if (TWITCH_HOSTS.has(host)) {
    const [login] = segs;
    if (!login || !TWITCH_LOGIN.test(login) || TWITCH_RESERVED.has(login.toLowerCase())) throw invalid();
    if (segs[1] === 'v' || segs[1] === 'clip') throw invalid();
    return { platform: 'twitch', watchUrl: `https://www.twitch.tv/${login.toLowerCase()}` };
  }
  return undefined;
}

/** Which monitor types a kind of channel can serve: a live playlist has no uploads. */
export function checkTypeFits(type: MonitorType, ref: ChannelRef): void {
  if (type === 'video' && ref.platform === 'hls') {
    throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'type', rule: 'a live HLS playlist has no uploads: use type live' }] });
  }
  if (type === 'live' && ref.platform === 'feed') {
    throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'type', rule: 'a feed of uploads has no live broadcasts: use type video' }] });
  }
}

/** Seconds until the next poll of a watching monitor: the interval with ±20 % jitter, so monitors spread out. */
export function nextPollSeconds(intervalSeconds: number, random: () => number = Math.random): number {
  return Math.max(1, intervalSeconds * (0.8 + 0.4 * random()));
}

/** Seconds until the next read of a live playlist: half a target duration, between 1 and the poll interval. */
export function nextRecordSeconds(targetDuration: number, intervalSeconds: number): number {
  return Math.min(Math.max(1, targetDuration / 2), Math.max(1, intervalSeconds));
}

/** A default name for a monitor: the channel's handle, login or host. */
export function defaultName(ref: ChannelRef): string {
  const u = new URL(ref.watchUrl);
  const last = u.pathname.split('/').filter(Boolean).pop();
  if (ref.platform === 'feed' && u.searchParams.get('channel_id')) return u.searchParams.get('channel_id')!;
  return (ref.platform === 'youtube' || ref.platform === 'twitch') && last ? last : u.hostname;
}

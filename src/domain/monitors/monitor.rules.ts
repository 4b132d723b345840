import { DomainError } from '../errors.js';
import { creditsForSeconds } from '../credits/credits.rules.js';
import { parseHttpUrl } from '../videos/link-classifier.js';
import { invalidUrl } from '../videos/url-refusals.js';
import type { ChannelRef } from '../../ports/channel-watcher.js';
import type { BatchChunk } from './monitors.records.js';

/** Monitor rules (pure): what a pasted channel URL is, prices, poll timing. docs/monitors.md. */

export const MONITOR_TYPES = ['live', 'video'] as const;
export type MonitorType = (typeof MONITOR_TYPES)[number];
export type MonitorStatus = 'stopped' | 'watching' | 'live';
/**
 * Why a monitor stopped: `USER` (POST …/stop, DELETE); the service's own (announced by `monitor.stopped`):
 * `INSUFFICIENT_CREDITS`, `SOURCE_GONE`, and the live recorder's refusals of a stream (LiveRefusal).
 */
export const STOP_REASONS = ['USER', 'INSUFFICIENT_CREDITS', 'SOURCE_GONE', 'STREAM_DURATION_MISMATCH', 'LIVE_BATCH_TOO_LARGE'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * A live stream the recorder refuses (the monitor stops with it, docs/monitors.md "Measured time"):
 * `STREAM_DURATION_MISMATCH`, a stored chunk measures longer than its segments' `#EXTINF` declare beyond
 * the tolerance (durationTolerance); `LIVE_BATCH_TOO_LARGE`, a chunk would take its batch over the
 * batch's seconds (maxBatchSeconds) or bytes (CUTROOM_LIVE_BATCH_MAX_BYTES).
 */
export type LiveRefusal = Extract<StopReason, 'STREAM_DURATION_MISMATCH' | 'LIVE_BATCH_TOO_LARGE'>;

/** The ledger's `job_id` of a live batch's charge and refund (CHARGE_TYPE.liveBatch): `<broadcast id>:<batch index>`. */
export function batchJobId(broadcastId: string, index: number): string {
  return `${broadcastId}:${index}`;
}

/** The price of a batch of `seconds`: 1 credit per started minute after the plan's discount (credit rule 5). */
export function batchPrice(seconds: number, discountPercent: number): number {
  return creditsForSeconds(seconds, discountPercent);
}

/** Seconds a live batch may hold at most, measured: its length plus a margin of 10 %, at least 60 s (660 for 600). */
export function maxBatchSeconds(batchSeconds: number): number {
  return batchSeconds + Math.max(60, batchSeconds / 10);
}

/**
 * How much longer than its segments declare (`#EXTINF`, seconds) a stored chunk of `segments` segments
 * may measure before the stream is taken to lie: 1 s, plus a quarter of the declaration, plus 0.5 s a
 * segment (durations written as whole seconds, rounded down, by older encoders). Billing never depends on
 * it: batches are billed and cut by the measured seconds either way.
 */
export function durationTolerance(declared: number, segments: number): number {
  return 1 + 0.25 * Math.max(0, declared) + 0.5 * Math.max(0, segments);
}

/** Bytes of a batch's stored chunks (chunks stored before their bytes were kept count 0). */
export function recordedBytes(chunks: readonly BatchChunk[]): number {
  return chunks.reduce((sum, c) => sum + (Number.isFinite(c.bytes) ? Math.max(0, c.bytes!) : 0), 0);
}

/**
 * Whether a stored chunk may join its batch (pure): null when it may; `STREAM_DURATION_MISMATCH` when it
 * measures longer than its segments declare beyond durationTolerance (or its length is no number);
 * `LIVE_BATCH_TOO_LARGE` when the batch would go over `maxSeconds` (measured) or `maxBytes`. A chunk
 * shorter than declared is no refusal: it is billed what it measures.
 */
export function chunkRefusal(
  chunk: { declared: number; measured: number; segments: number; bytes: number },
  batch: { seconds: number; bytes: number },
  limits: { maxSeconds: number; maxBytes: number },
): LiveRefusal | null {
  const declared = Number.isFinite(chunk.declared) ? Math.max(0, chunk.declared) : 0;
  if (!Number.isFinite(chunk.measured) || chunk.measured < 0) return 'STREAM_DURATION_MISMATCH';
  if (chunk.measured > declared + durationTolerance(declared, chunk.segments)) return 'STREAM_DURATION_MISMATCH';
  if (batch.seconds + chunk.measured > limits.maxSeconds + BATCH_EPS) return 'LIVE_BATCH_TOO_LARGE';
  if (!Number.isFinite(chunk.bytes) || batch.bytes + chunk.bytes > limits.maxBytes) return 'LIVE_BATCH_TOO_LARGE';
  return null;
}

const BATCH_EPS = 0.01;

/**
 * How many of the next segments (their declared seconds, in order) go into a batch with `room` seconds
 * left of its length (what it measured so far subtracted): whole segments while their sum fits, with a
 * quarter of a segment's length to spare for measured time drifting from declared time. An empty batch
 * takes at least one; 0 for a batch that already holds chunks means it is full: cut it first.
 */
export function segmentsForBatch(declared: readonly number[], room: number, empty: boolean): number {
  let sum = 0;
  let n = 0;
  for (const raw of declared) {
    const d = Number.isFinite(raw) ? Math.max(0, raw) : 0;
    if ((n > 0 || !empty) && sum + d > room + Math.max(BATCH_EPS, d / 4)) break;
    sum += d;
    n++;
  }
  return n;
}

const YT_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com']);
const TWITCH_HOSTS = new Set(['twitch.tv', 'www.twitch.tv', 'm.twitch.tv']);
const TWITCH_RESERVED = new Set([
  'videos',
  'directory',
  'search',
  'settings',
  'downloads',
  'jobs',
  'p',
  'subscriptions',
  'inventory',
  'wallet',
  'login',
  'signup',
  'friends',
  'drops',
  'turbo',
]);
const YT_CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const YT_HANDLE = /^@[A-Za-z0-9._-]{3,30}$/;
const YT_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const TWITCH_LOGIN = /^[A-Za-z0-9_]{3,25}$/;

const invalid = () => invalidUrl('unsupported_link');

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

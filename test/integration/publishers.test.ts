import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PublishError, type Publisher, type PublishInput, type PublishResult } from '../../src/ports/publisher.js';
import { loadPublishingConfig } from '../../src/config/publishing.env.js';
import { createPublishers } from '../../src/adapters/publishing/publisher.factory.js';
import { FakeInstagram, FakeTikTok, FakeYouTube } from '../helpers/fake-networks.js';

const SIZE = 600 * 1024;
let tmp: string;
let file: string;
let bytes: Buffer;
let yt: FakeYouTube;
let tt: FakeTikTok;
let ig: FakeInstagram;
let publishers: ReadonlyMap<string, Publisher>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-publish-'));
  bytes = crypto.randomBytes(SIZE);
  file = path.join(tmp, 'clip.mp4');
  fs.writeFileSync(file, bytes);
  [yt, tt, ig] = await Promise.all([new FakeYouTube().start(), new FakeTikTok().start(), new FakeInstagram().start()]);
  const publishing = loadPublishingConfig({
    CUTROOM_YOUTUBE_API_BASE: yt.url,
    CUTROOM_YOUTUBE_OAUTH_BASE: yt.oauthBase,
    CUTROOM_YOUTUBE_CLIENT_ID: yt.clientId,
    CUTROOM_YOUTUBE_CLIENT_SECRET: yt.clientSecret,
    CUTROOM_YOUTUBE_CHUNK_BYTES: String(256 * 1024),
    CUTROOM_TIKTOK_API_BASE: tt.url,
    CUTROOM_TIKTOK_CLIENT_KEY: tt.clientKey,
    CUTROOM_TIKTOK_CLIENT_SECRET: tt.clientSecret,
    CUTROOM_INSTAGRAM_GRAPH_BASE: ig.url,
    CUTROOM_INSTAGRAM_UPLOAD_BASE: ig.url,
    CUTROOM_PUBLISH_POLL_INTERVAL_MS: '5',
    CUTROOM_PUBLISH_REQUEST_TIMEOUT_MS: '10000',
  });
  publishing.tiktok.chunkBytes = 64 * 1024; // below TikTok's real 5 MB floor, like the fake's
  publishers = createPublishers({ publishing, dataDir: path.join(tmp, 'data'), publicBaseUrl: 'http://clips.example.test/' });
});

afterAll(async () => {
  await Promise.all([yt?.close(), tt?.close(), ig?.close()]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

afterEach(() => {
  for (const f of [yt, tt, ig]) expect(f.violations).toEqual([]);
});

class Crash extends Error {}

/** One attempt; `crashAfter` decides, per saved state, to "die" right after saving it. */
async function attempt(
  platform: string,
  input: Partial<PublishInput> & Pick<PublishInput, 'metadata' | 'credentials' | 'idempotencyKey'>,
  crashAfter?: (state: any) => boolean,
): Promise<{ result?: PublishResult; error?: unknown; states: any[] }> {
  const states: any[] = [];
  try {
    const result = await publishers.get(platform)!.publish({
      file,
      sizeBytes: SIZE,
      onState: async (s) => {
        states.push(structuredClone(s));
        if (crashAfter?.(s)) throw new Crash('crashed');
      },
      ...input,
    });
    return { result, states };
  } catch (error) {
    return { error, states };
  }
}

function publishError(e: unknown): PublishError {
  expect(e).toBeInstanceOf(PublishError);
  return e as PublishError;
}

describe('youtube', () => {
  const creds = () => ({ access_token: yt.issueToken('ya29'), refresh_token: yt.refreshToken });
  const metadata = { title: 'Best moment', description: 'From the stream', tags: ['clips', 'best of'], categoryId: '20', madeForKids: false, extra: 'kept' };

  it('uploads in 256 KiB chunks and answers the watch URL', async () => {
    const { result, states } = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-1' });
    expect(result?.publishedUrl).toMatch(/^https:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}$/);
    const video = yt.videos.get(result!.externalId)!;
    expect(video.bytes.equals(bytes)).toBe(true);
    expect(video.snippet).toEqual({ title: 'Best moment', description: 'From the stream', tags: ['clips', 'best of'], categoryId: '20' });
    expect(video.status).toEqual({ privacyStatus: 'private', selfDeclaredMadeForKids: false });
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ platform: 'youtube', key: 'item-yt-1', size: SIZE });
    expect(result?.credentials).toBeUndefined();
  });

  it('refreshes an expired token once and returns the new credentials', async () => {
    const credentials = creds();
    yt.expireTokens();
    const before = yt.refreshes;
    const { result } = await attempt('youtube', { metadata, credentials, idempotencyKey: 'item-yt-2' });
    expect(yt.refreshes).toBe(before + 1);
    expect(result?.credentials?.access_token).toMatch(/^ya29-/);
    expect(result?.credentials?.access_token).not.toBe(credentials.access_token);
    expect(result?.credentials?.refresh_token).toBe(yt.refreshToken);
    expect(Date.parse(String(result?.credentials?.expires_at))).toBeGreaterThan(Date.now());
  });

  it('refreshes when the token expires mid-upload and continues where the session stands', async () => {
    const before = yt.refreshes;
    yt.failOnce({ step: 'chunk', nth: 2, status: 401, body: { error: { code: 401, errors: [{ reason: 'authError' }] } } });
    const { result } = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-mid' });
    expect(yt.videos.get(result!.externalId)!.bytes.equals(bytes)).toBe(true);
    expect(yt.refreshes).toBe(before + 1);
    expect(result?.credentials?.access_token).toBeDefined();
  });

  it('refreshes ahead of expires_at, and maps a revoked refresh token or none to AUTH_*', async () => {
    const before = yt.refreshes;
    const ahead = await attempt('youtube', {
      metadata,
      credentials: { ...creds(), expires_at: new Date(Date.now() - 1000).toISOString() },
      idempotencyKey: 'item-yt-3',
    });
    expect(ahead.result).toBeDefined();
    expect(yt.refreshes).toBe(before + 1);

    yt.expireTokens();
    const revoked = await attempt('youtube', { metadata, credentials: { access_token: 'ya29-old', refresh_token: 'revoked' }, idempotencyKey: 'item-yt-4' });
    expect(publishError(revoked.error)).toMatchObject({ error_code: 'AUTH_REVOKED', retryable: false });
    const noRefresh = await attempt('youtube', { metadata, credentials: { access_token: 'ya29-old' }, idempotencyKey: 'item-yt-5' });
    expect(publishError(noRefresh.error)).toMatchObject({ error_code: 'AUTH_EXPIRED', retryable: false, status: 401 });
  });

  it('maps quota, rate limit, server errors and refused metadata', async () => {
    const cases: Array<[number, unknown, string, boolean]> = [
      [403, { error: { code: 403, errors: [{ reason: 'quotaExceeded' }] } }, 'QUOTA_EXCEEDED', false],
      [403, { error: { code: 403, errors: [{ reason: 'uploadLimitExceeded' }] } }, 'QUOTA_EXCEEDED', false],
      [429, { error: { code: 429, errors: [{ reason: 'rateLimitExceeded' }] } }, 'RATE_LIMITED', true],
      [403, { error: { code: 403, errors: [{ reason: 'forbidden' }] } }, 'AUTH_REVOKED', false],
      [500, { error: { code: 500, message: 'Backend Error' } }, 'UPLOAD_FAILED', true],
    ];
    for (const [status, body, code, retryable] of cases) {
      yt.failOnce({ step: 'init', status, body, headers: { 'retry-after': '7' } });
      const { error } = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: `item-yt-map-${code}` });
      expect(publishError(error)).toMatchObject({ error_code: code, retryable, status });
      if (code === 'RATE_LIMITED') expect(publishError(error).retryAfterSeconds).toBe(7);
    }
    const refused = await attempt('youtube', { metadata: { ...metadata, title: 'x<y' }, credentials: creds(), idempotencyKey: 'item-yt-bad' });
    expect(publishError(refused.error)).toMatchObject({ error_code: 'METADATA_REJECTED', field: 'youtube.title' });
  });

  it('resumes a saved session after a crash between upload and recording: one video', async () => {
    const before = yt.videos.size;
    const inits = yt.inits;
    const first = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-crash' });
    // The process died before recording first.result: the retry only has the saved state.
    const second = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-crash', resumeState: first.states.at(-1) });
    expect(second.result).toEqual(first.result);
    expect(second.states).toEqual([]);
    expect(yt.videos.size).toBe(before + 1);
    expect(yt.inits).toBe(inits + 1);
  });

  it('continues a broken upload from the Range the session reports', async () => {
    yt.failOnce({ step: 'chunk', nth: 2, status: 503, body: { error: { code: 503, message: 'Service Unavailable' } } });
    const puts = yt.chunkPuts;
    const first = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-broken' });
    expect(publishError(first.error)).toMatchObject({ error_code: 'UPLOAD_FAILED', retryable: true });
    const second = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-broken', resumeState: first.states.at(-1) });
    expect(yt.videos.get(second.result!.externalId)!.bytes.equals(bytes)).toBe(true);
    expect(yt.chunkPuts - puts).toBe(4); // chunk 1, failed chunk 2, then chunks 2 and 3 (not chunk 1 again)
  });

  it('starts a new session when the saved one expired, and ignores another item’s state', async () => {
    const gone = { platform: 'youtube', key: 'item-yt-old', sessionUrl: `${yt.url}/upload/youtube/v3/videos?upload_id=expired`, size: SIZE };
    const a = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-old', resumeState: gone });
    expect(a.result).toBeDefined();
    expect(a.states).toHaveLength(1);
    const b = await attempt('youtube', { metadata, credentials: creds(), idempotencyKey: 'item-yt-other', resumeState: a.states[0] });
    expect(b.result?.externalId).not.toBe(a.result?.externalId);
  });
});

describe('tiktok', () => {
  const creds = () => ({ access_token: tt.issueToken('act'), refresh_token: tt.refreshToken, open_id: tt.openId, username: 'cutroom.clips' });
  const metadata = { title: 'Best moment #fyp', privacyLevel: 'SELF_ONLY', disableComment: true, disableDuet: false, disableStitch: true, brandNew: 1 };

  it('initialises, uploads chunks with TikTok’s arithmetic, polls and answers the video URL', async () => {
    const { result, states } = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-1' });
    expect(result?.publishedUrl).toMatch(/^https:\/\/www\.tiktok\.com\/@cutroom\.clips\/video\/73456789012345678\d\d$/);
    const post = tt.posts.get(states[0].publishId)!;
    expect(post).toMatchObject({ status: 'PUBLISH_COMPLETE', chunkSize: 64 * 1024, chunkCount: 9, nextChunk: 9 });
    expect(Buffer.concat(post.parts).equals(bytes)).toBe(true);
    expect(post.parts.at(-1)!.length).toBe(SIZE - 8 * 64 * 1024);
    expect(post.postInfo).toEqual({ title: 'Best moment #fyp', privacy_level: 'SELF_ONLY', disable_comment: true, disable_duet: false, disable_stitch: true });
    expect(result?.externalId).toBe(post.postId);
  });

  it('refreshes on access_token_invalid and returns the rotated refresh token', async () => {
    const credentials = creds();
    tt.expireTokens();
    const { result } = await attempt('tiktok', { metadata, credentials, idempotencyKey: 'item-tt-2' });
    expect(result?.credentials?.refresh_token).toBe(tt.refreshToken);
    expect(result?.credentials?.refresh_token).not.toBe(credentials.refresh_token);
    expect(result?.credentials?.refresh_expires_at).toBeDefined();
  });

  it('keeps refreshed tokens on a later failure, and maps TikTok’s error codes', async () => {
    const stale = creds();
    tt.expireTokens();
    tt.failOnce({ step: 'init', status: 403, body: { error: { code: 'spam_risk_too_many_posts', message: 'daily cap' } } });
    const quota = await attempt('tiktok', { metadata, credentials: stale, idempotencyKey: 'item-tt-3' });
    expect(publishError(quota.error)).toMatchObject({ error_code: 'QUOTA_EXCEEDED', retryable: false });
    expect(publishError(quota.error).credentials?.refresh_token).toBe(tt.refreshToken);

    tt.failOnce({ step: 'init', status: 429, body: { error: { code: 'rate_limit_exceeded' } } });
    expect(publishError((await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-4' })).error).error_code).toBe('RATE_LIMITED');
    tt.failOnce({ step: 'init', status: 400, body: { error: { code: 'privacy_level_option_mismatch' } } });
    expect(publishError((await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-5' })).error)).toMatchObject({
      error_code: 'METADATA_REJECTED',
      field: 'tiktok.privacyLevel',
    });
    tt.failProcessing = true;
    const failed = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-6' });
    tt.failProcessing = false;
    expect(publishError(failed.error)).toMatchObject({ error_code: 'PROCESSING_FAILED', retryable: false });
    expect(publishError(failed.error).message).toContain('file_format_check_failed');
  });

  it('after a crash once the upload is done, polls the saved publish_id: one post', async () => {
    const inits = tt.inits;
    const published = tt.published().length;
    const controller = new AbortController();
    tt.processingPolls = 3;
    tt.onUploadComplete = () => controller.abort(); // the worker dies while TikTok processes
    const first = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-crash', signal: controller.signal });
    tt.onUploadComplete = undefined;
    expect(first.result).toBeUndefined();
    const second = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-crash', resumeState: first.states.at(-1) });
    tt.processingPolls = 1;
    expect(second.result?.publishedUrl).toContain('/video/');
    expect(tt.inits).toBe(inits + 1);
    expect(tt.published().length).toBe(published + 1);
    // And once more after it completed (the answer was lost before recording): same video.
    const third = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-crash', resumeState: first.states.at(-1) });
    expect(third.result).toEqual(second.result);
    expect(tt.inits).toBe(inits + 1);
  });

  it('starts a new post on retry when the saved one FAILED (it never went public)', async () => {
    tt.failProcessing = true;
    const first = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-failed' });
    tt.failProcessing = false;
    expect(publishError(first.error).error_code).toBe('PROCESSING_FAILED');
    const second = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-failed', resumeState: first.states.at(-1) });
    expect(second.result).toBeDefined();
    expect(second.states[0].publishId).not.toBe(first.states[0].publishId);
  });

  it('continues a broken chunked upload from uploaded_bytes', async () => {
    tt.failOnce({ step: 'chunk', nth: 4, status: 500, body: { error: { code: 'internal_error' } } });
    const inits = tt.inits;
    const first = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-broken' });
    expect(publishError(first.error)).toMatchObject({ error_code: 'UPLOAD_FAILED', retryable: true });
    const second = await attempt('tiktok', { metadata, credentials: creds(), idempotencyKey: 'item-tt-broken', resumeState: first.states.at(-1) });
    expect(second.result).toBeDefined();
    expect(tt.inits).toBe(inits + 1);
    expect(Buffer.concat(tt.posts.get(first.states[0].publishId)!.parts).equals(bytes)).toBe(true);
  });
});

describe('instagram', () => {
  const creds = () => ({ access_token: ig.issueToken('EAAG'), ig_user_id: ig.igUserId });
  const metadata = { caption: 'Best moment #clips @friend', shareToFeed: false, somethingElse: true };

  it('creates a Reels container, uploads, waits for FINISHED, publishes and answers the permalink', async () => {
    const { result, states } = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-1' });
    expect(result?.publishedUrl).toMatch(/^https:\/\/www\.instagram\.com\/reel\/C\d{8}\/$/);
    const c = ig.containers.get(states[0].containerId)!;
    expect(c.bytes?.equals(bytes)).toBe(true);
    expect(Object.fromEntries(c.params)).toEqual({
      media_type: 'REELS',
      upload_type: 'resumable',
      caption: 'Best moment #clips @friend',
      share_to_feed: 'false',
    });
    expect(c.mediaId).toBe(result?.externalId);
    expect(states.map((s) => [Boolean(s.uploaded), s.mediaId !== undefined])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
  });

  it('maps an expired or revoked token, the publishing limit, processing errors and 5xx', async () => {
    const expired = await attempt('instagram', { metadata, credentials: { access_token: 'EAAG-old', ig_user_id: ig.igUserId }, idempotencyKey: 'item-ig-2' });
    expect(publishError(expired.error)).toMatchObject({ error_code: 'AUTH_EXPIRED', retryable: false });
    ig.failOnce({ step: 'container', status: 400, body: ig.err(190, 'The user has not authorized application.', 458) });
    expect(publishError((await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-3' })).error).error_code).toBe('AUTH_REVOKED');
    ig.failOnce({ step: 'publish', status: 400, body: ig.err(9, 'Application request limit reached', 2207042) });
    expect(publishError((await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-4' })).error).error_code).toBe('QUOTA_EXCEEDED');
    ig.failProcessing = true;
    const failed = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-5' });
    ig.failProcessing = false;
    expect(publishError(failed.error)).toMatchObject({ error_code: 'PROCESSING_FAILED', retryable: false });
    ig.failOnce({ step: 'container', status: 400, body: ig.err(100, 'Invalid parameter: caption') });
    expect(publishError((await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-6' })).error)).toMatchObject({
      error_code: 'METADATA_REJECTED',
      field: 'instagram.caption',
    });
    const noUser = await attempt('instagram', { metadata, credentials: { access_token: 'x' }, idempotencyKey: 'item-ig-7' });
    expect(publishError(noUser.error).error_code).toBe('AUTH_REVOKED');
  });

  it('retries a failed upload into the same container', async () => {
    ig.failOnce({ step: 'upload', status: 503, body: { debug_info: { retriable: true, type: 'ServiceUnavailable' } } });
    const containers = ig.containers.size;
    const first = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-retry' });
    expect(publishError(first.error)).toMatchObject({ error_code: 'UPLOAD_FAILED', retryable: true });
    const second = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-retry', resumeState: first.states.at(-1) });
    expect(second.result).toBeDefined();
    expect(ig.containers.size).toBe(containers + 1);
  });

  it('resumes after a crash once uploaded, and after publishing: one media, one publish call', async () => {
    const media = ig.media.length;
    const calls = ig.publishCalls;
    const first = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-crash' }, (s) => s.uploaded === true && !s.mediaId);
    expect(first.error).toBeInstanceOf(Crash);
    const second = await attempt(
      'instagram',
      { metadata, credentials: creds(), idempotencyKey: 'item-ig-crash', resumeState: first.states.at(-1) },
      (s) => s.mediaId !== undefined,
    );
    expect(second.error).toBeInstanceOf(Crash);
    const third = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-crash', resumeState: second.states.at(-1) });
    expect(third.result?.externalId).toBe(second.states.at(-1).mediaId);
    expect(ig.media.length).toBe(media + 1);
    expect(ig.publishCalls).toBe(calls + 1);
    expect(ig.uploads).toBeGreaterThan(0);
  });

  it('makes a new container on retry when the saved one ended in ERROR', async () => {
    ig.failProcessing = true;
    const first = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-error' });
    ig.failProcessing = false;
    const second = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-error', resumeState: first.states.at(-1) });
    expect(second.result).toBeDefined();
    expect(second.states[0].containerId).not.toBe(first.states[0].containerId);
  });

  it('finds the media of a container published just before the crash (media id never saved)', async () => {
    const first = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-lost' }, (s) => s.mediaId !== undefined);
    const beforePublish = first.states.find((s) => s.uploaded && !s.mediaId);
    const again = await attempt('instagram', { metadata, credentials: creds(), idempotencyKey: 'item-ig-lost', resumeState: beforePublish });
    expect(again.result?.externalId).toBe(first.states.at(-1).mediaId);
    expect(ig.media.filter((m) => m.containerId === beforePublish.containerId)).toHaveLength(1);
  });
});

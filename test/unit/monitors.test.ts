import { describe, expect, it } from 'vitest';
import { isFeed, parseFeed } from '../../src/adapters/watchers/feed-parser.js';
import {
  batchPrice,
  checkTypeFits,
  chunkRefusal,
  defaultName,
  durationTolerance,
  maxBatchSeconds,
  nextPollSeconds,
  nextRecordSeconds,
  platformChannel,
  recordedBytes,
  segmentsForBatch,
  STOP_REASONS,
} from '../../src/domain/monitors/monitor.rules.js';
import { loadMonitorsConfig } from '../../src/config/monitors.env.js';

describe('monitor URLs on YouTube and Twitch (platformChannel)', () => {
  it('reads channels, their tabs and the uploads feed', () => {
    expect(platformChannel('https://www.youtube.com/@Some.Channel')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/@Some.Channel' });
    expect(platformChannel('https://m.youtube.com/@handle/streams')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/@handle' });
    expect(platformChannel('https://youtube.com/channel/UCabcdefghijklmnopqrstuv/videos')).toEqual({
      platform: 'youtube',
      watchUrl: 'https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv',
    });
    expect(platformChannel('https://www.youtube.com/c/SomeName')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/c/SomeName' });
    expect(platformChannel('https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv')).toEqual({
      platform: 'feed',
      watchUrl: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv',
    });
    expect(platformChannel('https://www.twitch.tv/Some_Streamer/videos')).toEqual({ platform: 'twitch', watchUrl: 'https://www.twitch.tv/some_streamer' });
    expect(platformChannel('https://media.example.com/live.m3u8')).toBeUndefined();
  });

  it('refuses videos, playlists and other pages of those hosts with INVALID_URL', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=aaaaaaaaaaa',
      'https://www.youtube.com/playlist?list=PL123',
      'https://www.youtube.com/',
      'https://www.youtube.com/feeds/videos.xml?channel_id=nope',
      'https://www.twitch.tv/videos/123456',
      'https://www.twitch.tv/someone/clip/Abc',
      'https://www.twitch.tv/',
      'javascript:alert(1)',
      'https://user:pw@www.youtube.com/@x',
    ]) {
      expect(() => platformChannel(url), url).toThrow(expect.objectContaining({ code: 'INVALID_URL' }));
    }
  });

  it('checks the type against the channel and names monitors', () => {
    expect(() => checkTypeFits('video', { platform: 'hls', watchUrl: 'https://a.example/x.m3u8' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
    expect(() => checkTypeFits('live', { platform: 'feed', watchUrl: 'https://a.example/x.xml' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
    expect(() => checkTypeFits('live', { platform: 'hls', watchUrl: 'https://a.example/x.m3u8' })).not.toThrow();
    expect(defaultName({ platform: 'youtube', watchUrl: 'https://www.youtube.com/@handle' })).toBe('@handle');
    expect(defaultName({ platform: 'hls', watchUrl: 'https://cdn.example.com/live/x.m3u8' })).toBe('cdn.example.com');
  });
});

describe('prices and timing', () => {
  it('a batch costs 1 credit per started minute after the discount', () => {
    expect(batchPrice(600, 0)).toBe(10);
    expect(batchPrice(601, 0)).toBe(11);
    expect(batchPrice(25, 0)).toBe(1);
    expect(batchPrice(600, 50)).toBe(5);
    expect(batchPrice(0, 0)).toBe(0);
  });

  it('polls with ±20 % jitter and reads a live playlist every half target duration', () => {
    expect(nextPollSeconds(60, () => 0)).toBe(48);
    expect(nextPollSeconds(60, () => 1)).toBeCloseTo(72, 9);
    expect(nextPollSeconds(1, () => 0)).toBe(1);
    expect(nextRecordSeconds(6, 60)).toBe(3);
    expect(nextRecordSeconds(1, 60)).toBe(1);
    expect(nextRecordSeconds(10, 2)).toBe(2);
  });

  it('reads its settings: defaults, minimums and Twitch credentials in pairs', () => {
    expect(loadMonitorsConfig({})).toEqual({ pollSeconds: 60, batchSeconds: 600, stallSeconds: 120, batchMaxBytes: 2 * 1024 ** 3, twitch: null });
    expect(loadMonitorsConfig({ CUTROOM_LIVE_BATCH_MAX_BYTES: '104857600' }).batchMaxBytes).toBe(100 * 1024 ** 2);
    expect(() => loadMonitorsConfig({ CUTROOM_LIVE_BATCH_MAX_BYTES: '1000' })).toThrow(/CUTROOM_LIVE_BATCH_MAX_BYTES/);
    expect(() => loadMonitorsConfig({ CUTROOM_LIVE_BATCH_MAX_BYTES: '1.5e9x' })).toThrow(/CUTROOM_LIVE_BATCH_MAX_BYTES/);
    expect(loadMonitorsConfig({ CUTROOM_MONITOR_POLL_SECONDS: '1', CUTROOM_LIVE_BATCH_SECONDS: '20' })).toMatchObject({ pollSeconds: 1, batchSeconds: 20 });
    expect(() => loadMonitorsConfig({ CUTROOM_MONITOR_POLL_SECONDS: '0' })).toThrow(/CUTROOM_MONITOR_POLL_SECONDS/);
    expect(() => loadMonitorsConfig({ CUTROOM_LIVE_BATCH_SECONDS: '19' })).toThrow(/CUTROOM_LIVE_BATCH_SECONDS/);
    expect(() => loadMonitorsConfig({ CUTROOM_TWITCH_CLIENT_ID: 'abc' })).toThrow(/CUTROOM_TWITCH_CLIENT_SECRET/);
    expect(
      loadMonitorsConfig({ CUTROOM_TWITCH_CLIENT_ID: 'abc', CUTROOM_TWITCH_CLIENT_SECRET: 'def', CUTROOM_TWITCH_API_URL: 'http://127.0.0.1:9/helix/' }).twitch,
    ).toEqual({
      clientId: 'abc',
      clientSecret: 'def',
      apiUrl: 'http://127.0.0.1:9/helix',
      authUrl: 'https://id.twitch.tv/oauth2/token',
    });
  });
});

describe('live recording by measured time (what a stored chunk measures, not what the playlist declares)', () => {
  const limits = { maxSeconds: 660, maxBytes: 1000 };
  const empty = { seconds: 0, bytes: 0 };

  it('a batch holds at most its length plus a margin of 10 %, at least 60 s', () => {
    expect(maxBatchSeconds(600)).toBe(660);
    expect(maxBatchSeconds(20)).toBe(80);
    expect(maxBatchSeconds(3600)).toBe(3960);
  });

  it('a chunk measured longer than its segments declare, beyond the tolerance, is a stream lying about its durations', () => {
    // The audit's stream: #EXTINF:0.5 for 60-second segments.
    expect(chunkRefusal({ declared: 1.5, measured: 180, segments: 3, bytes: 10 }, empty, limits)).toBe('STREAM_DURATION_MISMATCH');
    // The tolerance: 1 s, a quarter of the declaration, half a second per segment (integer #EXTINF rounded down).
    expect(durationTolerance(20, 10)).toBe(11);
    expect(chunkRefusal({ declared: 20, measured: 31, segments: 10, bytes: 10 }, empty, limits)).toBeNull();
    expect(chunkRefusal({ declared: 20, measured: 31.01, segments: 10, bytes: 10 }, empty, limits)).toBe('STREAM_DURATION_MISMATCH');
    // An honest stream: a frame or two more than declared.
    expect(chunkRefusal({ declared: 6, measured: 6.021, segments: 3, bytes: 10 }, empty, limits)).toBeNull();
    // Shorter than declared (60 s declared for 1 s segments) is no refusal: the batch is billed the 10 s measured.
    expect(chunkRefusal({ declared: 600, measured: 10, segments: 10, bytes: 10 }, empty, limits)).toBeNull();
    // A length that is no number is never billed: refused.
    expect(chunkRefusal({ declared: 6, measured: Number.NaN, segments: 3, bytes: 10 }, empty, limits)).toBe('STREAM_DURATION_MISMATCH');
    expect(chunkRefusal({ declared: 6, measured: -1, segments: 3, bytes: 10 }, empty, limits)).toBe('STREAM_DURATION_MISMATCH');
  });

  it('a chunk that takes the batch over its seconds or its bytes is refused (LIVE_BATCH_TOO_LARGE)', () => {
    expect(chunkRefusal({ declared: 10, measured: 10, segments: 5, bytes: 10 }, { seconds: 650, bytes: 0 }, limits)).toBeNull();
    expect(chunkRefusal({ declared: 10, measured: 10.5, segments: 5, bytes: 10 }, { seconds: 650, bytes: 0 }, limits)).toBe('LIVE_BATCH_TOO_LARGE');
    expect(chunkRefusal({ declared: 10, measured: 10, segments: 5, bytes: 100 }, { seconds: 0, bytes: 900 }, limits)).toBeNull();
    expect(chunkRefusal({ declared: 10, measured: 10, segments: 5, bytes: 101 }, { seconds: 0, bytes: 900 }, limits)).toBe('LIVE_BATCH_TOO_LARGE');
    // A lie is named as such, whatever else it breaks.
    expect(chunkRefusal({ declared: 1, measured: 700, segments: 2, bytes: 5000 }, empty, limits)).toBe('STREAM_DURATION_MISMATCH');
    expect(
      recordedBytes([
        { key: 'a', seconds: 2, firstSequence: 0, lastSequence: 0, bytes: 7 },
        { key: 'b', seconds: 2, firstSequence: 1, lastSequence: 1 },
      ]),
    ).toBe(7);
    expect(STOP_REASONS).toEqual(expect.arrayContaining(['STREAM_DURATION_MISMATCH', 'LIVE_BATCH_TOO_LARGE']));
  });

  it('takes the whole segments that fit the room left (measured), at least one into an empty batch, none into a full one', () => {
    expect(segmentsForBatch([2, 2, 2, 2, 2, 2], 10, false)).toBe(5);
    expect(segmentsForBatch([2, 2, 2, 2, 2, 2], 20, true)).toBe(6);
    // A batch measured a little short or long of its length: the next segment fits, or the batch is cut first.
    expect(segmentsForBatch([2, 2], 2.02, false)).toBe(1);
    expect(segmentsForBatch([2, 2], 1.98, false)).toBe(1);
    expect(segmentsForBatch([2, 2], 1.4, false)).toBe(0);
    expect(segmentsForBatch([2, 2], 0, false)).toBe(0);
    expect(segmentsForBatch([2, 2], -3, false)).toBe(0);
    expect(segmentsForBatch([30], 20, true)).toBe(1);
    // 60 s declared per segment: 10 fit a 600 s batch (each then measured for what it is).
    expect(segmentsForBatch(Array(12).fill(60), 600, true)).toBe(10);
    expect(segmentsForBatch(Array(100).fill(0.5), 20, true)).toBe(40);
  });
});

describe('feeds (parseFeed)', () => {
  it("reads YouTube's Atom feed: the video id, its watch URL and title, newest first", () => {
    const atom = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
 <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv"/>
 <entry><id>yt:video:bbbbbbbbbbb</id><yt:videoId>bbbbbbbbbbb</yt:videoId><title>Second &amp; newest</title><link rel="alternate" href="https://www.youtube.com/watch?v=bbbbbbbbbbb"/></entry>
 <entry><id>yt:video:aaaaaaaaaaa</id><yt:videoId>aaaaaaaaaaa</yt:videoId><title><![CDATA[First <one>]]></title><link rel="alternate" href="https://www.youtube.com/watch?v=aaaaaaaaaaa"/></entry>
</feed>`;
    expect(isFeed(atom)).toBe(true);
    expect(parseFeed(atom)).toEqual([
      { id: 'yt:video:bbbbbbbbbbb', url: 'https://www.youtube.com/watch?v=bbbbbbbbbbb', title: 'Second & newest' },
      { id: 'yt:video:aaaaaaaaaaa', url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa', title: 'First <one>' },
    ]);
  });

  it('reads RSS items: guid as the key, the enclosure (else the link) as the video; skips entries without an http(s) link', () => {
    const rss = `<rss version="2.0"><channel><title>Talks</title>
 <item><title>Episode 2</title><guid isPermaLink="false">ep-2</guid><enclosure url="https://cdn.example.com/ep2.mp4" type="video/mp4" length="1"/></item>
 <item><title>Episode 1</title><link>https://cdn.example.com/ep1.mp4</link></item>
 <item><title>Bad</title><guid>ep-0</guid><enclosure url="file:///etc/passwd"/></item>
</channel></rss>`;
    expect(isFeed(rss)).toBe(true);
    expect(parseFeed(rss)).toEqual([
      { id: 'ep-2', url: 'https://cdn.example.com/ep2.mp4', title: 'Episode 2' },
      { id: 'https://cdn.example.com/ep1.mp4', url: 'https://cdn.example.com/ep1.mp4', title: 'Episode 1' },
    ]);
    expect(isFeed('<html><body>not a feed</body></html>')).toBe(false);
    expect(isFeed('#EXTM3U')).toBe(false);
  });
});

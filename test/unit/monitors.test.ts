import { describe, expect, it } from 'vitest';
import { isFeed, parseFeed } from '../../src/adapters/watchers/feed-parser.js';
import { batchPrice, checkTypeFits, defaultName, nextPollSeconds, nextRecordSeconds, platformChannel } from '../../src/domain/monitors/monitor.rules.js';
import { loadMonitorsConfig } from '../../src/config/monitors.env.js';

describe('monitor URLs on YouTube and Twitch (platformChannel)', () => {
  it('reads channels, their tabs and the uploads feed', () => {
    expect(platformChannel('https://www.youtube.com/@Some.Channel')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/@Some.Channel' });
    expect(platformChannel('https://m.youtube.com/@handle/streams')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/@handle' });
    expect(platformChannel('https://youtube.com/channel/UCabcdefghijklmnopqrstuv/videos')).toEqual({ platform: 'youtube', watchUrl: 'https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv' });
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
    expect(() => checkTypeFits('video', { platform: 'hls', watchUrl: 'https://a.example/x.m3u8' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => checkTypeFits('live', { platform: 'feed', watchUrl: 'https://a.example/x.xml' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
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
    expect(loadMonitorsConfig({})).toEqual({ pollSeconds: 60, batchSeconds: 600, stallSeconds: 120, twitch: null });
    expect(loadMonitorsConfig({ CUTROOM_MONITOR_POLL_SECONDS: '1', CUTROOM_LIVE_BATCH_SECONDS: '20' })).toMatchObject({ pollSeconds: 1, batchSeconds: 20 });
    expect(() => loadMonitorsConfig({ CUTROOM_MONITOR_POLL_SECONDS: '0' })).toThrow(/CUTROOM_MONITOR_POLL_SECONDS/);
    expect(() => loadMonitorsConfig({ CUTROOM_LIVE_BATCH_SECONDS: '19' })).toThrow(/CUTROOM_LIVE_BATCH_SECONDS/);
    expect(() => loadMonitorsConfig({ CUTROOM_TWITCH_CLIENT_ID: 'abc' })).toThrow(/CUTROOM_TWITCH_CLIENT_SECRET/);
    expect(loadMonitorsConfig({ CUTROOM_TWITCH_CLIENT_ID: 'abc', CUTROOM_TWITCH_CLIENT_SECRET: 'def', CUTROOM_TWITCH_API_URL: 'http://127.0.0.1:9/helix/' }).twitch).toEqual({
      clientId: 'abc',
      clientSecret: 'def',
      apiUrl: 'http://127.0.0.1:9/helix',
      authUrl: 'https://id.twitch.tv/oauth2/token',
    });
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

import { describe, expect, it } from 'vitest';
import { mapYtDlpError, mapYtDlpInfo, ytDlpArgs } from '../../src/adapters/sources/ytdlp.resolver.js';
import { DomainError } from '../../src/domain/errors.js';

const target = { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', platform: 'youtube' };

const video = {
  id: 'dQw4w9WgXcQ',
  title: 'Never Gonna Give You Up',
  uploader: 'Rick Astley',
  channel: 'Rick Astley',
  duration: 212,
  width: 1920,
  height: 1080,
  vcodec: 'avc1.640028',
  acodec: 'mp4a.40.2',
  is_live: false,
  live_status: 'not_live',
  webpage_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  thumbnail: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/maxresdefault.jpg',
  formats: [
    { format_id: '140', vcodec: 'none', acodec: 'mp4a.40.2' },
    { format_id: '137', vcodec: 'avc1.640028', acodec: 'none', width: 1920, height: 1080 },
  ],
};

describe('mapYtDlpInfo', () => {
  it('maps an ordinary video', () => {
    expect(mapYtDlpInfo(video, target)).toEqual({
      title: 'Never Gonna Give You Up',
      author: 'Rick Astley',
      platform: 'youtube',
      duration: 212,
      width: 1920,
      height: 1080,
      hasVideo: true,
      hasAudio: true,
      isLive: false,
      mediaUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/maxresdefault.jpg',
    });
  });

  it('takes the largest video format when the top level has no size, and falls back for missing names', () => {
    const m = mapYtDlpInfo(
      { ...video, width: undefined, height: undefined, uploader: undefined, channel: undefined, title: undefined, webpage_url: undefined },
      target,
    );
    expect([m.width, m.height, m.author, m.title, m.mediaUrl]).toEqual([1920, 1080, 'youtube', target.url, target.url]);
  });

  it('tells audio-only sources by vcodec none everywhere', () => {
    const audio = { title: 'Podcast', duration: 3600, vcodec: 'none', acodec: 'opus', formats: [{ format_id: 'a', vcodec: 'none', acodec: 'opus' }] };
    expect(mapYtDlpInfo(audio, target)).toMatchObject({ hasVideo: false, hasAudio: true, width: 0, height: 0 });
    // no codec information at all: assumed present
    expect(mapYtDlpInfo({ title: 'x', duration: 100 }, target)).toMatchObject({ hasVideo: true, hasAudio: true });
    // a silent video
    expect(mapYtDlpInfo({ title: 'x', vcodec: 'vp9', acodec: 'none', formats: [{ vcodec: 'vp9', acodec: 'none' }] }, target)).toMatchObject({
      hasVideo: true,
      hasAudio: false,
    });
  });

  it('marks live streams, upcoming premieres and VODs still processing', () => {
    expect(mapYtDlpInfo({ ...video, is_live: true, live_status: 'is_live' }, target)).toMatchObject({ isLive: true });
    expect(mapYtDlpInfo({ ...video, is_live: false, live_status: 'was_live' }, target)).toMatchObject({ isLive: false });
    expect(mapYtDlpInfo({ ...video, is_live: false, live_status: 'was_live' }, target).waiting).toBeUndefined();
    const upcoming = mapYtDlpInfo({ ...video, duration: null, live_status: 'is_upcoming', release_timestamp: 1767225600 }, target);
    expect(upcoming.waiting).toEqual({ reason: 'SOURCE_PREMIERE_SCHEDULED', until: new Date('2026-01-01T00:00:00Z') });
    expect(upcoming.duration).toBe(0);
    expect(mapYtDlpInfo({ ...video, live_status: 'post_live' }, target).waiting).toEqual({ reason: 'SOURCE_VOD_PROCESSING' });
  });

  it('refuses playlists and garbage', () => {
    expect(() => mapYtDlpInfo({ _type: 'playlist', entries: [] }, target)).toThrow(expect.objectContaining({ code: 'PLAYLIST_URL' }));
    expect(() => mapYtDlpInfo(null, target)).toThrow(DomainError);
  });

  it('keeps a thumbnail only when it is an http(s) URL', () => {
    expect(mapYtDlpInfo({ ...video, thumbnail: 'file:///etc/passwd' }, target).thumbnailUrl).toBeUndefined();
  });
});

const now = new Date('2025-06-01T12:00:00Z');
const err = (line: string) => `WARNING: something\nERROR: [youtube] dQw4w9WgXcQ: ${line}\n`;

describe('mapYtDlpError', () => {
  const cases: Array<[string, string]> = [
    ["Private video. Sign in if you've been granted access to this video", 'PRIVATE_VIDEO'],
    ['This video is private', 'PRIVATE_VIDEO'],
    ['Join this channel to get access to members-only content like this video, and other exclusive perks.', 'PRIVATE_VIDEO'],
    ['[Instagram] C1a2B3c4D5e: Requested content is not available, rate-limit reached or login required', 'PRIVATE_VIDEO'],
    ['Sign in to confirm your age. This video may be inappropriate for some users.', 'AGE_RESTRICTED'],
    ['This video is age-restricted and only available on YouTube.', 'AGE_RESTRICTED'],
    ['The uploader has not made this video available in your country', 'REGION_BLOCKED'],
    ['Video unavailable. This video is not available in your country.', 'REGION_BLOCKED'],
    ['This video is not available from your location due to geo restriction', 'REGION_BLOCKED'],
    ['Video unavailable. The uploader has blocked it in your country on copyright grounds', 'REGION_BLOCKED'],
    ['Sign in to confirm you\u2019re not a bot. Use --cookies-from-browser or --cookies for the authentication.', 'PLATFORM_UNAVAILABLE'],
    ['Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution> (caused by TransportError)', 'PLATFORM_UNAVAILABLE'],
    ['Unable to download webpage: HTTP Error 429: Too Many Requests', 'PLATFORM_UNAVAILABLE'],
    ['Unable to download webpage: HTTP Error 404: Not Found', 'INVALID_URL'],
    ['Video unavailable', 'INVALID_URL'],
    ['Video unavailable. This video has been removed by the uploader', 'INVALID_URL'],
    ['Unsupported URL: https://example.com/', 'INVALID_URL'],
    ['Incomplete YouTube ID dQw4w9WgX. URL https://www.youtube.com/watch?v=dQw4w9WgX looks truncated.', 'INVALID_URL'],
  ];
  it.each(cases)('%s → %s', (line, code) => {
    const out = mapYtDlpError(err(line), now);
    expect(out.kind).toBe('error');
    if (out.kind === 'error') expect(out.error.code).toBe(code);
  });

  it('turns announced live events and premieres into waiting states with an estimated start', () => {
    expect(mapYtDlpError(err('This live event will begin in 3 hours.'), now)).toEqual({
      kind: 'waiting',
      waiting: { reason: 'SOURCE_PREMIERE_SCHEDULED', until: new Date('2025-06-01T15:00:00Z') },
    });
    expect(mapYtDlpError(err('Premieres in 2 days'), now)).toEqual({
      kind: 'waiting',
      waiting: { reason: 'SOURCE_PREMIERE_SCHEDULED', until: new Date('2025-06-03T12:00:00Z') },
    });
    expect(mapYtDlpError(err('Premieres in 45 minutes'), now)).toMatchObject({ waiting: { until: new Date('2025-06-01T12:45:00Z') } });
    expect(mapYtDlpError(err('This live event will begin in a few moments.'), now)).toMatchObject({ waiting: { until: now } });
    expect(mapYtDlpError(err('Premiere will begin shortly'), now)).toMatchObject({ kind: 'waiting' });
    expect(mapYtDlpError(err('This live event will begin on 12/25/2025'), now)).toEqual({ kind: 'waiting', waiting: { reason: 'SOURCE_PREMIERE_SCHEDULED' } });
  });
});

describe('ytDlpArgs', () => {
  it('asks for one JSON document and keeps the URL after --', () => {
    expect(ytDlpArgs('https://youtu.be/x', { timeoutMs: 30_000 })).toEqual([
      '-J',
      '--no-playlist',
      '--no-warnings',
      '--no-progress',
      '--socket-timeout',
      '15',
      '--',
      'https://youtu.be/x',
    ]);
  });
});

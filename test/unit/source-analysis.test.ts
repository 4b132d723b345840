import { describe, expect, it } from 'vitest';
import { analyzeLink, checkUsable, pickResolver } from '../../src/domain/videos/source-analysis.js';
import type { SourceMetadata, SourceResolver } from '../../src/ports/source-resolver.js';

const base: SourceMetadata = {
  title: 'T',
  author: 'A',
  platform: 'youtube',
  duration: 120,
  width: 1280,
  height: 720,
  hasVideo: true,
  hasAudio: true,
  isLive: false,
  mediaUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
};

function fakeResolver(name: string, platforms: string[], meta: Partial<SourceMetadata> = {}): SourceResolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    name,
    calls,
    supports: (p) => platforms.includes(p),
    async resolve(target) {
      calls.push(target.url);
      return { ...base, platform: target.platform, ...meta };
    },
  };
}

const code = async (p: Promise<unknown>) =>
  p.then(
    () => 'OK',
    (e: { code?: string }) => e.code,
  );

describe('checkUsable', () => {
  const limits = { maxDurationSeconds: 3600 };
  it('accepts a video between 60 s and the plan maximum', () => {
    expect(() => checkUsable({ ...base, duration: 60 }, limits)).not.toThrow();
    expect(() => checkUsable({ ...base, duration: 3600 }, limits)).not.toThrow();
    expect(() => checkUsable({ ...base, duration: 10 * 3600 }, { maxDurationSeconds: null })).not.toThrow();
  });

  it('refuses short, long, unknown-length, audio-only and live sources', () => {
    expect(() => checkUsable({ ...base, duration: 59.9 }, limits)).toThrow(
      expect.objectContaining({ code: 'INVALID_DURATION', extra: { duration: 59.9, min_duration: 60, max_duration: 3600 } }),
    );
    expect(() => checkUsable({ ...base, duration: 3600.5 }, limits)).toThrow(
      expect.objectContaining({ code: 'INVALID_DURATION', extra: { duration: 3600.5, min_duration: 60, max_duration: 3600 } }),
    );
    expect(() => checkUsable({ ...base, duration: 0 }, limits)).toThrow(expect.objectContaining({ code: 'INVALID_DURATION' }));
    expect(() => checkUsable({ ...base, duration: Number.NaN }, limits)).toThrow(expect.objectContaining({ code: 'INVALID_DURATION' }));
    expect(() => checkUsable({ ...base, hasVideo: false }, limits)).toThrow(expect.objectContaining({ code: 'AUDIO_ONLY' }));
    expect(() => checkUsable({ ...base, isLive: true, hasVideo: false, duration: 5 }, limits)).toThrow(expect.objectContaining({ code: 'LIVE_STREAM' }));
    expect(() => checkUsable({ ...base, hasVideo: false, duration: 5 }, limits)).toThrow(expect.objectContaining({ code: 'AUDIO_ONLY' }));
  });

  it('lets a source that does not exist yet through, unless its announced length is over the maximum', () => {
    const waiting = { reason: 'SOURCE_PREMIERE_SCHEDULED' as const };
    expect(() => checkUsable({ ...base, duration: 0, waiting }, limits)).not.toThrow();
    expect(() => checkUsable({ ...base, duration: 7200, waiting }, limits)).toThrow(expect.objectContaining({ code: 'INVALID_DURATION' }));
  });
});

describe('analyzeLink', () => {
  it('classifies, picks the resolver of the platform and passes the canonical URL', async () => {
    const direct = fakeResolver('direct', ['direct']);
    const ytdlp = fakeResolver('yt-dlp', ['youtube', 'twitch']);
    const out = await analyzeLink('https://youtu.be/dQw4w9WgXcQ?t=3', { resolvers: [direct, ytdlp], maxDurationSeconds: 3600 });
    expect(ytdlp.calls).toEqual(['https://www.youtube.com/watch?v=dQw4w9WgXcQ']);
    expect(out).toMatchObject({ resolver: 'yt-dlp', platform: 'youtube', link: { kind: 'platform', platform: 'youtube' } });

    await analyzeLink('https://cdn.example.com/a.mp4', { resolvers: [direct, ytdlp], maxDurationSeconds: 3600 });
    expect(direct.calls).toEqual(['https://cdn.example.com/a.mp4']);
  });

  it('answers PLATFORM_UNAVAILABLE when no resolver handles a recognised platform', async () => {
    const direct = fakeResolver('direct', ['direct']);
    expect(await code(analyzeLink('https://vimeo.com/76979871', { resolvers: [direct], maxDurationSeconds: null }))).toBe('PLATFORM_UNAVAILABLE');
    expect(() => pickResolver({ kind: 'direct', url: 'https://x.example/a.mp4' }, [])).toThrow(expect.objectContaining({ code: 'PLATFORM_UNAVAILABLE' }));
  });

  it('refuses unusable links before any resolver runs', async () => {
    const any = fakeResolver('any', ['direct', 'youtube']);
    const deps = { resolvers: [any], maxDurationSeconds: 3600 };
    expect(await code(analyzeLink('https://www.youtube.com/playlist?list=PL123', deps))).toBe('PLAYLIST_URL');
    expect(await code(analyzeLink('https://www.youtube.com/@someone', deps))).toBe('CHANNEL_URL');
    expect(await code(analyzeLink('https://www.youtube.com/shorts/aqz-KE-bpKQ', deps))).toBe('SHORTS_NOT_SUPPORTED');
    expect(await code(analyzeLink('ftp://x.example/a.mp4', deps))).toBe('INVALID_URL');
    expect(any.calls).toEqual([]);
  });

  it('applies the usability rules to what the resolver found', async () => {
    const deps = (meta: Partial<SourceMetadata>) => ({ resolvers: [fakeResolver('r', ['youtube'], meta)], maxDurationSeconds: 600 });
    const url = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
    expect(await code(analyzeLink(url, deps({ isLive: true })))).toBe('LIVE_STREAM');
    expect(await code(analyzeLink(url, deps({ hasVideo: false })))).toBe('AUDIO_ONLY');
    expect(await code(analyzeLink(url, deps({ duration: 30 })))).toBe('INVALID_DURATION');
    expect(await code(analyzeLink(url, deps({ duration: 601 })))).toBe('INVALID_DURATION');
    expect(await code(analyzeLink(url, deps({ duration: 0, waiting: { reason: 'SOURCE_PREMIERE_SCHEDULED' } })))).toBe('OK');
  });
});

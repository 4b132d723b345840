import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import { classifyLink, hasMediaExtension } from '../../src/domain/videos/link-classifier.js';
import { URL_REFUSALS } from '../../src/domain/videos/url-refusals.js';

function codeOf(url: string): string {
  try {
    classifyLink(url);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    // INVALID_URL says which rule refused the link; the other codes need nothing more.
    if (e.code === 'INVALID_URL') expect(URL_REFUSALS).toContain(e.extra?.reason);
    else expect(e.extra).toBeUndefined();
    return e.code;
  }
  return 'OK';
}

const platformCases: Array<[string, string, string]> = [
  // YouTube
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['http://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI&index=3', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&si=abc', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://youtu.be/dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://youtu.be/dQw4w9WgXcQ?si=B_RZg_I-lLaa7UU-&t=10', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube.com/live/jfKfPfyJRdk?si=x', 'youtube', 'https://www.youtube.com/watch?v=jfKfPfyJRdk'],
  ['https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube.com/v/dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube.com./watch?v=dQw4w9WgXcQ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
  ['https://www.youtube.com/clip/UgkxU2HSeGL_NvmDJ-nQJrlLwllwMDBdGZFs', 'youtube', 'https://www.youtube.com/clip/UgkxU2HSeGL_NvmDJ-nQJrlLwllwMDBdGZFs'],
  // Twitch
  ['https://www.twitch.tv/videos/2012345678', 'twitch', 'https://www.twitch.tv/videos/2012345678'],
  ['https://m.twitch.tv/videos/2012345678?t=1h2m3s', 'twitch', 'https://www.twitch.tv/videos/2012345678'],
  ['https://www.twitch.tv/shroud/v/123456789', 'twitch', 'https://www.twitch.tv/videos/123456789'],
  ['https://www.twitch.tv/shroud/clip/AwkwardHelplessSalamanderSwiftRage', 'twitch', 'https://clips.twitch.tv/AwkwardHelplessSalamanderSwiftRage'],
  ['https://clips.twitch.tv/AwkwardHelplessSalamanderSwiftRage', 'twitch', 'https://clips.twitch.tv/AwkwardHelplessSalamanderSwiftRage'],
  ['https://clips.twitch.tv/embed?clip=FunnyClip-abc_123&parent=example.com', 'twitch', 'https://clips.twitch.tv/FunnyClip-abc_123'],
  ['https://www.twitch.tv/xqc?clip=SomeClip-XyZ', 'twitch', 'https://clips.twitch.tv/SomeClip-XyZ'],
  // Vimeo
  ['https://vimeo.com/76979871', 'vimeo', 'https://vimeo.com/76979871'],
  ['https://vimeo.com/76979871/8272103f6e', 'vimeo', 'https://vimeo.com/76979871/8272103f6e'],
  ['https://player.vimeo.com/video/76979871?h=8272103f6e', 'vimeo', 'https://vimeo.com/76979871'],
  ['https://vimeo.com/channels/staffpicks/76979871', 'vimeo', 'https://vimeo.com/76979871'],
  ['https://vimeo.com/groups/shortfilms/videos/76979871', 'vimeo', 'https://vimeo.com/76979871'],
  ['https://vimeo.com/someuser/76979871', 'vimeo', 'https://vimeo.com/76979871'],
  ['https://vimeo.com/ondemand/thefilm', 'vimeo', 'https://vimeo.com/ondemand/thefilm'],
  // TikTok
  ['https://www.tiktok.com/@scout2015/video/6718335390845095173', 'tiktok', 'https://www.tiktok.com/@scout2015/video/6718335390845095173'],
  [
    'https://m.tiktok.com/@scout2015/video/6718335390845095173?is_from_webapp=1&sender_device=pc',
    'tiktok',
    'https://www.tiktok.com/@scout2015/video/6718335390845095173',
  ],
  ['https://vm.tiktok.com/ZMeAbCdEf/', 'tiktok', 'https://vm.tiktok.com/ZMeAbCdEf/'],
  ['https://vt.tiktok.com/ZSabc123/', 'tiktok', 'https://vt.tiktok.com/ZSabc123/'],
  ['https://www.tiktok.com/t/ZTRabc123/', 'tiktok', 'https://www.tiktok.com/t/ZTRabc123'],
  ['https://www.tiktok.com/embed/v2/6718335390845095173', 'tiktok', 'https://www.tiktok.com/embed/v2/6718335390845095173'],
  // Instagram
  ['https://www.instagram.com/reel/C1a2B3c4D5e/', 'instagram', 'https://www.instagram.com/reel/C1a2B3c4D5e/'],
  ['https://instagram.com/reels/C1a2B3c4D5e?igsh=abc', 'instagram', 'https://www.instagram.com/reel/C1a2B3c4D5e/'],
  ['https://www.instagram.com/p/CxYz_12-ab/?utm_source=ig_web_copy_link', 'instagram', 'https://www.instagram.com/p/CxYz_12-ab/'],
  ['https://www.instagram.com/tv/B_abcdEFGH/', 'instagram', 'https://www.instagram.com/tv/B_abcdEFGH/'],
  ['https://www.instagram.com/natgeo/reel/C1a2B3c4D5e/', 'instagram', 'https://www.instagram.com/reel/C1a2B3c4D5e/'],
  // X / Twitter
  ['https://x.com/NASA/status/1780000000000000000', 'x', 'https://x.com/NASA/status/1780000000000000000'],
  ['https://twitter.com/NASA/status/1780000000000000000?s=20', 'x', 'https://x.com/NASA/status/1780000000000000000'],
  ['https://mobile.twitter.com/NASA/status/1780000000000000000/video/1', 'x', 'https://x.com/NASA/status/1780000000000000000'],
  ['https://x.com/i/status/1780000000000000000', 'x', 'https://x.com/i/status/1780000000000000000'],
  ['https://x.com/i/web/status/1780000000000000000', 'x', 'https://x.com/i/status/1780000000000000000'],
  ['https://x.com/i/broadcasts/1yNxaNvaMYQKj', 'x', 'https://x.com/i/broadcasts/1yNxaNvaMYQKj'],
  // Facebook
  ['https://www.facebook.com/watch/?v=10153231379946729', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://www.facebook.com/watch?v=10153231379946729', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://m.facebook.com/watch/?v=10153231379946729&ref=sharing', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://www.facebook.com/NASA/videos/10153231379946729/', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://www.facebook.com/NASA/videos/launch-day/10153231379946729/', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://www.facebook.com/video.php?v=10153231379946729', 'facebook', 'https://www.facebook.com/watch/?v=10153231379946729'],
  ['https://www.facebook.com/reel/1234567890123456', 'facebook', 'https://www.facebook.com/reel/1234567890123456'],
  ['https://www.facebook.com/share/v/1AbCdEfGh/', 'facebook', 'https://www.facebook.com/share/v/1AbCdEfGh/'],
  ['https://fb.watch/abcDEF123/', 'facebook', 'https://fb.watch/abcDEF123/'],
  // Kick
  ['https://kick.com/video/0b6f4c5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f', 'kick', 'https://kick.com/video/0b6f4c5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f'],
  ['https://kick.com/xqc/videos/0b6f4c5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f', 'kick', 'https://kick.com/xqc/videos/0b6f4c5e-1a2b-4c3d-9e8f-0a1b2c3d4e5f'],
  ['https://kick.com/xqc/clips/clip_01HABCDEF', 'kick', 'https://kick.com/xqc/clips/clip_01HABCDEF'],
  ['https://kick.com/xqc?clip=clip_01HABCDEF', 'kick', 'https://kick.com/xqc/clips/clip_01HABCDEF'],
  // Rumble
  ['https://rumble.com/v4abcde-some-title-here.html', 'rumble', 'https://rumble.com/v4abcde-some-title-here.html'],
  ['https://rumble.com/v4abcde-some-title-here.html?mref=6zof&mc=3', 'rumble', 'https://rumble.com/v4abcde-some-title-here.html'],
  ['https://rumble.com/embed/v3xyz12/?pub=4', 'rumble', 'https://rumble.com/embed/v3xyz12/'],
  // Dailymotion, Streamable
  ['https://www.dailymotion.com/video/x8abc12', 'dailymotion', 'https://www.dailymotion.com/video/x8abc12'],
  ['https://dai.ly/x8abc12', 'dailymotion', 'https://www.dailymotion.com/video/x8abc12'],
  ['https://streamable.com/moo', 'streamable', 'https://streamable.com/moo'],
  ['https://streamable.com/e/moo', 'streamable', 'https://streamable.com/moo'],
];

describe('classifyLink: single videos on known platforms', () => {
  it.each(platformCases)('%s → %s', (url, platform, canonicalUrl) => {
    expect(classifyLink(url)).toEqual({ kind: 'platform', platform, canonicalUrl });
  });
});

const errorCases: Array<[string, string]> = [
  // playlists
  ['https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'PLAYLIST_URL'],
  ['https://m.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'PLAYLIST_URL'],
  ['https://music.youtube.com/playlist?list=OLAK5uy_abc', 'PLAYLIST_URL'],
  ['https://www.youtube.com/watch?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'PLAYLIST_URL'],
  ['https://www.youtube.com/embed/videoseries?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI', 'PLAYLIST_URL'],
  ['https://www.twitch.tv/collections/abcDEF123', 'PLAYLIST_URL'],
  ['https://vimeo.com/showcase/7654321', 'PLAYLIST_URL'],
  ['https://vimeo.com/album/7654321', 'PLAYLIST_URL'],
  ['https://rumble.com/playlists/aBcD12', 'PLAYLIST_URL'],
  ['https://www.dailymotion.com/playlist/x6hynp', 'PLAYLIST_URL'],
  ['https://x.com/i/lists/1234567890', 'PLAYLIST_URL'],
  ['https://www.tiktok.com/tag/cats', 'PLAYLIST_URL'],
  // channels and profiles
  ['https://www.youtube.com/@MrBeast', 'CHANNEL_URL'],
  ['https://www.youtube.com/@MrBeast/videos', 'CHANNEL_URL'],
  ['https://www.youtube.com/@MrBeast/live', 'CHANNEL_URL'],
  ['https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA', 'CHANNEL_URL'],
  ['https://www.youtube.com/channel/UCX6OQ3DkcsbYNE6H8uQQuVA/streams', 'CHANNEL_URL'],
  ['https://www.youtube.com/c/MrBeast6000', 'CHANNEL_URL'],
  ['https://www.youtube.com/user/PewDiePie', 'CHANNEL_URL'],
  ['https://www.youtube.com/PewDiePie', 'CHANNEL_URL'],
  ['https://www.twitch.tv/shroud', 'CHANNEL_URL'],
  ['https://www.twitch.tv/shroud/videos?filter=archives', 'CHANNEL_URL'],
  ['https://www.twitch.tv/shroud/clips', 'CHANNEL_URL'],
  ['https://vimeo.com/someuser', 'CHANNEL_URL'],
  ['https://vimeo.com/channels/staffpicks', 'CHANNEL_URL'],
  ['https://www.tiktok.com/@scout2015', 'CHANNEL_URL'],
  ['https://www.tiktok.com/@scout2015/live', 'CHANNEL_URL'],
  ['https://www.instagram.com/natgeo/', 'CHANNEL_URL'],
  ['https://www.instagram.com/natgeo/reels/', 'CHANNEL_URL'],
  ['https://x.com/NASA', 'CHANNEL_URL'],
  ['https://twitter.com/NASA/media', 'CHANNEL_URL'],
  ['https://www.facebook.com/NASA', 'CHANNEL_URL'],
  ['https://www.facebook.com/NASA/videos', 'CHANNEL_URL'],
  ['https://www.facebook.com/profile.php?id=100064', 'CHANNEL_URL'],
  ['https://kick.com/xqc', 'CHANNEL_URL'],
  ['https://kick.com/xqc/videos', 'CHANNEL_URL'],
  ['https://rumble.com/c/SomeChannel', 'CHANNEL_URL'],
  ['https://rumble.com/user/someone', 'CHANNEL_URL'],
  ['https://www.dailymotion.com/someuser', 'CHANNEL_URL'],
  // Shorts
  ['https://www.youtube.com/shorts/aqz-KE-bpKQ', 'SHORTS_NOT_SUPPORTED'],
  ['https://youtube.com/shorts/aqz-KE-bpKQ?si=abc', 'SHORTS_NOT_SUPPORTED'],
  ['https://m.youtube.com/shorts/aqz-KE-bpKQ?feature=share', 'SHORTS_NOT_SUPPORTED'],
  // wrong addresses on known platforms
  ['https://www.youtube.com/', 'INVALID_URL'],
  ['https://www.youtube.com/watch', 'INVALID_URL'],
  ['https://www.youtube.com/watch?v=short', 'INVALID_URL'],
  ['https://www.youtube.com/watch?v=dQw4w9WgXcQ!!', 'INVALID_URL'],
  ['https://www.youtube.com/shorts/', 'INVALID_URL'],
  ['https://www.youtube.com/results?search_query=cats', 'INVALID_URL'],
  ['https://www.youtube.com/feed/subscriptions', 'INVALID_URL'],
  ['https://youtu.be/', 'INVALID_URL'],
  ['https://youtu.be/dQw4w9WgXcQ/extra', 'INVALID_URL'],
  ['https://www.twitch.tv/', 'INVALID_URL'],
  ['https://www.twitch.tv/directory/category/just-chatting', 'INVALID_URL'],
  ['https://www.twitch.tv/videos/notanumber', 'INVALID_URL'],
  ['https://vimeo.com/', 'INVALID_URL'],
  ['https://player.vimeo.com/api/player.js', 'INVALID_URL'],
  ['https://www.tiktok.com/', 'INVALID_URL'],
  ['https://www.tiktok.com/@scout2015/photo/7300000000000000000', 'INVALID_URL'],
  ['https://www.tiktok.com/explore', 'INVALID_URL'],
  ['https://www.instagram.com/', 'INVALID_URL'],
  ['https://www.instagram.com/explore/tags/cats/', 'INVALID_URL'],
  ['https://www.instagram.com/stories/natgeo/3300000000000000000/', 'INVALID_URL'],
  ['https://x.com/home', 'INVALID_URL'],
  ['https://x.com/NASA/status/notanumber', 'INVALID_URL'],
  ['https://x.com/search?q=cats', 'INVALID_URL'],
  ['https://www.facebook.com/', 'INVALID_URL'],
  ['https://www.facebook.com/watch/', 'INVALID_URL'],
  ['https://www.facebook.com/groups/123456/', 'INVALID_URL'],
  ['https://kick.com/video/not-a-uuid', 'INVALID_URL'],
  ['https://kick.com/categories/just-chatting', 'INVALID_URL'],
  ['https://rumble.com/', 'INVALID_URL'],
  ['https://rumble.com/browse', 'INVALID_URL'],
  // not http(s), malformed, credentials, unknown sites
  ['ftp://example.com/video.mp4', 'INVALID_URL'],
  ['file:///etc/passwd', 'INVALID_URL'],
  ['javascript:alert(1)', 'INVALID_URL'],
  ['data:video/mp4;base64,AAAA', 'INVALID_URL'],
  ['rtmp://live.example.com/app/stream', 'INVALID_URL'],
  ['www.youtube.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['youtube.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['//www.youtube.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['not a url', 'INVALID_URL'],
  ['', 'INVALID_URL'],
  ['   ', 'INVALID_URL'],
  ['http://', 'INVALID_URL'],
  ['https://exa mple.com/video.mp4', 'INVALID_URL'],
  ['https://example.com/vi deo.mp4', 'INVALID_URL'],
  ['https://user:pass@example.com/video.mp4', 'INVALID_URL'],
  ['https://user@www.youtube.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['https://:secret@cdn.example.com/a.mp4', 'INVALID_URL'],
  ['https://example.com/', 'INVALID_URL'],
  ['https://example.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['https://example.com/video', 'INVALID_URL'],
  ['https://example.com/page.html', 'INVALID_URL'],
  ['https://example.com/movie.mp4.html', 'INVALID_URL'],
  ['https://example.com/.mp4', 'INVALID_URL'],
  ['https://evil-youtube.com/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ', 'INVALID_URL'],
  ['https://studio.youtube.com/video/dQw4w9WgXcQ/edit', 'INVALID_URL'],
  ['https://soundcloud.com/artist/track', 'INVALID_URL'],
  [`https://example.com/${'a'.repeat(2100)}.mp4`, 'INVALID_URL'],
  ['https://example.com/%E0%A4%A.mp4', 'INVALID_URL'],
];

describe('classifyLink: refused links', () => {
  it.each(errorCases)('%s → %s', (url, code) => {
    expect(codeOf(url)).toBe(code);
  });

  it('names the rule that refused the link in extra.reason', () => {
    const reasonOf = (url: string) => {
      try {
        classifyLink(url);
      } catch (err) {
        return (err as DomainError).extra;
      }
      return undefined;
    };
    expect(reasonOf('ftp://example.com/video.mp4')).toEqual({ reason: 'scheme' });
    expect(reasonOf('not a url')).toEqual({ reason: 'malformed' });
    expect(reasonOf('https://user:pass@example.com/video.mp4')).toEqual({ reason: 'credentials' });
    expect(reasonOf('https://example.com/page.html')).toEqual({ reason: 'unsupported_host' });
    expect(reasonOf('https://www.youtube.com/feed/subscriptions')).toEqual({ reason: 'unsupported_link' });
  });

  it('refuses values that are not strings', () => {
    for (const v of [undefined, null, 42, {}, ['https://youtu.be/dQw4w9WgXcQ']]) {
      expect(() => classifyLink(v as unknown as string)).toThrow(DomainError);
    }
  });
});

const directCases: Array<[string, string]> = [
  ['https://cdn.example.com/media/talk.mp4', 'https://cdn.example.com/media/talk.mp4'],
  ['http://cdn.example.com/media/TALK.MP4?token=abc#t=10', 'http://cdn.example.com/media/TALK.MP4?token=abc'],
  ['https://example.org/a/b/c/recording.mov', 'https://example.org/a/b/c/recording.mov'],
  ['https://example.org/clip.webm', 'https://example.org/clip.webm'],
  ['https://example.org/clip.mkv', 'https://example.org/clip.mkv'],
  ['https://example.org/clip.m4v', 'https://example.org/clip.m4v'],
  ['https://stream.example.net/hls/master.m3u8', 'https://stream.example.net/hls/master.m3u8'],
  ['https://example.org/podcast/episode-12.mp3', 'https://example.org/podcast/episode-12.mp3'],
  ['https://example.org/a.m4a', 'https://example.org/a.m4a'],
  ['https://example.org/a.wav', 'https://example.org/a.wav'],
  ['https://example.org/a.aac', 'https://example.org/a.aac'],
  ['https://example.org/a.ogg', 'https://example.org/a.ogg'],
  ['https://example.org/my%20video.mp4', 'https://example.org/my%20video.mp4'],
  ['http://127.0.0.1:8080/v.mp4', 'http://127.0.0.1:8080/v.mp4'],
  ['http://[::1]:8080/v.mp4', 'http://[::1]:8080/v.mp4'],
  ['https://bucket.s3.amazonaws.com/uploads/v.mp4?X-Amz-Signature=abc', 'https://bucket.s3.amazonaws.com/uploads/v.mp4?X-Amz-Signature=abc'],
  ['https://video.twimg.com/ext_tw_video/1/pu/vid/1280x720/abc.mp4?tag=12', 'https://video.twimg.com/ext_tw_video/1/pu/vid/1280x720/abc.mp4?tag=12'],
];

describe('classifyLink: direct media links', () => {
  it.each(directCases)('%s is direct', (url, normalized) => {
    expect(classifyLink(url)).toEqual({ kind: 'direct', url: normalized });
  });
});

describe('hasMediaExtension', () => {
  it('looks at the end of the path only', () => {
    expect(hasMediaExtension('/a/b.mp4')).toBe(true);
    expect(hasMediaExtension('/a/b.MP4')).toBe(true);
    expect(hasMediaExtension('/a.mp4/index.html')).toBe(false);
    expect(hasMediaExtension('/a/b.mp')).toBe(false);
    expect(hasMediaExtension('/mp4')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { HlsParseError, isHlsContentType, parseHlsPlaylist, pickVariant } from '../../src/adapters/sources/hls-playlist.js';

const VOD = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/k1",IV=0x1
#EXTINF:4.000000,
seg000.ts
#EXTINF:4.000000,
seg001.ts
#EXTINF:2.500000,
https://cdn2.example.com/x/seg002.ts
#EXT-X-ENDLIST
`;

describe('parseHlsPlaylist', () => {
  it('reads a VOD media playlist', () => {
    const p = parseHlsPlaylist(VOD, 'https://cdn.example.com/v/index.m3u8?sig=1');
    expect(p).toEqual({
      kind: 'media',
      ended: true,
      playlistType: 'VOD',
      duration: 10.5,
      segmentCount: 3,
      uris: ['https://keys.example.com/k1', 'https://cdn.example.com/v/seg000.ts', 'https://cdn.example.com/v/seg001.ts', 'https://cdn2.example.com/x/seg002.ts'],
    });
  });

  it('tells a live playlist by the missing ENDLIST', () => {
    const live = VOD.replace('#EXT-X-ENDLIST\n', '').replace('#EXT-X-PLAYLIST-TYPE:VOD\n', '');
    const p = parseHlsPlaylist(live, 'https://cdn.example.com/v/index.m3u8');
    expect(p.kind === 'media' && p.ended).toBe(false);
    const event = parseHlsPlaylist(live.replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:EVENT'), 'https://cdn.example.com/v/index.m3u8');
    expect(event).toMatchObject({ kind: 'media', ended: false, playlistType: 'EVENT' });
  });

  it('reads a master playlist and picks the highest bandwidth', () => {
    const master = `#EXTM3U\r
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",URI="audio/en.m3u8"\r
#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"\r
360p/index.m3u8\r
#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080\r
1080p/index.m3u8\r
#EXT-X-STREAM-INF:BANDWIDTH=5000000,RESOLUTION=1920x1080\r
1080p-b/index.m3u8\r
`;
    const p = parseHlsPlaylist(master, 'https://cdn.example.com/live/master.m3u8');
    expect(p.kind).toBe('master');
    if (p.kind !== 'master') return;
    expect(p.variants[0]).toEqual({ uri: 'https://cdn.example.com/live/360p/index.m3u8', bandwidth: 800000, width: 640, height: 360 });
    expect(pickVariant(p.variants).uri).toBe('https://cdn.example.com/live/1080p/index.m3u8');
  });

  it('refuses text that is not a playlist', () => {
    expect(() => parseHlsPlaylist('<html></html>', 'https://x.example/a.m3u8')).toThrow(HlsParseError);
    expect(() => parseHlsPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n', 'https://x.example/a.m3u8')).toThrow(HlsParseError);
    expect(() => parseHlsPlaylist('\uFEFF#EXTM3U\n#EXT-X-ENDLIST\n', 'https://x.example/a.m3u8')).not.toThrow();
  });

  it('recognises HLS content types', () => {
    expect(isHlsContentType('application/vnd.apple.mpegurl')).toBe(true);
    expect(isHlsContentType('application/x-mpegURL; charset=utf-8')).toBe(true);
    expect(isHlsContentType('audio/mpegurl')).toBe(true);
    expect(isHlsContentType('video/mp4')).toBe(false);
    expect(isHlsContentType(undefined)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { audioPlaylistOf, HlsParseError, isHlsContentType, parseHlsPlaylist, parseHlsSegments, pickVariant } from '../../src/adapters/sources/hls-playlist.js';

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
      uris: [
        'https://keys.example.com/k1',
        'https://cdn.example.com/v/seg000.ts',
        'https://cdn.example.com/v/seg001.ts',
        'https://cdn2.example.com/x/seg002.ts',
      ],
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

describe('parseHlsPlaylist reads what ffmpeg reads', () => {
  const base = 'https://cdn.example.com/v/index.m3u8';

  it('a lone CR ends a line: the URL after #EXTINF is a segment', () => {
    const p = parseHlsPlaylist('#EXTM3U\n#EXTINF:16.6,\rhttp://127.0.0.1:9/seg.ts\n#EXT-X-ENDLIST\n', base);
    expect(p).toMatchObject({ kind: 'media', segmentCount: 1, duration: 16.6, uris: ['http://127.0.0.1:9/seg.ts'] });
    const nul = parseHlsPlaylist('#EXTM3U\r#EXTINF:2,\0a.ts\r#EXT-X-ENDLIST', base);
    expect(nul).toMatchObject({ segmentCount: 1, uris: ['https://cdn.example.com/v/a.ts'], ended: true });
  });

  it('reads unquoted URI attributes of keys, maps and renditions', () => {
    const p = parseHlsPlaylist(
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=http://127.0.0.1:9/k\n#EXT-X-MAP:URI=init.mp4\n#EXTINF:4,\ns.m4s\n#EXT-X-ENDLIST\n',
      base,
    );
    expect(p.kind === 'media' && p.uris).toEqual(['http://127.0.0.1:9/k', 'https://cdn.example.com/v/init.mp4', 'https://cdn.example.com/v/s.m4s']);
    const master = parseHlsPlaylist(
      '#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=aud,DEFAULT=YES,URI=a/en.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=9,AUDIO=aud\nv.m3u8\n',
      base,
    );
    if (master.kind !== 'master') throw new Error('expected a master playlist');
    expect(master.variants).toEqual([{ uri: 'https://cdn.example.com/v/v.m3u8', bandwidth: 9, audioGroup: 'aud' }]);
    expect(audioPlaylistOf(master, master.variants[0])).toBe('https://cdn.example.com/v/a/en.m3u8');
  });

  it('a line with a space before `#` is a URI, as ffmpeg reads it', () => {
    const p = parseHlsPlaylist('#EXTM3U\n #EXTINF:4,\n#EXT-X-ENDLIST\n', base);
    expect(p).toMatchObject({ segmentCount: 1 });
  });
});

describe('parseHlsSegments', () => {
  it('gives each segment its sequence number, key, IV, init section and byte range', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-MEDIA-SEQUENCE:7',
      '#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"',
      '#EXT-X-KEY:METHOD=AES-128,URI="k1"',
      '#EXTINF:4,',
      '#EXT-X-BYTERANGE:1000@720',
      'all.mp4',
      '#EXTINF:4,',
      '#EXT-X-BYTERANGE:500',
      'all.mp4',
      '#EXT-X-KEY:METHOD=AES-128,URI=k2,IV=0x0102',
      '#EXTINF:2.5,',
      'c.m4s',
      '#EXT-X-KEY:METHOD=NONE',
      '#EXTINF:1,',
      'd.m4s',
      '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery"',
      '#EXTINF:1,',
      'e.m4s',
      '#EXT-X-ENDLIST',
    ].join('\n');
    const s = parseHlsSegments(text, 'https://cdn.example.com/v/index.m3u8');
    const u = (p: string) => `https://cdn.example.com/v/${p}`;
    expect(s.map((x) => [x.uri, x.sequence, x.duration, x.byteRange])).toEqual([
      [u('all.mp4'), 7, 4, { offset: 720, length: 1000 }],
      [u('all.mp4'), 8, 4, { offset: 1720, length: 500 }],
      [u('c.m4s'), 9, 2.5, undefined],
      [u('d.m4s'), 10, 1, undefined],
      [u('e.m4s'), 11, 1, undefined],
    ]);
    expect(s[0].map).toEqual({ uri: u('init.mp4'), byteRange: { offset: 0, length: 720 } });
    expect(s[0].key).toEqual({ method: 'AES-128', uri: u('k1'), keyFormat: 'identity' });
    expect(s[2].key?.iv?.toString('hex')).toBe('00000000000000000000000000000102');
    expect(s[3].key).toBeUndefined();
    expect(s[4].key).toMatchObject({ method: 'SAMPLE-AES', keyFormat: 'com.apple.streamingkeydelivery' });
  });

  it('refuses a byte range without offset after a segment without range, and a bad IV', () => {
    expect(() => parseHlsSegments('#EXTM3U\n#EXTINF:1,\n#EXT-X-BYTERANGE:10\na.ts\n', 'https://x.example/i.m3u8')).toThrow(HlsParseError);
    expect(() => parseHlsSegments('#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=k,IV=12\n', 'https://x.example/i.m3u8')).toThrow(HlsParseError);
  });
});

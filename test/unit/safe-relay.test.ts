import { describe, expect, it } from 'vitest';
import { attributeSpans, isPlaylistHead, MAX_LINE_CHARS, parseAttributes, playlistLines } from '../../src/adapters/net/m3u8-syntax.js';
import { rewritePlaylist } from '../../src/adapters/net/safe-relay.js';

describe('rewritePlaylist', () => {
  it('sends every URI through the relay, relative or absolute, lines and attributes', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x1',
      '#EXT-X-MAP:URI="https://init.example.com/init.mp4"',
      '#EXTINF:4.0,',
      'seg0.ts?x=1',
      '#EXTINF:4.0,',
      'https://other.example.net/a/seg1.ts',
      '#EXTINF:4.0,',
      'file:///etc/passwd',
      '#EXT-X-ENDLIST',
      '',
    ].join('\r\n');
    const out = rewritePlaylist(text, 'https://cdn.example.com/v/index.m3u8', (u) => `R(${u})`);
    expect(out.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="R(https://cdn.example.com/v/key.bin)",IV=0x1',
      '#EXT-X-MAP:URI="R(https://init.example.com/init.mp4)"',
      '#EXTINF:4.0,',
      'R(https://cdn.example.com/v/seg0.ts?x=1)',
      '#EXTINF:4.0,',
      'R(https://other.example.net/a/seg1.ts)',
      '#EXTINF:4.0,',
      'R(file:///etc/passwd)',
      '#EXT-X-ENDLIST',
      '',
    ]);
  });
});

describe('rewritePlaylist reads lines and attributes as ffmpeg does', () => {
  const base = 'https://cdn.example.com/v/index.m3u8';
  const internal = 'http://127.0.0.1:9';
  const R = (u: string) => `R(${u})`;
  /** What is left of the text once every rewritten URI is cut out: no address may remain. */
  const leftover = (out: string) => out.replace(/R\([^)]*\)/g, '');

  it('a lone CR ends a line: the URL after it is a segment', () => {
    const out = rewritePlaylist(`#EXTM3U\n#EXTINF:16.6,\r${internal}/seg.ts\n#EXT-X-ENDLIST\n`, base, R);
    expect(out.split('\n')).toEqual(['#EXTM3U', '#EXTINF:16.6,', `R(${internal}/seg.ts)`, '#EXT-X-ENDLIST', '']);
    expect(leftover(out)).not.toContain('127.0.0.1');
  });

  it('LF, CRLF, CR and NUL line ends all split lines', () => {
    const out = rewritePlaylist(`#EXTM3U\r\n#EXTINF:1,\ra.ts\r#EXTINF:1,\0${internal}/b.ts\n#EXTINF:1,\r\nc.ts`, base, R);
    expect(out.split('\n')).toEqual([
      '#EXTM3U',
      '#EXTINF:1,',
      'R(https://cdn.example.com/v/a.ts)',
      '#EXTINF:1,',
      `R(${internal}/b.ts)`,
      '#EXTINF:1,',
      'R(https://cdn.example.com/v/c.ts)',
    ]);
  });

  it('an unquoted URI attribute is rewritten (and written back quoted)', () => {
    const out = rewritePlaylist(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=${internal}/k,IV=0x1\n#EXTINF:4,\nseg.ts\n`, base, R);
    expect(out.split('\n')[1]).toBe(`#EXT-X-KEY:METHOD=AES-128,URI="R(${internal}/k)",IV=0x1`);
    expect(leftover(out)).not.toContain('127.0.0.1');
  });

  it('whitespace separates attributes too; every URI of a tag is rewritten; other keys are left alone', () => {
    const lines = [
      '#EXTM3U',
      `#EXT-X-MAP: URI=${internal}/init.mp4`,
      `#EXT-X-MEDIA:TYPE=AUDIO URI=${internal}/a.m3u8,URI="${internal}/b.m3u8"`,
      `#EXT-X-KEY:METHOD=AES-128,XURI=${internal}/not-a-uri,URI="q\\"uo,te"`,
      `#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="${internal}/iframes.m3u8"`,
    ];
    const out = rewritePlaylist(lines.join('\n'), base, R).split('\n');
    expect(out[1]).toBe(`#EXT-X-MAP: URI="R(${internal}/init.mp4)"`);
    expect(out[2]).toBe(`#EXT-X-MEDIA:TYPE=AUDIO URI="R(${internal}/a.m3u8)",URI="R(${internal}/b.m3u8)"`);
    // ffmpeg reads the key `XURI`, not `URI`: it never opens that value; the quoted value keeps its comma.
    expect(out[3]).toBe(`#EXT-X-KEY:METHOD=AES-128,XURI=${internal}/not-a-uri,URI="R(https://cdn.example.com/v/q%22uo,te)"`);
    expect(out[4]).toBe(`#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="R(${internal}/iframes.m3u8)"`);
  });

  it('a line is a tag only when `#` is its first character; any other non-empty line is a URI', () => {
    const out = rewritePlaylist('#EXTM3U\n  #EXT-X-KEY:METHOD=NONE\n\n \t \nseg.ts   \n', base, R).split('\n');
    expect(out).toEqual(['#EXTM3U', 'R(https://cdn.example.com/v/index.m3u8#EXT-X-KEY:METHOD=NONE)', '', '', 'R(https://cdn.example.com/v/seg.ts)', '']);
  });

  it('a URI that is not http(s) still goes to map (which refuses it)', () => {
    expect(rewritePlaylist('#EXTM3U\nhttp://[bad\n', base, R).split('\n')[1]).toBe('R(invalid:)');
  });
});

describe('m3u8 syntax', () => {
  it('attributeSpans follows ff_parse_key_value', () => {
    expect(attributeSpans('METHOD=AES-128,URI="a\\"b",IV=0x1').map((a) => [a.key, a.value, a.quoted])).toEqual([
      ['METHOD', 'AES-128', false],
      ['URI', 'a"b', true],
      ['IV', '0x1', false],
    ]);
    // the key runs to the next `=`, whatever it holds; an unterminated quote runs to the end
    expect(attributeSpans('FOO,URI=x').map((a) => a.key)).toEqual(['FOO,URI']);
    expect(attributeSpans('URI="abc').map((a) => a.value)).toEqual(['abc']);
    expect(parseAttributes('URI=a,URI=b').URI).toBe('b');
  });

  it('playlistLines keeps 4095 characters of a line and drops trailing whitespace only', () => {
    const long = `#${'x'.repeat(5000)}`;
    expect(playlistLines(`${long}\n  a \t`)).toEqual([long.slice(0, MAX_LINE_CHARS), '  a']);
  });

  it('isPlaylistHead: #EXTM3U after an optional BOM and whitespace, whatever else', () => {
    const b = (s: string) => Buffer.from(s, 'utf8');
    expect(isPlaylistHead(b('#EXTM3U\n'), true)).toBe(true);
    expect(isPlaylistHead(b('\uFEFF#EXTM3U'), true)).toBe(true);
    expect(isPlaylistHead(b(' \r\n\t#EXTM3U\n#EXTINF'), false)).toBe(true);
    expect(isPlaylistHead(b('#EXT'), false)).toBe(true); // more bytes may complete the tag
    expect(isPlaylistHead(b('#EXT'), true)).toBe(false);
    expect(isPlaylistHead(b('   '), false)).toBe(true);
    expect(isPlaylistHead(b(''), true)).toBe(false);
    expect(isPlaylistHead(b('\0\0\0\x18ftypisom'), false)).toBe(false);
    expect(isPlaylistHead(b('#EXTM3X'), false)).toBe(false);
  });
});

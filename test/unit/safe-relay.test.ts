import { describe, expect, it } from 'vitest';
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

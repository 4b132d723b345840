import { describe, expect, it } from 'vitest';
import { sniffContainer } from '../../src/adapters/media/container.js';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

function ts(packets: number): Buffer {
  const b = Buffer.alloc(188 * packets, 0xff);
  for (let i = 0; i < packets; i++) b[i * 188] = 0x47;
  return b;
}

describe('sniffContainer (a file is what its bytes are)', () => {
  it('names the demuxer of each accepted container', () => {
    expect(sniffContainer(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]))).toBe('mov');
    expect(sniffContainer(bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 8], 'mdat'))).toBe('mov');
    expect(sniffContainer(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]))).toBe('matroska');
    expect(sniffContainer(bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '))).toBe('wav');
    expect(sniffContainer(bytes('fLaC', [0, 0, 0, 0x22]))).toBe('flac');
    expect(sniffContainer(bytes('OggS', [0, 2, 0, 0]))).toBe('ogg');
    expect(sniffContainer(bytes('FLV', [1, 5, 0, 0, 0, 9]))).toBe('flv');
    expect(sniffContainer(ts(4))).toBe('mpegts');
    expect(sniffContainer(bytes([0xff, 0xfb, 0x90, 0x64, 0, 0]))).toBe('mp3');
    expect(sniffContainer(bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0], [0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffContainer(bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc]))).toBe('aac');
  });

  it('refuses playlists, text, images and anything else, whatever follows them', () => {
    expect(sniffContainer(Buffer.concat([bytes('#EXTM3U\n#EXTINF:10,\n../../x.mp4\n'), ts(4)]))).toBeNull();
    expect(sniffContainer(bytes('\ufeff#EXTM3U\n'))).toBeNull();
    expect(sniffContainer(bytes('ffconcat version 1.0\nfile /etc/passwd\n'))).toBeNull();
    expect(sniffContainer(bytes('<!doctype html><html>'))).toBeNull();
    expect(sniffContainer(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a]))).toBeNull();
    expect(sniffContainer(bytes('RIFF', [0, 0, 0, 0], 'AVI LIST'))).toBeNull();
    expect(sniffContainer(bytes([0x47], 'ET / HTTP/1.1\r\n'))).toBeNull();
    expect(sniffContainer(bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0], '#EXTM3U'))).toBeNull();
    expect(sniffContainer(bytes([0xff, 0xfb]))).toBeNull();
    expect(sniffContainer(Buffer.alloc(0))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { listenRanges, speechInStretches } from '../../src/adapters/vad/edit-speech.js';

/** The voice detector's side of remove_silences (src/adapters/vad/edit-speech.ts), with its I/O replaced. */

describe('listenRanges', () => {
  it('merges stretches closer than the join into one range, sorts, drops empty ones', () => {
    expect(
      listenRanges([
        { start: 30, end: 40 },
        { start: 0, end: 5 },
        { start: 8, end: 9 },
        { start: 60, end: 60 },
      ]),
    ).toEqual([
      { start: 0, end: 9 },
      { start: 30, end: 40 },
    ]);
  });
});

describe('speechInStretches', () => {
  it('extracts each range of the stored source and shifts the detector’s times to source seconds; no sound: no speech', async () => {
    const extracted: Array<{ input: string; range: { start: number; end: number } }> = [];
    const deps = (hasSound: boolean) => ({
      storage: { withLocalFile: <T>(key: string, fn: (p: string) => Promise<T>) => fn(`/local/${key}`) },
      files: { withTempDir: <T>(_prefix: string, fn: (dir: string) => Promise<T>) => fn('/tmp/x') },
      audio: {
        extractWav: async (input: string, _out: string, range: { start: number; end: number }) => {
          extracted.push({ input, range });
          return hasSound;
        },
      },
      vad: { detect: async () => [{ start: 1, end: 2.5 }] },
    });
    const speech = await speechInStretches(deps(true))('videos/a.mp4', [
      { start: 10, end: 20 },
      { start: 50, end: 55 },
    ]);
    expect(extracted).toEqual([
      { input: '/local/videos/a.mp4', range: { start: 10, end: 20 } },
      { input: '/local/videos/a.mp4', range: { start: 50, end: 55 } },
    ]);
    expect(speech).toEqual([
      { start: 11, end: 12.5 },
      { start: 51, end: 52.5 },
    ]);
    expect(await speechInStretches(deps(false))('videos/a.mp4', [{ start: 10, end: 20 }])).toEqual([]);
  });
});

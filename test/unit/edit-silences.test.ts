import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { deriveEdit, keptStretches, type DeriveInput } from '../../src/domain/edits/edit-changes.js';
import { clipDuration, editHash } from '../../src/domain/edits/edit.js';
import { silenceCuts, SILENCE_KEEP_SECONDS } from '../../src/domain/edits/edit-silences.js';
import { editDocument, wordsOfSpec } from '../../src/domain/edits/edit-words.js';

/** remove_silences (edit-silences.ts, through deriveEdit) and zoom in derived edits. */

const K = SILENCE_KEEP_SECONDS;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

describe('silenceCuts', () => {
  it('cuts an inner pause longer than min_seconds down to 2 × keep, and leading / trailing quiet down to keep', () => {
    // One stretch 10–30; speech 12–15 and 18–20 (a 3 s pause) and 20.4–25 (a 0.4 s pause, kept).
    const cuts = silenceCuts(
      [{ start: 10, end: 30 }],
      [
        { start: 12, end: 15 },
        { start: 18, end: 20 },
        { start: 20.4, end: 25 },
      ],
      0.6,
    );
    expect(cuts.map((c) => ({ start: r3(c.start), end: r3(c.end) }))).toEqual([
      { start: 10, end: 12 - K },
      { start: 15 + K, end: 18 - K },
      { start: 25 + K, end: 30 },
    ]);
  });

  it('a pause that spans a joint counts once, on the output timeline, and is cut on both sides of the joint', () => {
    // Stretches 10–14 and 20–24; speech ends at 13.5 and starts again at 20.6: 0.5 + 0.6 = 1.1 s of quiet at the joint.
    const segs = [
      { start: 10, end: 14 },
      { start: 20, end: 24 },
    ];
    const speech = [
      { start: 10, end: 13.5 },
      { start: 20.6, end: 24 },
    ];
    const cuts = silenceCuts(segs, speech, 0.6);
    expect(cuts.map((c) => ({ start: r3(c.start), end: r3(c.end) }))).toEqual([
      { start: 13.5 + K, end: 14 },
      { start: 20, end: 20.6 - K },
    ]);
    // 1.1 s is not longer than 1.5: nothing cut.
    expect(silenceCuts(segs, speech, 1.5)).toEqual([]);
  });

  it('never cuts a word, even one the detector did not hear; no speech at all: nothing cut; no sliver cuts', () => {
    const segs = [{ start: 0, end: 10 }];
    const speech = [
      { start: 1, end: 2 },
      { start: 8, end: 9 },
    ];
    const cuts = silenceCuts(segs, speech, 0.6, [{ start: 4, end: 4.5 }]);
    expect(cuts.map((c) => ({ start: r3(c.start), end: r3(c.end) }))).toEqual([
      { start: 0, end: 1 - K },
      { start: 2 + K, end: 4 },
      { start: 4.5, end: 8 - K },
      { start: 9 + K, end: 10 },
    ]);
    expect(silenceCuts(segs, [], 0.6)).toEqual([]);
    expect(silenceCuts(segs, [{ start: 20, end: 22 }], 0.6)).toEqual([]);
    // A word leaving less than 0.1 s of the cut beside it: that piece is not cut.
    const near = silenceCuts(segs, speech, 0.6, [{ start: 2.1, end: 2.3 }]);
    expect(near.map((c) => r3(c.start))).toEqual([0, 2.3, 9 + K]);
  });
});

// Words: a few at 10–12 and 16–17, a 4 s pause between them (nothing said 12–16).
const WORDS = [
  { start: 10.2, end: 10.6, text: 'we' },
  { start: 10.7, end: 11.2, text: 'cut' },
  { start: 11.3, end: 11.9, text: 'pauses' },
  { start: 16.1, end: 16.5, text: 'then' },
  { start: 16.6, end: 17, text: 'talk' },
];
const tpl = BUILTIN_TEMPLATES[0];
const base = buildClipEdit({
  source: { key: 'videos/x.mp4', duration: 60, width: 640, height: 360 },
  start: 9,
  end: 19,
  words: WORDS,
  template: { captions: tpl.captions, layout: tpl.layout },
  watermark: false,
});
// The detector's speech (padded by about 0.1 s, as Silero's is).
const SPEECH = [
  { start: 10.1, end: 12 },
  { start: 16, end: 17.1 },
];

function input(change: DeriveInput['change'], over: Partial<DeriveInput> = {}): DeriveInput {
  return {
    base,
    words: wordsOfSpec(base),
    change,
    template: { captions: tpl.captions, title: tpl.title, layout: tpl.layout },
    applyTemplate: false,
    maxSeconds: 180,
    ...over,
  };
}

function fieldOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    return ((e as { extra?: { errors: Array<{ field: string }> } }).extra?.errors ?? []).map((x) => x.field);
  }
  throw new Error('did not throw');
}

describe('deriveEdit with remove_silences', () => {
  it('true: the 4 s pause and the leading and trailing quiet are cut; every word and its caption stay; the duration shrinks', () => {
    const { spec } = deriveEdit(input({ remove_silences: true }, { speech: SPEECH }));
    expect(spec.segments).toEqual([
      { start: r3(10.1 - K), end: r3(12 + K) },
      { start: r3(16 - K), end: r3(17.1 + K) },
    ]);
    expect(clipDuration(spec)).toBeCloseTo(1.9 + 1.1 + 4 * K, 3);
    expect(spec.captions?.words.map((w) => w.text)).toEqual(WORDS.map((w) => w.text));
    // Again on the result: the gaps left are short, nothing more is cut.
    expect(deriveEdit(input({ remove_silences: true }, { base: spec, speech: SPEECH })).spec.segments).toEqual(spec.segments);
  });

  it('{ min_seconds }: a pause not longer than it stays; min_seconds out of range is a 400 before any speech is needed', () => {
    const long = deriveEdit(input({ remove_silences: { min_seconds: 5 } }, { speech: SPEECH }));
    expect(long.spec.segments).toBeUndefined();
    expect(clipDuration(long.spec)).toBeCloseTo(10, 6);
    for (const min_seconds of [0.1, 11, Number.NaN]) {
      expect(fieldOf(() => keptStretches(input({ remove_silences: { min_seconds } })))).toEqual(['remove_silences.min_seconds']);
    }
    expect(() => deriveEdit(input({ remove_silences: true }))).toThrow(/speech/);
    // More than the longest output before the pauses are cut: refused before the detector listens.
    expect(fieldOf(() => keptStretches(input({ remove_silences: true }, { maxSeconds: 8 })))).toEqual(['segments']);
  });

  it('cuts the stretches left after the other changes (a trim), and no speech at all leaves the edit as it is', () => {
    const kept = keptStretches(input({ trim: { start: 11, end: 18 }, snap: false }));
    expect(kept.segments).toEqual([{ start: 11, end: 18 }]);
    const { spec } = deriveEdit(input({ trim: { start: 11, end: 18 }, snap: false, remove_silences: true }, { speech: SPEECH }));
    expect(spec.segments).toEqual([
      { start: 11, end: r3(12 + K) },
      { start: r3(16 - K), end: r3(17.1 + K) },
    ]);
    const silent = deriveEdit(input({ remove_silences: true }, { speech: [] }));
    expect(editHash(silent.spec)).toBe(editHash(deriveEdit(input({})).spec));
  });
});

describe('deriveEdit with zoom', () => {
  it('sets the layout’s zoom, carries it into later versions, and 1 removes it (the hash of an edit without zoom)', () => {
    const zoomed = deriveEdit(input({ zoom: 1.5 })).spec;
    expect(zoomed.layout.zoom).toBe(1.5);
    const doc = (spec: typeof zoomed) =>
      editDocument({ id: 'e', parentEditId: 'p', videoId: 'v', clipId: 'c', createdAt: new Date(0), templateId: null, spec, words: null });
    expect(doc(zoomed).zoom).toBe(1.5);
    expect(deriveEdit(input({ title: { text: 'x' } }, { base: zoomed })).spec.layout.zoom).toBe(1.5);
    const back = deriveEdit(input({ zoom: 1 }, { base: zoomed })).spec;
    expect(back.layout).not.toHaveProperty('zoom');
    expect(doc(back).zoom).toBe(1);
    expect(editHash(back)).toBe(editHash(deriveEdit(input({})).spec));
    expect(editHash(deriveEdit(input({})).spec)).toBe(editHash(base));
  });

  it('400 naming zoom out of 1..3', () => {
    for (const zoom of [0.9, 3.5, Number.POSITIVE_INFINITY]) expect(fieldOf(() => deriveEdit(input({ zoom })))).toEqual(['zoom']);
  });
});

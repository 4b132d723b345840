import { describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import {
  cutOut,
  deriveEdit,
  isFiller,
  mergeSegments,
  snapBoundary,
  wordCuts,
  SNAP_MAX_SECONDS,
  type DeriveInput,
} from '../../src/domain/edits/edit-changes.js';
import { clipDuration } from '../../src/domain/edits/edit.js';
import { editDocument, wordsOfSpec, type EditWord } from '../../src/domain/edits/edit-words.js';

// Words: "so um we cut long videos" at 10.0.. with 0.1 s gaps, each 0.4 s long.
const TEXTS = ['so', 'um', 'we', 'cut', 'long', 'videos'];
const WORDS = TEXTS.map((text, i) => ({ start: 10 + i * 0.5, end: 10 + i * 0.5 + 0.4, text }));
const tpl = BUILTIN_TEMPLATES[0];
const base = buildClipEdit({
  source: { key: 'videos/x.mp4', duration: 60, width: 640, height: 360 },
  start: 9.8,
  end: 13,
  words: WORDS,
  template: { captions: tpl.captions, layout: tpl.layout },
  watermark: false,
});
const words: EditWord[] = wordsOfSpec(base);

function derive(change: DeriveInput['change'], over: Partial<DeriveInput> = {}) {
  return deriveEdit({
    base,
    words,
    change,
    template: { captions: tpl.captions, title: tpl.title, layout: tpl.layout },
    applyTemplate: false,
    maxSeconds: 180,
    ...over,
  });
}

function fieldOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    return ((e as { extra?: { errors: Array<{ field: string }> } }).extra?.errors ?? []).map((x) => x.field);
  }
  throw new Error('did not throw');
}

describe('isFiller', () => {
  it('knows hesitations in any case and with punctuation, and the recogniser’s tokens; not real or hidden words', () => {
    for (const w of ['um', 'Uh,', 'HMM…', 'er', 'ah', '[uh]', '<sil>', '++UM++', '+NSN+']) expect(isFiller(w), w).toBe(true);
    for (const w of ['umbrella', 'her', 'we', '', 'a']) expect(isFiller(w), w).toBe(false);
  });
});

describe('snapBoundary', () => {
  const ws = [
    { start: 1, end: 2 },
    { start: 2.1, end: 3 },
    { start: 5, end: 6 },
  ];
  it('a boundary inside a word goes to its nearer edge, into the gap beside it', () => {
    expect(snapBoundary(1.2, ws, 10)).toBe(0.9); // before "1..2", pad 0.1
    expect(snapBoundary(1.8, ws, 10)).toBe(2.05); // after it: half the 0.1 s gap
    expect(snapBoundary(5.9, ws, 10)).toBe(6.1);
  });
  it('a boundary in a gap goes to the nearest word edge, never more than 0.25 s from it', () => {
    expect(snapBoundary(3.8, ws, 10)).toBe(3.1);
    expect(snapBoundary(4.6, ws, 10)).toBe(4.9);
    for (const t of [0, 0.5, 3.5, 4.0, 7, 9.9]) {
      const s = snapBoundary(t, ws, 10);
      const dist = Math.min(...ws.flatMap((w) => [Math.abs(s - w.start), Math.abs(s - w.end)]));
      expect(dist).toBeLessThanOrEqual(SNAP_MAX_SECONDS);
      expect(ws.some((w) => s > w.start && s < w.end)).toBe(false);
    }
  });
  it('stays inside the source and stays put without words', () => {
    expect(snapBoundary(0.5, [{ start: 0, end: 1 }], 10)).toBe(0);
    expect(snapBoundary(3.3, [], 10)).toBe(3.3);
  });
});

describe('segments arithmetic', () => {
  it('merges overlapping and touching stretches, cuts spans out, groups adjacent removed words', () => {
    expect(
      mergeSegments([
        { start: 3, end: 4 },
        { start: 1, end: 2 },
        { start: 2, end: 2.5 },
      ]),
    ).toEqual([
      { start: 1, end: 2.5 },
      { start: 3, end: 4 },
    ]);
    expect(cutOut([{ start: 0, end: 10 }], { start: 2, end: 3 })).toEqual([
      { start: 0, end: 2 },
      { start: 3, end: 10 },
    ]);
    expect(cutOut([{ start: 0, end: 10 }], { start: 0.02, end: 9.99 })).toEqual([]);
    // A piece shorter than an edit's shortest stretch (MIN_SEGMENT_SECONDS, 0.1 s) is dropped, not left to fail validation.
    expect(cutOut([{ start: 0, end: 10 }], { start: 0.06, end: 9.93 })).toEqual([]);
    expect(wordCuts(words, new Set([1, 2, 4]))).toEqual([
      { start: 10.5, end: 11.4 },
      { start: 12, end: 12.4 },
    ]);
  });
});

describe('deriveEdit', () => {
  it('without a change keeps the base’s stretch and words', () => {
    const { spec } = derive({});
    expect(spec.in).toBe(9.8);
    expect(spec.out).toBe(13);
    expect(spec.captions?.words.map((w) => w.text)).toEqual(TEXTS);
  });

  it('trim snaps to word edges: a start inside "we" keeps it whole, an end in a gap moves next to the word', () => {
    const { spec } = derive({ trim: { start: 11.15, end: 11.97 } });
    expect(spec.in).toBe(10.95); // "we" starts at 11.0, "um" ends at 10.9: half the gap
    expect(spec.out).toBe(11.95); // after "cut" (ends 11.9), half the 0.1 s gap
    expect(spec.captions?.words.map((w) => w.text)).toEqual(['we', 'cut']);
  });

  it('snap: false keeps the boundaries as given', () => {
    const { spec } = derive({ trim: { start: 11.15, end: 11.97 }, snap: false });
    expect([spec.in, spec.out]).toEqual([11.15, 11.97]);
  });

  it('segments replace the stretches (several), snapped and merged', () => {
    const { spec } = derive({
      segments: [
        { start: 10, end: 10.4 },
        { start: 11.5, end: 12.9 },
      ],
    });
    expect(spec.segments).toEqual([
      { start: 9.9, end: 10.45 },
      { start: 11.45, end: 13 },
    ]);
    expect(spec.captions?.words.map((w) => w.text)).toEqual(['so', 'cut', 'long', 'videos']);
  });

  it('remove_words cuts the words’ time; remove_fillers cuts "um"; the duration shrinks by that', () => {
    const a = derive({ remove_words: [2, 3] });
    expect(a.spec.segments).toEqual([
      { start: 9.8, end: 11 },
      { start: 11.9, end: 13 },
    ]);
    expect(clipDuration(a.spec)).toBeCloseTo(3.2 - 0.9, 6);
    expect(a.spec.captions?.words.map((w) => w.text)).toEqual(['so', 'um', 'long', 'videos']);
    const b = derive({ remove_fillers: true });
    expect(b.spec.captions?.words.map((w) => w.text)).toEqual(['so', 'we', 'cut', 'long', 'videos']);
  });

  it('word_text corrects captions; "" hides a word from captions but keeps its time and its place in words', () => {
    const { spec, words: out } = derive({
      word_text: [
        { index: 4, text: 'Kubernetes' },
        { index: 1, text: '' },
      ],
    });
    expect(spec.captions?.words.map((w) => w.text)).toEqual(['so', 'we', 'cut', 'Kubernetes', 'videos']);
    expect(clipDuration(spec)).toBeCloseTo(3.2, 6);
    expect(out[1]).toMatchObject({ index: 1, text: '' });
    const doc = editDocument({ id: 'e', parentEditId: 'p', videoId: 'v', clipId: 'c', createdAt: new Date(0), templateId: null, spec, words: out });
    expect(doc.words.map((w) => w.text)).toEqual(['so', '', 'we', 'cut', 'Kubernetes', 'videos']);
  });

  it('layout, captions and title changes', () => {
    const { spec } = derive({ aspect_ratio: '1:1', reframe: 'center', captions_enabled: false, title: { text: 'Big news' } });
    expect(spec.layout).toEqual({ aspect: '1:1', reframe: 'center' });
    expect(spec.captions).toBeNull();
    expect(spec.title?.text).toBe('Big news');
    expect(derive({ title: null }, { base: spec }).spec.title).toBeUndefined();
  });

  it('400 naming the field: outside the source, unordered or overlapping, unknown word, empty result, too long', () => {
    expect(fieldOf(() => derive({ segments: [{ start: 50, end: 61 }] }))).toEqual(['segments[0].end']);
    expect(fieldOf(() => derive({ segments: [{ start: 5, end: 4 }] }))).toEqual(['segments[0].end']);
    expect(
      fieldOf(() =>
        derive({
          segments: [
            { start: 5, end: 8 },
            { start: 7, end: 9 },
          ],
        }),
      ),
    ).toEqual(['segments[1].start']);
    expect(
      fieldOf(() =>
        derive({
          segments: [
            { start: 7, end: 9 },
            { start: 1, end: 2 },
          ],
        }),
      ),
    ).toEqual(['segments[1].start']);
    expect(fieldOf(() => derive({ trim: { start: 3, end: 70 } }))).toEqual(['trim.end']);
    expect(fieldOf(() => derive({ remove_words: [0, 99] }))).toEqual(['remove_words[1]']);
    expect(fieldOf(() => derive({ word_text: [{ index: 6, text: 'x' }] }))).toEqual(['word_text[0].index']);
    expect(fieldOf(() => derive({ trim: { start: 30, end: 40 } }))).toEqual(['trim']);
    expect(fieldOf(() => derive({ trim: { start: 10, end: 12.9 }, snap: false, remove_words: [0, 1, 2, 3, 4, 5] }))).toEqual(['remove_words']);
    expect(fieldOf(() => derive({ segments: [{ start: 0, end: 50 }], snap: false }, { maxSeconds: 30 }))).toEqual(['segments']);
  });
});

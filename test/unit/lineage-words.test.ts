import { describe, expect, it } from 'vitest';
import { askedWindow, withTranscriptWords } from '../../src/domain/edits/lineage-words.js';

const transcript = [
  { start: 1, end: 1.4, text: 'before' },
  { start: 2, end: 2.5, text: 'we' },
  { start: 2.6, end: 3, text: 'cut' },
  { start: 3.2, end: 3.8, text: 'videos' },
  { start: 5, end: 5.5, text: 'after' },
  { start: 9, end: 9.5, text: 'far' },
];
// The clip 2..4: its words, one corrected and one hidden.
const lineage = [
  { index: 0, text: 'We', start: 2, end: 2.5, speaker: null },
  { index: 1, text: '', start: 2.6, end: 3, speaker: null },
  { index: 2, text: 'videos', start: 3.2, end: 3.8, speaker: null },
];

describe('a lineage grown from the transcript', () => {
  it('adds the words of a wider stretch after the largest index, in time order, keeping corrections', () => {
    const out = withTranscriptWords(lineage, transcript, { start: 0.5, end: 6 });
    expect(out.map((w) => [w.index, w.text])).toEqual([
      [3, 'before'],
      [0, 'We'],
      [1, ''],
      [2, 'videos'],
      [4, 'after'],
    ]);
    expect(out[0]).toEqual({ index: 3, text: 'before', start: 1, end: 1.4, speaker: null });
  });

  it('adds nothing inside the clip, and never changes the list it was given', () => {
    const before = JSON.stringify(lineage);
    expect(withTranscriptWords(lineage, transcript, { start: 2, end: 4 })).toEqual(lineage);
    expect(JSON.stringify(lineage)).toBe(before);
  });

  it('numbers after an earlier extension: indices stay stable across versions', () => {
    const once = withTranscriptWords(lineage, transcript, { start: 4, end: 6 });
    const twice = withTranscriptWords(once, transcript, { start: 0, end: 10 });
    expect(twice.find((w) => w.text === 'after')?.index).toBe(3);
    expect(twice.find((w) => w.text === 'before')?.index).toBe(4);
    expect(twice.find((w) => w.text === 'far')?.index).toBe(5);
  });

  it('asks for the span of the stretches and the trim, padded, or nothing', () => {
    expect(askedWindow({}, 0.25)).toBeNull();
    expect(
      askedWindow(
        {
          segments: [
            { start: 3, end: 4 },
            { start: 6, end: 7 },
          ],
          trim: { start: 0.1, end: 5 },
        },
        0.25,
      ),
    ).toEqual({ start: 0, end: 7.25 });
  });
});

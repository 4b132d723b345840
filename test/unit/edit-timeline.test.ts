import { describe, expect, it } from 'vitest';
import { cutKeyframes, editSegments, keptWords, segmentsDuration, snapToFrames, sourceToOutput } from '../../src/domain/edits/edit-timeline.js';
import { clipDuration, editHash, makeEdit, validateEdit, type Edit } from '../../src/domain/edits/edit.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { DomainError } from '../../src/domain/errors.js';

const segs = [
  { start: 2, end: 5 },
  { start: 8, end: 10 },
  { start: 12.5, end: 14 },
];

describe('sourceToOutput', () => {
  it('maps kept source time onto the output and removed time to null', () => {
    expect(sourceToOutput(segs, 2)).toBe(0);
    expect(sourceToOutput(segs, 4)).toBe(2);
    expect(sourceToOutput(segs, 8)).toBe(3);
    expect(sourceToOutput(segs, 9.5)).toBe(4.5);
    expect(sourceToOutput(segs, 13)).toBe(5.5);
    expect(sourceToOutput(segs, 14)).toBe(6.5);
    expect(sourceToOutput(segs, 6)).toBeNull();
    expect(sourceToOutput(segs, 1)).toBeNull();
    expect(sourceToOutput(segs, 15)).toBeNull();
  });
  it('at a joint of touching stretches the later one wins', () => {
    expect(
      sourceToOutput(
        [
          { start: 0, end: 1 },
          { start: 1, end: 2 },
        ],
        1,
      ),
    ).toBe(1);
  });
  it('sums the stretches', () => {
    expect(segmentsDuration(segs)).toBe(6.5);
    expect(editSegments({ in: 3, out: 4 })).toEqual([{ start: 3, end: 4 }]);
    expect(editSegments({ in: 2, out: 14, segments: segs })).toBe(segs);
  });
});

describe('keptWords', () => {
  it('drops words in removed stretches and shifts the others', () => {
    const words = [
      { start: 2.1, end: 2.4, text: 'a' },
      { start: 6, end: 6.5, text: 'cut' },
      { start: 8.2, end: 8.6, text: 'b', speaker: 1 },
      { start: 13, end: 13.2, text: 'c' },
      { start: 14.5, end: 15, text: 'after' },
    ];
    expect(keptWords(words, segs)).toEqual([
      { start: 0.1, end: 0.4, text: 'a' },
      { start: 3.2, end: 3.6, text: 'b', speaker: 1 },
      { start: 5.5, end: 5.7, text: 'c' },
    ]);
  });
  it('gives a word spanning a joint to the stretch holding most of it, clipped to it', () => {
    // 4.9..8.3: 0.1 s in the first stretch, 0.3 s in the second.
    expect(keptWords([{ start: 4.9, end: 8.3, text: 'x' }], segs)).toEqual([{ start: 3, end: 3.3, text: 'x' }]);
    // 4.6..8.1: 0.4 s in the first, 0.1 s in the second.
    expect(keptWords([{ start: 4.6, end: 8.1, text: 'y' }], segs)).toEqual([{ start: 2.6, end: 3, text: 'y' }]);
    // Partly before the first stretch.
    expect(keptWords([{ start: 1.8, end: 2.3, text: 'z' }], segs)).toEqual([{ start: 0, end: 0.3, text: 'z' }]);
  });
});

describe('snapToFrames', () => {
  it('moves every boundary to the first frame at or after it, so picture and sound are cut at the same instants', () => {
    expect(
      snapToFrames(
        [
          { start: 0.5, end: 4.1 },
          { start: 5.9, end: 10.1 },
        ],
        25,
      ),
    ).toEqual([
      { start: 0.52, end: 4.12 },
      { start: 5.92, end: 10.12 },
    ]);
    expect(snapToFrames([{ start: 1, end: 2 }], 30)).toEqual([{ start: 1, end: 2 }]);
    expect(snapToFrames([{ start: 0.01, end: 0.07 }], 30)).toEqual([{ start: 0.033333, end: 0.1 }]);
  });
  it('keeps the running output length within half a frame of the requested one over many stretches', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ start: i * 1.013 + 0.007, end: i * 1.013 + 0.517 }));
    const snapped = snapToFrames(many, 25);
    let want = 0;
    let got = 0;
    snapped.forEach((s, i) => {
      expect(Math.abs(s.start * 25 - Math.round(s.start * 25))).toBeLessThan(1e-4);
      expect(Math.abs(s.end * 25 - Math.round(s.end * 25))).toBeLessThan(1e-4);
      if (i + 1 < snapped.length) expect(s.end).toBeLessThanOrEqual(snapped[i + 1].start);
      want += many[i].end - many[i].start;
      got += s.end - s.start;
      expect(Math.abs(got - want)).toBeLessThanOrEqual(0.02 + 1e-6);
    });
  });
  it('leaves the stretches alone without a frame rate', () => {
    expect(snapToFrames(segs, undefined)).toEqual(segs);
    expect(snapToFrames(segs, 0)).toEqual(segs);
  });
});

describe('cutKeyframes', () => {
  it('slices the path per stretch, shifted, with a jump at each joint', () => {
    const path = [
      { t: 0, x: 0, y: 0, w: 100, h: 200 },
      { t: 10, x: 100, y: 0, w: 100, h: 200 },
    ];
    const out = cutKeyframes(path, [
      { start: 2, end: 4 },
      { start: 8, end: 10 },
    ]);
    expect(out).toEqual([
      { t: 0, x: 20, y: 0, w: 100, h: 200 },
      { t: 2, x: 40, y: 0, w: 100, h: 200 },
      { t: 2, x: 80, y: 0, w: 100, h: 200 },
      { t: 4, x: 100, y: 0, w: 100, h: 200 },
    ]);
  });
});

const style = getBuiltinTemplate('bold-pop')!.captions;
function base(): Edit {
  return {
    source: { key: 'videos/ws1/abc.mp4', duration: 120, width: 1920, height: 1080 },
    in: 10,
    out: 40.5,
    layout: {
      aspect: '9:16',
      reframe: 'speaker',
      cropPath: [
        { t: 0, x: 600, y: 0, w: 606, h: 1080 },
        { t: 60, x: 900, y: 0, w: 606, h: 1080 },
      ],
    },
    captions: {
      words: [
        { start: 10.2, end: 10.5, text: 'hello' },
        { start: 10.6, end: 11, text: 'world' },
      ],
      style,
    },
    watermark: false,
    resolution: '1080p',
  };
}

describe('edits with segments', () => {
  const cut = (): Edit => ({
    ...base(),
    segments: [
      { start: 10, end: 20 },
      { start: 25, end: 40.5 },
    ],
  });

  it('an edit without segments hashes as before segments existed (hash computed with the code before them)', () => {
    expect(editHash(base())).toBe('0409f873a426f5d781ec1c66c1636d7bc15825a8697b86142c21d111fadfbfa8');
  });
  it('one stretch equals no segments; several change the hash', () => {
    const one = makeEdit({ ...base(), segments: [{ start: 10, end: 40.5 }] });
    expect(one.segments).toBeUndefined();
    expect(editHash({ ...base(), segments: [{ start: 10, end: 40.5 }] })).toBe(editHash(base()));
    expect(editHash(makeEdit(cut()))).not.toBe(editHash(base()));
  });
  it('the duration is the sum of the stretches', () => {
    expect(clipDuration(base())).toBe(30.5);
    expect(clipDuration(cut())).toBe(25.5);
  });
  it('validates the stretches with field errors', () => {
    expect(validateEdit(cut())).toEqual([]);
    const bad = (segments: unknown, extra: Partial<Record<string, unknown>> = {}) => validateEdit({ ...base(), ...extra, segments });
    expect(bad([])).toEqual([{ field: 'segments', rule: 'non-empty array' }]);
    expect(
      bad([
        { start: 10, end: 20 },
        { start: 15, end: 40.5 },
      ]),
    ).toEqual([{ field: 'segments[1].start', rule: 'ascending, not overlapping the stretch before' }]);
    expect(
      bad([
        { start: 10, end: 9 },
        { start: 15, end: 40.5 },
      ]),
    ).toEqual([{ field: 'segments[0].end', rule: 'after start' }]);
    expect(
      bad(
        [
          { start: 10, end: 20 },
          { start: 25, end: 121 },
        ],
        { out: 121 },
      ).map((e) => e.field),
    ).toContain('segments[1].end');
    expect(
      bad([
        { start: 11, end: 20 },
        { start: 25, end: 40.5 },
      ]),
    ).toEqual([{ field: 'in', rule: 'equal to segments[0].start' }]);
    expect(
      bad([
        { start: 10, end: 20 },
        { start: 25, end: 40 },
      ]),
    ).toEqual([{ field: 'out', rule: 'equal to the last segment end' }]);
    expect(bad([{ start: 10, end: 20, x: 1 }])).toEqual([{ field: 'segments[0]', rule: 'stretch {start,end}' }]);
    // A stretch shorter than a few frames would leave the picture without a frame to join.
    expect(
      bad([
        { start: 10, end: 20 },
        { start: 25, end: 25.05 },
        { start: 30, end: 40.5 },
      ]),
    ).toEqual([{ field: 'segments[1].end', rule: 'at least 0.1 s after start' }]);
    expect(() => makeEdit({ ...base(), segments: 'no' })).toThrow(DomainError);
  });
});

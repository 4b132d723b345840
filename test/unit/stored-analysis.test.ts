import { describe, expect, it } from 'vitest';
import { compactFaces, type VideoAnalysis } from '../../src/domain/analysis/video-analysis.js';
import { storedAnalysis } from '../../src/domain/submissions/pipeline.js';

/** The submission keeps the face samples of its analysis (compact, in source time), so layouts can be computed for any clip later. */

const analysed: VideoAnalysis = {
  duration: 3,
  width: 1920,
  height: 1080,
  sceneCuts: [1.5],
  loudness: [-20, -21, -22],
  faces: [
    { t: 0, boxes: [{ x: 0.123456, y: 0.2, width: 0.1111111, height: 0.2, score: 0.987654 }] },
    { t: 1.0004, boxes: [] },
    {
      t: 2,
      boxes: [
        { x: 0.1, y: 0.1, width: 0.1, height: 0.1, score: 0.9 },
        { x: 0.5, y: 0.1, width: 0, height: 0.1, score: 0.9 },
      ],
    },
  ],
  cropPath9x16: [{ t: 0, x: 100, y: 0, w: 606, h: 1080 }],
  fps: 1,
  detector: 'test',
};

describe('storedAnalysis', () => {
  it('keeps the face samples, rounded, in the source timeline', () => {
    const stored = storedAnalysis(analysed, { start: 10, end: 13 });
    expect(stored.faces).toEqual([
      { t: 10, boxes: [{ x: 0.123, y: 0.2, width: 0.111, height: 0.2, score: 0.99 }] },
      { t: 11, boxes: [] },
      { t: 12, boxes: [{ x: 0.1, y: 0.1, width: 0.1, height: 0.1, score: 0.9 }] },
    ]);
    expect(stored.sceneCuts).toEqual([11.5]);
    expect(stored.range).toEqual({ start: 10, end: 13 });
    expect(stored.cropPath9x16[0].t).toBe(10);
  });

  it('is small: under 100 bytes of JSON a sampled face', () => {
    const many = Array.from({ length: 600 }, (_, i) => ({
      t: i + 0.1234567,
      boxes: [{ x: Math.PI / 10, y: Math.E / 10, width: 0.1234567, height: 0.2345678, score: 0.99999 }],
    }));
    expect(JSON.stringify(compactFaces(many)).length / 600).toBeLessThan(100);
  });
});

import { describe, expect, it } from 'vitest';
import { analysedRange } from '../../src/domain/submissions/submission.rules.js';
import { highlightStretch } from '../../src/domain/submissions/pipeline.js';
import { analyzeVideo, SILENCE_LUFS, toSourceTimeline, type VideoAnalysis, type VideoAnalysisDeps } from '../../src/domain/analysis/video-analysis.js';
import { inputRangeArgs } from '../../src/adapters/media/ffmpeg-run.js';
import { sceneDetectArgs } from '../../src/adapters/media/scene-detect.js';
import { loudnessArgs } from '../../src/adapters/media/loudness.js';
import { frameSamplerArgs } from '../../src/adapters/media/frame-sampler.js';

/**
 * Security audit finding 7 (part): a submission works only on the stretch that was paid for, and
 * finding 3: never past the measured duration. These are the pure pieces; the pipeline test
 * (test/flows/clipping-pipeline.test.ts) checks a real submission with a timeframe.
 */

describe('analysedRange', () => {
  it('is the paid timeframe', () => {
    expect(analysedRange({ start: 30, end: 95 }, 120)).toEqual({ start: 30, end: 95 });
    expect(analysedRange({ start: 0, end: 120 }, 120)).toEqual({ start: 0, end: 120 });
  });

  it('never goes past the measured duration, whatever the timeframe says', () => {
    expect(analysedRange({ start: 0, end: 600 }, 37.5)).toEqual({ start: 0, end: 37.5 });
    expect(analysedRange({ start: 10, end: 120.4 }, 120)).toEqual({ start: 10, end: 120 });
  });

  it('refuses a timeframe that starts at or after the end of the measured file', () => {
    expect(() => analysedRange({ start: 130, end: 200 }, 120)).toThrow(expect.objectContaining({ code: 'TIMEFRAME_OUT_OF_BOUNDS' }));
    expect(() => analysedRange({ start: 0, end: 60 }, 0)).toThrow(expect.objectContaining({ code: 'TIMEFRAME_OUT_OF_BOUNDS' }));
  });
});

const stretch: VideoAnalysis = {
  duration: 65,
  width: 1920,
  height: 1080,
  sceneCuts: [4, 30.5],
  loudness: [-20, -21, -22],
  faces: [
    { t: 0, boxes: [] },
    { t: 1, boxes: [] },
  ],
  cropPath9x16: [
    { t: 0, x: 100, y: 0, w: 606, h: 1080 },
    { t: 64, x: 200, y: 0, w: 606, h: 1080 },
  ],
  fps: 1,
  detector: 'fake',
};

describe('toSourceTimeline', () => {
  it('moves a stretch analysis to the source timeline and records the range', () => {
    const a = toSourceTimeline(stretch, { start: 40, end: 105 });
    expect(a.range).toEqual({ start: 40, end: 105 });
    expect(a.duration).toBe(105);
    expect(a.sceneCuts).toEqual([44, 70.5]);
    expect(a.faces.map((f) => f.t)).toEqual([40, 41]);
    expect(a.cropPath9x16.map((k) => k.t)).toEqual([40, 104]);
    expect(a.cropPath9x16[1]).toMatchObject({ x: 200, w: 606, h: 1080 });
    // Seconds before the stretch were not measured: silence, so that the index stays the source's second.
    expect(a.loudness).toEqual([...new Array(40).fill(SILENCE_LUFS), -20, -21, -22]);
    expect({ width: a.width, height: a.height }).toEqual({ width: 1920, height: 1080 });
  });

  it('keeps an analysis of a stretch starting at 0 as it is', () => {
    expect(toSourceTimeline(stretch, { start: 0, end: 65 })).toMatchObject({ duration: 65, sceneCuts: [4, 30.5], loudness: [-20, -21, -22] });
  });
});

describe('highlightStretch', () => {
  it('gives the highlight picker only the paid stretch, in its own timeline', () => {
    const analysis = toSourceTimeline(stretch, { start: 40, end: 105 });
    const words = [
      { start: 10, end: 10.5, text: 'before' },
      { start: 41, end: 41.4, text: 'inside' },
      { start: 104.5, end: 104.9, text: 'end' },
      { start: 106, end: 106.5, text: 'after' },
    ];
    const s = highlightStretch(analysis, words, { start: 40, end: 105 });
    expect(s.offset).toBe(40);
    expect(s.words.map((w) => [w.text, w.start])).toEqual([
      ['inside', 1],
      ['end', 64.5],
    ]);
    // No padding: loudness statistics are those of the stretch alone.
    expect(s.loudness).toEqual([-20, -21, -22]);
    expect(s.sceneCuts).toEqual([4, 30.5]);
    expect(s.duration).toBe(65);
  });

  it('reads analyses stored before ranges were kept (the whole file) the same way', () => {
    const { range: _range, ...old } = toSourceTimeline(stretch, { start: 0, end: 65 });
    const s = highlightStretch(old, [{ start: 1, end: 2, text: 'a' }], { start: 0, end: 65 });
    expect(s).toMatchObject({ offset: 0, duration: 65, loudness: [-20, -21, -22] });
  });
});

describe('analyzeVideo of a range', () => {
  it('gives every pass the range and its length, and answers in the stretch timeline', async () => {
    const seen: Array<[string, unknown, number]> = [];
    const deps: VideoAnalysisDeps = {
      probe: async () => ({ duration: 600, width: 1920, height: 1080, hasVideo: true, hasAudio: true }),
      detectSceneCuts: async (_p, o) => (seen.push(['scenes', o.range, o.durationSeconds]), [3]),
      measureLoudness: async (_p, o) => (seen.push(['loudness', o.range, o.durationSeconds]), new Array<number>(70).fill(-30)),
      sampleFrames: async function* (_p, o) {
        seen.push(['frames', o.range, o.durationSeconds]);
        for (let i = 0; i < Math.ceil(o.durationSeconds * o.fps); i++) yield { t: i / o.fps, width: 2, height: 2, data: new Uint8Array(12) };
        o.scenes?.onCuts([5]);
      },
      faceDetector: { name: 'fake', detect: async () => [], close: async () => {} },
    };
    const range = { start: 40, end: 110 };
    const a = await analyzeVideo('/v.mp4', deps, { range, scenePass: 'separate' });
    expect(seen.sort()).toEqual([
      ['frames', range, 70],
      ['loudness', range, 70],
      ['scenes', range, 70],
    ]);
    expect(a).toMatchObject({ duration: 70, width: 1920, height: 1080, sceneCuts: [3] });
    expect(a.faces).toHaveLength(70);
    expect(a.loudness).toHaveLength(70);
    expect(toSourceTimeline(a, range)).toMatchObject({ duration: 110, sceneCuts: [43], range });
  });

  it('refuses a range outside the file', async () => {
    const deps = { probe: async () => ({ duration: 60, width: 2, height: 2, hasVideo: true, hasAudio: false }) } as unknown as VideoAnalysisDeps;
    await expect(analyzeVideo('/v.mp4', deps, { range: { start: 10, end: 5 } })).rejects.toThrow(RangeError);
  });
});

describe('the analysis passes read only the stretch', () => {
  const input = { path: '/data/source.mp4', format: 'mov' as const };
  const range = { start: 40, end: 110 };
  const before = (args: string[], flag: string) => args.indexOf(flag) >= 0 && args.indexOf(flag) < args.indexOf('-i');

  it('seeks with -ss and stops with -t on the input (every output of the process is bounded)', () => {
    for (const args of [
      sceneDetectArgs(input, { range }),
      loudnessArgs(input, range),
      frameSamplerArgs(input, { fps: 1, width: 320, height: 180, range }),
      frameSamplerArgs(input, { fps: 1, width: 320, height: 180, scenes: {}, range }),
    ]) {
      expect(before(args, '-ss') && before(args, '-t'), args.join(' ')).toBe(true);
      expect(args[args.indexOf('-ss') + 1]).toBe('40');
      expect(args[args.indexOf('-t') + 1]).toBe('70');
      expect(args.slice(args.indexOf('-f'), args.indexOf('-i') + 2)).toEqual(['-f', 'mov', '-i', 'file:/data/source.mp4']);
    }
  });

  it('reads the whole input without a range', () => {
    for (const args of [sceneDetectArgs(input), loudnessArgs(input), frameSamplerArgs(input, { fps: 1, width: 320, height: 180 })]) {
      expect(args).not.toContain('-ss');
      expect(args).not.toContain('-t');
    }
    expect(inputRangeArgs(undefined)).toEqual([]);
    expect(inputRangeArgs({ start: 0, end: 37.5 })).toEqual(['-t', '37.5']);
    expect(() => inputRangeArgs({ start: 5, end: 5 })).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { analyzeVideo, progressCombiner, SILENCE_LUFS, type VideoAnalysisDeps } from '../../src/domain/analysis/video-analysis.js';
import type { FaceBox } from '../../src/ports/face-detector.js';

/** Orchestration only: stand-in stages with known outputs (the real ones are in test/integration). */
function fakeDeps(over: Partial<VideoAnalysisDeps> = {}, boxes: FaceBox[] = []): VideoAnalysisDeps {
  return {
    probe: async () => ({ duration: 4.5, width: 1280, height: 720, hasVideo: true, hasAudio: true }),
    detectSceneCuts: async (_p, o) => {
      o.onProgress?.({ fraction: 0.5 });
      return [2];
    },
    measureLoudness: async () => [-30, -20, -25, -40, -50],
    sampleFrames: async function* (_p, o) {
      for (let i = 0; i < Math.ceil(o.durationSeconds * o.fps); i++) yield { t: i / o.fps, width: 2, height: 2, data: new Uint8Array(12) };
      o.scenes?.onCuts([2]);
    },
    faceDetector: { name: 'fake', detect: async () => boxes, close: async () => {} },
    ...over,
  };
}

describe('analyzeVideo', () => {
  it('takes scene cuts from the frame pass or from a separate pass', async () => {
    let separateCalls = 0;
    const d = fakeDeps({ detectSceneCuts: async () => (separateCalls++, [1.5]) });
    expect((await analyzeVideo('/v.mp4', d)).sceneCuts).toEqual([2]);
    expect(separateCalls).toBe(0);
    for (const concurrent of [true, false]) {
      expect((await analyzeVideo('/v.mp4', d, { scenePass: 'separate', concurrent })).sceneCuts).toEqual([1.5]);
    }
    expect(separateCalls).toBe(2);
  });

  it('puts the stages together into plain JSON', async () => {
    const progress: number[] = [];
    const face = { x: 0.7, y: 0.2, width: 0.1, height: 0.2, score: 0.9 };
    const r = await analyzeVideo('/v.mp4', fakeDeps({}, [face]), { fps: 2, onProgress: (f) => progress.push(f) });
    expect(r).toMatchObject({ duration: 4.5, width: 1280, height: 720, sceneCuts: [2], loudness: [-30, -20, -25, -40, -50], fps: 2, detector: 'fake' });
    expect(r.faces.map((f) => f.t)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(r.cropPath9x16.filter((k) => k.t === 2)).toHaveLength(2);
    expect(r.cropPath9x16.at(-1)).toMatchObject({ t: 4.5, w: 404, h: 720 });
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('fills silence without an audio track and refuses a file without video', async () => {
    const noAudio = fakeDeps({ probe: async () => ({ duration: 3, width: 640, height: 360, hasVideo: true, hasAudio: false }) });
    expect((await analyzeVideo('/v.mp4', noAudio)).loudness).toEqual([SILENCE_LUFS, SILENCE_LUFS, SILENCE_LUFS]);
    const audioOnly = fakeDeps({ probe: async () => ({ duration: 3, width: 0, height: 0, hasVideo: false, hasAudio: true }) });
    await expect(analyzeVideo('/a.mp3', audioOnly)).rejects.toMatchObject({ code: 'VIDEO_ANALYSIS_FAILED', extra: { reason: 'no_video_stream' } });
  });

  it('aborts the other passes when one fails', async () => {
    let sawAbort = false;
    const d = fakeDeps({
      measureLoudness: async () => {
        throw new Error('loudness pass failed');
      },
      sampleFrames: async function* (_p, o) {
        for (let i = 0; i < 100; i++) {
          await new Promise((r) => setTimeout(r, 5));
          if (o.signal?.aborted) {
            sawAbort = true;
            return;
          }
          yield { t: i, width: 2, height: 2, data: new Uint8Array(12) };
        }
      },
    });
    await expect(analyzeVideo('/v.mp4', d)).rejects.toThrow('loudness pass failed');
    await new Promise((r) => setTimeout(r, 50));
    expect(sawAbort).toBe(true);
  });
});

describe('progressCombiner', () => {
  it('weights the stages and only moves forward in 1 % steps', () => {
    const out: Array<[number, string]> = [];
    const report = progressCombiner((f, s) => out.push([f, s]));
    report('faces', 0.001);
    report('faces', 0.5);
    report('faces', 0.4);
    report('scenes', 1);
    report('loudness', 1);
    report('faces', 1);
    expect(out).toEqual([
      [0, 'faces'],
      [0.375, 'faces'],
      [0.575, 'scenes'],
      [0.625, 'loudness'],
      [1, 'faces'],
    ]);
  });
});

import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { WorkerFaceDetector } from '../../src/adapters/faces/worker.face-detector.js';
import { FfmpegError, runFfmpeg as runFfmpegAdapter } from '../../src/adapters/media/ffmpeg-run.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { sampleFrames } from '../../src/adapters/media/frame-sampler.js';
import { measureLoudness } from '../../src/adapters/media/loudness.js';
import { measurePitch } from '../../src/adapters/media/pitch.js';
import { detectSceneCuts } from '../../src/adapters/media/scene-detect.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import { analyzeVideo, type VideoAnalysis, type VideoAnalysisDeps } from '../../src/domain/analysis/video-analysis.js';
import { cropAt, cropFilter, sliceKeyframes } from '../../src/domain/reframe/crop-path.js';
import type { FaceDetector } from '../../src/ports/face-detector.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * Real ffmpeg and a real face detector on fixtures made here: a video with hard scene changes and a
 * loud stretch, and a real face photo (shipped in @vladmandic/human's assets folder) moving across
 * a wider frame. The analysis tests run with the detector on the event loop and in the compute pool's
 * worker threads.
 */

const require = createRequire(import.meta.url);
const FACE_PHOTO = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'screenshot-faceid.jpg');

let dir: string;
let scenesVideo: string;
let faceVideo: string;
let detector: FaceDetector;

/** Left edge (px) of the 120 px face picture at time t in the 640x360 face video. */
const faceLeft = (t: number) => 40 + 50 * t;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-analysis-'));
  scenesVideo = path.join(dir, 'scenes.mp4');
  faceVideo = path.join(dir, 'face.mp4');
  // testsrc 0-3 s, plain red 3-5 s, mandelbrot 5-8 s; a quiet tone, 26 dB louder from 5 s to 7 s.
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x180:rate=25',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:size=320x180:rate=25',
    '-f',
    'lavfi',
    '-i',
    'mandelbrot=size=320x180:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=22050',
    '-filter_complex',
    '[0:v]trim=0:3,setpts=PTS-STARTPTS[a];[1:v]trim=0:2,setpts=PTS-STARTPTS[b];[2:v]trim=0:3,setpts=PTS-STARTPTS[c];' +
      "[a][b][c]concat=n=3:v=1:a=0,format=yuv420p[v];[3:a]atrim=0:8,volume='if(between(t,5,7),1,0.05)':eval=frame[au]",
    '-map',
    '[v]',
    '-map',
    '[au]',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '30',
    '-c:a',
    'aac',
    '-b:a',
    '48k',
    '-t',
    '8',
    scenesVideo,
  ]);
  // The face of the photo (140x140 crop, scaled to 120 px) sliding right over a 640x360 background.
  await runFfmpeg([
    '-i',
    FACE_PHOTO,
    '-f',
    'lavfi',
    '-i',
    'color=c=0x406080:size=640x360:rate=15',
    '-filter_complex',
    "[0:v]crop=140:140:14:142,scale=120:120[f];[1:v][f]overlay=x='40+50*t':y=100,format=yuv420p[v]",
    '-map',
    '[v]',
    '-t',
    '9',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '28',
    faceVideo,
  ]);
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function deps(): VideoAnalysisDeps {
  return { probe, detectSceneCuts, measureLoudness, measurePitch, sampleFrames, faceDetector: detector };
}

describe('ffmpeg runner', () => {
  it('reports progress to the end', async () => {
    const fractions: number[] = [];
    await runFfmpegAdapter(['-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=25', '-t', '4', '-f', 'null', '-'], {
      durationSeconds: 4,
      onProgress: (p) => fractions.push(p.fraction),
    });
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('fails with the stderr tail', async () => {
    const err = await runFfmpegAdapter(['-i', path.join(dir, 'missing.mp4'), '-f', 'null', '-']).catch((e) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect(err.reason).toBe('exit');
    expect(err.stderrTail.join('\n')).toMatch(/No such file/);
  });

  it('stops on abort and on timeout', async () => {
    const long = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', '3600', '-f', 'null', '-'];
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 200);
    const started = Date.now();
    const aborted = await runFfmpegAdapter(long, { signal: ctl.signal }).catch((e) => e);
    expect(aborted).toMatchObject({ reason: 'aborted', name: 'AbortError' });
    const timedOut = await runFfmpegAdapter(long, { timeoutMs: 200 }).catch((e) => e);
    expect(timedOut).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('scene cuts and loudness', () => {
  it('finds the hard cuts near 3 s and 5 s', async () => {
    const cuts = await detectSceneCuts(scenesVideo, { durationSeconds: 8 });
    expect(cuts).toHaveLength(2);
    expect(Math.abs(cuts[0] - 3)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(cuts[1] - 5)).toBeLessThanOrEqual(0.1);
  });

  it('peaks where the audio is loud', async () => {
    const loudness = await measureLoudness(scenesVideo, { durationSeconds: 8 });
    expect(loudness).toHaveLength(8);
    const loud = (loudness[5] + loudness[6]) / 2;
    const quiet = [1, 2, 3, 4].map((s) => loudness[s]);
    for (const q of quiet) expect(loud - q).toBeGreaterThan(15);
    expect(loudness.indexOf(Math.max(...loudness))).toBeGreaterThanOrEqual(5);
  });
});

const ENGINES = [
  { where: 'on the event loop', start: async () => ({ detector: await HumanFaceDetector.create(), stop: async () => {} }) },
  {
    where: 'in worker threads',
    start: async () => {
      const pool = createComputePool(2);
      return { detector: await WorkerFaceDetector.create(pool), stop: () => pool.close() };
    },
  },
];

describe.each(ENGINES)('face detector $where', ({ start }) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ detector, stop } = await start());
  }, 120_000);

  afterAll(async () => {
    await detector?.close();
    await stop();
  });

  describe('the whole analysis on the scene video', () => {
    it('finds the cuts in the frame pass, the loud stretch, and lets the crop jump at the cuts', async () => {
      const r = await analyzeVideo(scenesVideo, deps(), { fps: 2 });
      expect(r.sceneCuts).toHaveLength(2);
      expect(Math.abs(r.sceneCuts[0] - 3)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(r.sceneCuts[1] - 5)).toBeLessThanOrEqual(0.1);
      expect(r.loudness).toHaveLength(8);
      // The pitch pass runs beside loudness: one value a second (Hz, 0 unvoiced).
      expect(r.pitch).toHaveLength(8);
      for (const v of r.pitch!) expect(v).toBeGreaterThanOrEqual(0);
      expect(Math.min(r.loudness[5], r.loudness[6])).toBeGreaterThan(Math.max(r.loudness[1], r.loudness[2], r.loudness[3]) + 15);
      expect(r.faces).toHaveLength(16);
      for (const cut of r.sceneCuts) expect(r.cropPath9x16.filter((k) => k.t === cut)).toHaveLength(2);
    });
  });

  describe('faces and the crop path', () => {
    let analysis: VideoAnalysis;
    const progress: number[] = [];

    beforeAll(async () => {
      analysis = await analyzeVideo(faceVideo, deps(), { fps: 1, onProgress: (f) => progress.push(f) });
    }, 120_000);

    it('runs the detector on the wasm backend', () => {
      expect(analysis.detector).toBe('human-blazeface/wasm');
      expect(JSON.parse(JSON.stringify(analysis))).toEqual(analysis);
      expect(progress.at(-1)).toBe(1);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    });

    it('finds the moving face in the sampled frames', () => {
      expect(analysis).toMatchObject({ width: 640, height: 360, sceneCuts: [] });
      expect(analysis.faces.map((f) => f.t)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      const found = analysis.faces.filter((f) => f.boxes.length >= 1);
      expect(found.length).toBeGreaterThanOrEqual(8);
      for (const f of found) {
        const b = f.boxes[0];
        expect(b.score).toBeGreaterThanOrEqual(0.6);
        expect(Math.abs(b.x + b.width / 2 - (faceLeft(f.t) + 60) / 640)).toBeLessThan(0.06);
        expect(Math.abs(b.y + b.height / 2 - 160 / 360)).toBeLessThan(0.1);
      }
    });

    it('moves the 9:16 crop with the face', () => {
      const path9x16 = analysis.cropPath9x16;
      expect(path9x16[0]).toMatchObject({ t: 0, w: 202, h: 360, y: 0 });
      for (let t = 1; t <= 8; t += 0.5) {
        const c = cropAt(path9x16, t);
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.x + 202).toBeLessThanOrEqual(640);
        expect(Math.abs(c.x + 101 - (faceLeft(t) + 60))).toBeLessThan(0.35 * 202);
      }
      expect(cropAt(path9x16, 8).x - cropAt(path9x16, 1).x).toBeGreaterThan(250);
    });

    it('renders 2 s with the crop expression and the face stays in the picture', async () => {
      const out = path.join(dir, 'vertical.mp4');
      const filter = cropFilter(sliceKeyframes(analysis.cropPath9x16, 5, 7));
      const seen: number[] = [];
      await runFfmpegAdapter(
        ['-ss', '5', '-i', faceVideo, '-t', '2', '-vf', filter, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', out],
        {
          durationSeconds: 2,
          onProgress: (p) => seen.push(p.fraction),
        },
      );
      expect(seen.at(-1)).toBe(1);
      const info = await probe(out);
      expect(info).toMatchObject({ width: 202, height: 360 });
      expect(Math.abs(info.duration - 2)).toBeLessThan(0.15);
      const frames = [];
      for await (const f of sampleFrames(out, { fps: 1, sourceWidth: 202, sourceHeight: 360, maxWidth: 202 })) frames.push(f);
      expect(frames).toHaveLength(2);
      for (const f of frames) {
        const [box] = await detector.detect(f);
        expect(box).toBeDefined();
        expect(box.x).toBeGreaterThanOrEqual(0.02);
        expect(box.x + box.width).toBeLessThanOrEqual(0.98);
      }
    });
  });

  describe('a frame that is not what it says', () => {
    it('is refused with a RangeError, and the next frame is detected', async () => {
      const bad = detector.detect({ width: 4, height: 4, data: new Uint8Array(10) });
      await expect(bad).rejects.toBeInstanceOf(RangeError);
      await expect(bad).rejects.toThrow('frame data has 10 bytes, expected 4x4x3');
      for await (const frame of sampleFrames(faceVideo, { fps: 1, sourceWidth: 640, sourceHeight: 360, range: { start: 2, end: 3 } })) {
        expect(await detector.detect(frame)).toHaveLength(1);
      }
    });
  });
});

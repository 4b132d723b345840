import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HumanFaceDetector, type HumanBackend } from '../src/adapters/faces/human.face-detector.js';
import { probe } from '../src/adapters/media/ffprobe.js';
import { runFfmpeg } from '../src/adapters/media/ffmpeg-run.js';
import { sampleFrames } from '../src/adapters/media/frame-sampler.js';
import { measureLoudness } from '../src/adapters/media/loudness.js';
import { detectSceneCuts } from '../src/adapters/media/scene-detect.js';
import { analyzeVideo, type VideoAnalysisDeps } from '../src/domain/analysis/video-analysis.js';

/**
 * Video analysis speed: seconds of analysis per minute of video at 1 fps, per stage.
 * `npx tsx bench/video-analysis.ts [seconds=60] [height=1080] [backend=wasm]`
 * The source is generated: a real face photo (from @vladmandic/human's assets) sliding over
 * testsrc2, with a tone, H.264 at 30 fps.
 */

export interface AnalysisBenchResult {
  videoSeconds: number;
  height: number;
  backend: string;
  mode: string;
  wallSeconds: number;
  perMinute: number;
  stages: Record<string, number>;
}

async function makeSource(file: string, seconds: number, height: number): Promise<void> {
  const require = createRequire(import.meta.url);
  const photo = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..', 'assets', 'screenshot-faceid.jpg');
  const width = Math.round((height * 16) / 9 / 2) * 2;
  const face = Math.round(height / 3.6 / 2) * 2;
  await runFfmpeg([
    '-i',
    photo,
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=30`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=300:sample_rate=44100',
    '-filter_complex',
    `[0:v]crop=140:140:14:142,scale=${face}:${face}[f];[1:v][f]overlay=x='(W-w)/2+(W-w)/2*sin(t/6)':y=(H-h)/3,format=yuv420p[v]`,
    '-map',
    '[v]',
    '-map',
    '2:a',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '26',
    '-g',
    '60',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-y',
    file,
  ]);
}

function timed(stages: Record<string, number>, deps: VideoAnalysisDeps): VideoAnalysisDeps {
  const time = async <T>(name: string, p: Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await p;
    } finally {
      stages[name] = (stages[name] ?? 0) + (performance.now() - t0) / 1000;
    }
  };
  const detect = deps.faceDetector.detect.bind(deps.faceDetector);
  return {
    ...deps,
    probe: (i, o) => time('probe', deps.probe(i, o)),
    detectSceneCuts: (i, o) => time('scenes', deps.detectSceneCuts(i, o)),
    measureLoudness: (i, o) => time('loudness', deps.measureLoudness(i, o)),
    faceDetector: { name: deps.faceDetector.name, close: () => deps.faceDetector.close(), detect: (f) => time('detect', detect(f)) },
  };
}

export async function benchVideoAnalysis(opts: { seconds?: number; height?: number; backend?: HumanBackend } = {}): Promise<AnalysisBenchResult[]> {
  const seconds = opts.seconds ?? 60;
  const height = opts.height ?? 1080;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-analysis-'));
  const file = path.join(dir, 'talk.mp4');
  const detector = await HumanFaceDetector.create({ backend: opts.backend ?? 'wasm', fallbackToCpu: false });
  try {
    await makeSource(file, seconds, height);
    const results: AnalysisBenchResult[] = [];
    const modes = [
      { name: 'separate scene pass, one pass after the other', scenePass: 'separate', concurrent: false },
      { name: 'scenes in the frame pass, loudness alongside (default)', scenePass: 'combined', concurrent: true },
    ] as const;
    for (const mode of modes) {
      const stages: Record<string, number> = {};
      const deps = timed(stages, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector });
      const t0 = performance.now();
      const r = await analyzeVideo(file, deps, { fps: 1, concurrent: mode.concurrent, scenePass: mode.scenePass });
      const wall = (performance.now() - t0) / 1000;
      if (!mode.concurrent) stages.framePass = wall - (stages.scenes ?? 0) - (stages.loudness ?? 0) - (stages.probe ?? 0);
      results.push({
        videoSeconds: r.duration,
        height,
        backend: detector.name,
        mode: mode.name,
        wallSeconds: wall,
        perMinute: (wall / r.duration) * 60,
        stages,
      });
    }
    return results;
  } finally {
    await detector.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [seconds, height, backend] = process.argv.slice(2);
  const results = await benchVideoAnalysis({
    seconds: seconds ? Number(seconds) : undefined,
    height: height ? Number(height) : undefined,
    backend: backend === 'cpu' ? 'cpu' : 'wasm',
  });
  for (const r of results) {
    const stages = Object.entries(r.stages)
      .map(([k, v]) => `${k} ${v.toFixed(1)}s`)
      .join(', ');
    console.log(
      `video analysis ${r.height}p ${r.videoSeconds.toFixed(0)}s ${r.backend} ${r.mode}: ${r.wallSeconds.toFixed(1)} s wall = ${r.perMinute.toFixed(1)} s per minute of video (${stages})`,
    );
  }
}

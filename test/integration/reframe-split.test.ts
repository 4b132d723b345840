import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { prepareFontsDir } from '../../src/adapters/media/fonts.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { sampleFrames } from '../../src/adapters/media/frame-sampler.js';
import { measureLoudness } from '../../src/adapters/media/loudness.js';
import { renderEdit } from '../../src/adapters/media/renderer.js';
import { detectSceneCuts } from '../../src/adapters/media/scene-detect.js';
import { analyzeVideo } from '../../src/domain/analysis/video-analysis.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit, sourceFaces } from '../../src/domain/edits/clip-edit.js';
import { storedAnalysis } from '../../src/domain/submissions/pipeline.js';
import type { FaceDetector } from '../../src/ports/face-detector.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * The `split` layout on a real file: two synthetic faces side by side over a moving test picture,
 * analysed and stored as the pipeline does, a clip edit with reframe `split` from the stored
 * analysis, rendered; the face detector finds one face in each half of the rendered frames.
 */

const FACES = path.resolve('test/fixtures/faces');
const SIZE = 170;

let dir: string;
let video: string;
let detector: FaceDetector;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-reframe-split-'));
  video = path.join(dir, 'two-faces.mp4');
  // 960x540: one face at x 120, the other at x 660, both at y 150, the right one drifting 40 px.
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=960x540:rate=15',
    '-loop',
    '1',
    '-i',
    path.join(FACES, 'face-42.jpg'),
    '-loop',
    '1',
    '-i',
    path.join(FACES, 'face-45.jpg'),
    '-filter_complex',
    `[1:v]scale=${SIZE}:${SIZE},format=yuv420p[a];[2:v]scale=${SIZE}:${SIZE},format=yuv420p[b];` +
      `[0:v][a]overlay=x=120:y=150[v1];[v1][b]overlay=x='660+4*t':y=150,format=yuv420p[v]`,
    '-map',
    '[v]',
    '-t',
    '10',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '26',
    video,
  ]);
  detector = await HumanFaceDetector.create();
}, 180_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the split layout of a clip with two faces', () => {
  it('shows one face in each half of the rendered frames', async () => {
    const range = { start: 0, end: 10 };
    const analysed = await analyzeVideo(video, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range, fps: 1 });
    // What the submission stores, read back as JSON (as the database gives it).
    const stored = JSON.parse(JSON.stringify(storedAnalysis(analysed, range))) as unknown;
    const tpl = getBuiltinTemplate('bold-pop')!;
    const edit = buildClipEdit({
      source: { key: 'k', duration: 10, width: 960, height: 540 },
      start: 1,
      end: 9,
      words: [{ start: 2, end: 2.5, text: 'both' }],
      cropPath9x16: analysed.cropPath9x16,
      faces: sourceFaces(stored),
      template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'split' } },
      watermark: false,
    });
    expect(edit.layout.splitPaths).toHaveLength(2);
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const out = path.join(dir, 'split.mp4');
    await renderEdit(edit, { inputPath: video, outputPath: out, fontsDir, quality: 'preview' });
    expect(await probe(out)).toMatchObject({ width: 360, height: 640 });

    let frames = 0;
    let onePerHalf = 0;
    for await (const f of sampleFrames(out, { fps: 2, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      frames++;
      const boxes = await detector.detect(f);
      const centres = boxes.filter((b) => b.score > 0.5).map((b) => b.y + b.height / 2);
      const top = centres.filter((c) => c < 0.5).length;
      const bottom = centres.filter((c) => c >= 0.5).length;
      if (top === 1 && bottom === 1) onePerHalf++;
      // Every face found is whole inside its own half.
      for (const b of boxes.filter((x) => x.score > 0.5)) {
        const inTop = b.y + b.height / 2 < 0.5;
        expect(inTop ? b.y + b.height <= 0.5 + 0.01 : b.y >= 0.5 - 0.01).toBe(true);
      }
    }
    expect(frames).toBeGreaterThanOrEqual(15);
    expect(onePerHalf / frames).toBeGreaterThanOrEqual(0.9);
  }, 240_000);
});

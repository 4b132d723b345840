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
import { screenParts } from '../../src/domain/reframe/screen-path.js';
import { storedAnalysis } from '../../src/domain/submissions/pipeline.js';
import type { FaceDetector, RgbFrame } from '../../src/ports/face-detector.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * The `screen` layout on a real file: a slide (white, rows of dark text-like blocks, a red bar at its
 * left edge and a blue one at its right edge) with a synthetic face in the bottom-right corner. The
 * rendered frames keep the slide's full width on top (both bars) and show the face below it; without
 * a face the slide is shown whole on a blurred fill.
 */

const FACES = path.resolve('test/fixtures/faces');
const SIZE = 150;

let dir: string;
let slide: string;
let bare: string;
let detector: FaceDetector;

const blocks = Array.from({ length: 6 }, (_, i) => `drawbox=x=${60 + (i % 2) * 40}:y=${70 + i * 55}:w=${560 - (i % 3) * 90}:h=26:color=0x202020:t=fill`).join(
  ',',
);
const bars = 'drawbox=x=0:y=0:w=24:h=540:color=red:t=fill,drawbox=x=936:y=0:w=24:h=540:color=blue:t=fill';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-reframe-screen-'));
  slide = path.join(dir, 'slide.mp4');
  bare = path.join(dir, 'bare.mp4');
  const enc = ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '24'];
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'color=c=white:size=960x540:rate=10', '-loop', '1', '-i', path.join(FACES, 'face-49.jpg')],
    ...['-filter_complex', `[0:v]${blocks},${bars}[s];[1:v]scale=${SIZE}:${SIZE}[f];[s][f]overlay=x=770:y=370,format=yuv420p[v]`],
    ...['-map', '[v]', '-t', '8', ...enc, slide],
  ]);
  await runFfmpeg(['-f', 'lavfi', '-i', 'color=c=white:size=960x540:rate=10', '-vf', `${blocks},${bars},format=yuv420p`, '-t', '8', ...enc, bare]);
  detector = await HumanFaceDetector.create();
}, 180_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Mean RGB of a small block of a frame. */
function meanAt(f: RgbFrame, x0: number, y0: number, w: number, h: number): [number, number, number] {
  const s = [0, 0, 0];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) for (let c = 0; c < 3; c++) s[c] += f.data[(y * f.width + x) * 3 + c];
  return s.map((v) => v / (w * h)) as [number, number, number];
}
const isRed = ([r, g, b]: number[]) => r > 150 && g < 90 && b < 90;
const isBlue = ([r, g, b]: number[]) => b > 150 && r < 90 && g < 90;

async function renderScreen(file: string): Promise<{ out: string; hasFace: boolean }> {
  const range = { start: 0, end: 8 };
  const analysed = await analyzeVideo(file, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range, fps: 1 });
  const stored = JSON.parse(JSON.stringify(storedAnalysis(analysed, range))) as unknown;
  const tpl = getBuiltinTemplate('bold-pop')!;
  const edit = buildClipEdit({
    source: { key: 'k', duration: 8, width: 960, height: 540 },
    start: 1,
    end: 7,
    words: [],
    cropPath9x16: analysed.cropPath9x16,
    faces: sourceFaces(stored),
    template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'screen' } },
    watermark: false,
  });
  const fontsDir = path.join(dir, 'fonts');
  prepareFontsDir(fontsDir);
  const out = path.join(dir, `${path.basename(file, '.mp4')}-screen.mp4`);
  await renderEdit(edit, { inputPath: file, outputPath: out, fontsDir, quality: 'preview' });
  expect(await probe(out)).toMatchObject({ width: 360, height: 640 });
  return { out, hasFace: !!edit.layout.screenPath };
}

describe('the screen layout', () => {
  it('keeps the slide’s full width on top and shows the corner face below it', async () => {
    const { out, hasFace } = await renderScreen(slide);
    expect(hasFace).toBe(true);
    const { screen } = screenParts({ width: 960, height: 540 }, { width: 360, height: 640 });
    let frames = 0;
    let faceBelow = 0;
    for await (const f of sampleFrames(out, { fps: 2, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      frames++;
      // Both edge bars of the slide, at the top part's left and right edges.
      expect(isRed(meanAt(f, 1, screen / 2 - 10, 5, 20))).toBe(true);
      expect(isBlue(meanAt(f, 354, screen / 2 - 10, 5, 20))).toBe(true);
      const boxes = (await detector.detect(f)).filter((b) => b.score > 0.5);
      // The face, larger than in the slide (where it is a sixth of the height), under the screen part.
      if (boxes.some((b) => b.y >= screen / 640 - 0.01 && b.height * 640 > 100)) faceBelow++;
    }
    expect(frames).toBeGreaterThanOrEqual(10);
    expect(faceBelow / frames).toBeGreaterThanOrEqual(0.9);
  }, 240_000);

  it('without a face shows the whole slide on a blurred fill', async () => {
    const { out, hasFace } = await renderScreen(bare);
    expect(hasFace).toBe(false);
    const fitTop = (640 - 202) / 2;
    for await (const f of sampleFrames(out, { fps: 1, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      expect(isRed(meanAt(f, 1, fitTop + 90, 5, 20))).toBe(true);
      expect(isBlue(meanAt(f, 354, fitTop + 90, 5, 20))).toBe(true);
    }
  }, 240_000);
});

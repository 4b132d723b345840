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
 * The `auto` layout on a real file of three shots (hard cuts): two synthetic faces side by side over a
 * moving test picture (0–6 s), a slide with a face in its corner (6–12 s), one face (12–18 s). The
 * analysis (as the pipeline stores it) gives each shot its layout, and the rendered frames show it:
 * one face per half, then the slide's full width above the face, then one face.
 */

const FACES = path.resolve('test/fixtures/faces');

let dir: string;
let video: string;
let detector: FaceDetector;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-reframe-auto-'));
  video = path.join(dir, 'three-shots.mp4');
  const blocks = Array.from({ length: 6 }, (_, i) => `drawbox=x=${60 + (i % 2) * 40}:y=${70 + i * 55}:w=${560 - (i % 3) * 90}:h=26:color=0x202020:t=fill`).join(
    ',',
  );
  const bars = 'drawbox=x=0:y=0:w=24:h=540:color=red:t=fill,drawbox=x=936:y=0:w=24:h=540:color=blue:t=fill';
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=960x540:rate=10:duration=6'],
    ...['-f', 'lavfi', '-i', 'color=c=white:size=960x540:rate=10:duration=6'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=960x540:rate=10:duration=6'],
    ...['-loop', '1', '-i', path.join(FACES, 'face-42.jpg'), '-loop', '1', '-i', path.join(FACES, 'face-45.jpg')],
    ...['-loop', '1', '-i', path.join(FACES, 'face-49.jpg'), '-loop', '1', '-i', path.join(FACES, 'face-53.jpg')],
    '-filter_complex',
    [
      '[3:v]scale=170:170[a1]',
      '[4:v]scale=170:170[b]',
      '[5:v]scale=150:150[c]',
      '[6:v]scale=220:220[d]',
      '[0:v][a1]overlay=x=120:y=150:shortest=1[s1a]',
      '[s1a][b]overlay=x=660:y=150:shortest=1,format=yuv420p[s1]',
      `[1:v]${blocks},${bars}[s2a]`,
      '[s2a][c]overlay=x=770:y=370:shortest=1,format=yuv420p[s2]',
      '[2:v][d]overlay=x=600:y=120:shortest=1,format=yuv420p[s3]',
      '[s1][s2][s3]concat=n=3:v=1:a=0[v]',
    ].join(';'),
    ...['-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '24', video],
  ]);
  detector = await HumanFaceDetector.create();
}, 180_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function meanAt(f: RgbFrame, x0: number, y0: number, w: number, h: number): number[] {
  const s = [0, 0, 0];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) for (let c = 0; c < 3; c++) s[c] += f.data[(y * f.width + x) * 3 + c];
  return s.map((v) => v / (w * h));
}

describe('the auto layout', () => {
  it('frames each shot with its layout: split, screen, speaker', async () => {
    const range = { start: 0, end: 18 };
    const analysed = await analyzeVideo(video, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range, fps: 1 });
    const stored = JSON.parse(JSON.stringify(storedAnalysis(analysed, range))) as Parameters<typeof sourceFaces>[0];
    const tpl = getBuiltinTemplate('bold-pop')!;
    const edit = buildClipEdit({
      source: { key: 'k', duration: 18, width: 960, height: 540 },
      start: 1,
      end: 17,
      words: [],
      cropPath9x16: analysed.cropPath9x16,
      faces: sourceFaces(stored),
      template: { captions: tpl.captions, layout: { ...tpl.layout, reframe: 'auto' } },
      watermark: false,
    });
    expect(edit.layout.reframe).toBe('auto');
    const shots = edit.layout.shots!;
    expect(shots.map((s) => s.reframe)).toEqual(['split', 'screen', 'speaker']);
    expect(shots[0].end).toBeCloseTo(6, 0);
    expect(shots[1].end).toBeCloseTo(12, 0);

    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const out = path.join(dir, 'auto.mp4');
    await renderEdit(edit, { inputPath: video, outputPath: out, fontsDir, quality: 'preview' });
    const info = await probe(out);
    expect(info).toMatchObject({ width: 360, height: 640 });
    expect(info.duration).toBeCloseTo(16, 0);

    const { screen } = screenParts({ width: 960, height: 540 }, { width: 360, height: 640 });
    const seen = { split: [0, 0], screen: [0, 0], speaker: [0, 0] };
    for await (const f of sampleFrames(out, { fps: 2, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      const t = 1 + f.t;
      // Half a second of margin around each cut.
      const shot = shots.find((s) => t > s.start + 0.5 && t < s.end - 0.5);
      if (!shot) continue;
      const key = shot.reframe as keyof typeof seen;
      const boxes = (await detector.detect(f)).filter((b) => b.score > 0.5);
      const centres = boxes.map((b) => b.y + b.height / 2);
      const [r, , b] = [meanAt(f, 1, screen / 2 - 10, 5, 20), null, meanAt(f, 354, screen / 2 - 10, 5, 20)];
      const ok =
        key === 'split'
          ? centres.filter((c) => c < 0.5).length === 1 && centres.filter((c) => c >= 0.5).length === 1
          : key === 'screen'
            ? r[0] > 150 && r[1] < 90 && b[2] > 150 && b[0] < 90 && boxes.some((x) => x.y >= screen / 640 - 0.01)
            : boxes.length === 1 && boxes[0].x >= 0 && boxes[0].x + boxes[0].width <= 1;
      seen[key][0]++;
      if (ok) seen[key][1]++;
    }
    for (const [k, [n, ok]] of Object.entries(seen)) {
      expect(n, k).toBeGreaterThanOrEqual(6);
      expect(ok / n, k).toBeGreaterThanOrEqual(0.9);
    }
  }, 240_000);
});

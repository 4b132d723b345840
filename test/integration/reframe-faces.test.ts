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
import { analyzeVideo, toSourceTimeline } from '../../src/domain/analysis/video-analysis.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import type { FaceDetector } from '../../src/ports/face-detector.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * The speaker crop of a clip follows the face that is on screen now. The case a new user met: one
 * synthetic face on the right, then (no scene cut) only another face on the left, over a moving test
 * picture; the analysis runs over the submission's timeframe as the pipeline does, the clip spans
 * the change, and its rendered frames are checked with the face detector.
 */

const FACES = path.resolve('test/fixtures/faces');
/** The faces' picture: 200 px squares on a 960x540 frame; the first at x 700 until 20 s, the second at x 60 after. */
const SIZE = 200;
const CHANGE = 20;

let dir: string;
let video: string;
let detector: FaceDetector;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-reframe-faces-'));
  video = path.join(dir, 'two-faces.mp4');
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
    path.join(FACES, 'face-44.jpg'),
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:sample_rate=22050',
    '-filter_complex',
    `[1:v]scale=${SIZE}:${SIZE},format=yuv420p[a];[2:v]scale=${SIZE}:${SIZE},format=yuv420p[b];` +
      `[0:v][a]overlay=x=700:y=150:enable='lt(t,${CHANGE})'[v1];[v1][b]overlay=x=60:y=150:enable='gte(t,${CHANGE})',format=yuv420p[v]`,
    '-map',
    '[v]',
    '-map',
    '3:a',
    '-t',
    '40',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '26',
    '-c:a',
    'aac',
    '-b:a',
    '48k',
    video,
  ]);
  detector = await HumanFaceDetector.create();
}, 180_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the speaker crop of a clip across a change of face', () => {
  it('keeps the visible face inside the 9:16 frame, and whole, in the rendered clip', async () => {
    // The submission's timeframe 10..40 s, analysed as the pipeline does (1 frame a second), then a clip 12..32 s.
    const range = { start: 10, end: 40 };
    const analysed = await analyzeVideo(video, { probe, detectSceneCuts, measureLoudness, sampleFrames, faceDetector: detector }, { range, fps: 1 });
    const analysis = toSourceTimeline(analysed, range);
    expect(analysis.sceneCuts).toEqual([]);
    const tpl = getBuiltinTemplate('bold-pop')!;
    const edit = buildClipEdit({
      source: { key: 'k', duration: 40, width: 960, height: 540 },
      start: 12,
      end: 32,
      words: [],
      cropPath9x16: analysis.cropPath9x16,
      template: { captions: tpl.captions, layout: { ...tpl.layout, aspect: '9:16', reframe: 'speaker' } },
      watermark: false,
    });
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const out = path.join(dir, 'clip.mp4');
    await renderEdit(edit, { inputPath: video, outputPath: out, fontsDir, quality: 'preview' });
    const info = await probe(out);
    expect(info).toMatchObject({ width: 360, height: 640 });

    // Two frames a second of the clip: the face on screen then must be in the picture, and whole.
    let seen = 0;
    let frames = 0;
    const cutOff: number[] = [];
    for await (const f of sampleFrames(out, { fps: 2, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      frames++;
      const [box] = await detector.detect(f);
      if (!box) continue;
      seen++;
      // Whole: both eyes and the mouth inside, taken as the detector's box inside the frame.
      if (box.x < 0 || box.x + box.width > 1) cutOff.push(12 + f.t);
    }
    expect(frames).toBeGreaterThanOrEqual(38);
    expect(seen / frames).toBeGreaterThanOrEqual(0.9);
    expect(cutOff).toEqual([]);
  }, 240_000);
});

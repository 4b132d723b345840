import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { prepareFontsDir } from '../../src/adapters/media/fonts.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { sampleFrames } from '../../src/adapters/media/frame-sampler.js';
import { renderEdit } from '../../src/adapters/media/renderer.js';
import { makeEdit } from '../../src/domain/edits/edit.js';
import { PUNCH_IN_ZOOM } from '../../src/domain/reframe/punch-in.js';
import type { FaceDetector } from '../../src/ports/face-detector.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * The `subtle` punch-in on a real render: one synthetic face, a clip with a punch-in from 2 to 4 s of
 * the output (a kept stretch after a cut); the face detector sees the face PUNCH_IN_ZOOM times larger
 * at full zoom and at its own size before and after.
 */

let dir: string;
let video: string;
let detector: FaceDetector;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-punch-in-'));
  video = path.join(dir, 'face.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=960x540:rate=10', '-loop', '1', '-i', path.resolve('test/fixtures/faces/face-53.jpg')],
    ...['-filter_complex', '[1:v]scale=220:220[f];[0:v][f]overlay=x=370:y=140:shortest=1,format=yuv420p[v]'],
    ...['-map', '[v]', '-t', '12', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '24', video],
  ]);
  detector = await HumanFaceDetector.create();
}, 180_000);

afterAll(async () => {
  await detector?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the subtle punch-in', () => {
  it('zooms the rendered picture by PUNCH_IN_ZOOM during a punch-in only', async () => {
    // Kept: 1..3 and 5..11 s of the source; the punch-in at source 6..8 s plays at 3..5 s of the output.
    const edit = makeEdit({
      source: { key: 'k', duration: 12, width: 960, height: 540 },
      in: 1,
      out: 11,
      segments: [
        { start: 1, end: 3 },
        { start: 5, end: 11 },
      ],
      layout: { aspect: '9:16', reframe: 'center', punchIn: 'subtle', punchIns: [{ start: 6, end: 8 }] },
      captions: null,
      watermark: false,
      resolution: '720p',
    });
    const fontsDir = path.join(dir, 'fonts');
    prepareFontsDir(fontsDir);
    const out = path.join(dir, 'punch.mp4');
    await renderEdit(edit, { inputPath: video, outputPath: out, fontsDir, quality: 'preview' });
    expect(await probe(out)).toMatchObject({ width: 360, height: 640 });
    const heights = new Map<number, number>();
    for await (const f of sampleFrames(out, { fps: 2, sourceWidth: 360, sourceHeight: 640, maxWidth: 360 })) {
      const [box] = await detector.detect(f);
      if (box) heights.set(Math.round(f.t * 2) / 2, box.height);
    }
    const before = heights.get(2)!;
    expect(before).toBeGreaterThan(0);
    expect(heights.get(4)! / before).toBeCloseTo(PUNCH_IN_ZOOM, 1);
    expect(heights.get(6)! / before).toBeCloseTo(1, 1);
    expect(heights.get(1)! / before).toBeCloseTo(1, 1);
  }, 240_000);
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { WorkerFaceMesher } from '../../src/adapters/faces/worker.face-detector.js';
import { decodeImage } from '../../src/adapters/images/image-format.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { HeadSwapEngine } from '../../src/adapters/personas/head-swap.engine.js';
import type { swapFrame } from '../../src/adapters/personas/head-swap.tasks.js';
import { IllustrationPortraitEngine, illustrationCutout } from '../../src/adapters/personas/illustration.portrait.js';
import { rasteriseSvg } from '../../src/adapters/personas/svg-raster.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import type { WorkerPool } from '../../src/adapters/workers/worker-pool.js';
import { defaultChips } from '../../src/domain/personas/persona-catalog.js';
import { PersonaEngineError } from '../../src/ports/persona-engines.js';
import { tempDir } from '../helpers/app.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { facePhoto, noFaceVideo, talkingHeadVideo } from '../helpers/persona-fixtures.js';

/**
 * The embedded head swap on a talking-head fixture (a synthetic face moved by ffmpeg, with espeak-ng
 * speech), its per-frame work in the compute pool's threads: the MP4 has the source's length and sound,
 * the face region changed and the background did not (pixel check); an illustrated persona's head is
 * pasted on the tracked head; a source without a face fails with NO_FACE_IN_SOURCE.
 */

const OUTPUT_DIR = path.resolve('test-output/personas');
const probe = new FfprobeMediaProbe({});
let fx: string;
let pool: WorkerPool;
let engine: HeadSwapEngine;
let source: string;

beforeAll(async () => {
  fx = tempDir('cutroom-swap-');
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  source = await talkingHeadVideo(path.join(fx, 'talk.mp4'), { seconds: 3, n: 53 });
  pool = createComputePool(2);
  engine = new HeadSwapEngine({
    mesher: () => WorkerFaceMesher.create(pool),
    runFrame: (task) => pool.run<typeof swapFrame>('swapFrame', task, { transfer: [task.data.buffer as ArrayBuffer] }),
    probe,
    decode: async (png, alpha) => decodeImage(Buffer.from(png), { alpha }),
    illustrationCutout,
    concurrency: 4,
  });
}, 300_000);

afterAll(async () => {
  await pool?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

/** One decoded frame (RGB) of a video at `t` seconds. */
async function frameAt(file: string, t: number): Promise<{ width: number; height: number; data: Uint8Array }> {
  const png = path.join(fx, `frame-${path.basename(file)}-${t}.png`);
  await runFfmpeg(['-ss', String(t), '-i', file, '-frames:v', '1', png]);
  return decodeImage(png);
}

/** Mean absolute difference per channel inside (`inside: true`) or outside a box grown by `grow`. */
function meanDiff(
  a: { width: number; data: Uint8Array },
  b: { data: Uint8Array },
  box: { x: number; y: number; width: number; height: number },
  inside: boolean,
  grow = 0,
): number {
  const x0 = box.x - box.width * grow;
  const y0 = box.y - box.height * grow;
  const x1 = box.x + box.width * (1 + grow);
  const y1 = box.y + box.height * (1 + grow);
  let sum = 0;
  let n = 0;
  const h = a.data.length / 3 / a.width;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < a.width; x++) {
      const In = x >= x0 && x < x1 && y >= y0 && y < y1;
      if (In !== inside) continue;
      const i = (y * a.width + x) * 3;
      sum += Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]);
      n += 3;
    }
  }
  return sum / n;
}

async function checkSwap(output: string, label: string) {
  const src = await probe.probe(source);
  const out = await probe.probe(output);
  expect(out.hasAudio).toBe(true);
  expect(out.hasVideo).toBe(true);
  expect(Math.abs(out.duration - src.duration)).toBeLessThan(0.25);
  const detector = await HumanFaceDetector.create({});
  try {
    for (const t of [0.5, 1.5, 2.5]) {
      const a = await frameAt(source, t);
      const b = await frameAt(output, t);
      const [face] = await detector.detect({ width: a.width, height: a.height, data: a.data.slice() });
      const box = { x: face.x * a.width, y: face.y * a.height, width: face.width * a.width, height: face.height * a.height };
      const faceDiff = meanDiff(a, b, { x: box.x + box.width * 0.2, y: box.y + box.height * 0.2, width: box.width * 0.6, height: box.height * 0.6 }, true);
      const background = meanDiff(a, b, box, false, 0.9);
      expect(faceDiff, `${label} face at ${t}s`).toBeGreaterThan(15);
      expect(background, `${label} background at ${t}s`).toBeLessThan(4);
    }
  } finally {
    await detector.close();
  }
}

describe('embedded head swap', () => {
  it('a photo persona: the face warped onto the tracked face, the rest of the picture and the sound kept', async () => {
    const portrait = fs.readFileSync(await facePhoto(path.join(fx, 'persona.png'), { n: 42, face: 512, canvas: 640 }));
    const output = path.join(fx, 'swap-photo.mp4');
    const res = await engine.swap({ source, seconds: 3, portrait: { png: portrait, kind: 'photo' }, quality: 'standard', replace: 'head', output });
    expect(res.frames).toBe(45);
    expect(res.facesTracked).toBeGreaterThanOrEqual(43);
    fs.copyFileSync(output, path.join(OUTPUT_DIR, 'swap-photo.mp4'));
    await checkSwap(output, 'photo');
  }, 240_000);

  it('an illustrated persona: the drawn head follows the tracked head', async () => {
    const img = await new IllustrationPortraitEngine(rasteriseSvg).render({ chips: defaultChips(), note: null, faces: [], seed: 's' });
    const output = path.join(fx, 'swap-illustration.mp4');
    const res = await engine.swap({ source, seconds: 3, portrait: { png: img.png, kind: 'illustration' }, quality: 'standard', replace: 'head', output });
    expect(res.frames).toBe(45);
    await checkSwap(output, 'illustration');
  }, 240_000);

  it('refuses `person`, and a source without a face fails with NO_FACE_IN_SOURCE', async () => {
    const img = await new IllustrationPortraitEngine(rasteriseSvg).render({ chips: defaultChips(), note: null, faces: [], seed: 's' });
    const portrait = { png: img.png, kind: 'illustration' as const };
    await expect(engine.swap({ source, seconds: 3, portrait, quality: 'standard', replace: 'person', output: path.join(fx, 'x.mp4') })).rejects.toMatchObject({
      code: 'REPLACE_MODE_UNAVAILABLE',
    });
    const blank = await noFaceVideo(path.join(fx, 'blank.mp4'), 2);
    const err = await engine
      .swap({ source: blank, seconds: 2, portrait, quality: 'standard', replace: 'head', output: path.join(fx, 'y.mp4') })
      .catch((e) => e);
    expect(err).toBeInstanceOf(PersonaEngineError);
    expect(err.code).toBe('NO_FACE_IN_SOURCE');
  }, 120_000);
});

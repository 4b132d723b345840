import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerFaceMesher } from '../src/adapters/faces/worker.face-detector.js';
import { NodeLocalFiles } from '../src/adapters/files/local-files.js';
import { decodeImage, encodePng, resizeRaw } from '../src/adapters/images/image-format.js';
import { imageUpscale } from '../src/adapters/images/images.tasks.js';
import { FfprobeMediaProbe } from '../src/adapters/media/ffprobe.js';
import { FacePhotoPortraitEngine } from '../src/adapters/personas/face-photo.portrait.js';
import { HeadSwapEngine } from '../src/adapters/personas/head-swap.engine.js';
import type { swapFrame } from '../src/adapters/personas/head-swap.tasks.js';
import { IllustrationPortraitEngine, illustrationCutout } from '../src/adapters/personas/illustration.portrait.js';
import { rasteriseSvg } from '../src/adapters/personas/svg-raster.js';
import { createComputePool } from '../src/adapters/workers/compute.pool.js';
import type { WorkerPool } from '../src/adapters/workers/worker-pool.js';
import { defaultChips } from '../src/domain/personas/persona-catalog.js';
import { facePhoto, talkingHeadVideo } from '../test/helpers/persona-fixtures.js';
import { writeResults } from './results.js';

/**
 * The embedded persona engines on this machine: seconds per portrait (an illustration from chips; a
 * portrait from an own-face photo: mesh, aligned crop, ESRGAN ×4 in the pool, grade) and the head
 * swap's frames per second on a talking-head fixture at 360x640 and 720x1280, photo and illustrated
 * personas, with the compute pool (one thread per core). Writes bench/results/personas.json.
 */

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, seconds: Number(((performance.now() - t0) / 1000).toFixed(2)) };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-bench-personas-'));
  const threads = os.availableParallelism();
  const pool: WorkerPool = createComputePool(threads);
  const files = new NodeLocalFiles(dir);
  const results: Record<string, unknown> = { threads };
  try {
    // Portraits.
    const illustration = new IllustrationPortraitEngine(rasteriseSvg);
    await illustration.render({ chips: defaultChips(), note: null, faces: [], seed: 'warm' });
    const ill = await timed(() =>
      illustration.render({ chips: { ...defaultChips(), hair_color: 'red', accessory: 'glasses' }, note: null, faces: [], seed: 'b' }),
    );
    results.portrait_illustration_seconds = ill.seconds;

    const mesher = await WorkerFaceMesher.create(pool);
    const photoFile = await facePhoto(path.join(dir, 'face.png'));
    const photo = await decodeImage(photoFile);
    const [face] = await mesher.detectMesh({ width: photo.width, height: photo.height, data: Uint8Array.from(photo.data) });
    const faces = new FacePhotoPortraitEngine({
      decode: async (bytes) => decodeImage(asBuffer(bytes)),
      upscale: (rgb, width, height) =>
        files.withTempDir('up-', async (d) => {
          const file = path.join(d, 'in.png');
          const out = path.join(d, 'out.png');
          await encodePng({ width, height, channels: 3, data: asBuffer(rgb) }, file);
          await pool.run<typeof imageUpscale>('imageUpscale', { file, outFile: out });
          return (await decodeImage(out)).data;
        }),
      resize: async (img, w, h) => resizeRaw({ ...img, channels: 3, data: asBuffer(img.data) }, w, h),
      encodePng: async (img) => (await encodePng({ width: img.width, height: img.height, channels: 3, data: asBuffer(img.data) }))!,
    });
    const req = { chips: defaultChips(), note: null, faces: [{ id: 'f', bytes: fs.readFileSync(photoFile), face }], seed: 's' };
    await faces.render(req); // loads ESRGAN in the pool
    const fp = await timed(() => faces.render(req));
    results.portrait_face_photo_seconds = fp.seconds;
    const upload = await timed(async () => {
      const img = await decodeImage(photoFile);
      return mesher.detectMesh({ width: img.width, height: img.height, data: Uint8Array.from(img.data) });
    });
    results.face_photo_check_seconds = upload.seconds;
    const facePng = fp.value.png;

    // Head swaps.
    const engine = (maxWidth: number) =>
      new HeadSwapEngine({
        mesher: async () => mesher,
        runFrame: (task) => pool.run<typeof swapFrame>('swapFrame', task, { transfer: [task.data.buffer as ArrayBuffer] }),
        probe: new FfprobeMediaProbe({}),
        decode: async (png, alpha) => decodeImage(asBuffer(png), { alpha }),
        illustrationCutout,
        maxWidth,
        concurrency: threads * 2,
      });
    const swaps: Array<Record<string, unknown>> = [];
    for (const size of [
      { label: '360x640', face: 220, scale: 1, maxWidth: 360 },
      { label: '720x1280', face: 440, scale: 2, maxWidth: 720 },
    ]) {
      const src = path.join(dir, `talk-${size.label}.mp4`);
      const base = await talkingHeadVideo(path.join(dir, `talk-base-${size.label}.mp4`), { seconds: 5, face: 220 });
      if (size.scale === 1) fs.copyFileSync(base, src);
      else
        await (
          await import('../test/helpers/media-fixtures.js')
        ).runFfmpeg(['-i', base, '-vf', 'scale=720:1280', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'copy', src]);
      for (const persona of [
        { kind: 'photo' as const, png: facePng },
        { kind: 'illustration' as const, png: ill.value.png },
      ]) {
        const run = await timed(() =>
          engine(size.maxWidth).swap({
            source: src,
            seconds: 5,
            portrait: persona,
            quality: 'standard',
            replace: 'head',
            output: path.join(dir, `out-${size.label}-${persona.kind}.mp4`),
          }),
        );
        const row = {
          source: size.label,
          persona: persona.kind,
          frames: run.value.frames,
          seconds: run.seconds,
          fps: Number((run.value.frames / run.seconds).toFixed(1)),
          faces_tracked: run.value.facesTracked,
        };
        swaps.push(row);
        console.log(`swap ${size.label} ${persona.kind}: ${row.frames} frames in ${row.seconds} s = ${row.fps} fps`);
      }
    }
    results.swaps = swaps;
    console.log(`portrait: illustration ${ill.seconds} s, from a face photo ${fp.seconds} s (photo check ${upload.seconds} s)`);
    console.log(`results: ${writeResults('personas', results)}`);
  } finally {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

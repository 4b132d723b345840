import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharpImageInspector } from '../../src/adapters/images/image-inspector.js';
import { MAX_IMAGE_PIXELS, decodeImage, encodePng, readImage } from '../../src/adapters/images/image-format.js';
import { createComputePool } from '../../src/adapters/workers/compute.pool.js';
import { EsrganSlim } from '../../src/adapters/images/upscaler.js';
import { SelfieSegmenter } from '../../src/adapters/images/segmenter.js';
import { HumanFaceDetector } from '../../src/adapters/faces/human.face-detector.js';
import { imageUpscale } from '../../src/adapters/images/images.tasks.js';
import { tempDir } from '../helpers/app.js';
import { pattern, portraitScene, PORTRAIT } from '../helpers/generation-fixtures.js';
import { claimedPng, solidPng } from '../helpers/image-fixtures.js';

/**
 * The image adapters on real bytes: recognition of PNG, JPEG and WebP from the bytes, refusal of
 * other and broken files and of a decompression bomb before any pixel is allocated; the ESRGAN slim
 * upscaler (4×, faithful to the input, tiles joined without seams); the selfie segmentation matte.
 */

const inspector = new SharpImageInspector();

describe('image recognition', () => {
  it('answers the format and size of PNG, JPEG and WebP', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const check = await inspector.inspect(await pattern(33, 21, format));
      expect(check).toEqual({ ok: true, info: { format, contentType: `image/${format}`, width: 33, height: 21 } });
    }
  });

  it('refuses GIF, SVG, TIFF and text as not images, a truncated PNG, JPEG or WebP as undecodable', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .gif()
      .toBuffer();
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .tiff()
      .toBuffer();
    for (const bytes of [gif, tiff, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'), Buffer.from('plain text')]) {
      expect(await inspector.inspect(bytes)).toEqual({ ok: false, reason: 'not_an_image' });
    }
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = await pattern(300, 200, format);
      for (const kept of [0.5, 0.99])
        expect(await inspector.inspect(bytes.subarray(0, Math.floor(bytes.length * kept))), `${format} ${kept}`).toEqual({ ok: false, reason: 'undecodable' });
    }
  });

  it('refuses a PNG claiming 100000×100000 pixels without decoding it', async () => {
    const before = process.memoryUsage().rss;
    expect(await inspector.inspect(claimedPng(100_000, 100_000))).toEqual({ ok: false, reason: 'too_many_pixels', maxPixels: MAX_IMAGE_PIXELS });
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('reads a caller image within bounds: a 6000×4000 PNG decoded shrunk to 2048 px with its own size, 100 MP refused from the header', async () => {
    const { info, image } = await readImage(await solidPng(6000, 4000), { maxSide: 2048 });
    expect(info).toEqual({ format: 'png', contentType: 'image/png', width: 6000, height: 4000 });
    expect(image).toMatchObject({ width: 2048, height: 1365, channels: 3 });
    expect(image.data.length).toBe(2048 * 1365 * 3);
    // Never enlarged.
    expect((await readImage(await pattern(33, 21, 'png'), { maxSide: 2048 })).image).toMatchObject({ width: 33, height: 21 });
    await expect(readImage(claimedPng(100_000, 100_000), { maxSide: 2048 })).rejects.toMatchObject({ name: 'ImageRejected', reason: 'too_many_pixels' });
  });

  it('with a compute pool, checks images in its threads (one image per thread at a time)', async () => {
    const pool = createComputePool(1);
    try {
      const pooled = new SharpImageInspector(pool);
      const checks = await Promise.all([
        pooled.inspect(await solidPng(6000, 6000)),
        pooled.inspect(claimedPng(100_000, 100_000)),
        pooled.inspect(Buffer.from('text')),
      ]);
      expect(checks).toEqual([
        { ok: true, info: { format: 'png', contentType: 'image/png', width: 6000, height: 6000 } },
        { ok: false, reason: 'too_many_pixels', maxPixels: MAX_IMAGE_PIXELS },
        { ok: false, reason: 'not_an_image' },
      ]);
      expect(pool.threadCount).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('decodes to raw pixels and encodes PNG again, unchanged', async () => {
    const raw = await decodeImage(await pattern(20, 10, 'png'));
    expect(raw).toMatchObject({ width: 20, height: 10, channels: 3 });
    const again = await decodeImage((await encodePng(raw))!);
    expect(again.data.equals(raw.data)).toBe(true);
  });
});

describe('ESRGAN slim ×4', () => {
  let model: EsrganSlim;
  beforeAll(async () => {
    model = await EsrganSlim.load();
  });
  afterAll(() => model?.dispose());

  it('makes the image 4× larger and stays faithful to it (its reduction is close to the input)', async () => {
    const src = await decodeImage(await sharp(PORTRAIT).resize(48, 48).png().toBuffer());
    const out = await model.upscale(src.data, 48, 48);
    expect(out.length).toBe(192 * 192 * 3);
    const reduced = await sharp(Buffer.from(out), { raw: { width: 192, height: 192, channels: 3 } })
      .resize(48, 48, { kernel: 'cubic' })
      .raw()
      .toBuffer();
    let diff = 0;
    for (let i = 0; i < reduced.length; i++) diff += Math.abs(reduced[i] - src.data[i]);
    expect(diff / reduced.length).toBeLessThan(6);
    expect(model.backend).toBe('wasm');
  }, 60_000);

  it('keeps a cut-out’s transparency (the alpha channel enlarged beside the network’s colours), an opaque image stays RGB', async () => {
    const dir = tempDir('cutroom-upscale-');
    const patch = await sharp({ create: { width: 20, height: 10, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();
    await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: patch, left: 10, top: 10 }])
      .png()
      .toFile(`${dir}/in.png`);
    expect(await imageUpscale({ file: `${dir}/in.png`, outFile: `${dir}/out.png` })).toMatchObject({ width: 160, height: 120 });
    const out = await sharp(`${dir}/out.png`).raw().toBuffer({ resolveWithObject: true });
    expect(out.info.channels).toBe(4);
    const px = (x: number, y: number) => out.data.subarray((y * 160 + x) * 4, (y * 160 + x) * 4 + 4);
    expect(px(2, 2)[3]).toBe(0);
    expect([...px(80, 60)]).toEqual([expect.any(Number), expect.any(Number), expect.any(Number), 255]);
    expect(px(80, 60)[1]).toBeGreaterThan(150);
    await sharp(PORTRAIT).resize(16, 16).toFile(`${dir}/opaque.jpg`);
    await imageUpscale({ file: `${dir}/opaque.jpg`, outFile: `${dir}/opaque.png` });
    expect((await sharp(`${dir}/opaque.png`).metadata()).channels).toBe(3);
  }, 60_000);

  it('joins tiles without seams: a 120×40 image (two tiles) gives what one pass over it gives', async () => {
    const src = await decodeImage(await pattern(120, 40, 'png'));
    const tiled = await model.upscale(src.data, 120, 40);
    const whole = model.forward((await import('@tensorflow/tfjs-core')).tensor4d(Float32Array.from(src.data), [1, 40, 120, 3]));
    const ref = Uint8Array.from(await whole.data(), (v) => Math.round(v));
    whole.dispose();
    let maxDiff = 0;
    for (let i = 0; i < ref.length; i++) maxDiff = Math.max(maxDiff, Math.abs(ref[i] - tiled[i]));
    expect(maxDiff).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('selfie segmentation', () => {
  it('finds the person in the middle of the scene and not the corners', async () => {
    const seg = await SelfieSegmenter.load();
    try {
      const small = await decodeImage(await portraitScene(640, 480), { resize: { width: seg.inputWidth, height: seg.inputHeight, fit: 'fill' } });
      const m = seg.segment(small.data);
      const at = (x: number, y: number) => m[Math.round(y * seg.inputHeight) * seg.inputWidth + Math.round(x * seg.inputWidth)];
      expect(at(0.5, 0.6)).toBeGreaterThan(200);
      expect(at(0.03, 0.03)).toBeLessThan(60);
      expect(at(0.97, 0.05)).toBeLessThan(60);
    } finally {
      seg.dispose();
    }
  }, 60_000);
});

describe('one TensorFlow.js engine per thread', () => {
  it('runs the upscaler and the segmenter beside the face detector (a compute thread runs all of them)', async () => {
    const rgb = await sharp(PORTRAIT).resize(256, 256).removeAlpha().raw().toBuffer();
    const faces = await HumanFaceDetector.create({});
    try {
      expect(await faces.detect({ width: 256, height: 256, data: rgb })).toHaveLength(1);
      const up = await EsrganSlim.load();
      expect((await up.upscale(rgb.subarray(0, 16 * 16 * 3), 16, 16)).length).toBe(64 * 64 * 3);
      const seg = await SelfieSegmenter.load();
      expect(seg.segment(rgb).length).toBe(256 * 256);
      expect(await faces.detect({ width: 256, height: 256, data: rgb })).toHaveLength(1);
      up.dispose();
      seg.dispose();
    } finally {
      await faces.close();
    }
  }, 60_000);
});

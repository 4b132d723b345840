import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobePath } from '../../src/adapters/media/binaries.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { FakeFal, FakeOpenAi, FakeReplicate, decodeDataUri } from '../helpers/fake-generation-providers.js';
import { download, framesDir, portraitScene, uploadImage, waitGeneration } from '../helpers/generation-fixtures.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * Generations run end to end with in-process workers: the embedded chain (upload → upscale-x4 → ready
 * with output.image_id → camera-motion of that image → an MP4 of the asked duration whose frames change),
 * cut-out and parallax, the same chain through fal-protocol and Replicate-protocol servers configured
 * with the admin API, an OpenAI-compatible image, and a provider failure and a content-policy refusal
 * refunded. Frames of every embedded output are left in .tmp/generation-frames/ for a person to look at.
 */

let t: TestApp;
let ws: { id: string; key: string };
let fx: string;
let scene: Buffer;
let fal: FakeFal;
let replicate: FakeReplicate;
let openai: FakeOpenAi;
let fakeVideo: Buffer;
/** What the fake providers' video models answer per asked duration (seconds → MP4). */
const videosOfSeconds = new Map<number, Buffer>();
let fakeImage: Buffer;

beforeAll(async () => {
  fx = tempDir('cutroom-gen-');
  scene = await portraitScene(256, 192);
  fakeImage = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2a7f62' } })
    .png()
    .toBuffer();
  fakeVideo = fs.readFileSync(await makeVideo(path.join(fx, 'provider.mp4'), { seconds: 2, width: 320, height: 240, audio: false }));
  // The hosted video models render the duration they are asked for, as real ones do.
  for (const seconds of [4, 5])
    videosOfSeconds.set(
      seconds,
      fs.readFileSync(await makeVideo(path.join(fx, `provider-${seconds}s.mp4`), { seconds, width: 320, height: 240, audio: false })),
    );
  const outputs = { image: fakeImage, video: fakeVideo, videoOfSeconds: (s: number) => videosOfSeconds.get(s) };
  [fal, replicate, openai] = await Promise.all([new FakeFal(outputs).start(), new FakeReplicate(outputs).start(), new FakeOpenAi(outputs).start()]);
  t = await createTestApp({ workers: true, env: { CUTROOM_GENERATION_POLL_MS: '20', CUTROOM_COMPUTE_THREADS: '1' } });
  ws = await t.workspace({ credits: 500 });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([fal?.close(), replicate?.close(), openai?.close()]);
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

function probe(file: string): Promise<any> {
  return new Promise((resolve, reject) =>
    execFile(ffprobePath(), ['-v', 'error', '-show_streams', '-show_format', '-count_frames', '-of', 'json', file], (err, out) =>
      err ? reject(err) : resolve(JSON.parse(out)),
    ),
  );
}

/** Frame at `t` seconds as a PNG in `dir` (kept) and as grey pixels. */
async function frame(video: string, at: number, dir: string, name: string): Promise<Buffer> {
  const png = path.join(dir, `${name}.png`);
  await runFfmpeg(['-ss', String(at), '-i', video, '-frames:v', '1', '-y', png]);
  return sharp(png).greyscale().raw().toBuffer();
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

/** Mean absolute Laplacian of an image's grey levels: how much fine detail (edges, texture) it has. */
async function laplacianEnergy(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const w = info.width;
  let sum = 0;
  for (let y = 1; y < info.height - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      sum += Math.abs(4 * data[i] - data[i - 1] - data[i + 1] - data[i - w] - data[i + w]);
    }
  }
  return sum / ((w - 2) * (info.height - 2));
}

async function generate(body: Record<string, unknown>): Promise<any> {
  const res = await t.api(ws.key, 'POST', '/generations', body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return waitGeneration(t, ws.key, res.body.id);
}

async function balance(): Promise<number> {
  return (await t.api(ws.key, 'GET', '/balance')).body.balance;
}

/** Checks a ready video output: MP4, its size, its duration, frames that change; frames kept in `dir`. */
async function checkVideo(g: any, name: string, seconds: number, width: number, height: number): Promise<void> {
  expect(g.status, g.error_code).toBe('ready');
  expect(g.output).toMatchObject({ content_type: 'video/mp4', width, height });
  const file = path.join(fx, `${name}.mp4`);
  fs.writeFileSync(file, await download(t, g.output.url));
  const p = await probe(file);
  const v = p.streams.find((s: any) => s.codec_type === 'video');
  expect(v).toMatchObject({ codec_name: 'h264', width, height, pix_fmt: 'yuv420p' });
  expect(Number(p.format.duration)).toBeCloseTo(seconds, 1);
  expect(p.streams.some((s: any) => s.codec_type === 'audio')).toBe(false);
  const dir = framesDir(name);
  const first = await frame(file, 0, dir, 'first');
  const middle = await frame(file, seconds / 2, dir, 'middle');
  const last = await frame(file, seconds - 0.1, dir, 'last');
  // The camera moves: the frames differ, more at the end than half-way.
  expect(meanAbsDiff(first, middle)).toBeGreaterThan(1.5);
  expect(meanAbsDiff(first, last)).toBeGreaterThan(meanAbsDiff(first, middle));
  // No black border: every edge row and column of the last frame has picture in it.
  const edge = await sharp(path.join(dir, 'last.png')).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = edge.info;
  const rowMean = (y: number) => edge.data.subarray(y * w, (y + 1) * w).reduce((a, b) => a + b, 0) / w;
  const colMean = (x: number) => {
    let sum = 0;
    for (let y = 0; y < h; y++) sum += edge.data[y * w + x];
    return sum / h;
  };
  expect(Math.min(rowMean(0), rowMean(h - 1), colMean(0), colMean(w - 1))).toBeGreaterThan(12);
}

describe('embedded chain', () => {
  it('upload → upscale-x4 → camera-motion of its output image: an MP4 of the asked duration whose frames change', async () => {
    const img = await uploadImage(t, ws.key, scene);
    const before = await balance();
    const up = await generate({ model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(up.status, up.error_code).toBe('ready');
    expect(up.output).toMatchObject({ content_type: 'image/png', width: 1024, height: 768 });
    expect(up.output.image_id).toMatch(/^gim_/);
    const bytes = await download(t, up.output.url);
    fs.writeFileSync(path.join(framesDir('upscale-x4'), 'output.png'), bytes);
    fs.writeFileSync(path.join(framesDir('upscale-x4'), 'input.png'), scene);
    // The upscale looks like the input: its 4× reduction is close to it.
    const down = await sharp(bytes).resize(256, 192, { kernel: 'cubic' }).removeAlpha().raw().toBuffer();
    const orig = await sharp(scene).removeAlpha().raw().toBuffer();
    expect(meanAbsDiff(down, orig)).toBeLessThan(12);
    // …and is sharper than a plain bicubic enlargement would be (more high-frequency energy).
    const cubic = await sharp(scene).resize(1024, 768, { kernel: 'cubic' }).png().toBuffer();
    expect(await laplacianEnergy(bytes)).toBeGreaterThan(1.8 * (await laplacianEnergy(cubic)));
    const motion = await generate({
      model_id: 'camera-motion',
      image_ids: [up.output.image_id],
      options: { duration: 2, aspect_ratio: '9:16', resolution: '360p', motion: 'push_in' },
      credits: 2,
    });
    await checkVideo(motion, 'camera-motion', 2, 360, 640);
    expect(motion.output.seconds).toBeCloseTo(2, 1);
    expect(await balance()).toBe(before - 4);
  }, 400_000);

  it('cutout: the person on transparency, and on a solid colour', async () => {
    const img = await uploadImage(t, ws.key, scene);
    const cut = await generate({ model_id: 'cutout', image_ids: [img.id], credits: 1 });
    expect(cut.status, cut.error_code).toBe('ready');
    expect(cut.output).toMatchObject({ content_type: 'image/png', width: 256, height: 192 });
    const png = await download(t, cut.output.url);
    fs.writeFileSync(path.join(framesDir('cutout'), 'transparent.png'), png);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    // Corners are background (transparent); the face in the middle is kept (opaque).
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    expect(alpha(3, 3)).toBeLessThan(64);
    expect(alpha(info.width - 4, 3)).toBeLessThan(64);
    expect(alpha(info.width / 2, Math.round(info.height * 0.6))).toBeGreaterThan(192);
    const green = await generate({ model_id: 'cutout', image_ids: [img.id], options: { background: '#00ff00' }, credits: 1 });
    const gpng = await download(t, green.output.url);
    fs.writeFileSync(path.join(framesDir('cutout'), 'green.png'), gpng);
    const g = await sharp(gpng).raw().toBuffer({ resolveWithObject: true });
    expect(g.info.channels).toBe(3);
    expect([g.data[0], g.data[1], g.data[2]]).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(g.data[1]).toBeGreaterThan(200);
    expect(g.data[0]).toBeLessThan(60);
  }, 300_000);

  it('parallax: the cut-out person moves against the background', async () => {
    const img = await uploadImage(t, ws.key, scene);
    const options = { duration: 2, aspect_ratio: '16:9', resolution: '360p', motion: 'pan_right' };
    const p = await generate({ model_id: 'parallax', image_ids: [img.id], options, credits: 4 });
    await checkVideo(p, 'parallax', 2, 640, 360);
    // The same move without layers: the background goes where the camera takes it in both videos, the
    // person (a nearer plane) travels further in the parallax, so at the start it is elsewhere.
    const flat = await generate({ model_id: 'camera-motion', image_ids: [img.id], options, credits: 2 });
    expect(flat.status, flat.error_code).toBe('ready');
    const flatFile = path.join(fx, 'parallax-flat.mp4');
    fs.writeFileSync(flatFile, await download(t, flat.output.url));
    const dir = framesDir('parallax');
    const layered = await frame(path.join(fx, 'parallax.mp4'), 0, dir, 'first');
    const plain = await frame(flatFile, 0, dir, 'first-camera-motion');
    // 640×360 frames of the 256×192 scene's window x 0–217, y 35–157 (2.95 px a pixel): the background's
    // top-left corner, and the face (the portrait spans x 51–205, y 38–192 of the scene).
    const region = (g: Buffer, x0: number, y0: number, x1: number, y1: number) => {
      const out: number[] = [];
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out.push(g[y * 640 + x]);
      return Buffer.from(out);
    };
    const corner = meanAbsDiff(region(layered, 0, 0, 60, 40), region(plain, 0, 0, 60, 40));
    const face = meanAbsDiff(region(layered, 240, 130, 530, 340), region(plain, 240, 130, 530, 340));
    expect(corner).toBeLessThan(4);
    expect(face).toBeGreaterThan(corner + 10);
  }, 300_000);
});

describe('hosted chain (configured with the admin API)', () => {
  async function configure(id: string, body: Record<string, unknown>) {
    const res = await t.admin('PUT', `/generation-models/${id}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }

  it('fal: upload → image from it → video of that image, outputs stored by the service', async () => {
    await configure('fal-image', {
      name: 'fal image',
      kind: 'image',
      provider: 'fal',
      provider_model: 'fal-ai/flux/dev',
      base_url: fal.url,
      api_key: fal.key,
      price: { per_image: 3 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 1 } },
    });
    await configure('fal-video', {
      name: 'fal video',
      kind: 'video',
      provider: 'fal',
      provider_model: 'fal-ai/kling-video/v2/image-to-video',
      base_url: fal.url,
      api_key: fal.key,
      price: { per_second: 2 },
      max_seconds: 10,
      inputs: { prompt: 'optional', image_ids: { min: 1, max: 1 } },
    });
    const upload = await uploadImage(t, ws.key, scene);
    const image = await generate({ model_id: 'fal-image', prompt: 'a green field', image_ids: [upload.id], credits: 3 });
    expect(image.status, image.error_code).toBe('ready');
    expect(image.output).toMatchObject({ content_type: 'image/png', width: 320, height: 240 });
    const first = fal.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(first.path).toBe('/fal-ai/flux/dev');
    expect(decodeDataUri(first.json.image_url)?.bytes).toEqual(scene);
    expect(image.output.url).not.toContain(fal.url);
    expect(await download(t, image.output.url)).toEqual(fakeImage);
    const video = await generate({
      model_id: 'fal-video',
      image_ids: [image.output.image_id],
      prompt: 'the camera flies over',
      options: { duration: 5 },
      credits: 10,
    });
    expect(video.status, video.error_code).toBe('ready');
    expect(video.output).toMatchObject({ content_type: 'video/mp4', width: 320, height: 240 });
    expect(await download(t, video.output.url)).toEqual(videosOfSeconds.get(5));
    expect(video.output.seconds).toBeCloseTo(5, 1);
    const submit = fal.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(submit.path).toBe('/fal-ai/kling-video/v2/image-to-video');
    expect(submit.json).toMatchObject({ prompt: 'the camera flies over', duration: 5 });
    expect(decodeDataUri(submit.json.image_url)?.bytes).toEqual(fakeImage);
    expect(fal.violations).toEqual([]);
  }, 120_000);

  it('Replicate: upload → image from it → video of that image', async () => {
    await configure('rep-image', {
      name: 'rep image',
      kind: 'image',
      provider: 'replicate',
      provider_model: 'black-forest-labs/flux-schnell',
      base_url: replicate.url,
      api_key: replicate.key,
      price: { per_image: 2 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 1 } },
    });
    await configure('rep-video', {
      name: 'rep video',
      kind: 'video',
      provider: 'replicate',
      provider_model: 'acme/video-maker',
      base_url: replicate.url,
      api_key: replicate.key,
      price: { per_second: 1 },
      max_seconds: 8,
      image_field: 'start_image',
      inputs: { prompt: 'optional', image_ids: { min: 1, max: 1 } },
    });
    const upload = await uploadImage(t, ws.key, scene);
    const image = await generate({ model_id: 'rep-image', prompt: 'a field [slow]', image_ids: [upload.id], credits: 2 });
    expect(image.status, image.error_code).toBe('ready');
    expect(decodeDataUri(replicate.requests.filter((r) => r.method === 'POST').at(-1)!.json.input.image)?.bytes).toEqual(scene);
    const video = await generate({ model_id: 'rep-video', image_ids: [image.output.image_id], options: { duration: 4 }, credits: 4 });
    expect(video.status, video.error_code).toBe('ready');
    expect(await download(t, video.output.url)).toEqual(videosOfSeconds.get(4));
    expect(video.output.seconds).toBeCloseTo(4, 1);
    expect(video.credits_charged).toBe(4);
    const create = replicate.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(create.path).toBe('/v1/models/acme/video-maker/predictions');
    expect(decodeDataUri(create.json.input.start_image)?.bytes).toEqual(fakeImage);
    expect(replicate.violations).toEqual([]);
  }, 120_000);

  it('an OpenAI-compatible server: an image from a prompt', async () => {
    await configure('oai-image', {
      name: 'oai',
      kind: 'image',
      provider: 'openai',
      provider_model: 'gpt-image-1',
      base_url: openai.url,
      api_key: openai.key,
      price: { per_image: 5 },
      inputs: { prompt: 'required', image_ids: { min: 0, max: 2 } },
    });
    const g = await generate({ model_id: 'oai-image', prompt: 'a lamp', credits: 5 });
    expect(g.status, g.error_code).toBe('ready');
    expect(await download(t, g.output.url)).toEqual(fakeImage);
  }, 60_000);

  it('refunds a provider failure and a content-policy refusal, with their error codes and ledger rows', async () => {
    const before = await balance();
    const failed = await generate({ model_id: 'fal-image', prompt: 'x [fail]', credits: 3 });
    expect(failed).toMatchObject({ status: 'failed', error_code: 'PROVIDER_FAILED', credits_charged: 0, output: null });
    const refused = await generate({ model_id: 'rep-image', prompt: 'x [refuse]', credits: 2 });
    expect(refused).toMatchObject({ status: 'failed', error_code: 'CONTENT_POLICY_REFUSED', credits_charged: 0 });
    const refusedFal = await generate({ model_id: 'fal-image', prompt: 'x [refuse]', credits: 3 });
    expect(refusedFal.error_code).toBe('CONTENT_POLICY_REFUSED');
    expect(await balance()).toBe(before);
    const entries = (await t.api(ws.key, 'GET', '/balance/history?limit=100')).body.entries;
    for (const g of [failed, refused, refusedFal]) {
      const rows = entries.filter((e: any) => e.job_id === g.id).map((e: any) => [e.kind, e.amount]);
      expect(rows.sort()).toEqual([
        ['charge', -(g.model_id === 'rep-image' ? 2 : 3)],
        ['refund', g.model_id === 'rep-image' ? 2 : 3],
      ]);
    }
  }, 120_000);
});

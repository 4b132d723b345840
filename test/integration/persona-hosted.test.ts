import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHostedClient } from '../../src/adapters/generation/hosted-client.factory.js';
import { SafeOutputFetcher } from '../../src/adapters/generation/output-fetcher.js';
import { NodeLocalFiles } from '../../src/adapters/files/local-files.js';
import { decodeImage, encodePng } from '../../src/adapters/images/image-format.js';
import { FfprobeMediaProbe } from '../../src/adapters/media/ffprobe.js';
import { HostedPortraitEngine, HostedSwapEngine, type HostedEngineOptions } from '../../src/adapters/personas/hosted.engines.js';
import { defaultChips } from '../../src/domain/personas/persona-catalog.js';
import type { HostedProvider } from '../../src/ports/hosted-generation.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { decodeDataUri, FakeFal, FakeOpenAi, FakeReplicate } from '../helpers/fake-generation-providers.js';
import { download } from '../helpers/generation-fixtures.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { facePhoto, talkingHeadVideo } from '../helpers/persona-fixtures.js';

/**
 * The hosted persona engines against local servers speaking the providers' protocols (the shared fakes):
 * portraits from chips and from face photos (prompt, references, the output stored as PNG), swaps (the
 * source sent inline, the answer given the source's sound and length), refusals, failures and slow
 * jobs; then the whole chain over HTTP with the engines configured: a failure is refunded.
 */

const probe = new FfprobeMediaProbe({});
let fx: string;
let outputs: { image: Buffer; video: Buffer };
let source: string;
let fal: FakeFal;
let replicate: FakeReplicate;
let openai: FakeOpenAi;

beforeAll(async () => {
  fx = tempDir('cutroom-persona-hosted-');
  const png = path.join(fx, 'out.png');
  await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=256x320', '-frames:v', '1', png]);
  const mp4 = path.join(fx, 'out.mp4');
  // The provider's answer: a silent clip of another size than the source.
  await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=240x426:rate=15', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', mp4]);
  outputs = { image: fs.readFileSync(png), video: fs.readFileSync(mp4) };
  source = await talkingHeadVideo(path.join(fx, 'talk.mp4'), { seconds: 3 });
  fal = await new FakeFal(outputs).start();
  replicate = await new FakeReplicate(outputs).start();
  openai = await new FakeOpenAi(outputs).start();
}, 120_000);

afterAll(async () => {
  await Promise.all([fal?.close(), replicate?.close(), openai?.close()]);
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

afterEach(() => {
  for (const p of [fal, replicate, openai]) expect(p.violations).toEqual([]);
});

function options(provider: HostedProvider, fake: { url: string; key: string }, model: string): HostedEngineOptions {
  return {
    client: createHostedClient({ provider, baseUrl: fake.url, apiKey: fake.key }),
    model,
    options: { num_inference_steps: 28 },
    pollMs: 20,
    timeoutMs: 10_000,
    fetcher: new SafeOutputFetcher({ allowPrivate: false }),
    maxBytes: 50 * 1024 * 1024,
    trustedOrigin: fake.url,
    files: new NodeLocalFiles(fx),
  };
}

const toPng = async (file: string) => {
  const img = await decodeImage(file);
  return { png: (await encodePng(img))!, width: img.width, height: img.height };
};

describe('hosted portrait engine', () => {
  it('fal: the chips as a prompt, the output stored as PNG; slow jobs polled; refusals and failures as codes', async () => {
    const engine = new HostedPortraitEngine({ ...options('fal', fal, 'fal-ai/flux/dev'), toPng });
    expect(engine.name).toBe('fal:fal-ai/flux/dev');
    const chips = { ...defaultChips(), hair_color: 'red', accessory: 'glasses', mark: 'freckles' };
    fal.plan({ course: 'succeed', polls: 4 });
    const out = await engine.render({ chips, note: 'looking into the camera', faces: [], seed: 'x' });
    expect(out).toMatchObject({ kind: 'photo', width: 256, height: 320 });
    expect(out.png.subarray(1, 4).toString()).toBe('PNG');
    const [job] = [...fal.jobs.values()].slice(-1);
    expect(job.model).toBe('fal-ai/flux/dev');
    expect(job.input.prompt).toMatch(/^Photorealistic head-and-shoulders portrait photo of a female adult person from europe, friendly expression/);
    for (const word of ['red hair', 'with glasses', 'with freckles', 'friendly expression', 'looking into the camera'])
      expect(job.input.prompt).toContain(word);
    expect(job.input.num_inference_steps).toBe(28);

    fal.plan({ course: 'refuse', polls: 1 });
    await expect(engine.render({ chips, note: null, faces: [], seed: 'x' })).rejects.toMatchObject({ code: 'CONTENT_POLICY_REFUSED' });
    fal.plan({ course: 'fail', polls: 1 });
    await expect(engine.render({ chips, note: null, faces: [], seed: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('openai-compatible: face photos sent as references (an edit), the prompt keeps their identity', async () => {
    const engine = new HostedPortraitEngine({ ...options('openai', openai, 'gpt-image-1'), toPng });
    const face = fs.readFileSync(await facePhoto(path.join(fx, 'face.png')));
    const out = await engine.render({
      chips: defaultChips(),
      note: null,
      faces: [{ id: 'face_1', bytes: face, face: { box: { x: 0, y: 0, width: 1, height: 1 }, score: 1, mesh: [] } }],
      seed: 'x',
    });
    expect(out.kind).toBe('photo');
    const edit = openai.requests.find((r) => r.path === '/v1/images/edits')!;
    expect(edit).toBeDefined();
    expect(edit.body.includes(face.subarray(0, 64))).toBe(true);
    expect(edit.body.toString('latin1')).toContain('person in the reference photos');
  });
});

describe('hosted engines: failures, slow jobs, time-outs and cancellations', () => {
  it('openai-compatible: a refusal and a server failure become codes (refunded by the job)', async () => {
    const engine = new HostedPortraitEngine({ ...options('openai', openai, 'gpt-image-1'), toPng });
    openai.plan({ course: 'refuse', polls: 0 });
    await expect(engine.render({ chips: defaultChips(), note: null, faces: [], seed: 'x' })).rejects.toMatchObject({ code: 'CONTENT_POLICY_REFUSED' });
    openai.plan({ course: 'fail', polls: 0 });
    await expect(engine.render({ chips: defaultChips(), note: null, faces: [], seed: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('fal swap: a slow job is polled through IN_QUEUE/IN_PROGRESS to its result; no result in time → GENERATION_TIMEOUT, the job cancelled at fal', async () => {
    const engine = new HostedSwapEngine({ ...options('fal', fal, 'acme/video-swap'), replaceModes: ['person', 'head'], probe });
    const portrait = fs.readFileSync(await facePhoto(path.join(fx, 'persona-fal.png')));
    const req = {
      source,
      seconds: 3,
      portrait: { png: portrait, kind: 'photo' as const },
      quality: 'standard' as const,
      replace: 'head' as const,
      output: path.join(fx, 'swap-fal.mp4'),
    };
    const before = fal.requests.length;
    fal.plan({ course: 'succeed', polls: 5 });
    await engine.swap(req);
    const statusCalls = fal.requests.slice(before).filter((r) => r.path.endsWith('/status'));
    expect(statusCalls.length).toBeGreaterThanOrEqual(5);
    expect((await probe.probe(req.output)).hasAudio).toBe(true);

    const quick = new HostedSwapEngine({ ...options('fal', fal, 'acme/video-swap'), timeoutMs: 300, replaceModes: ['person', 'head'], probe });
    fal.plan({ course: 'succeed', polls: 100_000 });
    await expect(quick.swap(req)).rejects.toMatchObject({ code: 'GENERATION_TIMEOUT' });
    const [job] = [...fal.jobs.values()].slice(-1);
    expect(job.canceled).toBe(true);
    expect(fal.requests.some((r) => r.method === 'PUT' && r.path.endsWith(`/requests/${job.id}/cancel`))).toBe(true);
  }, 60_000);

  it('replicate portrait: a slow prediction is polled through starting/processing; one cancelled at Replicate → PROVIDER_CANCELED', async () => {
    const engine = new HostedPortraitEngine({ ...options('replicate', replicate, 'acme/portrait'), toPng });
    replicate.plan({ course: 'succeed', polls: 4 });
    expect((await engine.render({ chips: defaultChips(), note: null, faces: [], seed: 'x' })).kind).toBe('photo');
    const [slow] = [...replicate.jobs.values()].slice(-1);
    expect(slow.seen).toBeGreaterThan(4);

    replicate.plan({ course: 'succeed', polls: 100_000 });
    const known = new Set(replicate.jobs.keys());
    const rendering = engine.render({ chips: defaultChips(), note: null, faces: [], seed: 'x' });
    const outcome = rendering.catch((e) => e);
    let job;
    while (!(job = [...replicate.jobs.values()].find((j) => !known.has(j.id)))) await new Promise((r) => setTimeout(r, 10));
    // Someone cancels the prediction at Replicate (its dashboard): the next poll answers `canceled`.
    job.canceled = true;
    expect(await outcome).toMatchObject({ code: 'PROVIDER_CANCELED' });
  }, 30_000);
});

describe('hosted swap engine', () => {
  it('replicate: the source sent inline, the answer with the source sound and length; modes checked', async () => {
    const engine = new HostedSwapEngine({
      ...options('replicate', replicate, 'acme/video-face-swap'),
      replaceModes: ['person'],
      videoField: 'target_video',
      probe,
    });
    expect(engine.replaceModes).toEqual(['person']);
    const portrait = fs.readFileSync(await facePhoto(path.join(fx, 'persona.png')));
    const output = path.join(fx, 'swap.mp4');
    const res = await engine.swap({ source, seconds: 3, portrait: { png: portrait, kind: 'photo' }, quality: 'high', replace: 'person', output });
    expect(res).toMatchObject({ width: 240, height: 426 });
    const [job] = [...replicate.jobs.values()].slice(-1);
    expect(decodeDataUri(job.input.target_video)!.bytes.equals(fs.readFileSync(source))).toBe(true);
    expect(job.input.replace).toBe('person');
    expect(job.input.prompt).toContain('Replace the main person');
    const info = await probe.probe(output);
    expect(info.hasAudio).toBe(true);
    expect(Math.abs(info.duration - 3)).toBeLessThan(0.2);
    await expect(
      engine.swap({ source, seconds: 3, portrait: { png: portrait, kind: 'photo' }, quality: 'high', replace: 'head', output }),
    ).rejects.toMatchObject({ code: 'REPLACE_MODE_UNAVAILABLE' });
    replicate.plan({ course: 'fail', polls: 1 });
    await expect(
      engine.swap({ source, seconds: 3, portrait: { png: portrait, kind: 'photo' }, quality: 'high', replace: 'person', output }),
    ).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  }, 60_000);
});

describe('hosted engines over HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      workers: true,
      env: {
        CUTROOM_PERSONA_PORTRAIT_PROVIDER: 'fal',
        CUTROOM_PERSONA_PORTRAIT_MODEL: 'fal-ai/flux/dev',
        CUTROOM_PERSONA_PORTRAIT_BASE_URL: fal.url,
        CUTROOM_PERSONA_PORTRAIT_API_KEY: fal.key,
        CUTROOM_PERSONA_SWAP_PROVIDER: 'fal',
        CUTROOM_PERSONA_SWAP_MODEL: 'acme/video-swap',
        CUTROOM_PERSONA_SWAP_BASE_URL: fal.url,
        CUTROOM_PERSONA_SWAP_API_KEY: fal.key,
        CUTROOM_GENERATION_POLL_MS: '20',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  async function waitFor(key: string, url: string, field: string): Promise<any> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await t.api(key, 'GET', url);
      if (r.body[field] !== 'processing') return r.body;
      if (Date.now() > deadline) throw new Error(`${url} still processing`);
      await new Promise((res) => setTimeout(res, 150));
    }
  }

  it('the catalog names the hosted engines; a photo portrait; a `person` swap; a failed swap is refunded', async () => {
    const ws = await t.workspace({ credits: 30 });
    const catalog = await t.api(ws.key, 'GET', '/personas/catalog');
    expect(catalog.body.engines.portrait.chips).toEqual({ name: 'fal:fal-ai/flux/dev', kind: 'photo', reads_notes: true });
    expect(catalog.body.engines.swap).toMatchObject({
      name: 'fal:acme/video-swap',
      label: 'generative',
      replace: { person: { available: true }, head: { available: true } },
    });

    const created = await t.api(ws.key, 'POST', '/personas', { chips: { hair_color: 'blonde' } });
    expect(created.status).toBe(202);
    const persona = await waitFor(ws.key, `/personas/${created.body.id}`, 'image_status');
    expect(persona).toMatchObject({ image_status: 'ready', image_kind: 'photo' });
    expect((await download(t, persona.image_url)).equals(Buffer.from((await toPng(path.join(fx, 'out.png'))).png))).toBe(true);
    // A note goes to the model as it is.
    const noted = await t.api(ws.key, 'POST', `/personas/${created.body.id}/regenerate`, { note: 'a warmer smile' });
    expect(noted.status).toBe(202);
    await waitFor(ws.key, `/personas/${created.body.id}`, 'image_status');
    expect([...fal.jobs.values()].slice(-1)[0].input.prompt).toMatch(/a warmer smile$/);
    // A refused portrait: failed with its code, refunded, the current version kept.
    const beforeRefusal = (await t.api(ws.key, 'GET', '/balance')).body.balance;
    fal.plan({ course: 'refuse', polls: 1 });
    const refused = await t.api(ws.key, 'POST', `/personas/${created.body.id}/regenerate`, { chips: { hair_color: 'black' } });
    expect(refused.status).toBe(202);
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(beforeRefusal - 1);
    const failedPortrait = await waitFor(ws.key, `/personas/${created.body.id}`, 'image_status');
    expect(failedPortrait).toMatchObject({ image_status: 'failed', error_code: 'CONTENT_POLICY_REFUSED' });
    expect(failedPortrait.versions).toHaveLength(2);
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(beforeRefusal);

    const bytes = fs.readFileSync(source);
    const up = await t.api(ws.key, 'POST', '/personas/sources/upload', { file_name: 'talk.mp4', file_size: bytes.length, content_type: 'video/mp4' });
    const u = new URL(up.body.upload_url);
    await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': 'video/mp4' }, payload: bytes });
    const quote = await t.api(ws.key, 'GET', `/personas/swap/quote?media_id=${up.body.media_id}&quality=high`);
    expect(quote.body).toMatchObject({ replace: 'person', quality: 'high' });
    const before = (await t.api(ws.key, 'GET', '/balance')).body.balance;
    const ok = await t.api(ws.key, 'POST', `/personas/${created.body.id}/videos`, {
      type: 'swap',
      media_id: up.body.media_id,
      quality: 'high',
      credits: quote.body.credits,
    });
    expect(ok.status).toBe(202);
    const done = await waitFor(ws.key, `/personas/${created.body.id}/videos/${ok.body.id}`, 'status');
    expect(done).toMatchObject({ status: 'ready', replace: 'person', engine: 'fal:acme/video-swap' });
    expect(done.edit_id).toMatch(/^edit_/);

    // A refusal is final (a provider error is retried by the job first): failed, refunded.
    fal.plan({ course: 'refuse', polls: 1 });
    const bad = await t.api(ws.key, 'POST', `/personas/${created.body.id}/videos`, {
      type: 'swap',
      media_id: up.body.media_id,
      quality: 'high',
      credits: quote.body.credits,
    });
    const failed = await waitFor(ws.key, `/personas/${created.body.id}/videos/${bad.body.id}`, 'status');
    expect(failed).toMatchObject({ status: 'failed', error_code: 'CONTENT_POLICY_REFUSED', credits_charged: 0 });
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(before - quote.body.credits);
  }, 120_000);
});

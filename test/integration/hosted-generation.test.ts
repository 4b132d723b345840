import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FalClient } from '../../src/adapters/generation/fal.client.js';
import { ReplicateClient } from '../../src/adapters/generation/replicate.client.js';
import { OpenAiImagesClient } from '../../src/adapters/generation/openai-images.client.js';
import { createHostedClient } from '../../src/adapters/generation/hosted-client.factory.js';
import { runHostedJob } from '../../src/domain/generations/hosted-run.js';
import type { HostedClientConfig, HostedGenerationClient, ReferenceImage } from '../../src/ports/hosted-generation.js';
import { FakeFal, FakeOpenAi, FakeReplicate, decodeDataUri } from '../helpers/fake-generation-providers.js';

/**
 * The hosted generation clients against local servers speaking fal's queue, Replicate's predictions and
 * the OpenAI Images protocols: success after queued/running polls, the reference image sent inline,
 * a content-policy refusal, a provider failure, a slow job cancelled at the deadline, a wrong key, an
 * unreachable provider.
 */

const outputs = { image: Buffer.from('png-bytes-of-the-output'), video: Buffer.from('mp4-bytes-of-the-output') };
const ref: ReferenceImage = { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]), contentType: 'image/png', fileName: 'image.png' };
const fast = { pollMs: 5, timeoutMs: 5000 };

let fal: FakeFal;
let replicate: FakeReplicate;
let openai: FakeOpenAi;

beforeAll(async () => {
  [fal, replicate, openai] = await Promise.all([new FakeFal(outputs).start(), new FakeReplicate(outputs).start(), new FakeOpenAi(outputs).start()]);
});

afterAll(async () => {
  await Promise.all([fal?.close(), replicate?.close(), openai?.close()]);
});

function client(provider: HostedClientConfig['provider'], over: Partial<HostedClientConfig> = {}): HostedGenerationClient {
  const server = provider === 'fal' ? fal : provider === 'replicate' ? replicate : openai;
  return createHostedClient({ provider, baseUrl: server.url, apiKey: server.key, ...over });
}

describe('fal queue client', () => {
  it('submits with the key, polls IN_QUEUE then IN_PROGRESS then COMPLETED, and reads the image URLs of the result', async () => {
    fal.defaultPolls = 2;
    const seen: string[] = [];
    const out = await runHostedJob(
      client('fal'),
      { providerModel: 'fal-ai/flux/dev', kind: 'image', prompt: 'a red fox', images: [ref], options: { num_images: 1 } },
      { ...fast, onSubmitted: async (id) => void seen.push(id) },
    );
    expect(out.state).toBe('succeeded');
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ url: `${fal.url}/files/out.png` }]);
    expect(seen).toEqual([out.jobId]);
    expect(out.jobId).toMatch(/^fal-ai\/flux\/requests\/[0-9a-f]+$/);
    const submit = fal.requests.find((r) => r.method === 'POST')!;
    expect(submit.path).toBe('/fal-ai/flux/dev');
    expect(submit.headers.authorization).toBe(`Key ${fal.key}`);
    expect(submit.json.prompt).toBe('a red fox');
    expect(submit.json.num_images).toBe(1);
    expect(decodeDataUri(submit.json.image_url)).toEqual({ contentType: 'image/png', bytes: ref.bytes });
    const paths = fal.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{16}/, 'ID')}`);
    expect(paths).toEqual([
      'POST /fal-ai/flux/dev',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID/status',
      'GET /fal-ai/flux/requests/ID',
    ]);
    expect(fal.violations).toEqual([]);
  });

  it('reads video.url of a video model and sends several images as image_urls (or the model’s own field)', async () => {
    fal.defaultPolls = 0;
    const out = await runHostedJob(
      client('fal'),
      { providerModel: 'fal-ai/kling-video/v2/image-to-video', kind: 'video', prompt: 'pan', images: [ref, ref], options: { duration: '5' } },
      fast,
    );
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ url: `${fal.url}/files/out.mp4` }]);
    expect(fal.requests.at(-3)!.json.image_urls).toHaveLength(2);
    await runHostedJob(
      client('fal'),
      { providerModel: 'fal-ai/kling-video/v2', kind: 'video', images: [ref], options: {}, imageField: 'start_image_url' },
      fast,
    );
    const sent = fal.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(decodeDataUri(sent.json.start_image_url)?.bytes).toEqual(ref.bytes);
    expect(sent.json.prompt).toBeUndefined();
  });

  it('answers a content_policy_violation as a refusal and a 500 result as a failure', async () => {
    const refused = await runHostedJob(client('fal'), { providerModel: 'fal-ai/flux/dev', kind: 'image', prompt: 'x [refuse]', images: [], options: {} }, fast);
    expect(refused.state).toBe('refused');
    const failed = await runHostedJob(client('fal'), { providerModel: 'fal-ai/flux/dev', kind: 'image', prompt: 'x [fail]', images: [], options: {} }, fast);
    expect(failed).toMatchObject({ state: 'failed' });
  });

  it('cancels a job still queued at the deadline (PUT …/cancel)', async () => {
    fal.defaultPolls = 1000;
    const out = await runHostedJob(
      client('fal'),
      { providerModel: 'fal-ai/flux/dev', kind: 'image', prompt: 'x', images: [], options: {} },
      { pollMs: 10, timeoutMs: 120 },
    );
    fal.defaultPolls = 1;
    expect(out).toMatchObject({ state: 'failed', timedOut: true });
    expect(fal.requests.at(-1)).toMatchObject({ method: 'PUT', path: `/${out.jobId}/cancel` });
    expect(fal.jobs.get(out.jobId.split('/').at(-1)!)!.canceled).toBe(true);
  });

  it('answers a wrong key as a failure that is not retried, an unreachable provider as a retryable one', async () => {
    const bad = await new FalClient({ provider: 'fal', baseUrl: fal.url, apiKey: 'wrong' }).submit({
      providerModel: 'a/b',
      kind: 'image',
      prompt: 'x',
      images: [],
      options: {},
    });
    expect(bad.state).toMatchObject({ state: 'failed', retryable: false });
    const gone = await new FalClient({ provider: 'fal', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }).submit({
      providerModel: 'a/b',
      kind: 'image',
      prompt: 'x',
      images: [],
      options: {},
    });
    expect(gone.state).toMatchObject({ state: 'failed', retryable: true });
    fal.violations.length = 0;
  });
});

describe('Replicate predictions client', () => {
  it('creates a prediction of an official model, polls starting → processing → succeeded and reads the output URLs', async () => {
    replicate.defaultPolls = 2;
    const out = await runHostedJob(
      client('replicate'),
      { providerModel: 'black-forest-labs/flux-schnell', kind: 'image', prompt: 'a boat', images: [ref], options: { aspect_ratio: '16:9' } },
      fast,
    );
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ url: `${replicate.url}/files/out.png` }]);
    const create = replicate.requests[0];
    expect(create.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(create.headers.authorization).toBe(`Bearer ${replicate.key}`);
    expect(create.json.input.prompt).toBe('a boat');
    expect(create.json.input.aspect_ratio).toBe('16:9');
    expect(decodeDataUri(create.json.input.image)?.bytes).toEqual(ref.bytes);
    expect(replicate.requests.slice(1).map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET /v1/predictions/${out.jobId}`));
    expect(replicate.violations).toEqual([]);
  });

  it('uses /v1/predictions with the version of owner/name:version, and reads a single output URL of a video model', async () => {
    replicate.defaultPolls = 0;
    replicate.videoModels.add('5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa');
    const out = await runHostedJob(
      client('replicate'),
      { providerModel: 'acme/maker:5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa', kind: 'video', images: [ref], options: {} },
      fast,
    );
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ url: `${replicate.url}/files/out.mp4` }]);
    const create = replicate.requests.filter((r) => r.method === 'POST').at(-1)!;
    expect(create.path).toBe('/v1/predictions');
    expect(create.json.version).toMatch(/^5c7d/);
  });

  it('answers "NSFW content detected" as a refusal, another error as a failure, and cancels at the deadline', async () => {
    const refused = await runHostedJob(client('replicate'), { providerModel: 'a/b', kind: 'image', prompt: '[refuse]', images: [], options: {} }, fast);
    expect(refused).toMatchObject({ state: 'refused', detail: expect.stringContaining('NSFW') });
    const failed = await runHostedJob(client('replicate'), { providerModel: 'a/b', kind: 'image', prompt: '[fail]', images: [], options: {} }, fast);
    expect(failed).toMatchObject({ state: 'failed', detail: 'CUDA out of memory', retryable: false });
    replicate.defaultPolls = 1000;
    const slow = await runHostedJob(
      client('replicate'),
      { providerModel: 'a/b', kind: 'image', prompt: 'x', images: [], options: {} },
      { pollMs: 10, timeoutMs: 100 },
    );
    replicate.defaultPolls = 1;
    expect(slow).toMatchObject({ state: 'failed', timedOut: true });
    expect(replicate.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/predictions/${slow.jobId}/cancel` });
  });

  it('resumes polling a prediction an earlier run submitted, without creating another', async () => {
    replicate.defaultPolls = 1;
    const c = new ReplicateClient({ provider: 'replicate', baseUrl: replicate.url, apiKey: replicate.key });
    const first = await c.submit({ providerModel: 'a/b', kind: 'image', prompt: 'x', images: [], options: {} });
    const posts = replicate.requests.filter((r) => r.method === 'POST').length;
    const out = await runHostedJob(c, { providerModel: 'a/b', kind: 'image', prompt: 'x', images: [], options: {} }, { ...fast, jobId: first.jobId });
    expect(out.state).toBe('succeeded');
    expect(replicate.requests.filter((r) => r.method === 'POST').length).toBe(posts);
  });
});

describe('OpenAI-compatible Images client', () => {
  it('generates from a prompt (JSON) and answers the b64_json bytes', async () => {
    const out = await runHostedJob(
      client('openai'),
      { providerModel: 'gpt-image-1', kind: 'image', prompt: 'a lamp', images: [], options: { size: '1024x1024' } },
      fast,
    );
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ bytes: outputs.image }]);
    const req = openai.requests.at(-1)!;
    expect(req.path).toBe('/v1/images/generations');
    expect(req.headers.authorization).toBe(`Bearer ${openai.key}`);
    expect(req.json).toMatchObject({ model: 'gpt-image-1', prompt: 'a lamp', n: 1, size: '1024x1024' });
  });

  it('edits with the reference image as a multipart file, and reads data[].url', async () => {
    openai.answerUrls = true;
    const out = await runHostedJob(
      new OpenAiImagesClient({ provider: 'openai', baseUrl: openai.url, apiKey: openai.key }),
      { providerModel: 'gpt-image-1', kind: 'image', prompt: 'make it blue', images: [ref], options: {} },
      fast,
    );
    openai.answerUrls = false;
    expect(out.state === 'succeeded' && out.outputs).toEqual([{ url: `${openai.url}/files/out.png` }]);
    const job = [...openai.jobs.values()].at(-1)!;
    expect(openai.requests.at(-1)!.path).toBe('/v1/images/edits');
    expect(job.input.prompt).toBe('make it blue');
    expect(job.input.images[0]).toMatchObject({ name: 'image', fileName: 'image.png', contentType: 'image/png', bytes: ref.bytes });
  });

  it('answers content_policy_violation as a refusal and a 500 as a retryable failure', async () => {
    const refused = await runHostedJob(client('openai'), { providerModel: 'm', kind: 'image', prompt: '[refuse]', images: [], options: {} }, fast);
    expect(refused.state).toBe('refused');
    const failed = await runHostedJob(client('openai'), { providerModel: 'm', kind: 'image', prompt: '[fail]', images: [], options: {} }, fast);
    expect(failed).toMatchObject({ state: 'failed', retryable: true });
    expect(openai.violations).toEqual([]);
  });

  it('gives up a request without an answer within the job’s limit: failed, timed out, not to be sent again', async () => {
    openai.delayMs = 1500;
    const started = Date.now();
    try {
      const out = await runHostedJob(
        client('openai', { requestTimeoutMs: 200 }),
        { providerModel: 'm', kind: 'image', prompt: 'a slow lamp', images: [], options: {} },
        fast,
      );
      expect(out).toMatchObject({ state: 'failed', retryable: false, timedOut: true });
      expect(Date.now() - started).toBeLessThan(1400);
    } finally {
      openai.delayMs = 0;
    }
    // A provider that is not there at all is another matter: retryable, not a timeout.
    const gone = await runHostedJob(
      createHostedClient({ provider: 'openai', baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }),
      { providerModel: 'm', kind: 'image', prompt: 'x', images: [], options: {} },
      fast,
    );
    expect(gone).toMatchObject({ state: 'failed', retryable: true });
    expect(gone.timedOut).toBeUndefined();
  });
});

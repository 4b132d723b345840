import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DrizzleGenerationsRepository } from '../../src/adapters/db/repositories/generations.repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { download, multipart, pattern, uploadImage } from '../helpers/generation-fixtures.js';

/**
 * Generations over HTTP without workers (jobs stay queued): the catalog, image uploads and their codes,
 * POST /generations and every refusal before a charge (404 MODEL_NOT_FOUND, 400 VALIDATION_ERROR,
 * 404 IMAGE_NOT_FOUND, 409 PRICE_CHANGED, 402 INSUFFICIENT_CREDITS with top_up_url), free usage still
 * charged, the plan's discount, reads and lists, another workspace's ids, and the admin catalog API.
 * The runs themselves: test/flows/generations-chain.test.ts.
 */

const TOP_UP = 'https://shop.example.com/credits';
const MAX_IMAGE = 300_000;

let t: TestApp;
let ws: { id: string; key: string };
let other: { id: string; key: string };
let png: Buffer;

beforeAll(async () => {
  t = await createTestApp({ startQueue: true, env: { CUTROOM_TOP_UP_URL: TOP_UP, CUTROOM_GENERATION_IMAGE_MAX_BYTES: String(MAX_IMAGE) } });
  await t.c.plans.create('half', { discount_percent: 50 });
  ws = await t.workspace({ credits: 100 });
  other = await t.workspace({ credits: 100 });
  png = await pattern(64, 48, 'png');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function balance(key: string): Promise<number> {
  return (await t.api(key, 'GET', '/balance')).body.balance;
}

async function ledger(key: string): Promise<any[]> {
  return (await t.api(key, 'GET', '/balance/history?limit=100')).body.entries;
}

describe('GET /generations/models', () => {
  it('lists the embedded models with what they do, inputs, options, prices and max_seconds', async () => {
    const res = await t.api(ws.key, 'GET', '/generations/models');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.models.map((m: any) => [m.id, m]));
    expect(Object.keys(byId).sort()).toEqual(['camera-motion', 'cutout', 'parallax', 'upscale-x4']);
    expect(byId['upscale-x4']).toMatchObject({
      kind: 'image',
      engine: 'embedded',
      inputs: { prompt: 'none', image_ids: { min: 1, max: 1 } },
      price: { per_image: 2 },
    });
    expect(byId['upscale-x4'].description).toMatch(/super-resolution/);
    expect(byId['camera-motion']).toMatchObject({ kind: 'video', price: { per_second: 1 }, max_seconds: 20 });
    expect(byId['camera-motion'].options.duration).toMatchObject({ type: 'number', minimum: 1, maximum: 20, default: 5 });
    expect(byId['camera-motion'].options.aspect_ratio.values).toContain('9:16');
    expect(byId.cutout.options.background).toMatchObject({ type: 'string', default: 'transparent' });
    expect(res.body.pagination).toMatchObject({ current_page: 1, total_count: 4, has_next_page: false });
    const page = await t.api(ws.key, 'GET', '/generations/models?limit=3&page=2');
    expect(page.body.models).toHaveLength(1);
  });
});

describe('POST /generations/images', () => {
  it('stores a PNG, a JPEG and a WebP recognised from their bytes, whatever the name says', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const bytes = await pattern(40, 30, format);
      const img = await uploadImage(t, ws.key, bytes, 'photo.txt');
      expect(img).toMatchObject({ width: 40, height: 30, content_type: `image/${format}` });
      expect(img.id).toMatch(/^gim_/);
      expect(await download(t, img.url)).toEqual(bytes);
    }
  });

  it('answers 400 UNSUPPORTED_IMAGE for bytes that are not an image, a truncated image and a GIF', async () => {
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('this is not an image at all'), 'not_an_image'],
      [png.subarray(0, 60), 'undecodable'],
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'not_an_image'],
    ];
    for (const [bytes, reason] of cases) {
      const m = multipart('image', 'x.png', 'image/png', bytes);
      const res = await t.api(ws.key, 'POST', '/generations/images', m.body, m.headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'UNSUPPORTED_IMAGE', extra: { reason } });
    }
  });

  it('answers 413 FILE_TOO_LARGE with max_size above the limit, and 400 for a missing or misnamed file or a JSON body', async () => {
    const big = multipart('image', 'big.png', 'image/png', Buffer.concat([png, Buffer.alloc(MAX_IMAGE)]));
    const res = await t.api(ws.key, 'POST', '/generations/images', big.body, big.headers);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'FILE_TOO_LARGE', extra: { max_size: MAX_IMAGE } });
    const misnamed = multipart('photo', 'x.png', 'image/png', png);
    expect((await t.api(ws.key, 'POST', '/generations/images', misnamed.body, misnamed.headers)).body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'photo', rule: 'unexpected_file' }] },
    });
    const none = multipart('image', 'x.png', 'image/png', png);
    const noFile = Buffer.from(
      none.body
        .toString('latin1')
        .replace(
          /--[^\r]+\r\nContent-Disposition: form-data; name="image"[\s\S]*$/,
          `${none.headers['content-type'].split('boundary=')[1].replace(/^/, '--')}--\r\n`,
        ),
      'latin1',
    );
    expect((await t.api(ws.key, 'POST', '/generations/images', noFile, none.headers)).body).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await t.api(ws.key, 'POST', '/generations/images', { image: 'x' })).body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'header.content-type', rule: 'media_type' }] },
    });
  });

  it('leaves every other route refusing multipart bodies as before', async () => {
    const m = multipart('image', 'x.png', 'image/png', png);
    const res = await t.api(ws.key, 'POST', '/generations', m.body, m.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'header.content-type', rule: 'media_type' }] } });
  });
});

describe('POST /generations', () => {
  it('charges the measured price at once and answers 202 queued; GET and the list show it', async () => {
    const img = await uploadImage(t, ws.key, png);
    const before = await balance(ws.key);
    const res = await t.api(ws.key, 'POST', '/generations', {
      model_id: 'camera-motion',
      image_ids: [img.id],
      options: { duration: 3, aspect_ratio: '9:16' },
      credits: 3,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      model_id: 'camera-motion',
      kind: 'video',
      status: 'queued',
      prompt: null,
      image_ids: [img.id],
      options: { duration: 3, aspect_ratio: '9:16', motion: 'push_in', resolution: '720p' },
      credits_charged: 3,
      error_code: null,
      output: null,
      completed_at: null,
    });
    expect(await balance(ws.key)).toBe(before - 3);
    const got = await t.api(ws.key, 'GET', `/generations/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const second = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(second.status).toBe(202);
    const list = await t.api(ws.key, 'GET', '/generations?limit=1');
    expect(list.body.generations.map((g: any) => g.id)).toEqual([second.body.id]);
    expect(list.body.pagination).toMatchObject({ total_count: 2, has_next_page: true });
  });

  it('a generation whose every run was lost with its process ends failed JOB_LOST and refunded, nothing run', async () => {
    const img = await uploadImage(t, ws.key, png);
    const before = await balance(ws.key);
    const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(res.status).toBe(202);
    expect(await balance(ws.key)).toBe(before - 2);
    // The queue's call for a lost last run (src/adapters/queue/pgboss.queue.ts hands it over with ctx.lost).
    await t.c.generationProcessor.run(res.body.id, { retryCount: 2, retryLimit: 2, lost: true });
    const got = await t.api(ws.key, 'GET', `/generations/${res.body.id}`);
    expect(got.body).toMatchObject({ status: 'failed', error_code: 'JOB_LOST', credits_charged: 0, output: null });
    expect(await balance(ws.key)).toBe(before);
  });

  it('answers 404 MODEL_NOT_FOUND for an unknown or disabled model, charging nothing', async () => {
    const before = await balance(ws.key);
    expect((await t.api(ws.key, 'POST', '/generations', { model_id: 'nope', credits: 1 })).body).toEqual({ code: 'MODEL_NOT_FOUND' });
    await t.admin('PUT', '/generation-models/off-model', {
      name: 'Off',
      kind: 'image',
      provider: 'fal',
      provider_model: 'fal-ai/x',
      price: { per_image: 1 },
      enabled: false,
    });
    const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'off-model', prompt: 'x', credits: 1 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'MODEL_NOT_FOUND' });
    expect(await balance(ws.key)).toBe(before);
  });

  it('answers 400 VALIDATION_ERROR naming each field against the model’s inputs and options', async () => {
    const img = await uploadImage(t, ws.key, png);
    const cases: Array<[Record<string, unknown>, Array<{ field: string; rule: string; allowed?: string[] }>]> = [
      [{ model_id: 'upscale-x4', credits: 2 }, [{ field: 'image_ids', rule: 'min_items' }]],
      [{ model_id: 'upscale-x4', prompt: 'sharper', image_ids: [img.id], credits: 2 }, [{ field: 'prompt', rule: 'not_accepted' }]],
      [
        { model_id: 'upscale-x4', image_ids: [img.id, img.id], credits: 2 },
        [
          { field: 'image_ids', rule: 'max_items' },
          { field: 'image_ids', rule: 'unique' },
        ],
      ],
      [
        { model_id: 'camera-motion', image_ids: [img.id], options: { duration: 21, motion: 'spin', speed: 2 }, credits: 21 },
        [
          { field: 'options.duration', rule: 'maximum' },
          { field: 'options.motion', rule: 'enum', allowed: ['push_in', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right'] },
          { field: 'options.speed', rule: 'unknown' },
        ],
      ],
      [{ model_id: 'cutout', image_ids: [img.id], options: { background: 'red' }, credits: 1 }, [{ field: 'options.background', rule: 'pattern' }]],
      [{ model_id: 'camera-motion', image_ids: [img.id], options: { duration: '5' }, credits: 5 }, [{ field: 'options.duration', rule: 'type' }]],
    ];
    for (const [body, errors] of cases) {
      const res = await t.api(ws.key, 'POST', '/generations', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.extra.errors).toEqual(expect.arrayContaining(errors));
    }
    expect((await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id] })).body.extra.errors).toEqual([
      { field: 'credits', rule: 'required' },
    ]);
  });

  it('answers 404 IMAGE_NOT_FOUND for an unknown image and for another workspace’s image', async () => {
    const theirs = await uploadImage(t, other.key, png);
    for (const id of ['gim_doesnotexist', theirs.id]) {
      const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [id], credits: 2 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'IMAGE_NOT_FOUND', extra: { image_ids: [id] } });
    }
  });

  it('answers 409 PRICE_CHANGED with the measured credits when the caller’s differ, and charges nothing', async () => {
    const img = await uploadImage(t, ws.key, png);
    const before = await balance(ws.key);
    const entries = (await ledger(ws.key)).length;
    const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'parallax', image_ids: [img.id], options: { duration: 4 }, credits: 4 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'PRICE_CHANGED', extra: { credits: 8 } });
    expect(await balance(ws.key)).toBe(before);
    expect((await ledger(ws.key)).length).toBe(entries);
  });

  it('answers 402 INSUFFICIENT_CREDITS with credits_needed, current_balance and top_up_url', async () => {
    const poor = await t.workspace({ credits: 1 });
    const img = await uploadImage(t, poor.key, png);
    const res = await t.api(poor.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      extra: { credits_needed: 2, current_balance: 1, scope: 'workspace', is_owner: true, top_up_url: TOP_UP },
    });
    expect((await t.api(poor.key, 'GET', '/generations')).body.generations).toEqual([]);
  });

  it('still charges under free usage (credit rule 6), and is refused for lack of balance there too', async () => {
    const free = await t.workspace({ credits: 5 });
    expect((await t.admin('PUT', `/workspaces/${free.id}/free-usage`, { until: null })).status).toBe(200);
    const img = await uploadImage(t, free.key, png);
    const res = await t.api(free.key, 'POST', '/generations', { model_id: 'camera-motion', image_ids: [img.id], options: { duration: 4 }, credits: 4 });
    expect(res.status).toBe(202);
    expect(res.body.credits_charged).toBe(4);
    expect(await balance(free.key)).toBe(1);
    const charge = (await ledger(free.key)).find((e: any) => e.job_id === res.body.id);
    expect(charge).toMatchObject({ kind: 'charge', amount: -4, waived: false, job_type: 'generation' });
    const short = await t.api(free.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [img.id], credits: 2 });
    expect(short.status).toBe(402);
    expect(short.body.extra).toMatchObject({ credits_needed: 2, current_balance: 1 });
  });

  it('applies the plan’s discount to the measured price', async () => {
    const half = await t.workspace({ credits: 50, plan: 'half' });
    const img = await uploadImage(t, half.key, png);
    const wrong = await t.api(half.key, 'POST', '/generations', { model_id: 'parallax', image_ids: [img.id], options: { duration: 5 }, credits: 10 });
    expect(wrong.body).toEqual({ code: 'PRICE_CHANGED', extra: { credits: 5 } });
    const ok = await t.api(half.key, 'POST', '/generations', { model_id: 'parallax', image_ids: [img.id], options: { duration: 5 }, credits: 5 });
    expect(ok.status).toBe(202);
    expect(ok.body.credits_charged).toBe(5);
  });

  it('refuses an upscale-x4 input above 1024×1024 pixels before charging', async () => {
    const wide = await uploadImage(
      t,
      ws.key,
      await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
    );
    const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'upscale-x4', image_ids: [wide.id], credits: 2 });
    expect(res.status).toBe(400);
    expect(res.body.extra.errors).toEqual([{ field: 'image_ids.0', rule: 'max_pixels' }]);
  });
});

describe('GET /generations/{id}', () => {
  it('answers 404 GENERATION_NOT_FOUND for an unknown id and for another workspace’s generation', async () => {
    const img = await uploadImage(t, other.key, png);
    const theirs = await t.api(other.key, 'POST', '/generations', { model_id: 'cutout', image_ids: [img.id], credits: 1 });
    expect(theirs.status).toBe(202);
    for (const id of ['gen_doesnotexist', theirs.body.id]) {
      const res = await t.api(ws.key, 'GET', `/generations/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'GENERATION_NOT_FOUND' });
    }
    expect((await t.api(ws.key, 'GET', '/generations?limit=100')).body.generations.map((g: any) => g.id)).not.toContain(theirs.body.id);
  });
});

describe('admin /generation-models', () => {
  const fal = {
    name: 'FLUX dev',
    kind: 'image',
    provider: 'fal',
    provider_model: 'fal-ai/flux/dev',
    base_url: 'http://127.0.0.1:9',
    api_key: 'sk-very-secret-key',
    price: { per_image: 4 },
    inputs: { prompt: 'required', image_ids: { min: 0, max: 1 } },
  };

  it('creates (201) and replaces (200) a hosted model; the key is sealed and never answered', async () => {
    const created = await t.admin('PUT', '/generation-models/flux-dev', fal);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: 'flux-dev',
      engine: 'fal',
      provider: 'fal',
      provider_model: 'fal-ai/flux/dev',
      base_url: 'http://127.0.0.1:9',
      has_api_key: true,
      enabled: true,
      price: { per_image: 4 },
    });
    expect(created.text).not.toContain('sk-very-secret-key');
    const { rows } = await t.c.database.sql.executeSql(`select api_key_sealed from generation_models where id = 'flux-dev'`, []);
    expect(rows[0].api_key_sealed).toMatch(/\S{20,}/);
    expect(rows[0].api_key_sealed).not.toContain('sk-very-secret-key');
    // The worker can open it again.
    expect(await t.c.generations.apiKeyOf((await new DrizzleGenerationsRepository(t.c.database.db).getModel('flux-dev'))!)).toBe('sk-very-secret-key');
    const { api_key: _k, ...withoutKey } = fal;
    const replaced = await t.admin('PUT', '/generation-models/flux-dev', { ...withoutKey, price: { per_image: 5 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ has_api_key: true, price: { per_image: 5 } });
    const list = await t.admin('GET', '/generation-models');
    expect(list.body.models.map((m: any) => m.id)).toContain('off-model');
    // Never shown again: not by the list, not by the entry, not in the public catalog.
    const one = await t.admin('GET', '/generation-models/flux-dev');
    expect(one.body).toMatchObject({ has_api_key: true });
    expect(one.body).not.toHaveProperty('api_key');
    expect(one.body).not.toHaveProperty('api_key_sealed');
    for (const res of [list, one, await t.api(ws.key, 'GET', '/generations/models?limit=100')]) {
      expect(res.text).not.toContain('sk-very-secret-key');
      expect(res.text).not.toContain(rows[0].api_key_sealed);
    }
    expect((await t.api(ws.key, 'GET', '/generations/models?limit=100')).body.models.map((m: any) => m.id)).not.toContain('off-model');
    expect((await t.admin('GET', '/generation-models/flux-dev')).body.price).toEqual({ per_image: 5 });
  });

  it('makes the next POST answer PRICE_CHANGED after a price change, charging nothing', async () => {
    const img = await uploadImage(t, ws.key, png);
    // The caller read the catalog (1 credit) before the operator's change.
    expect((await t.api(ws.key, 'GET', '/generations/models')).body.models.find((m: any) => m.id === 'cutout').price).toEqual({ per_image: 1 });
    await t.admin('PUT', '/generation-models/cutout', {
      name: 'Cut-out',
      kind: 'image',
      provider: 'embedded',
      provider_model: 'cutout',
      price: { per_image: 3 },
    });
    const before = await balance(ws.key);
    const entries = (await ledger(ws.key)).length;
    const generations = (await t.api(ws.key, 'GET', '/generations?limit=100')).body.pagination.total_count;
    const res = await t.api(ws.key, 'POST', '/generations', { model_id: 'cutout', image_ids: [img.id], credits: 1 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'PRICE_CHANGED', extra: { credits: 3 } });
    expect(await balance(ws.key)).toBe(before);
    expect((await ledger(ws.key)).length).toBe(entries);
    expect((await t.api(ws.key, 'GET', '/generations?limit=100')).body.pagination.total_count).toBe(generations);
    const models = (await t.api(ws.key, 'GET', '/generations/models')).body.models;
    expect(models.find((m: any) => m.id === 'cutout').price).toEqual({ per_image: 3 });
    // An embedded model keeps its engine's inputs and options whatever the PUT says.
    expect(models.find((m: any) => m.id === 'cutout').inputs).toEqual({ prompt: 'none', image_ids: { min: 1, max: 1 } });
  });

  it('refuses a wrong entry with VALIDATION_ERROR naming the fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...fal, price: { per_second: 1 } }, 'price.per_image'],
      [{ name: 'V', kind: 'video', provider: 'replicate', provider_model: 'a/b', price: { per_second: 1 } }, 'max_seconds'],
      [{ name: 'E', kind: 'image', provider: 'embedded', provider_model: 'dream-machine', price: { per_image: 1 } }, 'provider_model'],
      [{ name: 'E', kind: 'video', provider: 'embedded', provider_model: 'upscale-x4', price: { per_second: 1 }, max_seconds: 5 }, 'kind'],
      [{ ...fal, base_url: 'ftp://x.example.com' }, 'base_url'],
    ];
    for (const [body, field] of cases) {
      const res = await t.admin('PUT', '/generation-models/bad-one', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.extra.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await t.admin('GET', '/generation-models/bad-one')).status).toBe(404);
  });

  it('deletes a model (204), then answers 404 MODEL_NOT_FOUND; the admin token is required', async () => {
    expect((await t.admin('DELETE', '/generation-models/off-model')).status).toBe(204);
    expect((await t.admin('DELETE', '/generation-models/off-model')).body).toEqual({ code: 'MODEL_NOT_FOUND' });
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/generation-models' });
    expect(res.statusCode).toBe(401);
  });
});

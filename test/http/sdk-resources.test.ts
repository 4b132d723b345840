import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { solidPng } from '../helpers/image-fixtures.js';
import { openApiDocument } from '../../src/http/openapi-document.js';
import { methodName, resourceName } from '../../scripts/sdk-resources.js';
import { Cutroom } from '../../sdk/src/index.js';
import { Cutroom as BrowserCutroom } from '../../sdk/src/browser.js';
import { HAND_WRITTEN, RESOURCE_METHODS } from '../../sdk/src/resources.js';

type Schema = { type?: string; properties?: Record<string, Schema>; additionalProperties?: unknown; items?: Schema; $ref?: string } & Record<string, unknown>;
type Operation = {
  operationId: string;
  tags: string[];
  parameters?: { in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: object }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

let doc: Doc;
const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.operationId)
      .map(([method, op]) => ({ path: p, method: method.toUpperCase(), op })),
  );

let dir: string;
let t: TestApp;
let tarball: string;
beforeAll(async () => {
  doc = (await openApiDocument('http://localhost:8080')) as unknown as Doc;
  dir = tempDir('cutroom-sdk-resources-');
  tarball = path.join(dir, 'cutroom-sdk.tgz');
  t = await createTestApp({ sdkTarball: tarball });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fetch that sends the SDK's requests to the in-process app. */
const appFetch = async (request: Request): Promise<Response> => {
  const url = new URL(request.url);
  const res = await t.app.inject({
    method: request.method as 'GET',
    url: url.pathname + url.search,
    headers: Object.fromEntries(request.headers),
    ...(request.body ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
  });
  return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
    status: res.statusCode,
    headers: res.headers as Record<string, string>,
  });
};

describe('the SDK’s resource methods', () => {
  it('every operation of the document is a method: generated, or written by hand for a multipart body', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.length).toBeGreaterThan(70);
    expect(ids.filter((id) => !RESOURCE_METHODS[id] && !HAND_WRITTEN[id])).toEqual([]);
    expect(HAND_WRITTEN).toEqual({ uploadGenerationImage: 'generations.uploadImage', uploadPersonaFace: 'personas.uploadFace' });
  });

  it('the multipart methods send the file in a form, with its name, to their operation', async () => {
    const seen: { method: string; path: string; form: FormData; key: string | null }[] = [];
    const fetch = async (request: Request) => {
      seen.push({ method: request.method, path: new URL(request.url).pathname, form: await request.formData(), key: request.headers.get('idempotency-key') });
      return new Response('{"id":"x"}', { status: 201, headers: { 'content-type': 'application/json' } });
    };
    for (const Client of [Cutroom, BrowserCutroom]) {
      const cutroom = new Client({ baseUrl: 'http://cutroom.test', apiKey: 'key_a.b', fetch, retry: { retries: 0 } });
      seen.length = 0;
      await cutroom.generations.uploadImage(new Blob(['png bytes'], { type: 'image/png' }), { idempotencyKey: 'k1' });
      await cutroom.personas.uploadFace(new File(['jpeg bytes'], 'me.jpg', { type: 'image/jpeg' }), { own_face_adult: true });
      expect(seen.map((s) => [s.method, s.path])).toEqual([
        ['POST', '/api/v1/generations/images'],
        ['POST', '/api/v1/personas/faces'],
      ]);
      const image = seen[0].form.get('image') as File;
      expect([image.name, image.type, await image.text(), seen[0].key]).toEqual(['upload.png', 'image/png', 'png bytes', 'k1']);
      const photo = seen[1].form.get('photo') as File;
      expect([photo.name, await photo.text(), seen[1].form.get('own_face_adult')]).toEqual(['me.jpg', 'jpeg bytes', 'true']);
    }
  });

  it('against the service: a generated method and a multipart one', async () => {
    const ws = await t.workspace({ credits: 10 });
    const cutroom = new Cutroom({ baseUrl: 'http://cutroom.test', apiKey: ws.key, fetch: appFetch });
    expect(await cutroom.balance.get()).toMatchObject({ balance: 10 });
    const image = await cutroom.generations.uploadImage(new Blob([new Uint8Array(await solidPng(40, 30))], { type: 'image/png' }));
    expect(image).toMatchObject({ id: expect.stringMatching(/^gim_/), width: 40, height: 30, content_type: 'image/png' });
    await expect(cutroom.clips.create({ video_id: 'vid_x', langauge: 'en' } as never)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('names: the operationId without the tag’s noun when it is a whole word after the verb', () => {
    expect(
      [
        ['Submissions', 'createSubmission'],
        ['Submissions', 'listSubmissions'],
        ['Submissions', 'listClips'],
        ['Renders', 'getRenderLimits'],
        ['Renders', 'renderClip'],
        ['Renders', 'downloadRender'],
        ['Transcriptions', 'createTranscriptionUpload'],
        ['Transcriptions', 'getTranscript'],
        ['Edits', 'listEditVersions'],
        ['Personas', 'createPersonaFromPreset'],
        ['Balance', 'listBalanceHistory'],
      ].map(([tag, id]) => `${resourceName(tag)}.${methodName(tag, id)}`),
    ).toEqual([
      'submissions.create',
      'submissions.list',
      'submissions.listClips',
      'renders.getLimits',
      'renders.renderClip',
      'renders.downloadLink',
      'transcriptions.createUpload',
      'transcriptions.getTranscript',
      'edits.listVersions',
      'personas.createFromPreset',
      'balance.listHistory',
    ]);
  });

  it('each method sends its operation: the method, the path with the positional ids, the body, the query; POSTs an Idempotency-Key (the one given)', async () => {
    const seen: Request[] = [];
    const fetch = async (request: Request) => {
      seen.push(request);
      return new Response(request.method === 'DELETE' ? null : '{}', {
        status: request.method === 'DELETE' ? 204 : 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    for (const Client of [Cutroom, BrowserCutroom]) {
      const cutroom = new Client({ baseUrl: 'http://cutroom.test/api/v1', apiKey: 'key_a.b', fetch, retry: { retries: 0 } });
      expect(cutroom.clips).toBe(cutroom.submissions);
      for (const { path: p, method, op } of operations()) {
        const name = RESOURCE_METHODS[op.operationId];
        if (!name) continue;
        const [resource, fn] = name.split('.');
        const target = (cutroom as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>)[resource]?.[fn];
        expect(typeof target, name).toBe('function');
        const ids = [...p.matchAll(/\{([^}]+)\}/g)].map((_, i) => `id${i}`);
        const args: unknown[] = [...ids];
        if (op.requestBody) args.push({ probe: op.operationId });
        const hasQuery = (op.parameters ?? []).some((x) => x.in === 'query');
        if (hasQuery) args.push({ page: 2 });
        args.push({ idempotencyKey: `idem-${op.operationId}` });
        seen.length = 0;
        await target(...args);
        expect(seen, name).toHaveLength(1);
        const url = new URL(seen[0].url);
        let i = 0;
        expect([seen[0].method, url.pathname], name).toEqual([method, p.replace(/\{[^}]+\}/g, () => `id${i++}`)]);
        if (op.requestBody) expect(await seen[0].json(), name).toEqual({ probe: op.operationId });
        if (hasQuery) expect(url.searchParams.get('page'), name).toBe('2');
        if (method === 'POST') expect(seen[0].headers.get('idempotency-key'), name).toBe(`idem-${op.operationId}`);
      }
    }
  });
});

/** Objects of a request body that take any key, by design: maps whose keys and values a rule checks, not fixed fields. */
const OPEN_MAPS: Record<string, string> = {
  'createPost.videos[].targets[].metadata': 'per-network metadata, checked by the publishing rules of each network',
  'updatePost.items[].metadata': 'the same metadata as a target’s',
  'createGeneration.options': 'the model’s options, checked against GET /generations/models',
  'createPersona.chips': 'chip name → value, checked against GET /personas/catalog',
  'regeneratePersona.chips': 'the same chips',
};

describe('request bodies are closed', () => {
  it('every object of every JSON request body refuses unknown keys (`additionalProperties: false`), but the listed maps', () => {
    const resolve = (s: Schema) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);
    const open: string[] = [];
    const walk = (s: Schema | undefined, at: string) => {
      if (!s || typeof s !== 'object') return;
      s = resolve(s);
      if (s.type === 'object' || s.properties) {
        if (s.additionalProperties !== false) open.push(at);
        for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${at}.${k}`);
      }
      for (const k of ['anyOf', 'oneOf', 'allOf']) ((s[k] as Schema[] | undefined) ?? []).forEach((x) => walk(x, at));
      if (s.items) walk(s.items, `${at}[]`);
    };
    for (const { op } of operations()) walk(op.requestBody?.content['application/json']?.schema, op.operationId);
    expect(open.sort()).toEqual(Object.keys(OPEN_MAPS).sort());
  });

  it('a misspelled field is refused: 400 VALIDATION_ERROR naming it, nothing created', async () => {
    const ws = await t.workspace({ credits: 10 });
    const res = await t.api(ws.key, 'POST', '/clips', { video_id: 'vid_x', langauge: 'en' });
    expect([res.status, res.body]).toEqual([400, { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'langauge', rule: 'additionalProperties' }] } }]);
    const nested = await t.api(ws.key, 'POST', '/clips', { video_id: 'vid_x', timeframe: { start: 0, ende: 60 } });
    expect([nested.status, nested.body]).toEqual([
      400,
      { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'timeframe.ende', rule: 'additionalProperties' }] } },
    ]);
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions).toEqual([]);
  });
});

describe('GET /sdk/cutroom-sdk.tgz', () => {
  it('answers the packed SDK without a key (GET and HEAD); 404 FILE_NOT_FOUND when it was not built', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/sdk/cutroom-sdk.tgz' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { code: 'FILE_NOT_FOUND' }]);

    const bytes = Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5]);
    fs.writeFileSync(tarball, bytes);
    const res = await t.app.inject({ method: 'GET', url: '/sdk/cutroom-sdk.tgz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.rawPayload.equals(bytes)).toBe(true);
    const head = await t.app.inject({ method: 'HEAD', url: '/sdk/cutroom-sdk.tgz' });
    expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([200, String(bytes.length), '']);
  });
});

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { ROOT } from '../helpers/process.js';
import { ERROR_STATUS } from '../../src/http/errors.js';
import { openApiDocument } from '../../src/http/openapi-document.js';

const SERVER = 'https://cutroom.test';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

let t: TestApp;
let doc: any;
const routes: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_BASE_URL: SERVER },
    onRoute: (r: RouteOptions) => {
      for (const m of [r.method].flat()) routes.push({ method: m.toLowerCase(), url: r.url });
    },
  });
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t?.close());

/** `[method, path, operation]` of every operation of the document. */
function operations(): Array<[string, string, any]> {
  return Object.entries<any>(doc.paths).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m): [string, string, any] => [m, p, item[m]]));
}

describe('the OpenAPI document served at /api/v1/openapi.json', () => {
  it('passes `redocly lint` with the recommended rules: no error, no warning', async () => {
    const dir = tempDir('cutroom-openapi-');
    try {
      const file = path.join(dir, 'openapi.json');
      fs.writeFileSync(file, JSON.stringify(doc));
      const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
      // No telemetry, no update check: the linter runs offline. A lint with problems exits 1, which rejects.
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--extends=recommended', '--format=json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(stdout);
      // The specification fixes both POST /personas/presets/{presetId} and POST /personas/{id}/…, which redocly
      // calls ambiguous (a persona whose id is `presets`); persona ids start with `prs_`, so no request is.
      const specAmbiguity = /^warn no-ambiguous-paths: .*`\/api\/v1\/personas\/presets\/\{presetId\}` and `\/api\/v1\/personas\/\{id\}\/[a-z]+`/;
      const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
      const known = problems.filter((p: string) => specAmbiguity.test(p));
      expect(problems.filter((p: string) => !specAmbiguity.test(p))).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: known.length, ignored: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('documents every route the server registers under /api/v1, and nothing else', () => {
    const registered = routes
      .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'head' && r.method !== 'options')
      // The documentation itself: the document and the browsable pages.
      .filter((r) => r.url !== '/api/v1/openapi.json' && !r.url.startsWith('/api/v1/docs'))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations().map(([m, p]) => `${m} ${p}`);
    expect(new Set(registered).size).toBe(registered.length);
    expect([...documented].sort()).toEqual([...registered].sort());
    expect(documented.length).toBeGreaterThanOrEqual(32);
  });

  it('names every operation (unique camelCase operationId), summarises, describes and tags it with a declared tag', () => {
    const declared = new Set(doc.tags.map((tag: any) => tag.name));
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    const ids = operations().map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [m, p, op] of operations()) {
      const where = `${m} ${p}`;
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      expect(op.tags?.length, where).toBe(1);
      expect(declared.has(op.tags[0]), where).toBe(true);
    }
    const byId = Object.fromEntries(operations().map(([m, p, op]) => [op.operationId, `${m} ${p}`]));
    expect(byId).toMatchObject({
      createSubmission: 'post /api/v1/clips',
      getRender: 'get /api/v1/renders/{renderId}',
      downloadTranscription: 'get /api/v1/transcriptions/{transcriptionId}/download',
    });
  });

  it('answers each error status with ErrorBody narrowed to codes of that status, including those every operation shares', () => {
    for (const [m, p, op] of operations()) {
      const where = `${m} ${p}`;
      const errors = Object.entries<any>(op.responses).filter(([status]) => Number(status) >= 400);
      const codes: string[] = [];
      for (const [status, response] of errors) {
        const schema = response.content['application/json'].schema;
        expect(schema.allOf[0], where).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        const list: string[] = schema.allOf[1].properties.code.enum;
        for (const code of list) expect(ERROR_STATUS[code], `${where} ${code}`).toBe(Number(status));
        expect(response.description).toBe(list.join(', '));
        codes.push(...list);
      }
      expect(codes, where).toEqual(expect.arrayContaining(['VALIDATION_ERROR', 'UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR']));
      if (m === 'post') expect(codes, where).toContain('REQUEST_IN_PROGRESS');
      expect(op.responses['429'].headers['Retry-After'], where).toBeDefined();
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        where,
      ).toBe(true);
    }
    expect(doc.paths['/api/v1/clips'].post.responses['402'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual(['INSUFFICIENT_CREDITS']);
  });

  it('gives every JSON request body an example, and names the answers’ schemas as components', () => {
    for (const [m, p, op] of operations()) {
      if (!op.requestBody) continue;
      // multipart/form-data uploads (files) document their parts instead.
      if (op.requestBody.content['multipart/form-data']) {
        expect(op.requestBody.content['multipart/form-data'].schema, `${m} ${p}`).toBeDefined();
        continue;
      }
      expect(op.requestBody.content['application/json'].example, `${m} ${p}`).toBeDefined();
    }
    expect(doc.paths['/api/v1/renders/{renderId}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Render' });
    expect(doc.paths['/api/v1/clips'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SubmissionList' });
  });

  it('documents POST /edits remove_silences (true or { min_seconds } 0.3–10) and zoom (1–3), and the Edit’s zoom', () => {
    const body = doc.paths['/api/v1/edits'].post.requestBody.content['application/json'].schema;
    const props = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()].properties : body.properties;
    const silences = props.remove_silences.anyOf ?? props.remove_silences.oneOf;
    expect(silences.find((b: any) => b.type === 'boolean')).toBeDefined();
    expect(silences.find((b: any) => b.type === 'object').properties.min_seconds).toMatchObject({ type: 'number', minimum: 0.3, maximum: 10, default: 0.6 });
    const zooms = props.zoom.anyOf ?? props.zoom.oneOf;
    expect(zooms.find((z: any) => z.type === 'number')).toMatchObject({ type: 'number', minimum: 1, maximum: 3 });
    // The eased punch-in and none, besides the number.
    expect(zooms.filter((z: any) => z.type === 'string').map((z: any) => z.const ?? z.enum?.[0])).toEqual(['subtle', 'none']);
    const edit = doc.components.schemas.Edit;
    expect(edit.properties.zoom.type).toBe('number');
    expect(edit.required).toContain('zoom');
  });

  it('is the document built without a server, which the SDK is generated from', async () => {
    expect(await openApiDocument(SERVER)).toEqual(doc);
  });
});

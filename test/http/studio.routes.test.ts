import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { studioCsp } from '../../src/http/routes/studio.routes.js';
import { bucketOrigins, loadStudioConfig } from '../../src/config/studio.env.js';
import { loadStorageConfig } from '../../src/config/storage.env.js';
import { ROOT } from '../helpers/process.js';

// A built Studio of our own making: the test checks how the service serves a build, not what Vite wrote.
let dir: string;
let t: TestApp;
const INDEX = '<!doctype html><html lang="en"><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body></body></html>';
const SCRIPT = 'console.log("studio");';

beforeAll(async () => {
  dir = tempDir('cutroom-studio-');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets/index-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets/.hidden'), 'no');
  t = await createTestApp({ env: { CUTROOM_STUDIO_DIR: dir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function expectStudioHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('the Studio at /', () => {
  it('serves index.html at every page address, revalidated on each load, with the CSP and X-Frame-Options: DENY', async () => {
    for (const url of [
      '/',
      '/new',
      '/credits',
      '/credits?page=2',
      '/transcriptions',
      '/transcriptions?page=2',
      '/transcriptions/trn_1',
      '/generations',
      '/submissions/vid_1/sub_2',
      '/submissions/vid_1/sub_2/clips/clip_3',
      '/submissions/vid%201/sub_2/clips/clip_3?x=1',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(INDEX);
      expectStudioHeaders(res.headers);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/new' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves the hashed files under /assets/ cached for a year as immutable; a missing or hidden one is a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(SCRIPT);
    expectStudioHeaders(res.headers);
    for (const url of ['/assets/missing-x.js', '/assets/.hidden', '/assets/../index.html', '/assets/%2e%2e/index.html']) {
      const miss = await t.app.inject({ method: 'GET', url });
      expect(miss.statusCode, url).toBe(404);
      expect(miss.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });

  it('falls back to the app at its page addresses only: the API, admin, files, health and unknown paths answer as before, in JSON', async () => {
    const ws = await t.workspace();
    for (const [method, url, status, body] of [
      ['GET', '/api/v1/nope', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/api/v1/workspace', 401, { code: 'UNAUTHORIZED' }],
      ['GET', '/admin/v1/nope', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/nope', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/new/deeper', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/submissions/vid_1', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/transcriptions/trn_1/transcript', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/generations/gen_1', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/index.html', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['POST', '/', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['POST', '/new', 404, { code: 'ROUTE_NOT_FOUND' }],
      ['GET', '/files/nope', 403, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      if (body) expect(res.json(), url).toEqual(body);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
    }
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    const api = await t.api(ws.key, 'GET', '/workspace');
    expect(api.status).toBe(200);
    expect(api.headers['content-security-policy']).toBeUndefined();
    // The document lists the API only.
    const doc = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(Object.keys(doc.json().paths).every((p: string) => p.startsWith('/api/v1/'))).toBe(true);
  });
});

describe('a service without its Studio', () => {
  it('CUTROOM_STUDIO_DIR=off, or a folder with no build: / is a JSON 404 and the API works', async () => {
    for (const studioDir of ['off', path.join(dir, 'nothing-built-here')]) {
      const bare = await createTestApp({ env: { CUTROOM_STUDIO_DIR: studioDir } });
      try {
        const res = await bare.app.inject({ method: 'GET', url: '/' });
        expect(res.statusCode, studioDir).toBe(404);
        expect(res.json()).toEqual({ code: 'ROUTE_NOT_FOUND' });
        expect((await bare.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      } finally {
        await bare.close();
      }
    }
  });
});

describe('the Studio’s CSP with files on S3', () => {
  it('adds where signed URLs point (the bucket, or PUBLIC_BASE_URL) to media-src, img-src and connect-src only', () => {
    const minio = loadStorageConfig({
      CUTROOM_STORAGE: 's3',
      CUTROOM_S3_BUCKET: 'clips',
      CUTROOM_S3_ENDPOINT: 'http://127.0.0.1:9000',
      CUTROOM_S3_FORCE_PATH_STYLE: 'true',
    });
    expect(bucketOrigins(minio)).toEqual(['http://127.0.0.1:9000']);
    const aws = loadStorageConfig({ CUTROOM_STORAGE: 's3', CUTROOM_S3_BUCKET: 'clips', CUTROOM_S3_REGION: 'eu-west-1' });
    expect(bucketOrigins(aws)).toContain('https://clips.s3.eu-west-1.amazonaws.com');
    expect(bucketOrigins(loadStorageConfig({}))).toEqual([]);
    const csp = studioCsp(bucketOrigins(minio)).split('; ');
    // blob: for media only: a transcription plays the person's own file from their machine.
    expect(csp).toContain("media-src 'self' http://127.0.0.1:9000 blob:");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9000");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' http://127.0.0.1:9000");
    expect(csp.filter((d) => d.includes('blob:'))).toEqual(["media-src 'self' http://127.0.0.1:9000 blob:"]);
    expect(loadStudioConfig({ CUTROOM_STUDIO_DIR: 'off' }, minio, 'https://clips.example')).toEqual({ dir: null, fileOrigins: ['http://127.0.0.1:9000'] });
    expect(loadStudioConfig({}, aws, 'https://clips.example').dir).toBe(path.join(ROOT, 'dist/web'));
    // Local files: signed URLs start with PUBLIC_BASE_URL, whose origin may differ from the page's (localhost vs 127.0.0.1).
    expect(loadStudioConfig({}, loadStorageConfig({}), 'http://localhost:8080/cutroom').fileOrigins).toEqual(['http://localhost:8080']);
  });
});

describe('the built Studio (npm run build)', () => {
  const built = path.join(ROOT, 'dist/web');
  it.runIf(fs.existsSync(path.join(built, 'index.html')))(
    'has no inline script or style, loads only its own hashed files, and stays under 200 KB of gzipped JavaScript',
    async () => {
      const html = fs.readFileSync(path.join(built, 'index.html'), 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).toMatch(/src="\/assets\/[\w.-]+\.js"/);
        expect(body.trim()).toBe('');
      }
      expect(html).not.toMatch(/<style\b|style="/);
      const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(refs.every((r) => /^\/assets\/[\w-]+-[\w-]{8,}\.\w+$/.test(r))).toBe(true);
      const { gzipSync } = await import('node:zlib');
      const js = fs.readdirSync(path.join(built, 'assets')).filter((f) => f.endsWith('.js'));
      const gz = js.reduce((n, f) => n + gzipSync(fs.readFileSync(path.join(built, 'assets', f))).length, 0);
      expect(gz).toBeLessThan(200 * 1024);
    },
  );
});

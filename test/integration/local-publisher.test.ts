import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublishError, type Credentials, type Publisher, type PublishInput } from '../../src/ports/publisher.js';
import { loadPublishingConfig } from '../../src/config/publishing.env.js';
import { ConfigError } from '../../src/config/env.js';
import { createPublishers } from '../../src/adapters/publishing/publisher.factory.js';
import { LocalPublisher } from '../../src/adapters/publishing/local.publisher.js';
import { publishedDir } from '../../src/shared/published-files.js';
import { publishedRoutes } from '../../src/http/routes/published.routes.js';

/** The `local` network (publish folder + read-only routes), the publishing settings and credential checks. */

const SIZE = 200 * 1024;
let tmp: string;
let file: string;
let bytes: Buffer;
let publishers: ReadonlyMap<string, Publisher>;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-local-publish-'));
  bytes = crypto.randomBytes(SIZE);
  file = path.join(tmp, 'clip.mp4');
  fs.writeFileSync(file, bytes);
  publishers = createPublishers({ publishing: loadPublishingConfig({}), dataDir: path.join(tmp, 'data'), publicBaseUrl: 'http://clips.example.test/' });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function attempt(input: Partial<PublishInput> & Pick<PublishInput, 'metadata' | 'credentials' | 'idempotencyKey'>) {
  try {
    return { result: await publishers.get('local')!.publish({ file, sizeBytes: SIZE, ...input }) };
  } catch (error) {
    return { error };
  }
}

function publishError(e: unknown): PublishError {
  expect(e).toBeInstanceOf(PublishError);
  return e as PublishError;
}

describe('local', () => {
  const md = { title: 'Local clip', caption: 'hello', anything: [1, 2] };

  it('publishes the file and its metadata once, then answers the same URL', async () => {
    const { result } = await attempt({ metadata: md, credentials: {}, account: 'My Channel', idempotencyKey: 'post1-item1' });
    expect(result?.publishedUrl).toMatch(/^http:\/\/clips\.example\.test\/published\/My-Channel-[0-9a-f]{8}\/post1-item1\.mp4$/);
    const [account] = result!.externalId.split('/');
    const dir = path.join(publishedDir(path.join(tmp, 'data')), account);
    expect(fs.readFileSync(path.join(dir, 'post1-item1.mp4')).equals(bytes)).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'post1-item1.json'), 'utf8'))).toMatchObject({
      title: 'Local clip',
      caption: 'hello',
      metadata: md,
      account: 'My Channel',
    });
    const other = path.join(tmp, 'other.mp4');
    fs.writeFileSync(other, Buffer.alloc(10));
    const again = await publishers
      .get('local')!
      .publish({ file: other, sizeBytes: 10, metadata: md, credentials: {}, account: 'My Channel', idempotencyKey: 'post1-item1' });
    expect(again).toEqual(result);
    expect(fs.readFileSync(path.join(dir, 'post1-item1.mp4')).equals(bytes)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['post1-item1.json', 'post1-item1.mp4']);
  });

  it('refuses invalid metadata and a missing file', async () => {
    const bad = await attempt({ metadata: { caption: 'no title' }, credentials: {}, idempotencyKey: 'x1' });
    expect(publishError(bad.error)).toMatchObject({ error_code: 'METADATA_REJECTED', field: 'local.title' });
    const local = new LocalPublisher({ dir: path.join(tmp, 'pub2'), publicBaseUrl: 'http://h' });
    const missing = await local
      .publish({ file: path.join(tmp, 'nope.mp4'), sizeBytes: 5, metadata: md, credentials: {}, idempotencyKey: 'x2' })
      .catch((e) => e);
    expect(publishError(missing)).toMatchObject({ error_code: 'UPLOAD_FAILED', retryable: false });
  });

  it('serves published files read-only with Range', async () => {
    const local = new LocalPublisher({ dir: path.join(tmp, 'served'), publicBaseUrl: 'http://h' });
    const { publishedUrl } = await local.publish({ file, sizeBytes: SIZE, metadata: md, credentials: {}, account: 'acme', idempotencyKey: 'k1' });
    const app = Fastify();
    await app.register((scope) => publishedRoutes(scope, { dir: path.join(tmp, 'served') }));
    const url = new URL(publishedUrl).pathname;
    const full = await app.inject({ method: 'GET', url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('video/mp4');
    expect(full.rawPayload.equals(bytes)).toBe(true);
    const part = await app.inject({ method: 'GET', url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${SIZE}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    expect((await app.inject({ method: 'HEAD', url })).headers['content-length']).toBe(String(SIZE));
    expect((await app.inject({ method: 'GET', url, headers: { range: `bytes=${SIZE}-` } })).statusCode).toBe(416);
    expect(JSON.parse((await app.inject({ method: 'GET', url: '/published/acme/k1.json' })).body).title).toBe('Local clip');
    for (const bad of ['/published/acme/k2.mp4', '/published/acme/..%2Fx.mp4', '/published/..%2F..%2Fetc/passwd', '/published/acme/.k1.mp4.tmp']) {
      expect((await app.inject({ method: 'GET', url: bad })).statusCode).toBe(404);
    }
    expect((await app.inject({ method: 'PUT', url, payload: 'x' })).statusCode).toBe(404);
    await app.close();
  });
});

describe('configuration and credentials', () => {
  it('defaults to the real networks', () => {
    const c = loadPublishingConfig({});
    expect(c.youtube).toMatchObject({ apiBase: 'https://www.googleapis.com', oauthBase: 'https://oauth2.googleapis.com', chunkBytes: 8 * 1024 * 1024 });
    expect(c.tiktok.apiBase).toBe('https://open.tiktokapis.com');
    expect(c.instagram).toEqual({ graphBase: 'https://graph.facebook.com', uploadBase: 'https://rupload.facebook.com', apiVersion: 'v21.0' });
    expect(c.credentialsKey).toBeUndefined();
    expect(loadPublishingConfig({ CUTROOM_CREDENTIALS_KEY: 'ab'.repeat(32) }).credentialsKey?.length).toBe(32);
  });

  it('refuses bad values with ConfigError', () => {
    for (const env of [
      { CUTROOM_YOUTUBE_API_BASE: 'ftp://x' },
      { CUTROOM_TIKTOK_API_BASE: 'not a url' },
      { CUTROOM_CREDENTIALS_KEY: 'too-short' },
      { CUTROOM_YOUTUBE_CHUNK_BYTES: '300000' },
      { CUTROOM_YOUTUBE_CLIENT_ID: 'only-the-id' },
      { CUTROOM_INSTAGRAM_API_VERSION: '21' },
      { CUTROOM_PUBLISH_POLL_INTERVAL_MS: '0' },
    ]) {
      expect(() => loadPublishingConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });

  it('checks a connection’s credentials per network', () => {
    // Each network's publisher checks its own credentials; a network without a publisher reports `platform`.
    const checkCredentials = (platform: string, credentials: Credentials) => {
      const publisher = publishers.get(platform);
      return publisher ? publisher.checkCredentials(credentials) : 'platform';
    };
    expect(checkCredentials('local', {})).toBeNull();
    expect(checkCredentials('youtube', { refresh_token: 'r' })).toBeNull();
    expect(checkCredentials('youtube', {})).toBe('access_token');
    expect(checkCredentials('youtube', { access_token: 'a', client_id: 'id' })).toBe('client_secret');
    expect(checkCredentials('tiktok', { access_token: 'a', expires_at: 'soon' })).toBe('expires_at');
    expect(checkCredentials('instagram', { access_token: 'a' })).toBe('ig_user_id');
    expect(checkCredentials('instagram', { access_token: 'a', ig_user_id: '1784' })).toBeNull();
    expect(checkCredentials('myspace', {})).toBe('platform');
    expect([...publishers.keys()]).toEqual(['local', 'youtube', 'tiktok', 'instagram']);
  });
});

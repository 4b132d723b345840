import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/main/admin-cli.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** `cutroom admin generation-models list|show|put|delete` against a running test server. */

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

async function admin(args: string[]): Promise<{ code: number; stdout: string; stderr: string; json: any }> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { CUTROOM_URL: url, CUTROOM_ADMIN_TOKEN: t.adminToken },
  });
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

describe('cutroom admin generation-models', () => {
  it('lists the embedded models', async () => {
    const res = await admin(['generation-models', 'list']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/upscale-x4\s+image\s+embedded\s+2\/image\s+yes/);
    expect(res.stdout).toMatch(/camera-motion\s+video\s+embedded\s+1\/s\s+yes/);
  });

  it('puts a hosted model with a sealed key, shows it, changes its price, disables and deletes it', async () => {
    const put = await admin([
      'generation-models',
      'put',
      'flux-dev',
      '--name',
      'FLUX dev',
      '--kind',
      'image',
      '--provider',
      'fal',
      '--provider-model',
      'fal-ai/flux/dev',
      '--api-key',
      'sk-cli-secret',
      '--price-per-image',
      '4',
      '--inputs',
      '{"prompt":"required","image_ids":{"min":0,"max":0}}',
      '--json',
    ]);
    expect(put.code, put.stderr).toBe(0);
    expect(put.json).toMatchObject({ id: 'flux-dev', provider: 'fal', has_api_key: true, price: { per_image: 4 }, inputs: { prompt: 'required' } });
    expect(put.stdout).not.toContain('sk-cli-secret');
    const show = await admin(['generation-models', 'show', 'flux-dev']);
    expect(show.stdout).toMatch(/api key:\s+set \(sealed\)/);
    const again = await admin([
      'generation-models',
      'put',
      'flux-dev',
      '--name',
      'FLUX dev',
      '--kind',
      'image',
      '--provider',
      'fal',
      '--provider-model',
      'fal-ai/flux/dev',
      '--price-per-image',
      '5',
      '--enabled',
      'false',
      '--json',
    ]);
    expect(again.json).toMatchObject({ has_api_key: true, price: { per_image: 5 }, enabled: false });
    expect((await t.api((await t.workspace()).key, 'GET', '/generations/models?limit=100')).body.models.map((m: any) => m.id)).not.toContain('flux-dev');
    expect((await admin(['generation-models', 'delete', 'flux-dev'])).code).toBe(0);
    const gone = await admin(['generation-models', 'show', 'flux-dev']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('MODEL_NOT_FOUND');
  });

  it('refuses a put without its required flags or with bad JSON (usage errors, exit 2)', async () => {
    expect((await admin(['generation-models', 'put', 'x', '--kind', 'image'])).code).toBe(2);
    expect(
      (await admin(['generation-models', 'put', 'x', '--name', 'X', '--kind', 'image', '--provider', 'fal', '--provider-model', 'a/b', '--inputs', '{nope']))
        .code,
    ).toBe(2);
    const bad = await admin([
      'generation-models',
      'put',
      'x',
      '--name',
      'X',
      '--kind',
      'image',
      '--provider',
      'fal',
      '--provider-model',
      'a/b',
      '--price-per-second',
      '1',
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('VALIDATION_ERROR');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { runAdmin } from '../../src/main/admin-cli.js';
import { protectNegativeNumbers } from '../../src/main/admin-cli/args.js';
import { resolveBaseUrl } from '../../src/main/admin-cli/client.js';

let t: TestApp;
let url: string;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await t?.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs). */
  json: any;
}

/** Runs `cutroom admin <args>` against the test server, with its own environment and captured output. */
async function admin(args: string[], env?: Record<string, string | undefined>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: env ?? { CUTROOM_URL: url, CUTROOM_ADMIN_TOKEN: t.adminToken },
  });
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, stdout, stderr, json };
}

async function workspaceOverHttp(id: string) {
  const res = await t.admin('GET', `/workspaces/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('cutroom admin: help and usage', () => {
  it('prints the command list with --help (exit 0) and without arguments (exit 2)', async () => {
    const help = await admin(['--help']);
    expect(help.code).toBe(0);
    for (const cmd of [
      'plans list',
      'plans show <name>',
      'plans create <name>',
      'plans update <name>',
      'workspaces create --name N',
      'workspaces show <id>',
      'workspaces update <id>',
      'keys create --workspace ID',
      'keys revoke <id>',
      'credits add <workspaceId> <amount> --reason R',
      'free-usage start <workspaceId> [--until ISO]',
      'free-usage end <workspaceId>',
    ]) {
      expect(help.stdout).toContain(cmd);
    }
    const none = await admin([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: cutroom admin');
  });

  it('prints per-command usage with its options and an example', async () => {
    const r = await admin(['plans', 'create', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: cutroom admin plans create <name> [plan options]');
    for (const flag of [
      '--max-video-duration',
      '--max-upload-size',
      '--render-expiry-hours',
      '--max-concurrent-renders',
      '--daily-post-limit',
      '--force-watermark',
      '--rate-limit-per-minute',
      '--analysis-rate-limit-per-minute',
      '--discount-percent',
      '--is-free',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('Example:');
    const res = await admin(['credits', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('credits add <workspaceId> <amount>');
  });

  it('refuses unknown resources, actions and flags, and missing arguments, with exit 2 and no request', async () => {
    // No token anywhere: these must fail before any connection is attempted.
    const env = { CUTROOM_URL: 'http://127.0.0.1:1', CUTROOM_DATA_DIR: tempDir() };
    const cases: Array<[string[], string]> = [
      [['nope'], 'unknown resource "nope"'],
      [['plans', 'delete', 'x'], 'unknown command "plans delete"'],
      [['plans', 'show', 'default', '--bogus'], 'unknown option --bogus'],
      [['plans', 'show'], 'missing <name>'],
      [['plans', 'show', 'a', 'b'], 'unexpected argument "b"'],
      [['plans', 'create', 'x', '--max-video-duration', 'ten'], '--max-video-duration must be an integer'],
      [['plans', 'create', 'x', '--force-watermark', 'yes'], '--force-watermark must be true or false'],
      [['plans', 'update', 'x'], 'nothing to change'],
      [['workspaces', 'create'], '--name is required'],
      [['workspaces', 'update', 'ws_x'], 'nothing to change'],
      [['keys', 'create'], '--workspace is required'],
      [['credits', 'add', 'ws_x', '10'], '--reason is required'],
      [['credits', 'add', 'ws_x', 'ten', '--reason', 'r'], '--amount must be an integer'],
      [['credits', 'add', 'ws_x', '0', '--reason', 'r'], '<amount> must not be 0'],
    ];
    for (const [args, message] of cases) {
      const r = await admin(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
      expect(r.stdout).toBe('');
    }
  });
});

describe('cutroom admin: connection and token', () => {
  it('says clearly when no token can be found', async () => {
    const dir = tempDir();
    const r = await admin(['plans', 'list'], { CUTROOM_URL: url, CUTROOM_DATA_DIR: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no admin token');
    expect(r.stderr).toContain('--token');
    expect(r.stderr).toContain('CUTROOM_ADMIN_TOKEN');
    expect(r.stderr).toContain(path.join(dir, 'admin-token'));
  });

  it('reads the token from <CUTROOM_DATA_DIR>/admin-token, and --token wins over the environment', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'admin-token'), `${t.adminToken}\n`, { mode: 0o600 });
    const fromFile = await admin(['plans', 'show', 'default'], { CUTROOM_URL: url, CUTROOM_DATA_DIR: dir });
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toContain('Plan default');

    const flag = await admin(['plans', 'show', 'default', '--token', t.adminToken, '--url', url], { CUTROOM_ADMIN_TOKEN: 'wrong' });
    expect(flag.code).toBe(0);
  });

  it('fails with UNAUTHORIZED (exit 1) and names the token source when the token is refused', async () => {
    const r = await admin(['plans', 'list', '--token', 'not-the-token']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('UNAUTHORIZED (HTTP 401)');
    expect(r.stderr).toContain('from --token');
  });

  it('finds the server through PUBLIC_BASE_URL, then http://localhost:$PORT', async () => {
    const viaPublic = await admin(['plans', 'show', 'default'], { PUBLIC_BASE_URL: `${url}/`, CUTROOM_ADMIN_TOKEN: t.adminToken });
    expect(viaPublic.code).toBe(0);
    const viaPort = await admin(['plans', 'show', 'default'], { PORT: String(port), CUTROOM_ADMIN_TOKEN: t.adminToken });
    expect(viaPort.code).toBe(0);
    expect(resolveBaseUrl(undefined, {})).toBe('http://localhost:8080');
    expect(resolveBaseUrl(undefined, { PORT: '9000' })).toBe('http://localhost:9000');
    expect(resolveBaseUrl(undefined, { PUBLIC_BASE_URL: 'https://clips.example.com/', PORT: '9000' })).toBe('https://clips.example.com');
    expect(resolveBaseUrl(undefined, { CUTROOM_URL: 'http://a:1', PUBLIC_BASE_URL: 'http://b:2' })).toBe('http://a:1');
    expect(resolveBaseUrl('http://c:3', { CUTROOM_URL: 'http://a:1' })).toBe('http://c:3');
  });

  it('exits 3 when the server cannot be reached, and 2 for a URL that is not one', async () => {
    const down = await admin(['plans', 'list', '--url', 'http://127.0.0.1:1', '--token', 'x']);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('cannot reach http://127.0.0.1:1');
    const bad = await admin(['plans', 'list', '--url', 'not a url', '--token', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not an absolute URL');
  });

  it('keeps negative numbers as values and positionals', () => {
    const opts = { credits: { type: 'string' as const }, json: { type: 'boolean' as const } };
    expect(protectNegativeNumbers(['--credits', '-5'], opts)).toEqual(['--credits=-5']);
    expect(protectNegativeNumbers(['ws', '-50', '--json'], opts)).toEqual(['ws', '\u0000-50', '--json']);
    expect(protectNegativeNumbers(['--json', '-50'], opts)).toEqual(['--json', '\u0000-50']);
    expect(protectNegativeNumbers(['ws', '--', '-50'], opts)).toEqual(['ws', '--', '-50']);
  });
});

describe('cutroom admin plans', () => {
  it('lists plans (table and JSON)', async () => {
    const human = await admin(['plans', 'list']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^NAME\s+FREE\s+MAX DURATION/);
    expect(human.stdout).toMatch(/\ndefault\s+no\s+3h\s+10 GiB\s+72h/);

    const json = await admin(['plans', 'list', '--json']);
    expect(json.code).toBe(0);
    expect(json.json.plans.map((p: any) => p.name)).toContain('default');
    expect(json.json.pagination.total_count).toBe(json.json.plans.length);
  });

  it('creates, shows and updates a plan', async () => {
    const created = await admin([
      'plans',
      'create',
      'cli-pro',
      '--max-video-duration',
      '14400',
      '--max-upload-size',
      '1073741824',
      '--render-expiry-hours',
      '1.5',
      '--max-concurrent-renders',
      '5',
      '--daily-post-limit',
      '0',
      '--force-watermark',
      'true',
      '--rate-limit-per-minute',
      '120',
      '--analysis-rate-limit-per-minute',
      '3',
      '--discount-percent',
      '12.5',
      '--is-free',
      'false',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Created plan cli-pro.');
    expect(created.stdout).toContain('4h (14400 s)');
    expect(created.stdout).toContain('1 GiB (1073741824 bytes)');
    expect(created.stdout).toMatch(/force watermark:\s+yes/);

    const shown = await admin(['plans', 'show', 'cli-pro', '--json']);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      name: 'cli-pro',
      is_free: false,
      max_video_duration: 14400,
      max_upload_size: 1073741824,
      render_expiry_hours: 1.5,
      max_concurrent_renders: 5,
      daily_post_limit: 0,
      force_watermark: true,
      rate_limit_per_minute: 120,
      analysis_rate_limit_per_minute: 3,
      discount_percent: 12.5,
    });

    const humanShow = await admin(['plans', 'show', 'cli-pro']);
    expect(humanShow.stdout).toContain('Plan cli-pro');
    expect(humanShow.stdout).toMatch(/discount:\s+12.5 %/);

    const updated = await admin(['plans', 'update', 'cli-pro', '--daily-post-limit', '50', '--is-free', 'true', '--json']);
    expect(updated.code).toBe(0);
    expect(updated.json).toMatchObject({ name: 'cli-pro', daily_post_limit: 50, is_free: true, max_video_duration: 14400 });
    expect((await t.c.plans.get('cli-pro')).dailyPostLimit).toBe(50);

    const humanUpdate = await admin(['plans', 'update', 'cli-pro', '--force-watermark', 'false']);
    expect(humanUpdate.stdout).toContain('Updated plan cli-pro.');
    expect((await t.c.plans.get('cli-pro')).forceWatermark).toBe(false);
  });

  it('creates a plan with defaults when no field is given', async () => {
    const r = await admin(['plans', 'create', 'cli-basic', '--json']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ name: 'cli-basic', max_video_duration: 10800, daily_post_limit: 25 });
  });

  it('prints the API error code: PLAN_ALREADY_EXISTS, PLAN_NOT_FOUND, VALIDATION_ERROR with fields', async () => {
    const dup = await admin(['plans', 'create', 'default']);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('PLAN_ALREADY_EXISTS (HTTP 409)');

    const missing = await admin(['plans', 'show', 'no-such-plan']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('PLAN_NOT_FOUND (HTTP 404)');

    const missingJson = await admin(['plans', 'update', 'no-such-plan', '--daily-post-limit', '1', '--json']);
    expect(missingJson.code).toBe(1);
    expect(missingJson.json).toEqual({ code: 'PLAN_NOT_FOUND' });

    const invalid = await admin(['plans', 'create', 'Bad Name', '--max-video-duration', '10']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('VALIDATION_ERROR (HTTP 400)');
    expect(invalid.stderr).toContain('name: pattern');
    expect(invalid.stderr).toContain('max_video_duration: minimum');
  });
});

describe('cutroom admin workspaces', () => {
  it('creates, shows and updates a workspace', async () => {
    await t.c.plans.create('cli-team', {});
    const created = await admin(['workspaces', 'create', '--name', 'Acme video', '--plan', 'cli-team', '--credits', '500', '--personal']);
    expect(created.code, created.stderr).toBe(0);
    const id = /Created workspace (ws_\w+)\./.exec(created.stdout)?.[1];
    expect(id).toBeDefined();
    expect(created.stdout).toMatch(/name:\s+Acme video/);
    expect(created.stdout).toMatch(/plan:\s+cli-team/);
    expect(created.stdout).toMatch(/credits:\s+500/);
    expect(created.stdout).toMatch(/personal:\s+yes/);
    expect(created.stdout).toMatch(/free usage:\s+off/);

    const stored = await t.c.workspaces.get(id!);
    expect(stored.workspace).toMatchObject({ name: 'Acme video', planName: 'cli-team', credits: 500, isPersonal: true });

    const shown = await admin(['workspaces', 'show', id!, '--json']);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({ id, name: 'Acme video', plan_name: 'cli-team', credits: 500, is_personal: true, member_count: 1 });

    const updated = await admin(['workspaces', 'update', id!, '--name', 'Acme', '--plan', 'default', '--member-count', '4']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(`Updated workspace ${id}.`);
    expect(updated.stdout).toMatch(/members:\s+4/);
    expect((await workspaceOverHttp(id!)).member_count).toBe(4);
    expect((await t.c.workspaces.get(id!)).workspace).toMatchObject({ name: 'Acme', planName: 'default', memberCount: 4 });

    const json = await admin(['workspaces', 'create', '--name', 'Plain', '--json']);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ name: 'Plain', plan_name: 'default', credits: 0, is_personal: false });
  });

  it('exits 1 with WORKSPACE_NOT_FOUND for an unknown workspace (text and --json)', async () => {
    const r = await admin(['workspaces', 'show', 'ws_doesnotexist']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('WORKSPACE_NOT_FOUND');
    const j = await admin(['workspaces', 'update', 'ws_doesnotexist', '--name', 'x', '--json']);
    expect(j.code).toBe(1);
    expect(j.json).toEqual({ code: 'WORKSPACE_NOT_FOUND' });
    expect(j.stderr).toContain('WORKSPACE_NOT_FOUND (HTTP 404)');
  });

  it('passes a negative option value to the API, which refuses it', async () => {
    const r = await admin(['workspaces', 'create', '--name', 'Neg', '--credits', '-5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('credits: minimum');
    const plan = await admin(['workspaces', 'create', '--name', 'X', '--plan', 'no-such-plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('PLAN_NOT_FOUND');
  });
});

describe('cutroom admin keys', () => {
  it('issues a key for several workspaces, shows it once, and revokes it', async () => {
    const a = await t.workspace({ name: 'A' });
    const b = await t.workspace({ name: 'B' });
    const created = await admin(['keys', 'create', '--workspace', a.id, '--workspace', b.id, '--label', 'cli test']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('shown only this once');
    expect(created.stdout).toContain(`for ${[a.id, b.id].join(', ')}, no expiry`);
    const key = /\n\s+(key_\w+\.[\w-]+)\n/.exec(created.stdout)?.[1];
    expect(key).toBeDefined();
    const keyId = key!.split('.')[0];

    const call = (k: string, workspace: string) => t.api(k, 'GET', '/workspace', undefined, { 'x-workspace-id': workspace });
    expect((await call(key!, a.id)).status).toBe(200);
    expect((await call(key!, b.id)).body.id).toBe(b.id);

    const revoked = await admin(['keys', 'revoke', keyId]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked API key ${keyId}.`);
    const after = await call(key!, a.id);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHORIZED');
  });

  it('prints the JSON answer with --json and takes an expiry; revoke --json and a whole key', async () => {
    const ws = await t.workspace();
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const r = await admin(['keys', 'create', '--workspace', ws.id, '--expires-at', expires, '--json']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ workspace_ids: [ws.id], expires_at: expires });
    expect(r.json.key.startsWith(`${r.json.id}.`)).toBe(true);
    const ok = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': r.json.key } });
    expect(ok.statusCode).toBe(200);

    const revoked = await admin(['keys', 'revoke', r.json.key, '--json']);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ id: r.json.id, revoked: true });
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/workspace', headers: { 'x-api-key': r.json.key } });
    expect(after.statusCode).toBe(401);
  });

  it('reports KEY_NOT_FOUND, WORKSPACE_NOT_FOUND with the unknown ids, and a past expiry', async () => {
    const missing = await admin(['keys', 'revoke', 'key_00000000000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('KEY_NOT_FOUND (HTTP 404)');

    const ws = await t.workspace();
    const unknown = await admin(['keys', 'create', '--workspace', ws.id, '--workspace', 'ws_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('WORKSPACE_NOT_FOUND');
    expect(unknown.stderr).toContain('invalid_workspace_ids: ["ws_nope"]');

    const past = await admin(['keys', 'create', '--workspace', ws.id, '--expires-at', '2001-01-01T00:00:00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('expires_at: future');
  });
});

describe('cutroom admin credits', () => {
  it('grants and debits credits (negative amounts parse), changing the balance', async () => {
    const ws = await t.workspace({ credits: 10 });
    const grant = await admin(['credits', 'add', ws.id, '100', '--reason', 'top-up']);
    expect(grant.code, grant.stderr).toBe(0);
    expect(grant.stdout).toContain(`Granted 100 credits to ${ws.id} (top-up). Balance: 110.`);
    expect((await workspaceOverHttp(ws.id)).credits).toBe(110);

    const debit = await admin(['credits', 'add', ws.id, '-50', '--reason', 'correction']);
    expect(debit.code, debit.stderr).toBe(0);
    expect(debit.stdout).toContain(`Debited 50 credits from ${ws.id} (correction). Balance: 60.`);

    const afterTerminator = await admin(['credits', 'add', '--reason', 'x', '--json', '--', ws.id, '-10']);
    expect(afterTerminator.code, afterTerminator.stderr).toBe(0);
    expect(afterTerminator.json).toMatchObject({ kind: 'debit', amount: -10, balance_after: 50, reason: 'x' });

    const balance = await t.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': ws.key } });
    expect(balance.json().balance).toBe(50);
    expect(await t.c.credits.ledgerSum(ws.id)).toBe(50);
  });

  it('refuses a debit below zero with INSUFFICIENT_CREDITS and prints the details', async () => {
    const ws = await t.workspace({ credits: 5 });
    const r = await admin(['credits', 'add', ws.id, '-6', '--reason', 'too much']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('INSUFFICIENT_CREDITS (HTTP 402)');
    expect(r.stderr).toContain('current_balance: 5');
    expect((await workspaceOverHttp(ws.id)).credits).toBe(5);
  });

  it('applies a grant once per --idempotency-key', async () => {
    const ws = await t.workspace();
    const args = ['credits', 'add', ws.id, '7', '--reason', 'once', '--idempotency-key', `k-${ws.id}`, '--json'];
    const first = await admin(args);
    const second = await admin(args);
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(second.json).toEqual(first.json);
    expect((await workspaceOverHttp(ws.id)).credits).toBe(7);
  });

  it('exits 1 with WORKSPACE_NOT_FOUND for an unknown workspace', async () => {
    const r = await admin(['credits', 'add', 'ws_nope', '5', '--reason', 'x']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('WORKSPACE_NOT_FOUND');
  });
});

describe('cutroom admin free-usage', () => {
  it('starts a window with an end date, without one, and ends it', async () => {
    const ws = await t.workspace({ credits: 3 });
    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const started = await admin(['free-usage', 'start', ws.id, '--until', until]);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain(`Free usage for ${ws.id}: on until ${until}.`);
    expect(await workspaceOverHttp(ws.id)).toMatchObject({ credits_unlimited: true, credits_unlimited_until: until, credits: 3 });

    const open = await admin(['free-usage', 'start', ws.id, '--json']);
    expect(open.code).toBe(0);
    expect(open.json).toMatchObject({ id: ws.id, credits_unlimited: true, credits_unlimited_until: null });
    expect(await workspaceOverHttp(ws.id)).toMatchObject({ credits_unlimited: true, credits_unlimited_until: null });
    expect((await admin(['workspaces', 'show', ws.id])).stdout).toMatch(/free usage:\s+on, no end date/);

    const ended = await admin(['free-usage', 'end', ws.id]);
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(`Free usage for ${ws.id}: off.`);
    expect(await workspaceOverHttp(ws.id)).toMatchObject({ credits_unlimited: false, credits_unlimited_until: null });

    const endedJson = await admin(['free-usage', 'end', ws.id, '--json']);
    expect(endedJson.json).toMatchObject({ id: ws.id, credits_unlimited: false });
  });

  it('refuses an end date in the past or not ISO, and an unknown workspace', async () => {
    const ws = await t.workspace();
    const past = await admin(['free-usage', 'start', ws.id, '--until', '2000-01-01T00:00:00Z']);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('VALIDATION_ERROR');
    expect(past.stderr).toContain('until: future');
    const notIso = await admin(['free-usage', 'start', ws.id, '--until', 'tomorrow']);
    expect(notIso.code).toBe(1);
    expect(notIso.stderr).toContain('until: format');
    expect((await workspaceOverHttp(ws.id)).credits_unlimited).toBe(false);

    const unknown = await admin(['free-usage', 'end', 'ws_nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('WORKSPACE_NOT_FOUND');
  });
});

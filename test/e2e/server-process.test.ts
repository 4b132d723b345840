import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { openTestDatabase } from '../helpers/db.js';
import { freePort, runCli, waitForHttp, type Proc } from '../helpers/process.js';

const procs: Proc[] = [];
afterAll(() => {
  for (const p of procs) p.child.kill('SIGKILL');
});

describe('the embedded service as a real process', () => {
  it('refuses to boot with a short admin token or CUTROOM_TRUST_PROXY=true (status 2, message naming the variable)', async () => {
    const dataDir = tempDir();
    const short = runCli(['serve'], { CUTROOM_DATA_DIR: dataDir, PORT: String(await freePort()), CUTROOM_ADMIN_TOKEN: 'adm-test' });
    procs.push(short);
    expect(await short.exited).toBe(2);
    expect(short.output()).toMatch(/CUTROOM_ADMIN_TOKEN must be at least 32 characters/);
    const trustAll = runCli(['serve'], { CUTROOM_DATA_DIR: dataDir, PORT: String(await freePort()), CUTROOM_ADMIN_TOKEN: '', CUTROOM_TRUST_PROXY: 'true' });
    procs.push(trustAll);
    expect(await trustAll.exited).toBe(2);
    expect(trustAll.output()).toMatch(/CUTROOM_TRUST_PROXY=true .*list the reverse proxies/i);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('starts on an empty data dir, prints the key once, refuses a second process, stops on SIGTERM and keeps its data', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { CUTROOM_DATA_DIR: dataDir, PORT: String(port), CUTROOM_ADMIN_TOKEN: '' };
    const first = runCli(['serve'], env);
    procs.push(first);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);

    const keyFile = path.join(dataDir, 'api-key');
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(first.output()).toContain(key);

    const ws = await fetch(`http://127.0.0.1:${port}/api/v1/workspace`, { headers: { 'X-Api-Key': key } });
    expect(ws.status).toBe(200);
    expect(await ws.json()).toMatchObject({ is_personal: true, plan_name: 'default', credits: 120 });
    expect(ws.headers.get('x-request-id')).toBeTruthy();

    const second = runCli(['serve'], { ...env, PORT: String(await freePort()) });
    procs.push(second);
    expect(await second.exited).toBe(3);
    expect(second.output()).toMatch(/Another Cutroom process \(pid \d+\) is using the data directory/);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'cutroom.lock'))).toBe(false);

    const again = runCli(['serve'], env);
    procs.push(again);
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/balance`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(again.output()).not.toContain(key);
    again.child.kill('SIGKILL');
    await again.exited;

    // A lock left by a killed process does not block the next start.
    const afterKill = runCli(['serve'], env);
    procs.push(afterKill);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    afterKill.child.kill('SIGTERM');
    expect(await afterKill.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 240_000);

  it('runs api and worker roles as separate processes on PostgreSQL, sharing the rate-limit counter', async () => {
    const fresh = await openTestDatabase('postgres');
    const dataDir = tempDir();
    const [p1, p2] = [await freePort(), await freePort()];
    const adminToken = 'adm-test-distributed-0123456789abcdef';
    const env = { DATABASE_URL: fresh.url!, CUTROOM_DATA_DIR: dataDir, CUTROOM_ADMIN_TOKEN: adminToken };
    const worker = runCli(['serve', '--role', 'worker'], { ...env, PORT: String(await freePort()) });
    const api1 = runCli(['serve', '--role', 'api'], { ...env, PORT: String(p1) });
    const api2 = runCli(['serve', '--role', 'api'], { ...env, PORT: String(p2) });
    procs.push(worker, api1, api2);
    await waitForHttp(`http://127.0.0.1:${p1}/readyz`);
    await waitForHttp(`http://127.0.0.1:${p2}/readyz`);

    const ws = await (
      await fetch(`http://127.0.0.1:${p1}/admin/v1/workspaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dist', credits: 5 }),
      })
    ).json();
    const { key } = await (
      await fetch(`http://127.0.0.1:${p2}/admin/v1/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ workspace_ids: [ws.id] }),
      })
    ).json();
    const r1 = await fetch(`http://127.0.0.1:${p1}/api/v1/balance`, { headers: { 'X-Api-Key': key } });
    const r2 = await fetch(`http://127.0.0.1:${p2}/api/v1/balance`, { headers: { 'X-Api-Key': key } });
    expect(await r2.json()).toEqual({ balance: 5, unlimited: false, unlimited_until: null });
    const rem1 = Number(r1.headers.get('x-ratelimit-remaining'));
    const rem2 = Number(r2.headers.get('x-ratelimit-remaining'));
    // Same window unless it turned over between the two calls.
    if (r1.headers.get('x-ratelimit-reset') === r2.headers.get('x-ratelimit-reset')) expect(rem2).toBe(rem1 - 1);

    for (const p of [api1, api2, worker]) p.child.kill('SIGTERM');
    expect(await Promise.all([api1.exited, api2.exited, worker.exited])).toEqual([0, 0, 0]);
    await fresh.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 240_000);

  it('refuses the api or worker role without DATABASE_URL', async () => {
    const p = runCli(['serve', '--role', 'worker'], { CUTROOM_DATA_DIR: tempDir(), DATABASE_URL: '' });
    procs.push(p);
    expect(await p.exited).toBe(2);
    expect(p.output()).toContain('needs DATABASE_URL');
  });
});

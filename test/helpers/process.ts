import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import fs from 'node:fs';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Runs the CLI from source (`cutroom <args>`) with the given environment. */
export function runCli(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, CUTROOM_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A JSON call to `${base}/api/v1${url}` over real TCP with an API key: `{ status, body }`. */
export async function apiCall(base: string, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

/**
 * `cutroom serve` as a real process on a free loopback port with its data in `<dir>/data` (no admin
 * token unless `env` gives one), once it answers /readyz; the API key it wrote on first start.
 */
export async function startServe(dir: string, env: Record<string, string> = {}): Promise<{ server: Proc; base: string; key: string; dataDir: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(dir, 'data');
  const server = runCli(['serve'], { CUTROOM_DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: base, CUTROOM_ADMIN_TOKEN: '', ...env });
  await waitForHttp(`${base}/readyz`, 180_000);
  const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
  return { server, base, key, dataDir };
}

/** Stops a `cutroom serve` of startServe (SIGTERM) and waits for it to exit; nothing when it never started. */
export async function stopServe(server: Proc | undefined): Promise<void> {
  if (!server) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

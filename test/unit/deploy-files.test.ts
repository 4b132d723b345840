import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/env.js';
import type { Env } from '../../src/config/parse.js';

/**
 * The container files (Dockerfile, compose.yaml), checked without Docker: images cannot be pulled or
 * built on these machines (docs/deploy.md). Every variable compose.yaml sets for a Cutroom process must
 * be one loadConfig reads: the names are recorded as loadConfig reads them, so the list cannot drift.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** What the operator exports before `docker compose up` (the `${VAR:?}` ones). */
const OPERATOR_ENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'pg-password',
  MINIO_ROOT_PASSWORD: 'minio-password',
  CUTROOM_ADMIN_TOKEN: 'a'.repeat(48),
  CUTROOM_CREDENTIALS_KEY: 'ab'.repeat(32),
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, and $$ for $. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name?: string, op?: string, arg?: string) => {
    if (whole === '$$') return '$';
    const v = env[name!];
    const unset = op?.startsWith(':') ? !v : v === undefined;
    if (!op || !unset) return v ?? '';
    if (op.endsWith('?')) throw new Error(`${name} is required: ${arg}`);
    return arg ?? '';
  });
}

/** Calls loadConfig on `values` and returns the names it read. */
function namesReadBy(values: Record<string, string>): Set<string> {
  const names = new Set<string>();
  const env = new Proxy(values, {
    get(target, prop) {
      if (typeof prop !== 'string') return undefined;
      names.add(prop);
      return target[prop];
    },
  }) as Env;
  loadConfig(env);
  return names;
}

interface Service {
  build?: unknown;
  image?: string;
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
}

const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const cutroom = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe('compose.yaml', () => {
  it('runs PostgreSQL, MinIO with its bucket, 2 api and 2 worker processes of the image built here', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api-1', 'api-2', 'minio', 'minio-init', 'postgres', 'worker-1', 'worker-2']);
    expect(cutroom.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'worker-1', 'worker-2']);
    for (const [name, s] of cutroom) {
      const role = name.startsWith('api') ? 'api' : 'worker';
      expect(s.command, name).toEqual(['serve', '--role', role]);
      expect(s.build, name).toBe('.');
      expect(s.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' }, 'minio-init': { condition: 'service_completed_successfully' } });
      // Work files on a volume of the process's own.
      expect(s.volumes, name).toEqual([`${name}-data:/data`]);
      expect(compose.volumes, name).toHaveProperty(`${name}-data`);
    }
    expect(compose.services['api-1'].ports).toEqual(['8080:8080']);
    expect(compose.services['worker-1'].ports).toBeUndefined();
    expect(compose.services.postgres.healthcheck?.test[0]).toBe('CMD');
    expect(compose.services.minio.healthcheck?.test[0]).toBe('CMD');
    expect(compose.services['minio-init'].depends_on).toEqual({ minio: { condition: 'service_healthy' } });
  });

  it('gives every Cutroom process only variables the service reads, with values it accepts', () => {
    for (const [name, s] of cutroom) {
      const values = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), OPERATOR_ENV)]));
      const names = namesReadBy(values);
      const unread = Object.keys(values).filter((k) => !names.has(k));
      expect(unread, `${name} sets variables no config loader reads`).toEqual([]);
      const config = loadConfig(values);
      expect(config.databaseUrl, name).toBe('postgres://cutroom:pg-password@postgres:5432/cutroom');
      expect(config.storage, name).toMatchObject({ driver: 's3', bucket: 'cutroom', endpoint: 'http://minio:9000', forcePathStyle: true });
      expect(config.host, name).toBe('0.0.0.0');
      expect(config.rateLimitStore, name).toBe('database');
    }
  });

  it('refuses to start without the operator secrets', () => {
    const env = compose.services['api-1'].environment ?? {};
    expect(() => interpolate(String(env.CUTROOM_ADMIN_TOKEN), {})).toThrow(/CUTROOM_ADMIN_TOKEN is required/);
    expect(() => interpolate(String(env.DATABASE_URL), {})).toThrow(/POSTGRES_PASSWORD is required/);
  });

  it('the check catches a variable the service does not read', () => {
    const names = namesReadBy({ ...OPERATOR_ENV, CUTROOM_NO_SUCH_SETTING: '1' });
    expect(names.has('CUTROOM_ADMIN_TOKEN')).toBe(true);
    expect(names.has('CUTROOM_NO_SUCH_SETTING')).toBe(false);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('builds in stages on Debian bookworm slim with Node 20, and runs as a non-root user with a health check', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(instructions.filter((l) => l.startsWith('FROM '))).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE} AS runtime']);
    const users = instructions.filter((l) => l.startsWith('USER '));
    expect(users).toEqual(['USER node']);
    expect(instructions.findIndex((l) => l.startsWith('USER '))).toBeLessThan(instructions.findIndex((l) => l.startsWith('ENTRYPOINT ')));
    expect(instructions.some((l) => /^HEALTHCHECK .*\/healthz/.test(l))).toBe(true);
    expect(instructions).toContain('ENTRYPOINT ["node", "bin/cutroom.js"]');
    // What the compiled service reads at run time beside its code: the migrations.
    expect(instructions).toContain('COPY drizzle ./drizzle');
  });

  it('installs every Debian package scripts/setup.sh lists for the service (not those only the tests use)', () => {
    const list = /APT_PACKAGES=\(\n([\s\S]*?)\n\)/.exec(read('scripts/setup.sh'))![1];
    const packages = list
      .split('\n')
      .map((l) => /^\s*([a-z0-9.+-]+)\s*(?:#\s*(.*))?$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ name: m[1], why: m[2] ?? '' }));
    const forService = packages.filter((p) => !/test/i.test(p.why)).map((p) => p.name);
    expect(forService).toEqual(expect.arrayContaining(['ffmpeg', 'pocketsphinx']));
    const install = instructions.find((l) => l.includes('apt-get install'))!;
    const installed = install.split(/\s+/);
    for (const name of forService) expect(installed, name).toContain(name);
    for (const p of packages.filter((x) => /test/i.test(x.why))) expect(installed, p.name).not.toContain(p.name);
  });

  it('.dockerignore keeps local builds, data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(entry);
  });
});

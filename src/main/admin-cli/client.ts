import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './args.js';
import type { ParsedJson } from '../../shared/json.js';

export type Env = Record<string, string | undefined>;

export const ADMIN_PREFIX = '/admin/v1';
const TIMEOUT_MS = 30_000;

/** The admin API answered `{ code, extra? }` with a 4xx/5xx status: exit status 1. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly extra: Record<string, unknown> | undefined,
    readonly body: unknown,
  ) {
    super(code);
    this.name = 'AdminApiError';
  }
}

/** The server could not be reached, or what answered is not the Cutroom admin API: exit status 3. */
export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

export interface Connection {
  /** Base URL of the service, without a trailing slash (the admin API is under /admin/v1). */
  baseUrl: string;
  token: string;
  /** Where the token came from, to say so when it is refused. */
  tokenSource: string;
}

/** `--url`, else CUTROOM_URL, else PUBLIC_BASE_URL, else http://localhost:$PORT (8080). */
export function resolveBaseUrl(flag: string | undefined, env: Env): string {
  const raw = flag || env.CUTROOM_URL || env.PUBLIC_BASE_URL || `http://localhost:${env.PORT || 8080}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`the server URL "${raw}" is not an absolute URL (set --url or CUTROOM_URL)`, false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the server URL "${raw}" must start with http:// or https://`, false);
  }
  return raw.replace(/\/+$/, '');
}

/** The data directory's token file, as the server writes it on its first start. */
export function tokenFile(env: Env): string {
  return path.resolve(env.CUTROOM_DATA_DIR || './data', 'admin-token');
}

/** `--token`, else CUTROOM_ADMIN_TOKEN, else `<CUTROOM_DATA_DIR or ./data>/admin-token`. */
export function resolveToken(flag: string | undefined, env: Env): { token: string; source: string } {
  if (flag !== undefined) {
    if (!flag.trim()) throw new UsageError('--token is empty', false);
    return { token: flag.trim(), source: '--token' };
  }
  if (env.CUTROOM_ADMIN_TOKEN?.trim()) return { token: env.CUTROOM_ADMIN_TOKEN.trim(), source: 'CUTROOM_ADMIN_TOKEN' };
  const file = tokenFile(env);
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new UsageError(
        `no admin token: pass --token, set CUTROOM_ADMIN_TOKEN, or run where ${file} exists ` +
          `(the server writes it on its first start unless CUTROOM_ADMIN_TOKEN is set; CUTROOM_DATA_DIR selects the directory)`,
        false,
      );
    }
    if (code === 'EACCES' || code === 'EPERM') {
      throw new UsageError(`no admin token: ${file} is not readable by this user (it is mode 0600, owned by the server's user)`, false);
    }
    throw new UsageError(`no admin token: cannot read ${file}: ${(err as Error).message}`, false);
  }
  const token = content.trim();
  if (!token) throw new UsageError(`no admin token: ${file} is empty`, false);
  return { token, source: file };
}

export function resolveConnection(flags: { url?: string; token?: string }, env: Env): Connection {
  const baseUrl = resolveBaseUrl(flags.url, env);
  const { token, source } = resolveToken(flags.token, env);
  return { baseUrl, token, tokenSource: source };
}

/**
 * A thin JSON client of /admin/v1. The connection is resolved on the first request, so a command
 * checks its own arguments before a missing token is reported.
 */
export class AdminClient {
  private resolved?: Connection;

  constructor(private readonly connect: () => Connection) {}

  get conn(): Connection {
    return (this.resolved ??= this.connect());
  }

  /** The parsed JSON answer, or undefined for 204. Throws AdminApiError or ConnectionError. */
  async request<T = ParsedJson>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const url = `${this.conn.baseUrl}${ADMIN_PREFIX}${route}`;
    const h: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.conn.token}`, ...headers };
    // No content-type without a body: Fastify refuses an empty JSON body.
    if (body !== undefined) h['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      const reason = e.name === 'TimeoutError' ? `no answer within ${TIMEOUT_MS / 1000}s` : (e.cause?.code ?? e.cause?.message ?? e.message);
      throw new ConnectionError(`cannot reach ${this.conn.baseUrl} (${reason}); is the server running? (set --url or CUTROOM_URL)`);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.ok && parsed !== undefined) return parsed as T;
    const err = parsed as { code?: unknown; extra?: unknown } | undefined;
    if (!res.ok && err && typeof err.code === 'string') {
      const extra = err.extra && typeof err.extra === 'object' ? (err.extra as Record<string, unknown>) : undefined;
      throw new AdminApiError(res.status, err.code, extra, parsed);
    }
    const type = res.headers.get('content-type') ?? 'no content type';
    throw new ConnectionError(`unexpected answer from ${url} (HTTP ${res.status}, ${type}); is --url the Cutroom server?`);
  }
}

import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The base of the publishing network fakes (fake-networks.ts): a loopback server that records requests,
 * issues and expires tokens, answers queued failures and records protocol violations.
 */

export interface Req {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is (to write 64-bit numbers unquoted). */
  body?: unknown;
}

export interface Failure extends Answer {
  /** The step name of the fake (`init`, `chunk`, `status`, ...). */
  step: string;
  /** Fail the n-th call of that step from now (1 = the next). */
  nth?: number;
}

export abstract class FakeServer {
  url = '';
  readonly log: string[] = [];
  readonly violations: string[] = [];
  private server?: http.Server;
  private failures: Array<Failure & { seen: number }> = [];
  protected readonly tokens = new Set<string>();
  private tokenSeq = 0;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Req = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', this.url), headers: req.headers, body: Buffer.concat(chunks) };
        this.log.push(`${r.method} ${r.url.pathname}`);
        let a: Answer;
        try {
          a = this.handle(r);
        } catch (err) {
          a = { status: 500, body: { error: String(err) } };
        }
        const body = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
        res.writeHead(a.status, { ...(body ? { 'content-type': 'application/json; charset=UTF-8' } : {}), ...a.headers });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A new valid access token. */
  issueToken(prefix = 'tok'): string {
    const t = `${prefix}-${++this.tokenSeq}-${crypto.randomBytes(4).toString('hex')}`;
    this.tokens.add(t);
    return t;
  }

  /** Every token issued so far stops working (the next call answers 401 or its network's equivalent). */
  expireTokens(): void {
    this.tokens.clear();
  }

  failOnce(f: Failure): void {
    this.failures.push({ ...f, seen: 0 });
  }

  /** A queued failure for `step`, consumed when due. */
  protected injected(step: string): Answer | undefined {
    const i = this.failures.findIndex((f) => f.step === step && ++f.seen >= (f.nth ?? 1));
    if (i < 0) return undefined;
    const [f] = this.failures.splice(i, 1);
    return { status: f.status, headers: f.headers, body: f.body };
  }

  protected violation(what: string): Answer {
    this.violations.push(what);
    return { status: 400, body: { error: { message: `fake: ${what}` } } };
  }

  protected bearer(r: Req, scheme = 'Bearer'): string | undefined {
    const m = new RegExp(`^${scheme} (.+)$`).exec(String(r.headers.authorization ?? ''));
    return m && this.tokens.has(m[1]) ? m[1] : undefined;
  }

  protected json(r: Req): any {
    try {
      return JSON.parse(r.body.toString('utf8'));
    } catch {
      return undefined;
    }
  }

  protected form(r: Req): URLSearchParams {
    return new URLSearchParams(r.body.toString('utf8'));
  }

  protected abstract handle(r: Req): Answer;
}

/** `bytes a-b/total` or `bytes * /total`. */
export function parseContentRange(h: string | string[] | undefined): { start?: number; end?: number; total: number } | undefined {
  const m = /^bytes (?:(\d+)-(\d+)|\*)\/(\d+)$/.exec(String(h ?? ''));
  if (!m) return undefined;
  return m[1] === undefined ? { total: Number(m[3]) } : { start: Number(m[1]), end: Number(m[2]), total: Number(m[3]) };
}

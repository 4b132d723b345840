import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { windowStart } from '../../src/ports/rate-limiter.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Wrong admin tokens are throttled per client address (second security audit, finding 6): past
 * CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE refusals in a minute, /admin/v1 and /metrics answer 429
 * RATE_LIMIT_EXCEEDED with Retry-After, even to the right token (so guesses cannot be tested), and
 * each refusal is logged; other addresses are not affected.
 */

let t: TestApp;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  t = await createTestApp({ env: { CUTROOM_ADMIN_AUTH_FAILURES_PER_MINUTE: '3' }, logger: pino({ level: 'info' }, sink) });
});

afterAll(async () => {
  await t?.close();
});

const from = (ip: string, url: string, token: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip, headers: { authorization: `Bearer ${token}` } });

/** Runs `fn` until it runs inside one rate-limit window (a minute boundary resets the counts). */
async function inOneWindow(fn: (attempt: number) => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const before = windowStart(Date.now());
    await fn(attempt);
    if (windowStart(Date.now()) === before || attempt === 2) return;
  }
}

describe('wrong admin tokens', () => {
  it('past the budget of failures, /admin/v1 answers 429 with Retry-After to every token from that address, and logs it', async () => {
    await inOneWindow(async (attempt) => {
      const ip = `10.9.${attempt}.1`;
      for (let i = 0; i < 3; i++) {
        const r = await from(ip, '/admin/v1/plans', `wrong-token-${i}`);
        expect(r.statusCode).toBe(401);
        expect(r.json()).toEqual({ code: 'UNAUTHORIZED' });
      }
      const over = await from(ip, '/admin/v1/plans', 'wrong-token-x');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ code: 'RATE_LIMIT_EXCEEDED', extra: { retry_after: expect.any(Number) } });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      // The right token from the throttled address is refused too: a guess cannot be confirmed.
      const right = await from(ip, '/admin/v1/plans', t.adminToken);
      expect(right.statusCode).toBe(429);
      // Another address is not throttled.
      expect((await from(`10.8.${attempt}.1`, '/admin/v1/plans', t.adminToken)).statusCode).toBe(200);
    });
    const refused = lines.filter((l) => l.msg === 'admin token refused');
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused[0]).toMatchObject({ ip: expect.stringMatching(/^10\.9\./), level: 40 });
    expect(JSON.stringify(refused)).not.toContain('wrong-token');
    expect(lines.some((l) => l.msg === 'admin authentication throttled')).toBe(true);
  });

  it('GET /metrics shares the budget of its address', async () => {
    await inOneWindow(async (attempt) => {
      const ip = `10.7.${attempt}.1`;
      for (let i = 0; i < 3; i++) expect((await from(ip, '/metrics', 'nope')).statusCode).toBe(401);
      const over = await from(ip, '/metrics', t.adminToken);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect((await from(`10.6.${attempt}.1`, '/metrics', t.adminToken)).statusCode).toBe(200);
    });
  });

  it('a right token does not count against the budget', async () => {
    await inOneWindow(async (attempt) => {
      const ip = `10.5.${attempt}.1`;
      for (let i = 0; i < 6; i++) expect((await from(ip, '/admin/v1/plans', t.adminToken)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await from(ip, '/admin/v1/plans', 'nope')).statusCode).toBe(401);
    });
  });
});

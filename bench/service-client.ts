import fs from 'node:fs';
import path from 'node:path';

/** Calls of the benches to a running service process (loopback only). */

/** A rate limit that never binds (the largest PostgreSQL integer). */
export const UNLIMITED = 2147483647;

/** One JSON call; throws on a non-2xx answer with its body. */
export async function json(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The key written at the first start, its workspace moved to a plan without a rate limit (checked through the API). */
export async function unlimitedKey(base: string, dataDir: string, adminToken: string): Promise<string> {
  const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
  const admin = { authorization: `Bearer ${adminToken}` };
  const ws = await json('GET', `${base}/api/v1/workspace`, { 'x-api-key': key });
  await json('POST', `${base}/admin/v1/plans`, admin, { name: 'bench-unlimited', rate_limit_per_minute: UNLIMITED, analysis_rate_limit_per_minute: UNLIMITED });
  await json('PATCH', `${base}/admin/v1/workspaces/${ws.id}`, admin, { plan: 'bench-unlimited' });
  const limit = (await fetch(`${base}/api/v1/balance`, { headers: { 'x-api-key': key } })).headers.get('x-ratelimit-limit');
  if (limit !== String(UNLIMITED)) throw new Error(`the plan change did not reach the api process (X-RateLimit-Limit ${limit})`);
  return key;
}

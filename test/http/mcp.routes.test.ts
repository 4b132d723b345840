import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * `/mcp` through the app (inject): the key check and rate limit before any MCP message, the stateless
 * Streamable HTTP transport answering JSON-RPC as an event stream, the tools calling the API in process
 * as the caller's workspace, and CUTROOM_MCP=off.
 */

let t: TestApp;
let a: { id: string; key: string };
let b: { id: string; key: string };

beforeAll(async () => {
  t = await createTestApp();
  a = await t.workspace({ credits: 37, name: 'A' });
  b = await t.workspace({ credits: 5, name: 'B' });
});
afterAll(async () => {
  await t?.close();
});

interface RpcAnswer {
  status: number;
  headers: Record<string, unknown>;
  /** The JSON-RPC messages of the answer (an event stream's `data:` lines, or a JSON body). */
  messages: Array<{ id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } }>;
  body: string;
}

async function rpc(key: string | undefined, message: object, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    payload: JSON.stringify(message),
  });
  const type = String(res.headers['content-type'] ?? '');
  const messages = type.startsWith('text/event-stream')
    ? res.body
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)))
    : type.startsWith('application/json') && res.body
      ? [res.json()].flat()
      : [];
  return { status: res.statusCode, headers: res.headers, messages, body: res.body };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } },
};
const callTool = (name: string, args: object = {}) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: args } });

describe('/mcp', () => {
  it('refuses a missing or wrong key with the API’s 401 before reading any message', async () => {
    for (const key of [undefined, 'cr_not_a_key']) {
      const r = await rpc(key, INIT);
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body)).toEqual({ code: 'UNAUTHORIZED' });
      expect(r.headers['x-ratelimit-limit']).toBeDefined();
    }
  });

  it('answers initialize and lists the tools, statelessly (no session id)', async () => {
    const init = await rpc(a.key, INIT);
    expect(init.status).toBe(200);
    expect(init.headers['mcp-session-id']).toBeUndefined();
    expect(init.messages[0].result).toMatchObject({ serverInfo: { name: 'cutroom' }, capabilities: { tools: {} } });

    const list = await rpc(a.key, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const tools = (list.messages[0].result as { tools: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }> }).tools;
    expect(tools.map((x) => x.name).sort()).toEqual([
      'analyze_video',
      'clip_video',
      'create_generation',
      'derive_edit',
      'get_balance',
      'get_generation',
      'get_post',
      'get_render',
      'get_submission',
      'get_transcription',
      'list_clips',
      'list_connections',
      'list_generation_models',
      'publish',
      'render_clip',
      'transcribe',
    ]);
    // Over HTTP the service cannot read the caller's files: no tool offers a local path.
    for (const tool of tools) expect(tool.description, tool.name).not.toMatch(/local (video|audio) file|local one/);
    // The schemas are the OpenAPI document's: its limits and descriptions.
    const clip = tools.find((x) => x.name === 'clip_video')!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(clip.properties.prompt).toMatchObject({ type: 'string', maxLength: 500 });
    expect(clip.properties.keywords).toMatchObject({ type: 'array', maxItems: 20 });
    const derive = tools.find((x) => x.name === 'derive_edit')!.inputSchema as { required: string[]; properties: Record<string, Record<string, unknown>> };
    expect(derive.required).toEqual(['base_edit_id']);
    expect(String(derive.properties.snap.description)).toMatch(/word edge/);
  });

  it('calls the API as the caller’s workspace: the balance, and another workspace’s ids not found', async () => {
    const balanceA = await rpc(a.key, callTool('get_balance'));
    expect(balanceA.messages[0].result).toMatchObject({ structuredContent: { balance: 37 }, content: [{ type: 'text', text: '37 credits' }] });
    const balanceB = await rpc(b.key, callTool('get_balance'));
    expect(balanceB.messages[0].result).toMatchObject({ structuredContent: { balance: 5 } });

    const edit = await rpc(b.key, callTool('derive_edit', { base_edit_id: 'edit_doesnotexist', trim: { start: 0, end: 5 } }));
    expect(edit.messages[0].result).toMatchObject({ isError: true, structuredContent: { code: 'EDITS_NOT_FOUND', status: 404 } });

    const render = await rpc(b.key, callTool('get_render', { render_id: 'rnd_doesnotexist' }));
    expect(render.messages[0].result).toMatchObject({ isError: true, structuredContent: { code: 'RENDER_NOT_FOUND', status: 404 } });
  });

  it('refuses a local path over HTTP before anything is charged, and an invalid argument as a JSON-RPC error', async () => {
    const r = await rpc(a.key, callTool('clip_video', { source: '/etc/passwd' }));
    expect(r.messages[0].result).toMatchObject({ isError: true, structuredContent: { code: 'LOCAL_FILE_UNAVAILABLE' } });
    const t2 = await rpc(a.key, callTool('transcribe', { source: '/etc/hostname' }));
    expect(t2.messages[0].result).toMatchObject({ isError: true, structuredContent: { code: 'LOCAL_FILE_UNAVAILABLE' } });
    expect((await t.api(a.key, 'GET', '/balance')).body).toMatchObject({ balance: 37 });

    const bad = await rpc(a.key, callTool('clip_video', { source: 'https://example.com/v.mp4', prompt: 'x'.repeat(501) }));
    const answer = bad.messages[0];
    // The SDK answers an argument its schema refuses as a tool error naming the field.
    expect(JSON.stringify(answer)).toMatch(/prompt/);
    expect(answer.result?.isError ?? answer.error).toBeTruthy();
  });

  it('answers GET and DELETE with 405 and Allow: POST (a stateless server has no stream and no session)', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/mcp', headers: { authorization: `Bearer ${a.key}` } });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({ code: 'METHOD_NOT_ALLOWED' });
    }
  });

  it('is an unknown path with CUTROOM_MCP=off', async () => {
    const off = await createTestApp({ env: { CUTROOM_MCP: 'off' } });
    try {
      const ws = await off.workspace({ credits: 1 });
      const res = await off.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
        payload: INIT,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'ROUTE_NOT_FOUND' });
    } finally {
      await off.close();
    }
  });
});

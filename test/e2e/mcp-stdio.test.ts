import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { ROOT, type Proc, startServe } from '../helpers/process.js';

/**
 * `cutroom mcp` as a desktop assistant runs it: the MCP SDK's own Client spawns the CLI (from source)
 * over stdio, against a real `cutroom serve` process with its API key.
 */
let dir: string;
let talk: string;
let server: Proc;
let base: string;
let key: string;
const clients: Client[] = [];

async function connect(apiKey: string): Promise<Client> {
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), 'mcp'],
    cwd: ROOT,
    env: { ...env, CUTROOM_URL: base, CUTROOM_API_KEY: apiKey, CUTROOM_LOG_LEVEL: 'warn' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cutroom-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-mcp-'));
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  ({ server, base, key } = await startServe(dir));
}, 300_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('cutroom mcp over stdio', () => {
  it('lists its tools with valid input schemas and the hints of what they spend', async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['analyze_video', 'clip_video', 'get_balance', 'get_submission', 'list_clips']);
    const ajv = new Ajv({ strict: false });
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText()}`).toBe(true);
      expect(t.description!.length).toBeGreaterThan(80);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.clip_video.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(byName.clip_video.description).toMatch(/1 credit a minute/);
    expect(byName.clip_video.inputSchema.required).toEqual(['source']);
    for (const n of ['get_balance', 'analyze_video', 'get_submission', 'list_clips']) expect(byName[n].annotations?.readOnlyHint).toBe(true);
    expect(byName.get_submission.inputSchema.required).toEqual(['video_id', 'submission_id']);
  }, 60_000);

  it('reads the balance, refuses a loopback link as a tool error, clips a local file and follows it', async () => {
    const client = await connect(key);
    const balance = await call(client, 'get_balance');
    expect(balance.isError).toBeFalsy();
    const before = (balance.structuredContent as { balance: number }).balance;
    expect(Number.isInteger(before)).toBe(true);
    expect(text(balance)).toMatch(/credits/);

    const refused = await call(client, 'analyze_video', { url: 'http://127.0.0.1:9/video.mp4' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'INVALID_URL' });
    expect(text(refused)).toMatch(/INVALID_URL/);

    const missing = await call(client, 'clip_video', { source: path.join(dir, 'no-such.mp4') });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/no-such\.mp4/);

    const clipped = await call(client, 'clip_video', { source: talk, prompt: 'the moments about the weather', source_language: 'en' });
    expect(clipped.isError, text(clipped)).toBeFalsy();
    const { video, submission } = clipped.structuredContent as {
      video: { id: string; duration: number; credits_cost: number };
      submission: { id: string; video_id: string; status: string; credits_charged: number };
    };
    expect(video.duration).toBeGreaterThan(60);
    expect(submission.video_id).toBe(video.id);
    expect(submission.status).toBe('queued');
    expect(submission.credits_charged).toBe(video.credits_cost);
    expect(text(clipped)).toContain(`${submission.credits_charged} credits charged`);
    expect(text(clipped)).toContain('get_submission');

    const state = await call(client, 'get_submission', { video_id: video.id, submission_id: submission.id });
    expect(state.isError, text(state)).toBeFalsy();
    expect(state.structuredContent).toMatchObject({ id: submission.id, video_id: video.id, prompt: 'the moments about the weather' });
    expect(text(state)).toContain(`submission ${submission.id} is`);

    // Not completed yet: no clips so far (their ratings and reasons come with completion, not tested here).
    const clips = await call(client, 'list_clips', { video_id: video.id, submission_id: submission.id, limit: 5 });
    expect(clips.isError, text(clips)).toBeFalsy();
    expect(clips.structuredContent).toMatchObject({ clips: [] });

    const after = await call(client, 'get_balance');
    expect((after.structuredContent as { balance: number }).balance).toBe(before - submission.credits_charged);

    const unknown = await call(client, 'get_submission', { video_id: video.id, submission_id: 'sub_nope' });
    expect(unknown.isError).toBe(true);
    expect((unknown.structuredContent as { code: string }).code).toMatch(/NOT_FOUND/);
  }, 120_000);

  it('refuses a wrong key as a tool error with the API code, and starts not at all without a key', async () => {
    const client = await connect('cr_wrong_key');
    const r = await call(client, 'get_balance');
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(text(r)).toMatch(/^The API key was not accepted.*\(UNAUTHORIZED, HTTP 401/);
    // The server is still up after the refusal.
    expect((await client.listTools()).tools).toHaveLength(5);

    const env = { ...process.env, CUTROOM_API_KEY: '', CUTROOM_URL: base };
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), 'mcp'], { cwd: ROOT, env, input: '', encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/CUTROOM_API_KEY is not set/);
    expect(run.stdout).toBe('');
    const badUrl = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), 'mcp'], {
      cwd: ROOT,
      env: { ...process.env, CUTROOM_API_KEY: key, CUTROOM_URL: 'ftp://example.com' },
      input: '',
      encoding: 'utf8',
    });
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/CUTROOM_URL must be an http\(s\) URL/);
  }, 60_000);
});

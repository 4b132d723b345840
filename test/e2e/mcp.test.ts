import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { VOICES, makeSpeechWav, makeTalkVideo } from '../helpers/speech-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { ROOT, type Proc, startServe, stopServe } from '../helpers/process.js';

/**
 * Cutroom over MCP as assistants use it, against a real `cutroom serve` process: `cutroom mcp` spawned
 * over stdio by the MCP SDK's own Client (a local file clipped and transcribed), and `/mcp` on the
 * service over Streamable HTTP (links served by a loopback "public" server; the service allows private
 * sources for it). On each transport: analyze → clip → wait with progress → list clips → derive an edit
 * → render → get render and download; transcribe; the balance; refusals as tool errors with the API's
 * code; another workspace's ids not found; a wrong key refused.
 */
const ADMIN = 'mcp-e2e-admin-token-0123456789abcdef';
let dir: string;
let talk: string;
let speech: string;
let picture: string;
let files: StaticServer;
let server: Proc;
let base: string;
let key: string;
let otherKey: string;
const clients: Client[] = [];

function envOf(extra: Record<string, string>): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return { ...env, CUTROOM_LOG_LEVEL: 'warn', ...extra };
}

async function stdio(apiKey: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), 'mcp'],
    cwd: ROOT,
    env: envOf({ CUTROOM_URL: base, CUTROOM_API_KEY: apiKey }),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cutroom-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function remote(apiKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } });
  const client = new Client({ name: 'cutroom-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}, onprogress?: (p: Progress) => void) =>
  (await client.callTool({ name, arguments: args }, undefined, {
    timeout: 120_000,
    ...(onprogress ? { onprogress, resetTimeoutOnProgress: true } : {}),
  })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const json = <T>(r: CallToolResult) => r.structuredContent as T;

async function admin(method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/admin/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-mcp-'));
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  speech = (
    await makeSpeechWav(path.join(dir, 'hello.wav'), [
      { silence: 0.4 },
      { say: 'hello and welcome back to the show', ...VOICES.male },
      { silence: 0.8 },
      { say: 'thank you very much for watching', ...VOICES.female },
      { silence: 0.5 },
    ])
  ).path;
  // Other bytes for the link: a transcription of the same media would be a cache hit, answered at once.
  fs.writeFileSync(path.join(dir, 'hello-again.wav'), Buffer.concat([fs.readFileSync(speech), Buffer.alloc(16_000)]));
  picture = path.join(dir, 'pattern.png');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120', '-frames:v', '1', '-y', picture]);
  files = await startStaticServer(dir);
  ({ server, base, key } = await startServe(dir, { CUTROOM_ADMIN_TOKEN: ADMIN, CUTROOM_ALLOW_PRIVATE_SOURCES: 'true' }));
  const other = (await admin('POST', '/workspaces', { name: 'Other', credits: 50 })) as { id: string };
  otherKey = ((await admin('POST', '/keys', { workspace_ids: [other.id] })) as { key: string }).key;
}, 300_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await files?.close();
  await stopServe(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** analyze (links) → clip → wait with progress → list clips → derive → render → get render; what it made. */
async function clipFlow(client: Client, source: string, link: boolean) {
  if (link) {
    const analysed = await call(client, 'analyze_video', { url: source });
    expect(analysed.isError, text(analysed)).toBeFalsy();
    expect(json<{ duration: number; credits_cost: number }>(analysed).credits_cost).toBe(2);
  }
  const clipped = await call(client, 'clip_video', { source, max_credits: 2, prompt: 'the weather', source_language: 'en', idempotency_key: `k-${link}` });
  expect(clipped.isError, text(clipped)).toBeFalsy();
  const { video, submission } = json<{ video: { id: string }; submission: { id: string; credits_charged: number } }>(clipped);
  expect(submission.credits_charged).toBe(2);
  expect(text(clipped)).toContain('2 credits charged');

  // Waiting with a progress token: notifications whose progress increases within each call and never
  // goes back from one call to the next, up to 100.
  const calls: number[][] = [];
  let state: { status: string; clips_count: number } = { status: 'queued', clips_count: 0 };
  const deadline = Date.now() + 8 * 60_000;
  while (state.status !== 'completed' && state.status !== 'failed' && Date.now() < deadline) {
    const progress: number[] = [];
    calls.push(progress);
    const r = await call(client, 'get_submission', { video_id: video.id, submission_id: submission.id, wait_seconds: 45 }, (p) => progress.push(p.progress));
    expect(r.isError, text(r)).toBeFalsy();
    state = json(r);
  }
  expect(state.status).toBe('completed');
  for (const progress of calls) for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
  const all = calls.flat();
  expect(all).toEqual([...all].sort((x, y) => x - y));
  expect(all.at(-1)).toBe(100);

  const listed = await call(client, 'list_clips', { video_id: video.id, submission_id: submission.id, limit: 5 });
  expect(listed.isError, text(listed)).toBeFalsy();
  const clips = json<{ clips: Array<{ edit_id: string; rating: number; reason: string; start_time: number; end_time: number }> }>(listed).clips;
  expect(clips.length).toBeGreaterThan(0);
  expect(clips[0].reason.length).toBeGreaterThan(10);
  expect(text(listed)).toContain(clips[0].edit_id);

  const first = clips[0];
  const derived = await call(client, 'derive_edit', {
    base_edit_id: first.edit_id,
    trim: { start: first.start_time, end: first.start_time + 8 },
    captions_enabled: true,
  });
  expect(derived.isError, text(derived)).toBeFalsy();
  const edit = json<{ id: string; parent_edit_id: string; duration: number }>(derived);
  expect(edit.parent_edit_id).toBe(first.edit_id);
  expect(edit.duration).toBeGreaterThan(6);
  expect(edit.duration).toBeLessThan(9);

  const rendered = await call(client, 'render_clip', { edit_id: edit.id, quality: 'preview', wait_seconds: 0 });
  expect(rendered.isError, text(rendered)).toBeFalsy();
  const renderId = json<{ id: string }>(rendered).id;
  let render = json<{ status: string; download_url: string | null }>(rendered);
  while (render.status !== 'completed' && render.status !== 'failed' && Date.now() < deadline) {
    render = json(await call(client, 'get_render', { render_id: renderId, wait_seconds: 45 }));
  }
  expect(render.status).toBe('completed');
  const mp4 = await fetch(render.download_url!);
  expect(mp4.status).toBe(200);
  expect((await mp4.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  return { video, submission, renderId };
}

describe('MCP over stdio and Streamable HTTP', () => {
  it('lists the same tools on both transports, with valid derived schemas and the hints of what they spend', async () => {
    const lists = await Promise.all([stdio(key), remote(key)].map(async (c) => (await (await c).listTools()).tools));
    const ajv = new Ajv({ strict: false });
    for (const tools of lists) {
      expect(tools).toHaveLength(16);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      for (const t of tools) {
        expect(t.inputSchema.type).toBe('object');
        expect(ajv.validateSchema(t.inputSchema), `${t.name}: ${ajv.errorsText()}`).toBe(true);
        expect(t.description!.length).toBeGreaterThan(80);
      }
      for (const n of ['clip_video', 'transcribe', 'create_generation']) {
        expect(byName[n].annotations, n).toMatchObject({ destructiveHint: true, readOnlyHint: false });
        expect(byName[n].description, n).toMatch(/SPENDS CREDITS/);
      }
      expect(byName.publish.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
      for (const n of [
        'get_balance',
        'analyze_video',
        'get_submission',
        'list_clips',
        'get_render',
        'get_transcription',
        'list_connections',
        'get_generation',
      ]) {
        expect(byName[n].annotations?.readOnlyHint, n).toBe(true);
      }
      expect(byName.clip_video.inputSchema.required).toEqual(['source']);
      expect(byName.get_submission.inputSchema.required).toEqual(['video_id', 'submission_id']);
    }
    // Local paths only where the files are the caller's.
    expect(lists[0].find((t) => t.name === 'clip_video')!.description).toMatch(/local video file/);
    expect(lists[1].find((t) => t.name === 'clip_video')!.description).not.toMatch(/local video file/);
  }, 120_000);

  it('refuses a wrong key: a tool error over stdio, 401 over HTTP; starts not at all without a key', async () => {
    const local = await stdio('cr_wrong_key');
    const r = await call(local, 'get_balance');
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(text(r)).toMatch(/^The API key was not accepted.*\(UNAUTHORIZED, HTTP 401/);
    expect((await local.listTools()).tools).toHaveLength(16);

    await expect(remote('cr_wrong_key')).rejects.toThrow(/UNAUTHORIZED/);
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer cr_wrong_key', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ code: 'UNAUTHORIZED' });

    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main/cli.ts'), 'mcp'], {
      cwd: ROOT,
      env: envOf({ CUTROOM_API_KEY: '', CUTROOM_URL: base }),
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/CUTROOM_API_KEY is not set/);
    expect(run.stdout).toBe('');
  }, 120_000);

  it('clips, follows, lists, derives, renders and downloads on both transports; another workspace finds none of it', async () => {
    const [local, http] = await Promise.all([stdio(key), remote(key)]);
    // The metadata address is refused whatever the operator allows: a tool error with the API's code.
    const refused = await call(http, 'analyze_video', { url: 'http://169.254.169.254/latest/video.mp4' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'INVALID_URL', status: 422 });

    // A spending limit under the price refuses before anything is charged (the file is uploaded, free).
    const before = json<{ balance: number }>(await call(http, 'get_balance')).balance;
    for (const [client, source] of [
      [local, talk],
      [http, `${files.url}/talk.mp4`],
    ] as const) {
      const tooDear = await call(client, 'clip_video', { source, max_credits: 1 });
      expect(tooDear.isError).toBe(true);
      expect(json(tooDear)).toMatchObject({ code: 'PRICE_ABOVE_MAX_CREDITS', extra: { credits: 2, max_credits: 1 } });
    }
    expect(json<{ balance: number }>(await call(local, 'get_balance')).balance).toBe(before);

    const [overStdio, overHttp] = await Promise.all([clipFlow(local, talk, false), clipFlow(http, `${files.url}/talk.mp4`, true)]);
    // Both charges are in the balance: 2 credits each.
    expect(json<{ balance: number }>(await call(http, 'get_balance')).balance).toBe(before - 4);

    const stranger = await remote(otherKey);
    for (const [tool, args, code] of [
      ['get_submission', { video_id: overHttp.video.id, submission_id: overHttp.submission.id }, 'SUBMISSION_NOT_FOUND'],
      ['list_clips', { video_id: overStdio.video.id, submission_id: overStdio.submission.id }, 'SUBMISSION_NOT_FOUND'],
      ['get_render', { render_id: overHttp.renderId }, 'RENDER_NOT_FOUND'],
    ] as const) {
      const r = await call(stranger, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(json<{ code: string }>(r).code, tool).toBe(code);
    }
    expect(json<{ balance: number }>(await call(stranger, 'get_balance')).balance).toBe(50);
  }, 900_000);

  it('transcribes a local file over stdio and a link over HTTP, answering the text when ready', async () => {
    const [local, http] = await Promise.all([stdio(key), remote(key)]);
    const fromFile = await call(local, 'transcribe', { source: speech, format: 'srt', speaker_labels: true, source_language: 'en', wait_seconds: 100 });
    expect(fromFile.isError, text(fromFile)).toBeFalsy();
    const done = json<{ transcription: { id: string; status: string; credits_charged: number }; text: string }>(fromFile);
    expect(done.transcription.status).toBe('ready');
    // Cues with speaker labels (pocketsphinx hears espeak's voices roughly: "thank you very much for …").
    expect(done.text).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n[A-Z]: /);
    expect(done.text.toLowerCase()).toMatch(/thank you|show/);
    expect(text(fromFile)).toContain(`${done.transcription.credits_charged} credits charged`);

    const progress: number[] = [];
    const fromLink = await call(http, 'transcribe', { source: `${files.url}/hello-again.wav`, format: 'txt', source_language: 'en', wait_seconds: 100 }, (p) =>
      progress.push(p.progress),
    );
    expect(fromLink.isError, text(fromLink)).toBeFalsy();
    const linked = json<{ transcription: { id: string; status: string }; text: string }>(fromLink);
    expect(linked.transcription.status).toBe('ready');
    expect(linked.text.toLowerCase()).toMatch(/thank you|show/);
    // The text is the API's own download of the transcript.
    const download = await fetch(`${base}/api/v1/transcriptions/${linked.transcription.id}/download?format=txt`, { headers: { 'x-api-key': key } });
    expect(linked.text).toBe(await download.text());
    expect(progress.at(-1)).toBe(100);

    const again = await call(http, 'get_transcription', { transcription_id: linked.transcription.id, format: 'vtt' });
    expect(json<{ text: string }>(again).text).toMatch(/^WEBVTT/);
    const stranger = await remote(otherKey);
    const hidden = await call(stranger, 'get_transcription', { transcription_id: linked.transcription.id });
    expect(json<{ code: string }>(hidden).code).toBe('TRANSCRIPTION_NOT_FOUND');
  }, 300_000);

  it('publishes a render to a connection and generates an image at the catalogue’s price', async () => {
    const http = await remote(key);
    const workspace = (await (await fetch(`${base}/api/v1/workspace`, { headers: { 'x-api-key': key } })).json()) as { id: string };
    await admin('POST', `/workspaces/${workspace.id}/connections`, { platform: 'local', account_name: 'mcp-test' });
    const connections = json<{ connections: Array<{ id: string; platform: string }> }>(await call(http, 'list_connections'));
    const local = connections.connections.find((c) => c.platform === 'local')!;
    expect(local).toBeDefined();

    const renders = (await (await fetch(`${base}/api/v1/renders?limit=1`, { headers: { 'x-api-key': key } })).json()) as {
      renders: Array<{ edit_id: string }>;
    };
    const published = await call(http, 'publish', {
      videos: [{ edit_id: renders.renders[0].edit_id, targets: [{ connection_id: local.id, metadata: { local: { title: 'From MCP' } } }] }],
    });
    expect(published.isError, text(published)).toBeFalsy();
    const postId = json<{ id: string }>(published).id;
    let post = json<{ status: string; items: Array<{ published_url: string | null }> }>(await call(http, 'get_post', { post_id: postId }));
    for (let i = 0; i < 60 && post.status !== 'completed' && post.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 2000));
      post = json(await call(http, 'get_post', { post_id: postId }));
    }
    expect(post.status).toBe('completed');
    expect(post.items[0].published_url).toMatch(/^http/);

    const models = json<{ models: Array<{ id: string; kind: string; inputs: { prompt: string; image_ids: { min: number } }; price: { per_image?: number } }> }>(
      await call(http, 'list_generation_models', { limit: 100 }),
    ).models;
    const image = models.find((m) => m.kind === 'image' && m.price.per_image !== undefined)!;
    expect(image, JSON.stringify(models)).toBeDefined();
    // A reference image, uploaded with the API (the MCP tools take image ids).
    const form = new FormData();
    form.append('image', new Blob([fs.readFileSync(picture)], { type: 'image/png' }), 'pattern.png');
    const upload = await fetch(`${base}/api/v1/generations/images`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
    const uploaded = (await upload.json()) as { id: string };
    const wrong = await call(http, 'create_generation', { model_id: image.id, image_ids: [uploaded.id], credits: 999 });
    expect(json<{ code: string }>(wrong).code).toBe('PRICE_CHANGED');
    const made = await call(http, 'create_generation', {
      model_id: image.id,
      image_ids: [uploaded.id],
      credits: Math.ceil(image.price.per_image!),
      wait_seconds: 100,
    });
    expect(made.isError, text(made)).toBeFalsy();
    const g = json<{ id: string; status: string; output: { url: string; image_id: string } }>(made);
    expect(g.status).toBe('ready');
    expect(g.output.image_id).toMatch(/^gim_/);
    expect(json<{ status: string }>(await call(http, 'get_generation', { generation_id: g.id })).status).toBe('ready');
  }, 300_000);
});

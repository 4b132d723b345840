import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AsrError } from '../../src/ports/asr.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';
import { startStaticServer } from '../helpers/static-server.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { USER_EXIT, parseTimeframe, runUserCli } from '../../src/main/user-cli.js';

/**
 * The `cutroom` user commands in process against a listening test app: argument and configuration
 * errors (exit 2), the API's refusals (1), an unreachable or foreign service (3), a failed job (4), local files (5),
 * text and --json output, --timeframe and --template sent, renders get and download of a render. The
 * whole `cutroom clip` flow runs in the e2e test (test/e2e/sdk-pipeline.test.ts).
 */

let t: TestApp;
let base: string;
let dir: string;
let foreign: Receiver;

beforeAll(async () => {
  dir = tempDir('cutroom-user-cli-');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // Links on this machine (the static server) may be analysed: the operator allows private sources.
  t = await createTestApp({ workers: true, env: { PUBLIC_BASE_URL: base, CUTROOM_ALLOW_PRIVATE_SOURCES: 'true' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  foreign = await startReceiver(() => ({ status: 404, body: '<html>not here</html>', headers: { 'content-type': 'text/html' } }));
});
afterAll(async () => {
  await foreign?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function sink(isTTY = false) {
  let text = '';
  return { stream: { isTTY, write: (s: string) => void (text += s) }, text: () => text };
}

async function cli(args: string[], env: Record<string, string | undefined>) {
  const out = sink();
  const err = sink();
  const status = await runUserCli(args, { stdout: out.stream, stderr: err.stream, env, pollIntervalMs: 200 });
  return { status, stdout: out.text(), stderr: err.text() };
}

describe('arguments and configuration (exit 2)', () => {
  const env = { CUTROOM_URL: 'http://127.0.0.1:1', CUTROOM_API_KEY: 'key_x.y' };

  it('a missing argument, an unknown option or command, a bad choice or timeframe', async () => {
    for (const args of [
      ['clip'],
      ['clip', 'talk.mp4', '--render', 'some'],
      ['clip', 'talk.mp4', '--timeframe', '90'],
      ['clip', 'talk.mp4', '--timeframe', '5:00-1:00'],
      ['clip', 'talk.mp4', '--nope'],
      ['transcribe', 'a.wav', '--format', 'doc'],
      ['renders', 'get'],
      ['renders', 'explode', 'x'],
      ['balance', 'extra'],
    ]) {
      const r = await cli(args, env);
      expect(r.status, args.join(' ')).toBe(USER_EXIT.usage);
      expect(r.stderr, args.join(' ')).toMatch(/error/i);
    }
  });

  it('CUTROOM_API_KEY unset, CUTROOM_URL not http(s)', async () => {
    const noKey = await cli(['balance'], { CUTROOM_URL: base });
    expect(noKey).toMatchObject({ status: USER_EXIT.usage, stderr: expect.stringContaining('CUTROOM_API_KEY is not set') });
    const badUrl = await cli(['balance'], { CUTROOM_URL: 'ftp://x', CUTROOM_API_KEY: 'k' });
    expect(badUrl).toMatchObject({ status: USER_EXIT.usage, stderr: expect.stringContaining('CUTROOM_URL') });
  });

  it('--help is exit 0 and documents the exit statuses', async () => {
    const r = await cli(['clip', '--help'], env);
    expect(r.status).toBe(USER_EXIT.ok);
    expect(r.stdout).toContain('--timeframe <a-b>');
    const top = await cli(['--help'], env);
    expect(top.status).toBe(USER_EXIT.ok);
    expect(top.stdout).toContain('4  a job ended badly');
  });

  it('parses timeframes in seconds, mm:ss and hh:mm:ss', () => {
    expect(parseTimeframe('60-600')).toEqual({ start: 60, end: 600 });
    expect(parseTimeframe('1:00-10:30')).toEqual({ start: 60, end: 630 });
    expect(parseTimeframe('1:00:00-1:02:00.5')).toEqual({ start: 3600, end: 3720.5 });
    expect(() => parseTimeframe('10-10')).toThrow('after the start');
    expect(() => parseTimeframe('a-b')).toThrow('not a time');
  });
});

describe('against the service', () => {
  it('balance: text and --json', async () => {
    const ws = await t.workspace({ credits: 42 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    expect(await cli(['balance'], env)).toMatchObject({ status: 0, stdout: '42 credits\n' });
    const json = await cli(['balance', '--json'], env);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ balance: 42, unlimited: false, unlimited_until: null });
  });

  it('jobs: nothing running, as text and JSON', async () => {
    const ws = await t.workspace();
    const env = { CUTROOM_URL: `${base}/api/v1`, CUTROOM_API_KEY: ws.key };
    expect(await cli(['jobs'], env)).toMatchObject({ status: 0, stdout: 'nothing running\n' });
    const json = await cli(['jobs', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ submissions: [], renders: [], transcriptions: [] });
  });

  it('exit 1 with the API’s code for a refusal (bad key, unknown render), the error body with --json', async () => {
    const bad = await cli(['balance'], { CUTROOM_URL: base, CUTROOM_API_KEY: 'key_x.y' });
    expect(bad.status).toBe(USER_EXIT.apiError);
    expect(bad.stderr).toMatch(/^cutroom: The API key was not accepted: it is missing, wrong, revoked or expired\. \(UNAUTHORIZED, HTTP 401, request \S+\)$/m);
    const ws = await t.workspace();
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const missing = await cli(['renders', 'get', 'rnd_nope'], env);
    expect(missing).toMatchObject({ status: USER_EXIT.apiError, stderr: expect.stringContaining('RENDER_NOT_FOUND') });
    const json = await cli(['renders', 'download', 'rnd_nope', '--json', '--out', dir], env);
    expect(json.status).toBe(USER_EXIT.apiError);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'RENDER_NOT_FOUND', status: 404 } });
  });

  it('exit 1 INSUFFICIENT_CREDITS after the upload, with plain progress lines when stderr is not a terminal', async () => {
    const video = await makeVideo(path.join(dir, 'short.mp4'), { seconds: 61, width: 160, height: 90 });
    const ws = await t.workspace({ credits: 0 });
    const r = await cli(['clip', video, '--yes'], { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key });
    expect(r.status).toBe(USER_EXIT.apiError);
    expect(r.stderr).toMatch(/^upload short\.mp4: 0% \(0 B of .+\)$/m);
    expect(r.stderr).toMatch(/^upload short\.mp4: 100% /m);
    expect(r.stderr).toMatch(/^video vid_\w+: 1:01, 2 credits$/m);
    expect(r.stderr).toContain(
      'cutroom: Not enough credits: this needs 2 and the balance is 0. Top up, or ask for less (a shorter stretch, file or video). (INSUFFICIENT_CREDITS, HTTP 402, request ',
    );
    expect(r.stderr).not.toMatch(/\u001b\[/);
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions).toEqual([]);

    // A link instead of a file: analysed (free), then the same refusal.
    const site = await startStaticServer(dir);
    try {
      const link = await cli(['clip', `${site.url}/short.mp4`, '--json', '--yes'], { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key });
      expect(link.status).toBe(USER_EXIT.apiError);
      expect(link.stderr).toContain(`analysing ${site.url}/short.mp4`);
      expect(link.stderr).toMatch(/^video vid_\w+: "short", 1:01, 2 credits$/m);
      expect(JSON.parse(link.stdout)).toMatchObject({ error: { code: 'INSUFFICIENT_CREDITS', status: 402, extra: { credits_needed: 2, current_balance: 0 } } });
    } finally {
      await site.close();
    }
  });

  it('clip --timeframe and --template reach POST /clips: the stretch asked is priced, an unknown template is refused', async () => {
    const video = await makeVideo(path.join(dir, 'three.mp4'), { seconds: 181, width: 160, height: 90 });
    const ws = await t.workspace({ credits: 0 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const whole = await cli(['clip', video, '--yes'], env);
    expect(whole.stderr).toContain('Not enough credits: this needs 4 and the balance is 0.');
    const stretch = await cli(['clip', video, '--timeframe', '1:00-2:00', '--yes'], env);
    expect(stretch.status).toBe(USER_EXIT.apiError);
    expect(stretch.stderr).toContain(
      'Not enough credits: this needs 1 and the balance is 0. Top up, or ask for less (a shorter stretch, file or video). (INSUFFICIENT_CREDITS, HTTP 402',
    );
    const template = await cli(['clip', video, '--timeframe', '60-120', '--template', 'tpl_nope', '--json', '--yes'], env);
    expect(template.status).toBe(USER_EXIT.apiError);
    expect(JSON.parse(template.stdout).error).toMatchObject({ code: 'TEMPLATE_NOT_FOUND', status: 404 });
  }, 120_000);

  it('clip --prompt, --keywords and --length reach POST /clips; malformed values are usage errors before any request', async () => {
    const video = await makeVideo(path.join(dir, 'steer.mp4'), { seconds: 61, width: 160, height: 90 });
    const ws = await t.workspace({ credits: 0 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const spy = vi.spyOn(t.c.submissions, 'create');
    try {
      const r = await cli(['clip', video, '--prompt', 'the moments about pricing', '--keywords', 'price, free trial', '--length', '20-45', '--yes'], env);
      expect(r.status).toBe(USER_EXIT.apiError);
      expect(r.stderr).toContain('INSUFFICIENT_CREDITS');
      expect(spy.mock.calls[0][1]).toMatchObject({ prompt: 'the moments about pricing', keywords: ['price', 'free trial'], clip_length: { min: 20, max: 45 } });
    } finally {
      spy.mockRestore();
    }
    for (const args of [
      ['--length', '5-30'],
      ['--length', '50-30'],
      ['--length', 'long'],
      ['--keywords', 'a,,b'],
      ['--prompt', '   '],
    ]) {
      const bad = await cli(['clip', video, ...args, '--yes'], env);
      expect(bad.status, args.join(' ')).toBe(USER_EXIT.usage);
    }
  }, 120_000);

  it('renders download: waits while it renders (plain progress lines), saves the MP4 in --out; renders get as text and --json', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const source = await makeVideo(path.join(dir, 'render-source.mp4'), { seconds: 61, width: 640, height: 360, fps: 15 });
    const tpl = await t.c.templates.create(ws.id, {
      kind: 'template',
      name: 'Small',
      config: { layout: { resolution: '720p', reframe: 'center' }, captions: {} },
    });
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 2, end: 4 }], templateId: tpl.id });
    const started = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[0] });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const id = started.body.id;

    const out = path.join(dir, 'renders-out');
    const r = await cli(['renders', 'download', id, '--out', out], env);
    expect(r.status, r.stderr).toBe(USER_EXIT.ok);
    expect(r.stderr).toMatch(new RegExp(`^(\\[\\d\\d:\\d\\d:\\d\\d\\] render ${id}: (queued|active)  \\d+ %|render ${id}: completed)`, 'm'));
    expect(r.stderr).not.toMatch(/\u001b\[/);
    const saved = r.stdout.trim();
    expect(path.dirname(saved)).toBe(out);
    expect(saved).toMatch(/\.mp4$/);
    expect(fs.readFileSync(saved).subarray(4, 8).toString()).toBe('ftyp');
    expect(fs.readdirSync(out)).toEqual([path.basename(saved)]);

    const text = await cli(['renders', 'get', id], env);
    expect(text.status).toBe(USER_EXIT.ok);
    expect(text.stdout).toMatch(new RegExp(`^id {9}${id}$`, 'm'));
    expect(text.stdout).toMatch(/^status {5}completed$/m);
    const json = await cli(['renders', 'get', id, '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, status: 'completed', progress: 100, output_resolution: '720p' });
    // The same file again: refused, naming it; replaced with --force.
    const refused = await cli(['renders', 'download', id, '--out', out], env);
    expect(refused).toMatchObject({ status: USER_EXIT.file, stderr: `cutroom: ${saved} already exists: not overwritten (add --force to replace it)\n` });
    const again = await cli(['renders', 'download', id, '--out', out, '--json', '--force'], env);
    expect(again.status, again.stderr).toBe(USER_EXIT.ok);
    expect(JSON.parse(again.stdout)).toMatchObject({ render: { id, status: 'completed' }, file: saved });
  }, 300_000);

  it('transcribe: upload, wait, the file in the format asked (-o), or the text in --json', async () => {
    const wav = (await makeSpeechWav(path.join(dir, 'hello.wav'), [{ silence: 0.3 }, { say: 'hello and welcome back to the show' }, { silence: 0.5 }])).path;
    const ws = await t.workspace({ credits: 10 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const out = path.join(dir, 'hello.vtt');
    const r = await cli(['transcribe', wav, '--format', 'vtt', '--language', 'en', '-o', out, '--yes'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^upload hello\.wav: 100% /m);
    expect(r.stderr).toMatch(/^transcription trn_\w+: processing \(1 credit charged\)$/m);
    expect(r.stderr).toMatch(/^transcription trn_\w+: ready$/m);
    expect(r.stderr).toContain(`saved ${out}`);
    const vtt = fs.readFileSync(out, 'utf8');
    expect(vtt).toMatch(/^WEBVTT\n/);
    expect(vtt).toMatch(/^00:00:00\.\d{3} --> 00:00:0\d\.\d{3}\n.*show/m);

    // The same bytes again: a cache hit answered at once, nothing charged; the text as JSON.
    const again = await cli(['transcribe', wav, '--format', 'txt', '--json', '--yes'], env);
    expect(again.status, again.stderr).toBe(0);
    const body = JSON.parse(again.stdout);
    expect(body.transcription).toMatchObject({ status: 'ready', from_cache: true, credits_charged: 0 });
    expect(body.text).toContain('show');
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(9);
  }, 300_000);

  it('exit 4 when a job ends badly: a failed transcription, its code and error_code printed, the error body with --json', async () => {
    const wav = (await makeSpeechWav(path.join(dir, 'bye.wav'), [{ silence: 0.3 }, { say: 'see you next week everybody' }, { silence: 0.5 }])).path;
    const ws = await t.workspace({ credits: 10 });
    const spy = vi.spyOn(t.c.asr, 'transcribe').mockRejectedValue(new AsrError('ASR_ENGINE_FAILED', 'engine crashed'));
    try {
      const r = await cli(['transcribe', wav, '--json', '--yes'], { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key });
      expect(r.status, r.stderr).toBe(USER_EXIT.jobFailed);
      expect(r.stderr).toMatch(
        /^cutroom: The transcription failed\. Any credits charged were refunded\. \(TRANSCRIPTION_FAILED, trn_\w+: ASR_ENGINE_FAILED\)$/m,
      );
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'TRANSCRIPTION_FAILED',
        status: null,
        extra: { status: 'failed', error_code: 'ASR_ENGINE_FAILED' },
      });
    } finally {
      spy.mockRestore();
    }
    // Refunded: the failed job cost nothing.
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(10);
  }, 300_000);

  it('exit 3 when the service cannot be reached or answers like something else', async () => {
    const port = await freePort();
    const down = await cli(['balance'], { CUTROOM_URL: `http://127.0.0.1:${port}`, CUTROOM_API_KEY: 'k' });
    expect(down).toMatchObject({ status: USER_EXIT.connection, stderr: expect.stringContaining('cannot reach the service') });
    const other = await cli(['balance'], { CUTROOM_URL: foreign.url.replace(/\/hooks$/, ''), CUTROOM_API_KEY: 'k' });
    expect(other).toMatchObject({ status: USER_EXIT.connection, stderr: expect.stringContaining('not like Cutroom') });
  });

  it('exit 5 for a file that cannot be read, before any request', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    for (const args of [
      ['clip', path.join(dir, 'missing.mp4')],
      ['transcribe', path.join(dir, 'missing.wav')],
      ['clip', dir],
    ]) {
      const r = await cli(args, env);
      expect(r.status, args.join(' ')).toBe(USER_EXIT.file);
    }
    expect((await t.api(ws.key, 'GET', '/balance')).body.balance).toBe(10);
  });

  it('exit 2 for a file the service does not take, before any request', async () => {
    const ws = await t.workspace({ credits: 10 });
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'hello');
    const r = await cli(['clip', file], { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key });
    expect(r.status).toBe(USER_EXIT.usage);
    expect(r.stderr).toBe('cutroom: “file_name” must end in .mp4, .mov, .webm or .mkv. (VALIDATION_ERROR, notes.txt, before uploading)\n');
  });
});

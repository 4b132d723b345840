import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture, type ClipsFixture } from '../helpers/clips.js';
import { freePort } from '../helpers/process.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makeSpeechWav, makeTalkVideo } from '../helpers/speech-fixtures.js';
import { pattern } from '../helpers/generation-fixtures.js';
import { talkingHeadVideo } from '../helpers/persona-fixtures.js';
import { startStaticServer } from '../helpers/static-server.js';
import { USER_EXIT, runUserCli } from '../../src/main/user-cli.js';
import { downloadName } from '../../src/main/user-cli/download.js';

/**
 * The user CLI's every step, in process against one listening test app with its workers: prices first
 * (the quote line, --yes required without a terminal, --max-credits refusing and charging nothing, the
 * question on a terminal), progress lines with timestamps, clips (list, show, render, download), templates,
 * renders, transcriptions, personas, generations, monitors, posts, webhooks, downloads that never
 * overwrite, and the completion script. Each command runs as text and with --json.
 */

let t: TestApp;
let base: string;
let dir: string;
let site: Awaited<ReturnType<typeof startStaticServer>>;
let minute: string;
let wav: string;

beforeAll(async () => {
  dir = tempDir('cutroom-user-cli-commands-');
  minute = await makeVideo(path.join(dir, 'minute.mp4'), { seconds: 61, width: 640, height: 360, fps: 10 });
  wav = (await makeSpeechWav(path.join(dir, 'hello.wav'), [{ silence: 0.3 }, { say: 'hello and welcome back to the show' }, { silence: 0.5 }])).path;
  fs.writeFileSync(path.join(dir, 'pattern.png'), await pattern(320, 240));
  site = await startStaticServer(dir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    workers: true,
    env: {
      PUBLIC_BASE_URL: base,
      CUTROOM_ALLOW_PRIVATE_SOURCES: 'true',
      CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true',
      // Monitors are created and switched, never run: no yt-dlp run, no poll within the test.
      CUTROOM_YTDLP_PATH: '/bin/true',
      CUTROOM_MONITOR_POLL_SECONDS: '3600',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await site?.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI; `answer` makes stdin and stderr terminals with that typed answer. */
async function cli(args: string[], env: Record<string, string>, opts: { answer?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const tty = opts.answer !== undefined;
  const stdin = tty ? Object.assign(Readable.from([opts.answer]), { isTTY: true }) : undefined;
  const status = await runUserCli(args, {
    stdout: { isTTY: false, write: (s: string) => void (stdout += s) },
    stderr: { isTTY: tty, write: (s: string) => void (stderr += s) },
    ...(stdin ? { stdin } : {}),
    env,
    pollIntervalMs: 200,
  });
  return { status, stdout, stderr };
}

const envOf = (key: string) => ({ CUTROOM_URL: base, CUTROOM_API_KEY: key });
const balanceOf = async (key: string) => (await t.api(key, 'GET', '/balance')).body.balance as number;
const TIME = '\\[\\d\\d:\\d\\d:\\d\\d\\]';

/** Runs `args` as text and with --json: both succeed; answers both. */
async function both(args: string[], env: Record<string, string>) {
  const text = await cli(args, env);
  expect(text.status, `${args.join(' ')}: ${text.stderr}`).toBe(USER_EXIT.ok);
  const json = await cli([...args, '--json'], env);
  expect(json.status, `${args.join(' ')} --json: ${json.stderr}`).toBe(USER_EXIT.ok);
  return { text: text.stdout, json: JSON.parse(json.stdout) };
}

describe('prices first', () => {
  const NO_TTY =
    'cutroom: this command charges credits and there is no terminal to ask on: add --yes to accept the price, or --max-credits N to accept it up to N credits (nothing was uploaded or charged)\n';

  it('clip: without a terminal --yes or --max-credits is required before anything is sent', async () => {
    const ws = await t.workspace({ credits: 10 });
    for (const source of [minute, `${site.url}/minute.mp4`]) {
      const r = await cli(['clip', source], envOf(ws.key));
      expect(r).toMatchObject({ status: USER_EXIT.usage, stdout: '', stderr: NO_TTY });
    }
    expect(await balanceOf(ws.key)).toBe(10);
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions).toEqual([]);
    const videos = await t.c.database.sql.executeSql('select count(*)::int as n from videos where workspace_id = $1', [ws.id]);
    expect(Number(videos.rows[0].n)).toBe(0);
  });

  it('clip --max-credits: the quote shown, refused above it, nothing charged (link and upload)', async () => {
    const ws = await t.workspace({ credits: 10 });
    const link = await cli(['clip', `${site.url}/minute.mp4`, '--max-credits', '1'], envOf(ws.key));
    expect(link.status).toBe(USER_EXIT.usage);
    expect(link.stderr).toContain('This will cost 2 credits (1:01 of video, 1 credit a minute); balance after: 8\n');
    expect(link.stderr).toContain('cutroom: the price, 2 credits, is above --max-credits 1: nothing was charged\n');
    const upload = await cli(['clip', minute, '--max-credits', '1', '--json'], envOf(ws.key));
    expect(upload.status).toBe(USER_EXIT.usage);
    expect(upload.stderr).toMatch(/^upload minute\.mp4: 100% /m);
    expect(upload.stderr).toContain('This will cost 2 credits (1:01 of video, 1 credit a minute); balance after: 8\n');
    expect(JSON.parse(upload.stdout).error).toMatchObject({ code: 'PRICE_ABOVE_MAX_CREDITS', extra: { credits: 2, max_credits: 1 } });
    // A stretch is priced as POST /clips prices it.
    const stretch = await cli(['clip', `${site.url}/minute.mp4`, '--timeframe', '0-60', '--max-credits', '0'], envOf(ws.key));
    expect(stretch.stderr).toContain('This will cost 1 credit (1:00 of video, 1 credit a minute); balance after: 9\n');
    expect(await balanceOf(ws.key)).toBe(10);
    expect((await t.api(ws.key, 'GET', '/clips')).body.submissions).toEqual([]);
  });

  it('clip on a terminal: the question, no is exit 2 and nothing charged; yes goes on to POST /clips', async () => {
    const ws = await t.workspace({ credits: 10 });
    const no = await cli(['clip', `${site.url}/minute.mp4`], envOf(ws.key), { answer: 'n\n' });
    expect(no.status).toBe(USER_EXIT.usage);
    expect(no.stderr).toContain('This will cost 2 credits (1:01 of video, 1 credit a minute); balance after: 8\nGo ahead? [y/N] ');
    expect(no.stderr).toContain('cutroom: not accepted: nothing was charged\n');
    expect(await balanceOf(ws.key)).toBe(10);
    // Accepted with a short balance: the quote says so, and the service's refusal follows.
    const poor = await t.workspace({ credits: 0 });
    const yes = await cli(['clip', `${site.url}/minute.mp4`, '--render', 'none'], envOf(poor.key), { answer: 'y\n' });
    expect(yes.stderr).toContain('This will cost 2 credits (1:01 of video, 1 credit a minute); balance after: not enough, the balance is 0\nGo ahead? [y/N] ');
    expect(yes.status).toBe(USER_EXIT.apiError);
    expect(yes.stderr).toContain('INSUFFICIENT_CREDITS');
  });

  it('transcribe: the price per started minute with the speaker-labels surcharge, refused above --max-credits before the upload', async () => {
    const ws = await t.workspace({ credits: 10 });
    const none = await cli(['transcribe', wav, '--speakers'], envOf(ws.key));
    expect(none).toMatchObject({ status: USER_EXIT.usage, stderr: NO_TTY });
    const r = await cli(['transcribe', wav, '--speakers', '--max-credits', '1'], envOf(ws.key));
    expect(r.status).toBe(USER_EXIT.usage);
    expect(r.stderr).toContain(
      'This will cost about 2 credits (1 started minute, 1 + 1 for speaker labels = 2 credits a started minute; nothing when these bytes were transcribed before); ' +
        'balance after: 8; an estimate: from the duration ffprobe measured; the service measures the file again\n',
    );
    expect(r.stderr).not.toContain('upload hello.wav');
    const plain = await cli(['transcribe', wav, '--max-credits', '0'], envOf(ws.key));
    expect(plain.stderr).toContain('This will cost about 1 credit (1 started minute, 1 credit a started minute; speaker labels add 1;');
    expect(await balanceOf(ws.key)).toBe(10);
    expect((await t.api(ws.key, 'GET', '/transcriptions')).body.transcriptions).toEqual([]);
    // The prices the quote is made of.
    expect((await t.api(ws.key, 'GET', '/transcriptions/prices')).body).toEqual({
      per_minute: 1,
      speaker_labels_per_minute: 1,
      discount_applies: false,
      free_usage: false,
    });
  });
});

describe('transcriptions', () => {
  it('transcribe with timestamped progress; transcriptions list, get, download (never over a file without --force)', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const run = await cli(['transcribe', wav, '--language', 'en', '--format', 'txt', '--yes'], env);
    expect(run.status, run.stderr).toBe(USER_EXIT.ok);
    expect(run.stderr).toMatch(new RegExp(`^${TIME} transcription trn_\\w+: (queued|extracting_audio|detecting_speech|recognising|ready)`, 'm'));
    expect(run.stdout).toContain('show');
    const id = (await t.api(ws.key, 'GET', '/transcriptions')).body.transcriptions[0].id as string;

    const listed = await both(['transcriptions', 'list'], env);
    expect(listed.text).toMatch(new RegExp(`^${id} +ready +hello\\.wav +no +1 `, 'm'));
    expect(listed.json.transcriptions.map((x: { id: string }) => x.id)).toEqual([id]);
    const got = await both(['transcriptions', 'get', id], env);
    expect(got.text).toMatch(/^status +ready$/m);
    expect(got.json).toMatchObject({ id, status: 'ready', credits_charged: 1 });

    const out = path.join(dir, 'hello.srt');
    const saved = await cli(['transcriptions', 'download', id, '-o', out, '--no-speakers'], env);
    expect(saved.status, saved.stderr).toBe(USER_EXIT.ok);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^1\n00:00:00,\d{3} --> /);
    const again = await cli(['transcriptions', 'download', id, '-o', out, '--format', 'vtt'], env);
    expect(again).toMatchObject({ status: USER_EXIT.file, stderr: `cutroom: ${out} already exists: not overwritten (add --force to replace it)\n` });
    expect(fs.readFileSync(out, 'utf8')).not.toMatch(/^WEBVTT/);
    const forced = await cli(['transcriptions', 'download', id, '-o', out, '--format', 'vtt', '--force', '--json'], env);
    expect(JSON.parse(forced.stdout)).toMatchObject({ transcription: { id }, file: out });
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^WEBVTT/);
    const text = await cli(['transcriptions', 'download', id, '--format', 'txt'], env);
    expect(text.stdout).toContain('show');
    // transcribe -o never overwrites either, and refuses before uploading or charging.
    const clash = await cli(['transcribe', wav, '-o', out, '--yes'], env);
    expect(clash.status).toBe(USER_EXIT.file);
    expect(await balanceOf(ws.key)).toBe(9);
  }, 300_000);
});

describe('clips, templates and renders', () => {
  let ws: { id: string; key: string };
  let f: ClipsFixture;
  let tpl: string;
  let other: string;

  beforeAll(async () => {
    ws = await t.workspace({ credits: 10 });
    tpl = (await t.c.templates.create(ws.id, { kind: 'template', name: 'Small', config: { layout: { resolution: '720p', reframe: 'center' }, captions: {} } }))
      .id;
    other = (await t.c.templates.create(ws.id, { kind: 'template', name: 'Other', config: { layout: { resolution: '720p', reframe: 'fit' }, captions: {} } }))
      .id;
    // Three clips, two with the same title and one with a hostile one: three files all the same.
    f = await clipsFixture(t, ws.id, minute, {
      templateId: tpl,
      ranges: [
        { start: 2, end: 4, title: 'Same title' },
        { start: 10, end: 12, title: 'Same title' },
        { start: 20, end: 22, title: '../../etc/passwd\u0007\n.. Same title/..' },
      ],
    });
  }, 120_000);

  it('clips list (by submission alone or video/submission) and show, with the references the others take', async () => {
    const env = envOf(ws.key);
    const alone = await both(['clips', 'list', f.submissionId], env);
    for (const id of f.clipIds) expect(alone.text).toContain(`${f.videoId}/${f.submissionId}/${id}`);
    expect(alone.json).toMatchObject({ video_id: f.videoId, submission_id: f.submissionId });
    expect(alone.json.clips.map((c: { id: string }) => c.id)).toEqual(f.clipIds);
    const full = await cli(['clips', 'list', `${f.videoId}/${f.submissionId}`], env);
    expect(full.stdout).toBe(alone.text);

    const show = await both(['clips', 'show', `${f.submissionId}/${f.clipIds[1]}`], env);
    expect(show.text).toMatch(new RegExp(`^clip +${f.videoId}/${f.submissionId}/${f.clipIds[1]}$`, 'm'));
    expect(show.text).toMatch(/^title +Same title$/m);
    expect(show.json).toMatchObject({ id: f.clipIds[1], title: 'Same title', edit_id: f.editIds[1] });

    expect((await cli(['clips', 'show', `${f.submissionId}/clip_nope`], env)).status).toBe(USER_EXIT.apiError);
    expect((await cli(['clips', 'list', 'sub_nope'], env)).status).toBe(USER_EXIT.apiError);
    expect((await cli(['clips', 'show', '../x'], env)).status).toBe(USER_EXIT.usage);
  });

  it('templates list; clips render (as it is, --preview, --template) and renders list', async () => {
    const env = envOf(ws.key);
    const templates = await both(['templates', 'list'], env);
    expect(templates.text).toMatch(new RegExp(`^${tpl} +template +Small +no$`, 'm'));
    expect(templates.json.templates.map((x: { id: string }) => x.id)).toContain(tpl);

    const ref = `${f.videoId}/${f.submissionId}/${f.clipIds[0]}`;
    const plain = await cli(['clips', 'render', ref], env);
    expect(plain.status, plain.stderr).toBe(USER_EXIT.ok);
    expect(plain.stdout).toMatch(new RegExp(`^edit_id +${f.editIds[0]}$`, 'm'));
    const preview = JSON.parse((await cli(['clips', 'render', ref, '--preview', '--json'], env)).stdout);
    expect(preview).toMatchObject({ edit_id: f.editIds[0], quality: 'preview' });
    // Another template: a new edit of the clip, which the clip then points at.
    const otherRun = await cli(['clips', 'render', ref, '--template', other, '--json'], env);
    expect(otherRun.status, otherRun.stdout).toBe(USER_EXIT.ok);
    const rerender = JSON.parse(otherRun.stdout);
    expect(rerender.edit_id).not.toBe(f.editIds[0]);
    expect((await t.api(ws.key, 'GET', `/edits/${rerender.edit_id}`)).body).toMatchObject({
      parent_edit_id: f.editIds[0],
      clip_id: f.clipIds[0],
      template_id: other,
    });

    const renders = await both(['renders', 'list'], env);
    expect(renders.json.renders.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining([preview.id, rerender.id]));
    expect(renders.text).toContain(preview.id);
  }, 120_000);

  it('clips download: <title-slug>-<clip id>.mp4, one file per clip, hostile titles kept inside, never overwritten without --force', async () => {
    const env = envOf(ws.key);
    const out = path.join(dir, 'clips-out');
    const files: string[] = [];
    for (const id of f.clipIds.slice(1)) {
      const r = await cli(['clips', 'download', `${f.submissionId}/${id}`, '--out', out], env);
      expect(r.status, r.stderr).toBe(USER_EXIT.ok);
      expect(r.stderr).toMatch(new RegExp(`^(${TIME} render rnd_\\w+: (queued|active)  \\d+ %|render rnd_\\w+: completed)`, 'm'));
      files.push(r.stdout.trim());
    }
    expect(files.map((x) => path.basename(x))).toEqual([`same-title-${f.clipIds[1]}.mp4`, `etc-passwd-same-title-${f.clipIds[2]}.mp4`]);
    expect(fs.readdirSync(out).sort()).toEqual(files.map((x) => path.basename(x)).sort());
    for (const file of files) expect(fs.readFileSync(file).subarray(4, 8).toString()).toBe('ftyp');

    const before = fs.statSync(files[0]).mtimeMs;
    const again = await cli(['clips', 'download', `${f.submissionId}/${f.clipIds[1]}`, '--out', out], env);
    expect(again).toMatchObject({
      status: USER_EXIT.file,
      stdout: '',
      stderr: `cutroom: ${files[0]} already exists: not overwritten (add --force to replace it)\n`,
    });
    expect(fs.statSync(files[0]).mtimeMs).toBe(before);
    const forced = await cli(['clips', 'download', `${f.videoId}/${f.submissionId}/${f.clipIds[1]}`, '--out', out, '--force', '--json'], env);
    expect(forced.status, forced.stderr).toBe(USER_EXIT.ok);
    expect(JSON.parse(forced.stdout)).toMatchObject({ clip_id: f.clipIds[1], render: { status: 'completed' }, file: files[0] });
  }, 300_000);
});

describe('personas and generations: create with a quote, wait, download', () => {
  it('personas create (refused above --max-credits), list, get, regenerate, download', async () => {
    expect((await t.admin('PUT', '/personas/prices', { image: 3, swap_standard_per_second: 2, swap_high_per_second: 5 })).status).toBe(200);
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const refused = await cli(['personas', 'create', '--max-credits', '2'], env);
    expect(refused.status).toBe(USER_EXIT.usage);
    expect(refused.stderr).toContain('This will cost 3 credits (one portrait, the catalog’s price); balance after: 7\n');
    expect((await cli(['personas', 'create'], env)).stderr).toContain('there is no terminal to ask on');
    expect(await balanceOf(ws.key)).toBe(10);

    const made = await cli(['personas', 'create', '--chip', 'hair_color=red', '--yes', '--json'], env);
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    const persona = JSON.parse(made.stdout);
    expect(persona).toMatchObject({ image_status: 'ready', chips: { hair_color: 'red' } });
    expect(made.stderr).toMatch(new RegExp(`^${TIME} persona ${persona.id}: (processing|ready)$`, 'm'));
    expect(await balanceOf(ws.key)).toBe(7);

    const listed = await both(['personas', 'list'], env);
    expect(listed.text).toMatch(new RegExp(`^${persona.id} +- +ready +1 `, 'm'));
    const got = await both(['personas', 'get', persona.id], env);
    expect(got.text).toMatch(/^portrait +ready$/m);
    expect(got.json).toMatchObject({ id: persona.id });

    const again = await cli(['personas', 'regenerate', persona.id, '--chip', 'hair_color=black', '--max-credits', '3'], env);
    expect(again.status, again.stderr).toBe(USER_EXIT.ok);
    expect(again.stdout).toMatch(/^versions +2$/m);
    expect(await balanceOf(ws.key)).toBe(4);

    const out = path.join(dir, 'personas-out');
    const saved = await cli(['personas', 'download', persona.id, '--out', out], env);
    expect(saved.stdout.trim()).toBe(path.join(out, `persona-${persona.id}.png`));
    expect(fs.readFileSync(saved.stdout.trim()).subarray(1, 4).toString()).toBe('PNG');
    expect((await cli(['personas', 'download', persona.id, '--out', out, '--json'], env)).status).toBe(USER_EXIT.file);
  }, 300_000);

  it('personas swap: the source uploaded, the exact quote, refused above --max-credits; accepted: the video saved', async () => {
    const ws = await t.workspace({ credits: 20 });
    const env = envOf(ws.key);
    const persona = (await t.api(ws.key, 'POST', '/personas/presets/preset_ava')).body;
    const talk = await talkingHeadVideo(path.join(dir, 'head.mp4'), { seconds: 3 });
    const refused = await cli(['personas', 'swap', persona.id, talk, '--replace', 'head', '--max-credits', '1'], env);
    expect(refused.status).toBe(USER_EXIT.usage);
    const quoted = /This will cost (\d+) credits \(3\.\d s, standard quality, replace head\); balance after: (\d+)\n/.exec(refused.stderr);
    expect(quoted, refused.stderr).not.toBeNull();
    expect(Number(quoted![2])).toBe(20 - Number(quoted![1]));
    expect(await balanceOf(ws.key)).toBe(20);
    expect((await t.api(ws.key, 'GET', `/personas/${persona.id}/videos`)).body.pagination.total_count).toBe(0);

    const out = path.join(dir, 'swaps-out');
    const made = await cli(['personas', 'swap', persona.id, talk, '--replace', 'head', '--yes', '--out', out, '--json'], env);
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    const { video, file } = JSON.parse(made.stdout);
    expect(video).toMatchObject({ status: 'ready', replace: 'head', credits_charged: Number(quoted![1]) });
    expect(file).toBe(path.join(out, `${persona.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${video.id}.mp4`));
    expect(fs.readFileSync(file).subarray(4, 8).toString()).toBe('ftyp');
    expect(await balanceOf(ws.key)).toBe(20 - Number(quoted![1]));
  }, 300_000);

  it('generations models; create (quote, wait, download), get, download', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const models = await both(['generations', 'models'], env);
    expect(models.text).toMatch(/^camera-motion +video +1\/second +[a-z_,]*duration[a-z_,]* +Camera motion$/m);
    expect(models.json.models.map((m: { id: string }) => m.id)).toContain('camera-motion');

    const image = path.join(dir, 'pattern.png');
    const args = ['generations', 'create', 'camera-motion', '--image', image, '--option', 'duration=2', '--option', 'resolution=360p'];
    const refused = await cli([...args, '--max-credits', '1'], env);
    expect(refused.status).toBe(USER_EXIT.usage);
    expect(refused.stderr).toContain('This will cost 2 credits (2 s at 1 a second); balance after: 8\n');
    expect(refused.stderr).not.toContain('uploaded');
    expect(await balanceOf(ws.key)).toBe(10);

    const out = path.join(dir, 'generations-out');
    const made = await cli([...args, '--yes', '--out', out, '--json'], env);
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    const { generation, file } = JSON.parse(made.stdout);
    expect(generation).toMatchObject({ model_id: 'camera-motion', status: 'ready', credits_charged: 2 });
    expect(file).toBe(path.join(out, `camera-motion-${generation.id}.mp4`));
    expect(fs.readFileSync(file).subarray(4, 8).toString()).toBe('ftyp');
    expect(made.stderr).toMatch(new RegExp(`^${TIME} generation ${generation.id}: (queued|processing|ready)$`, 'm'));
    expect(await balanceOf(ws.key)).toBe(8);

    const got = await both(['generations', 'get', generation.id], env);
    expect(got.text).toMatch(/^status +ready$/m);
    expect(got.json).toMatchObject({ id: generation.id, status: 'ready' });
    const clash = await cli(['generations', 'download', generation.id, '--out', out], env);
    expect(clash).toMatchObject({ status: USER_EXIT.file, stderr: `cutroom: ${file} already exists: not overwritten (add --force to replace it)\n` });
    const forced = await cli(['generations', 'download', generation.id, '--out', out, '--force'], env);
    expect(forced).toMatchObject({ status: USER_EXIT.ok, stdout: `${file}\n` });
  }, 300_000);
});

describe('monitors, posts and webhooks', () => {
  it('monitors create, list, get, start, stop', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const made = await cli(['monitors', 'create', '--type', 'live', '--url', 'https://www.youtube.com/@SomeChannel/streams', '--name', 'Shows', '--json'], env);
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    const m = JSON.parse(made.stdout);
    expect(m).toMatchObject({ type: 'live', name: 'Shows', status: 'stopped' });
    const listed = await both(['monitors', 'list'], env);
    expect(listed.text).toMatch(new RegExp(`^${m.id} +live +stopped +Shows +https://www\\.youtube\\.com/`, 'm'));
    const got = await both(['monitors', 'get', m.id], env);
    expect(got.text).toMatch(/^status +stopped$/m);
    const started = await cli(['monitors', 'start', m.id, '--json'], env);
    expect(started.status, started.stderr).toBe(USER_EXIT.ok);
    expect(JSON.parse(started.stdout).status).not.toBe('stopped');
    const stopped = await cli(['monitors', 'stop', m.id], env);
    expect(stopped.stdout).toMatch(/^status +stopped$/m);
  });

  it('posts create (scheduled), list, get, delete', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const f = await clipsFixture(t, ws.id, minute, { ranges: [{ start: 2, end: 4 }] });
    const con = (await t.admin('POST', `/workspaces/${ws.id}/connections`, { platform: 'local', account_name: 'cli' })).body.id as string;
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const made = await cli(
      ['posts', 'create', '--edit', f.editIds[0], '--to', con, '--metadata', '{"local":{"title":"From the CLI"}}', '--at', at, '--json'],
      env,
    );
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    const post = JSON.parse(made.stdout);
    expect(post).toMatchObject({ item_count: 1, status: 'pending', scheduled_at: at });
    const listed = await both(['posts', 'list'], env);
    expect(listed.text).toMatch(new RegExp(`^${post.id} +pending +1 +${at} `, 'm'));
    expect(listed.json.posts.map((p: { id: string }) => p.id)).toEqual([post.id]);
    expect(listed.json.posts[0].items[0]).toMatchObject({ platform: 'local', edit_id: f.editIds[0] });
    const stranger = await t.workspace();
    expect((await cli(['posts', 'list'], envOf(stranger.key))).stdout).toBe('no posts\n');
    const got = await both(['posts', 'get', post.id], env);
    expect(got.text).toMatch(/^status +pending$/m);
    expect(got.text).toMatch(new RegExp(`^scheduled +${at}$`, 'm'));
    expect(got.text).toMatch(/ local +\w+ +edit_/);
    expect(got.json.items[0]).toMatchObject({ platform: 'local', edit_id: f.editIds[0] });
    const gone = await cli(['posts', 'delete', post.id], env);
    expect(gone).toMatchObject({ status: USER_EXIT.ok, stdout: `post ${post.id} deleted\n` });
    expect((await cli(['posts', 'get', post.id], env)).status).toBe(USER_EXIT.apiError);
    expect((await cli(['posts', 'list'], env)).stdout).toBe('no posts\n');
    expect((await cli(['posts', 'create', '--edit', f.editIds[0], '--to', con, '--metadata', '[1]'], env)).status).toBe(USER_EXIT.usage);
  });

  it('webhooks create (the secret once), list, delete', async () => {
    const ws = await t.workspace({ credits: 10 });
    const env = envOf(ws.key);
    const made = await cli(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hooks', '--event', 'render.completed', '--event', 'render.failed'], env);
    expect(made.status, made.stderr).toBe(USER_EXIT.ok);
    expect(made.stdout).toMatch(/^secret +\S+ {2}\(shown once/m);
    const id = /^id +(\S+)$/m.exec(made.stdout)![1];
    const listed = await both(['webhooks', 'list'], env);
    expect(listed.text).toMatch(new RegExp(`^${id} +http://127\\.0\\.0\\.1:9/hooks +render\\.completed,render\\.failed `, 'm'));
    const json = await cli(['webhooks', 'create', '--url', 'http://127.0.0.1:9/other', '--event', 'post.completed', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: 'http://127.0.0.1:9/other', events: ['post.completed'], secret: expect.any(String) });
    expect(await cli(['webhooks', 'delete', id], env)).toMatchObject({ status: USER_EXIT.ok, stdout: `webhook ${id} deleted\n` });
    expect(JSON.parse((await cli(['webhooks', 'delete', JSON.parse(json.stdout).id, '--json'], env)).stdout)).toMatchObject({ deleted: true });
    expect((await t.api(ws.key, 'GET', '/webhooks')).body.webhooks).toEqual([]);
  });
});

describe('the whole clip run', () => {
  it('clip --render all: the quote accepted, submission progress with timestamps, one file per clip named <title-slug>-<clip id>.mp4', async () => {
    const talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
    const ws = await t.workspace({ credits: 10 });
    const out = path.join(dir, 'clip-out');
    const r = await cli(
      ['clip', talk, '--language', 'en', '--length', '10-20', '--render', 'all', '--out', out, '--max-credits', '2', '--json'],
      envOf(ws.key),
    );
    expect(r.status, r.stderr).toBe(USER_EXIT.ok);
    expect(r.stderr).toContain('This will cost 2 credits (1:06 of video, 1 credit a minute); balance after: 8\n');
    expect(r.stderr).toMatch(new RegExp(`^${TIME} submission sub_\\w+: (queued|downloading|transcribing|video_analysis|analyzing|finalizing|completed)`, 'm'));
    const { clips, renders } = JSON.parse(r.stdout);
    expect(clips.length).toBeGreaterThan(0);
    // Named as test/unit/user-cli-helpers.test.ts checks: several clips with one title still give one file each.
    const names = clips.map((c: { title: string; id: string }) => downloadName(c.title, c.id, 'mp4'));
    expect(new Set(names).size).toBe(clips.length);
    expect(fs.readdirSync(out).sort()).toEqual([...names].sort());
    expect(renders.map((x: { file: string }) => x.file)).toEqual(names.map((n: string) => path.join(out, n)));
    expect(await balanceOf(ws.key)).toBe(8);
  }, 600_000);
});

describe('completion', () => {
  it('bash: a script that registers `complete -F _cutroom cutroom` and completes commands, subcommands and choices', async () => {
    const r = await cli(['completion', 'bash'], {});
    expect(r.status).toBe(USER_EXIT.ok);
    const script = path.join(dir, 'cutroom.bash');
    fs.writeFileSync(script, r.stdout);
    const complete = (words: string[]) =>
      execFileSync(
        'bash',
        ['-c', `source "$0"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cutroom; echo "\${COMPREPLY[*]}"`, script],
        { encoding: 'utf8' },
      ).trim();
    expect(execFileSync('bash', ['-c', 'source "$0"; complete -p cutroom', script], { encoding: 'utf8' }).trim()).toBe(
      'complete -o default -F _cutroom cutroom',
    );
    expect(complete(['cutroom', 'cl']).split(' ')).toEqual(['clip', 'clips']);
    expect(complete(['cutroom', 'clips', '']).split(' ')).toEqual(expect.arrayContaining(['list', 'show', 'render', 'download', 'review']));
    expect(complete(['cutroom', 'transcribe', 'a.wav', '--format', ''])).toBe('srt vtt txt');
    expect(complete(['cutroom', 'generations', 'create', 'm', '--o'])).toBe('--option --out');
    expect(complete(['cutroom', 'completion', ''])).toContain('bash zsh');
    const zsh = await cli(['completion', 'zsh'], {});
    expect(zsh.stdout).toMatch(/^#compdef cutroom\n/);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain('complete -o default -F _cutroom cutroom');
  });
});

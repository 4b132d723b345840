import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { USER_EXIT, runUserCli } from '../../src/main/user-cli.js';

/**
 * The `cutroom` user commands against a listening service that refuses private links (the operator
 * has not allowed them): every refusal is printed as a plain sentence from the SDK's table of reasons,
 * `<sentence> (<CODE>, HTTP <status>, request <id>)`, and what can be known before the upload (a video
 * under a minute, measured with ffprobe; one over the plan's maximum, declared to POST /videos/upload)
 * is refused before any byte is sent.
 */

let t: TestApp;
let base: string;
let dir: string;
let site: StaticServer;
/** Every stderr the tests saw: none may suggest an SDK option the CLI does not have. */
const seen: string[] = [];
const files: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir('cutroom-user-cli-reasons-');
  files.short = await makeVideo(path.join(dir, 'short.mp4'), { seconds: 20, width: 160, height: 90 });
  files.minute = await makeVideo(path.join(dir, 'minute.mp4'), { seconds: 61, width: 160, height: 90 });
  files.text = path.join(dir, 'notes.txt');
  fs.writeFileSync(files.text, 'hello');
  fs.mkdirSync(path.join(dir, 'no-tools'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { PUBLIC_BASE_URL: base, CUTROOM_ALLOW_PRIVATE_SOURCES: 'false' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  site = await startStaticServer(dir);
});
afterAll(async () => {
  await site?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function sink() {
  let text = '';
  return { stream: { isTTY: false, write: (s: string) => void (text += s) }, text: () => text };
}

async function cli(args: string[], env: Record<string, string | undefined>) {
  const out = sink();
  const err = sink();
  const status = await runUserCli(args, { stdout: out.stream, stderr: err.stream, env, pollIntervalMs: 200 });
  seen.push(err.text());
  return { status, stdout: out.text(), stderr: err.text() };
}

/** The CLI's environment: the service, a key, and the PATH (where ffprobe is looked for). */
function envOf(key: string, PATH = process.env.PATH) {
  return { CUTROOM_URL: base, CUTROOM_API_KEY: key, PATH };
}

async function videoCount(workspaceId: string): Promise<number> {
  const rows = await t.c.database.sql.executeSql('select count(*)::int as n from videos where workspace_id = $1', [workspaceId]);
  return Number(rows.rows[0].n);
}

const REQUEST = 'request [\\w-]+';

describe('the reason of each refusal, in words', () => {
  it('a loopback link: the private-address rule and the operator setting that allows it', async () => {
    const ws = await t.workspace({ credits: 10 });
    const r = await cli(['clip', `${site.url}/minute.mp4`, '--yes'], envOf(ws.key));
    expect(r.status).toBe(USER_EXIT.apiError);
    expect(r.stderr).toMatch(
      new RegExp(
        '^cutroom: Links to private or loopback addresses \\(localhost, 127\\.0\\.0\\.1, 10\\.x, 192\\.168\\.x …\\) are refused; ' +
          `the service’s operator can allow them with CUTROOM_ALLOW_PRIVATE_SOURCES=true\\. \\(INVALID_URL, HTTP 422, ${REQUEST}\\)$`,
        'm',
      ),
    );
    const json = await cli(['clip', `${site.url}/minute.mp4`, '--json', '--yes'], envOf(ws.key));
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'INVALID_URL',
      status: 422,
      extra: { reason: 'private_address' },
      reason: expect.stringContaining('CUTROOM_ALLOW_PRIVATE_SOURCES=true'),
    });
  });

  it('a video under a minute, measured with ffprobe: its length and the 60 s minimum, before any upload', async () => {
    const ws = await t.workspace({ credits: 10 });
    const r = await cli(['clip', files.short], envOf(ws.key));
    expect(r.status).toBe(USER_EXIT.apiError);
    expect(r.stderr).toBe(
      'cutroom: The video is too short (20 s): the service needs at least 1 min of video. (VIDEO_TOO_SHORT, measured by ffprobe before uploading)\n',
    );
    expect(await videoCount(ws.id)).toBe(0);
    const json = await cli(['clip', files.short, '--json'], envOf(ws.key));
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'VIDEO_TOO_SHORT', status: null, extra: { min_duration: 60 } });
  });

  it('without ffprobe on the PATH the CLI goes on, and the service’s refusal reads the same', async () => {
    const ws = await t.workspace({ credits: 10 });
    const r = await cli(['clip', files.short, '--yes'], envOf(ws.key, path.join(dir, 'no-tools')));
    expect(r.status).toBe(USER_EXIT.apiError);
    // The upload went ahead; the service measured the file at completion and refused it.
    expect(r.stderr).toMatch(/^upload short\.mp4: 0% /m);
    expect(r.stderr).toMatch(
      new RegExp(`^cutroom: The video is too short \\(20 s\\): the service needs at least 1 min of video\\. \\(VIDEO_TOO_SHORT, HTTP 400, ${REQUEST}\\)$`, 'm'),
    );
  });

  it('a video over the plan’s maximum: refused by POST /videos/upload from the measured duration, before any byte is sent', async () => {
    await t.c.plans.create('one-minute', { max_video_duration: 60 });
    const ws = await t.workspace({ plan: 'one-minute', credits: 10 });
    const r = await cli(['clip', files.minute, '--yes'], envOf(ws.key));
    expect(r.status).toBe(USER_EXIT.apiError);
    expect(r.stderr).toMatch(
      new RegExp(`^cutroom: The video is too long \\(1 min 1 s\\): the most allowed here is 1 min\\. \\(VIDEO_TOO_LONG, HTTP 400, ${REQUEST}\\)$`, 'm'),
    );
    expect(r.stderr).not.toMatch(/100%/);
    expect(await videoCount(ws.id)).toBe(0);
  });

  it('a value outside a fixed set: the values the field takes', async () => {
    const ws = await t.workspace({ credits: 10 });
    const r = await cli(['clip', files.minute, '--language', 'fr', '--render', 'none', '--yes'], envOf(ws.key));
    expect(r.status).toBe(USER_EXIT.apiError);
    expect(r.stderr).toMatch(new RegExp(`^cutroom: “source_language” must be one of auto, en or pt\\. \\(VALIDATION_ERROR, HTTP 400, ${REQUEST}\\)$`, 'm'));
  });

  it('a file the service never takes: the extensions it takes, and no SDK option the CLI does not have', async () => {
    const ws = await t.workspace({ credits: 10 });
    const clip = await cli(['clip', files.text], envOf(ws.key));
    expect(clip).toMatchObject({
      status: USER_EXIT.usage,
      stderr: 'cutroom: “file_name” must end in .mp4, .mov, .webm or .mkv. (VALIDATION_ERROR, notes.txt, before uploading)\n',
    });
    const transcribe = await cli(['transcribe', files.text], envOf(ws.key));
    expect(transcribe.status).toBe(USER_EXIT.usage);
    expect(transcribe.stderr).toContain('“file_name” must end in .mp4, .mov, .webm, .mkv, .mp3, .wav, .m4a, .aac, .ogg, .opus or .flac.');
    for (const stderr of seen) expect(stderr).not.toMatch(/opts\.|contentType/);
  });
});

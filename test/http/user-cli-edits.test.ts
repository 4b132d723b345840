import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { freePort } from '../helpers/process.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makePausedTalkVideo, type PausedTalk } from '../helpers/pause-fixtures.js';
import { USER_EXIT, runUserCli } from '../../src/main/user-cli.js';

/**
 * `cutroom edits get|versions|derive` and `cutroom clips review` in process against a listening test
 * app. Clips and their edits are made directly in the database (test/helpers/clips.ts): the words
 * are "we cut long videos into short clips", one per second from the clip's start.
 */

let t: TestApp;
let base: string;
let dir: string;
let source: string;
/** Read sentences with 2 s pauses between them (--remove-silences). */
let talk: PausedTalk;

beforeAll(async () => {
  dir = tempDir('cutroom-user-cli-edits-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 160, height: 90, fps: 5 });
  talk = await makePausedTalkVideo(path.join(dir, 'talk.mp4'), { width: 160, height: 90, fps: 10 });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ startQueue: true, env: { PUBLIC_BASE_URL: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string | undefined>) {
  let stdout = '';
  let stderr = '';
  const status = await runUserCli(args, {
    stdout: { isTTY: false, write: (s: string) => void (stdout += s) },
    stderr: { isTTY: false, write: (s: string) => void (stderr += s) },
    env,
  });
  return { status, stdout, stderr };
}

async function setup() {
  const ws = await t.workspace();
  const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
  return { ws, f, env: { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key } };
}

describe('cutroom edits', () => {
  it('get: the edit as text (segments, indexed words) and as JSON', async () => {
    const { f, env } = await setup();
    const id = f.editIds[0];
    const r = await cli(['edits', 'get', id], env);
    expect(r.status, r.stderr).toBe(USER_EXIT.ok);
    expect(r.stdout).toMatch(new RegExp(`^id {9}${id}$`, 'm'));
    expect(r.stdout).toMatch(/^parent {5}none$/m);
    expect(r.stdout).toMatch(new RegExp(`^clip {7}${f.clipIds[0]}$`, 'm'));
    expect(r.stdout).toMatch(/^duration {3}7\.00 s$/m);
    expect(r.stdout).toMatch(/^aspect {5}9:16/m);
    expect(r.stdout).toMatch(/^segments {3}10\.00–17\.00$/m);
    expect(r.stdout).toMatch(/^ +0 we 10\.00–10\.90$/m);
    expect(r.stdout).toMatch(/^ +1 cut 11\.00–11\.90$/m);
    const json = await cli(['edits', 'get', id, '--json'], env);
    expect(json.status).toBe(USER_EXIT.ok);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, parent_edit_id: null, clip_id: f.clipIds[0], segments: [{ start: 10, end: 17 }] });
  });

  it('derive: every flag reaches POST /edits; the new edit printed; versions lists both', async () => {
    const { f, env } = await setup();
    const id = f.editIds[0];
    const r = await cli(
      [
        'edits',
        'derive',
        id,
        '--trim',
        '11.3-16.3',
        '--fix',
        '2=LONG',
        '--fix',
        '5=',
        '--remove-words',
        '3',
        '--no-snap',
        '--aspect',
        '1:1',
        '--no-captions',
        '--title',
        'Short clips',
      ],
      env,
    );
    expect(r.status, r.stderr).toBe(USER_EXIT.ok);
    const newId = /^id {9}(\S+)$/m.exec(r.stdout)?.[1];
    expect(newId).toBeDefined();
    expect(newId).not.toBe(id);
    expect(r.stdout).toMatch(new RegExp(`^parent {5}${id}$`, 'm'));
    expect(r.stdout).toMatch(/^aspect {5}1:1/m);
    expect(r.stdout).toMatch(/^captions {3}off$/m);
    expect(r.stdout).toMatch(/^title {6}Short clips$/m);
    expect(r.stdout).toMatch(/^ +2 LONG /m);
    expect(r.stdout).not.toMatch(/^ +3 videos /m);
    const edit = (await t.api(env.CUTROOM_API_KEY, 'GET', `/edits/${newId}`)).body;
    expect(edit).toMatchObject({ parent_edit_id: id, aspect_ratio: '1:1', captions_enabled: false, title: { text: 'Short clips' } });
    expect(edit.segments[0].start).toBeCloseTo(11.3);

    const json = await cli(['edits', 'derive', newId!, '--remove-fillers', '--json'], env);
    expect(json.status, json.stderr).toBe(USER_EXIT.ok);
    const third = JSON.parse(json.stdout);
    expect(third).toMatchObject({ parent_edit_id: newId, clip_id: f.clipIds[0] });

    const versions = await cli(['edits', 'versions', id], env);
    expect(versions.status, versions.stderr).toBe(USER_EXIT.ok);
    const order = [third.id, newId, id].map((v) => versions.stdout.indexOf(v));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const vjson = await cli(['edits', 'versions', id, '--json'], env);
    expect(JSON.parse(vjson.stdout).edits.map((e: { id: string }) => e.id)).toEqual([third.id, newId, id]);
  });

  it('derive --remove-silences cuts the pauses, --min-silence longer than them cuts none; --zoom is shown', async () => {
    const ws = await t.workspace();
    const end = Math.round((talk.sentences[2].end + 0.6) * 10) / 10;
    const f = await clipsFixture(t, ws.id, talk.path, { ranges: [{ start: 0, end }], words: talk.words });
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: ws.key };
    const cut = await cli(['edits', 'derive', f.editIds[0], '--remove-silences', '--zoom', '1.5', '--json'], env);
    expect(cut.status, cut.stderr).toBe(USER_EXIT.ok);
    const edit = JSON.parse(cut.stdout);
    expect(edit).toMatchObject({ parent_edit_id: f.editIds[0], zoom: 1.5 });
    expect(edit.segments).toHaveLength(3);
    const kept = await cli(['edits', 'derive', f.editIds[0], '--remove-silences', '--min-silence', '2.5'], env);
    expect(kept.status, kept.stderr).toBe(USER_EXIT.ok);
    expect(kept.stdout).toMatch(new RegExp(`^segments {3}0\\.00–${end.toFixed(2)}$`, 'm'));
    const shown = await cli(['edits', 'get', edit.id], env);
    expect(shown.stdout).toMatch(/^aspect {5}9:16 \(reframe \w+, zoom 1\.5\)$/m);
  });

  it('a malformed flag is a usage error (exit 2) before any request', async () => {
    const { f, env } = await setup();
    const id = f.editIds[0];
    for (const args of [
      ['edits', 'derive', id, '--trim', '41-12'],
      ['edits', 'derive', id, '--trim', 'soon'],
      ['edits', 'derive', id, '--fix', 'Kubernetes'],
      ['edits', 'derive', id, '--remove-words', '3,x'],
      ['edits', 'derive', id, '--aspect', '4:3'],
      ['edits', 'derive', id, '--min-silence', '0.1'],
      ['edits', 'derive', id, '--min-silence', 'soon'],
      ['edits', 'derive', id, '--zoom', '5'],
      ['edits', 'derive', id, '--zoom', 'close'],
      ['edits', 'derive', id, '--remove-silence'],
      ['edits', 'derive'],
      ['edits', 'get'],
      ['clips', 'review', 'v', 's', 'c', 'maybe'],
    ]) {
      const r = await cli(args, env);
      expect(r.status, args.join(' ')).toBe(USER_EXIT.usage);
      expect(r.stderr, args.join(' ')).toMatch(/error/i);
    }
    const versions = (await t.api(env.CUTROOM_API_KEY, 'GET', `/edits/${id}/versions`)).body;
    expect(versions.edits).toHaveLength(1);
  });

  it('exit 1 EDITS_NOT_FOUND for an unknown edit and another workspace’s, the error body with --json', async () => {
    const { env } = await setup();
    const other = await setup();
    for (const id of ['edit_nope', other.f.editIds[0]]) {
      for (const args of [
        ['edits', 'get', id],
        ['edits', 'versions', id],
        ['edits', 'derive', id, '--trim', '11-15'],
      ]) {
        const r = await cli(args, env);
        expect(r.status, args.join(' ')).toBe(USER_EXIT.apiError);
        expect(r.stderr, args.join(' ')).toMatch(
          new RegExp(`^cutroom: No such edit in this workspace: ${id}\\. \\(EDITS_NOT_FOUND, HTTP 404, request \\S+\\)$`, 'm'),
        );
      }
    }
    const json = await cli(['edits', 'get', 'edit_nope', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'EDITS_NOT_FOUND', status: 404 } });
  });
});

describe('cutroom clips review', () => {
  it('sets kept, skipped, clears with none; another workspace’s clip is not found', async () => {
    const { f, env } = await setup();
    const ids = [f.videoId, f.submissionId, f.clipIds[0]];
    const kept = await cli(['clips', 'review', ...ids, 'kept'], env);
    expect(kept).toMatchObject({ status: USER_EXIT.ok, stdout: `clip ${f.clipIds[0]}: kept\n` });
    const skipped = await cli(['clips', 'review', ...ids, 'skipped', '--json'], env);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ id: f.clipIds[0], review: 'skipped' });
    const none = await cli(['clips', 'review', ...ids, 'none'], env);
    expect(none).toMatchObject({ status: USER_EXIT.ok, stdout: `clip ${f.clipIds[0]}: not reviewed\n` });
    const other = await setup();
    const foreign = await cli(['clips', 'review', ...ids, 'kept'], other.env);
    expect(foreign.status).toBe(USER_EXIT.apiError);
    expect(foreign.stderr).toMatch(/^cutroom: .+ \(\w+_NOT_FOUND, HTTP 404, request \S+\)$/m);
  });
});

describe('cutroom renders create', () => {
  it('--preview sends quality "preview"; without it the final quality; an unknown edit is EDITS_NOT_FOUND', async () => {
    const { f, env } = await setup();
    const preview = await cli(['renders', 'create', f.editIds[0], '--preview', '--json'], env);
    expect(preview.status, preview.stderr).toBe(USER_EXIT.ok);
    const render = JSON.parse(preview.stdout);
    expect(render).toMatchObject({ edit_id: f.editIds[0], quality: 'preview' });
    expect((await t.api(env.CUTROOM_API_KEY, 'GET', `/renders/${render.id}`)).body.quality).toBe('preview');
    const final = await cli(['renders', 'create', f.editIds[0]], env);
    expect(final.status, final.stderr).toBe(USER_EXIT.ok);
    expect(final.stdout).toMatch(/^quality {4}final$/m);
    const missing = await cli(['renders', 'create', 'edit_nope', '--preview'], env);
    expect(missing).toMatchObject({ status: USER_EXIT.apiError, stderr: expect.stringContaining('(EDITS_NOT_FOUND, HTTP 404, request ') });
  });
});

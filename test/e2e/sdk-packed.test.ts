import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { ROOT, type Proc, startServe } from '../helpers/process.js';
import { probe } from '../../src/adapters/media/ffprobe.js';

const run = promisify(execFile);

/**
 * The SDK as a stranger gets it: packed by the build (dist/sdk/cutroom-sdk.tgz, served by the service at
 * /sdk/cutroom-sdk.tgz), installed with npm in a folder outside the repository (a copy, not a link; its
 * dependencies from the registry or npm's cache), and a small TypeScript program compiled against it
 * with the repository's tsc, then run against a real server process.
 */
const TARBALL = path.join(ROOT, 'dist/sdk/cutroom-sdk.tgz');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const TYPES_NODE = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')).version as string;

let dir: string;
let talk: string;
let server: Proc;
let base: string;
let key: string;

/** A folder outside the repository with its own package.json, the SDK installed from `source` (a tarball path or URL). */
async function project(name: string, source: string): Promise<string> {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', source, `@types/node@${TYPES_NODE}`], {
    cwd: folder,
    timeout: 300_000,
  });
  return folder;
}

beforeAll(async () => {
  expect(fs.existsSync(TARBALL), `${TARBALL} is missing: npm run build packs it`).toBe(true);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-sdk-packed-'));
  expect(path.relative(ROOT, dir).startsWith('..')).toBe(true);
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  ({ server, base, key } = await startServe(dir));
}, 300_000);
afterAll(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', rootDir: '.', types: ['node'] },
  include: ['*.ts'],
};

// Compiles, and runs against the service: clipFile, a render saved by renders.download (twice: the second refused), transcribeFile.
const GOOD = `
import { Cutroom, CutroomError, verifyWebhook, type WebhookEvent } from '@cutroom/sdk';

export function describeEvent(e: WebhookEvent): string {
  if (e.type === 'render.completed') return e.data.edit_id;
  if (e.type === 'submission.completed') return String(e.data.clips_count);
  return e.type;
}
export const check = (headers: Record<string, string>, body: string, secret: string): string => describeEvent(verifyWebhook(headers, body, secret));

const [file, out] = process.argv.slice(2);
const cutroom = Cutroom.fromEnv(process.env, { pollIntervalMs: () => 500 });
const { video, submission, clips } = await cutroom.clipFile(file, { source_language: 'en', wait: { timeoutMs: 600_000 } });
const best = clips[0];
const render = await cutroom.renders.renderClip(submission.video_id, submission.id, best.id);
const saved = await cutroom.renders.download(render.id, out, { wait: { timeoutMs: 300_000 } });
let again = '';
try {
  await cutroom.renders.download(render.id, out);
} catch (err) {
  if (err instanceof CutroomError) again = err.code;
}
const { transcription, transcript } = await cutroom.transcribeFile(file, { source_language: 'en', wait: { timeoutMs: 600_000 } });
console.log(JSON.stringify({
  video: video.id,
  submission: { id: submission.id, status: submission.status, clips_count: submission.clips_count },
  clips: clips.map((c) => ({ id: c.id, start: c.start_time, end: c.end_time })),
  saved: { path: saved.path, bytes: saved.bytes, render: saved.render.status },
  again,
  transcription: transcription.status,
  cues: transcript.cues.length,
}));
`;

// Each line is one mistake the compiler must catch.
const BAD = `
import { Cutroom, type WebhookEvent } from '@cutroom/sdk';
const cutroom = Cutroom.fromEnv();
export const a = cutroom.clips.create({ video_id: 'vid_x', langauge: 'en' });
export const b = cutroom.clips.create({ video_id: 'vid_x', source_langauge: 'en' });
export const c = cutroom.clipFile('talk.mp4', { promt: 'pricing' });
export const d = (e: WebhookEvent) => (e.type === 'render.completed' ? e.data.clips_count : 0);
`;

describe('the packed SDK in a folder outside the repository', () => {
  it('installs from the tarball as files; misspelled fields and another event’s field do not compile; a correct program does', async () => {
    const folder = await project('from-tarball', TARBALL);
    const installed = path.join(folder, 'node_modules/@cutroom/sdk');
    expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(fs.existsSync(path.join(folder, 'node_modules/openapi-fetch/package.json'))).toBe(true);
    fs.writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    fs.writeFileSync(path.join(folder, 'good.ts'), GOOD);
    fs.writeFileSync(path.join(folder, 'bad.ts'), BAD);
    const result = await run(process.execPath, [TSC, '-p', folder], { cwd: folder }).then(
      () => '',
      (err: { stdout: string }) => err.stdout,
    );
    const errors = result
      .split('\n')
      .filter((l) => /error TS/.test(l))
      .map((l) => /^(\S+)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(l)!.slice(1, 5));
    expect(errors.filter(([file]) => file !== 'bad.ts')).toEqual([]);
    expect(errors.map(([, line, code, message]) => [Number(line), code, /'(\w+)'/.exec(message)![1]])).toEqual([
      [4, 'TS2353', 'langauge'],
      [5, 'TS2561', 'source_langauge'],
      [6, 'TS2561', 'promt'],
      [7, 'TS2339', 'clips_count'],
    ]);
    expect(fs.existsSync(path.join(folder, 'out/good.js'))).toBe(true);
  }, 600_000);

  it('installs from the address the service serves, and the compiled program clips, renders, downloads and transcribes a file on the service', async () => {
    const served = await fetch(`${base}/sdk/cutroom-sdk.tgz`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(fs.readFileSync(TARBALL))).toBe(true);
    const folder = await project('from-url', `${base}/sdk/cutroom-sdk.tgz`);
    expect(fs.lstatSync(path.join(folder, 'node_modules/@cutroom/sdk')).isSymbolicLink()).toBe(false);
    fs.writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    fs.writeFileSync(path.join(folder, 'good.ts'), GOOD);
    await run(process.execPath, [TSC, '-p', folder], { cwd: folder });

    const out = path.join(dir, 'renders');
    const { stdout } = await run(process.execPath, [path.join(folder, 'out/good.js'), talk, out], {
      cwd: folder,
      env: { ...process.env, CUTROOM_URL: base, CUTROOM_API_KEY: key },
      timeout: 1_500_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(result.submission).toMatchObject({ status: 'completed' });
    expect(result.clips.length).toBe(result.submission.clips_count);
    expect(result.clips.length).toBeGreaterThan(0);
    expect(path.dirname(result.saved.path)).toBe(out);
    expect(result.saved.path).toMatch(/\.mp4$/);
    expect(result.saved.render).toBe('completed');
    expect(fs.statSync(result.saved.path).size).toBe(result.saved.bytes);
    expect(fs.readdirSync(out)).toEqual([path.basename(result.saved.path)]);
    const info = await probe(result.saved.path);
    expect(info.hasVideo).toBe(true);
    expect(Math.abs(info.duration - (result.clips[0].end - result.clips[0].start))).toBeLessThan(1);
    expect(result.again).toBe('DOWNLOAD_FILE_EXISTS');
    expect(result.transcription).toBe('ready');
    expect(result.cues).toBeGreaterThan(0);
  }, 1_800_000);
});

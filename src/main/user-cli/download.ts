import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliFailure, USER_EXIT } from './failure.js';
import type { Progress } from './progress.js';

/** The longest slug in a file name. */
const SLUG_MAX = 60;

/**
 * A title as a file-name part: lowercase ASCII letters and digits joined by single dashes, at most 60
 * characters; accents folded, everything else (path separators, dots, control characters) a dash.
 * `fallback` when nothing is left.
 */
export function slugify(title: string, fallback = 'clip'): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = s.length > SLUG_MAX ? s.slice(0, SLUG_MAX).replace(/-+[^-]*$/, '') || s.slice(0, SLUG_MAX) : s;
  return cut.replace(/-+$/, '') || fallback;
}

/** An identifier from the API as a file-name part: only letters, digits, `_` and `-` are kept. */
export function idPart(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]+/g, '').slice(0, 100) || 'unknown';
}

/** `<title-slug>-<id>.<ext>`: the name of every file the CLI downloads (a clip's render: its clip id). */
export function downloadName(title: string, id: string, ext: string, fallback?: string): string {
  return `${slugify(title, fallback)}-${idPart(id)}.${ext.replace(/[^a-z0-9]/gi, '') || 'bin'}`;
}

/** Creates `dir` (exit 5 when it cannot be) and answers it. */
export function outputDir(dir: string): string {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new CliFailure(`cannot create ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, USER_EXIT.file);
  }
  return dir;
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Exit 5 naming `file` when it exists and `force` is not set: the CLI never overwrites a file silently. */
export function refuseExisting(file: string, force: boolean | undefined): void {
  if (!force && exists(file)) throw new CliFailure(`${file} already exists: not overwritten (add --force to replace it)`, USER_EXIT.file);
}

/**
 * Where `name` goes in `dir`: checked to stay inside it, and refused (exit 5) when a file is there
 * already and `force` is not set. Checked before anything is rendered or downloaded.
 */
export function target(dir: string, name: string, force: boolean | undefined): string {
  const base = path.basename(name);
  if (base !== name || base === '.' || base === '..') throw new CliFailure(`refusing the file name ${JSON.stringify(name)}`, USER_EXIT.file);
  const file = path.join(dir, base);
  refuseExisting(file, force);
  return file;
}

/** Puts the finished temporary file in place: never over an existing file unless `force`. */
function place(partial: string, file: string, force: boolean | undefined): void {
  if (force) return fs.renameSync(partial, file);
  try {
    // A hard link fails with EEXIST instead of replacing: no file appearing meanwhile is lost.
    fs.linkSync(partial, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CliFailure(`${file} already exists: not overwritten (add --force to replace it)`, USER_EXIT.file);
    fs.copyFileSync(partial, file, fs.constants.COPYFILE_EXCL);
  }
  fs.rmSync(partial, { force: true });
}

/** Downloads a signed URL (no key sent) into `file` through a temporary file, with a download bar; answers `file`. */
export async function downloadTo(progress: Progress, url: string, file: string, force?: boolean): Promise<string> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new CliFailure(`the file answered HTTP ${res.status}`, USER_EXIT.connection);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.part`);
  const total = Number(res.headers.get('content-length')) || 0;
  const bar = total > 0 ? progress.bar(`download ${path.basename(file)}`, total, { bytes: true }) : undefined;
  let received = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      bar?.update(received);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), count, fs.createWriteStream(partial, { flags: 'wx' }));
    place(partial, file, force);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  bar?.done();
  return file;
}

/** Writes text to `file`, never over an existing one unless `force` (exit 5 naming it). */
export function writeText(file: string, text: string, force?: boolean): void {
  try {
    fs.writeFileSync(file, text, { flag: force ? 'w' : 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CliFailure(`${file} already exists: not overwritten (add --force to replace it)`, USER_EXIT.file);
    throw new CliFailure(`cannot write ${file}: ${code ?? (err as Error).message}`, USER_EXIT.file);
  }
}

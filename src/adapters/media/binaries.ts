import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Where the ffmpeg and ffprobe executables are: `FFMPEG_PATH` / `FFPROBE_PATH` when set, else the
 * static binaries shipped by @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe. Some installs
 * leave those files without the execute bit; it is added on first use.
 */

const require = createRequire(import.meta.url);
const cache = new Map<string, string>();
const shipped = new Set<string>();

export class MediaBinaryError extends Error {}

/** Adds the execute bits when the current user cannot execute `file`; EPERM is ignored when it already can. */
export function ensureExecutable(file: string): void {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return;
  } catch {
    // not executable for us yet
  }
  let mode: number;
  try {
    mode = fs.statSync(file).mode;
  } catch (err) {
    throw new MediaBinaryError(`${file} does not exist: ${(err as Error).message}`);
  }
  try {
    fs.chmodSync(file, mode | 0o111);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EACCES' && code !== 'EROFS') throw err;
  }
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    throw new MediaBinaryError(`${file} is not executable and its mode could not be changed`);
  }
}

function resolveBinary(name: 'ffmpeg' | 'ffprobe', envVar: string, pkg: string, env: NodeJS.ProcessEnv): string {
  const override = env[envVar];
  const key = `${name}:${override ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let file: string;
  if (override) {
    file = override;
  } else {
    try {
      file = (require(pkg) as { path: string }).path;
    } catch (err) {
      throw new MediaBinaryError(`${name} not found: set ${envVar} or install ${pkg} (${String(err)})`);
    }
    shipped.add(file);
  }
  ensureExecutable(file);
  cache.set(key, file);
  return file;
}

export function ffmpegPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffmpeg', 'FFMPEG_PATH', '@ffmpeg-installer/ffmpeg', env);
}

export function ffprobePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffprobe', 'FFPROBE_PATH', '@ffprobe-installer/ffprobe', env);
}

/**
 * The environment to run `binary` with. The npm-shipped binaries are static glibc builds: when they
 * load the system's iconv (gconv) modules they crash with SIGSEGV, which happens on every MPEG-TS
 * input (HLS segments). Pointing GCONV_PATH at a directory without modules makes iconv fail
 * gracefully instead. Binaries chosen with FFMPEG_PATH / FFPROBE_PATH run with the environment unchanged.
 */
export function binaryEnv(binary: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (!shipped.has(binary)) return base;
  return { ...base, GCONV_PATH: path.dirname(binary) };
}

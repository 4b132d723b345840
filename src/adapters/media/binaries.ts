import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the ffmpeg and ffprobe executables are: `FFMPEG_PATH` / `FFPROBE_PATH` when set, else
 * `ffmpeg` / `ffprobe` found on `PATH` — Debian's `ffmpeg` package, which ships both tools from one
 * current, security-maintained build (see docs/architecture.md for why not an npm-shipped binary).
 */

const cache = new Map<string, string>();

export class MediaBinaryError extends Error {}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function resolveBinary(name: 'ffmpeg' | 'ffprobe', envVar: string, env: NodeJS.ProcessEnv): string {
  const override = env[envVar];
  const key = `${name}:${override ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const file = override || onPath(name, env);
  if (!file) throw new MediaBinaryError(`${name} not found on PATH: install Debian's ffmpeg package (./scripts/setup.sh does) or set ${envVar}`);
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    throw new MediaBinaryError(`${envVar}=${file} is not an executable file`);
  }
  cache.set(key, file);
  return file;
}

export function ffmpegPath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffmpeg', 'FFMPEG_PATH', env);
}

export function ffprobePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolveBinary('ffprobe', 'FFPROBE_PATH', env);
}

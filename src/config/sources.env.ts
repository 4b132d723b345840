import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, boolean, durationMs, text, type Env } from './parse.js';

/** Settings of link analysis and media sources. Every variable is documented in docs/sources.md. */
export interface SourcesConfig {
  /** CUTROOM_ALLOW_PRIVATE_SOURCES: fetch links on loopback/private/link-local addresses. Default false. */
  allowPrivateSources: boolean;
  /** The yt-dlp executable: CUTROOM_YTDLP_PATH, else `yt-dlp` on PATH; null when absent or turned off. */
  ytdlpPath: string | null;
  ytdlpTimeoutMs: number;
  probeTimeoutMs: number;
  /** FFMPEG_PATH / FFPROBE_PATH overrides (checked to exist); read by src/adapters/media/binaries.ts. */
  ffmpegPath?: string;
  ffprobePath?: string;
}

const OFF = new Set(['off', 'none', 'false', 'disabled', '0']);

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function onPath(name: string, envPath: string): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

function ytdlp(env: Env): string | null {
  const raw = text(env, 'CUTROOM_YTDLP_PATH');
  if (raw === undefined) return onPath('yt-dlp', env.PATH ?? '');
  if (OFF.has(raw.toLowerCase())) return null;
  const found = raw.includes('/') || raw.includes(path.sep) ? (executable(path.resolve(raw)) ? path.resolve(raw) : null) : onPath(raw, env.PATH ?? '');
  if (!found) throw new ConfigError(`CUTROOM_YTDLP_PATH "${raw}" is not an executable file (use "off" to disable yt-dlp)`);
  return found;
}

function binaryOverride(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (!raw) return undefined;
  if (!fs.existsSync(raw) || !fs.statSync(raw).isFile()) throw new ConfigError(`${name} "${raw}" does not exist`);
  return path.resolve(raw);
}

/** Reads CUTROOM_ALLOW_PRIVATE_SOURCES, CUTROOM_YTDLP_*, CUTROOM_PROBE_TIMEOUT_MS, FFMPEG_PATH, FFPROBE_PATH (and PATH to find yt-dlp). */
export function loadSourcesConfig(env: Env): SourcesConfig {
  const cfg: SourcesConfig = {
    allowPrivateSources: boolean(env, 'CUTROOM_ALLOW_PRIVATE_SOURCES', false, { loose: true }),
    ytdlpPath: ytdlp(env),
    ytdlpTimeoutMs: durationMs(env, 'CUTROOM_YTDLP_TIMEOUT_MS', { fallback: 60_000, min: 1000 }),
    probeTimeoutMs: durationMs(env, 'CUTROOM_PROBE_TIMEOUT_MS', { fallback: 30_000, min: 1000 }),
  };
  const ffmpeg = binaryOverride(env, 'FFMPEG_PATH');
  if (ffmpeg) cfg.ffmpegPath = ffmpeg;
  const ffprobe = binaryOverride(env, 'FFPROBE_PATH');
  if (ffprobe) cfg.ffprobePath = ffprobe;
  return cfg;
}

import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './env.js';

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

export function parseBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === 'no' || v === 'off') return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function intMs(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

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

function ytdlp(env: NodeJS.ProcessEnv): string | null {
  const raw = env.CUTROOM_YTDLP_PATH?.trim();
  if (raw === undefined || raw === '') return onPath('yt-dlp', env.PATH ?? '');
  if (OFF.has(raw.toLowerCase())) return null;
  const found = raw.includes('/') || raw.includes(path.sep) ? (executable(path.resolve(raw)) ? path.resolve(raw) : null) : onPath(raw, env.PATH ?? '');
  if (!found) throw new ConfigError(`CUTROOM_YTDLP_PATH "${raw}" is not an executable file (use "off" to disable yt-dlp)`);
  return found;
}

function binaryOverride(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!fs.existsSync(raw) || !fs.statSync(raw).isFile()) throw new ConfigError(`${name} "${raw}" does not exist`);
  return path.resolve(raw);
}

export function loadSourcesConfig(env: NodeJS.ProcessEnv = process.env): SourcesConfig {
  const cfg: SourcesConfig = {
    allowPrivateSources: parseBoolean(env, 'CUTROOM_ALLOW_PRIVATE_SOURCES', false),
    ytdlpPath: ytdlp(env),
    ytdlpTimeoutMs: intMs(env, 'CUTROOM_YTDLP_TIMEOUT_MS', 60_000, 1000),
    probeTimeoutMs: intMs(env, 'CUTROOM_PROBE_TIMEOUT_MS', 30_000, 1000),
  };
  const ffmpeg = binaryOverride(env, 'FFMPEG_PATH');
  if (ffmpeg) cfg.ffmpegPath = ffmpeg;
  const ffprobe = binaryOverride(env, 'FFPROBE_PATH');
  if (ffprobe) cfg.ffprobePath = ffprobe;
  return cfg;
}

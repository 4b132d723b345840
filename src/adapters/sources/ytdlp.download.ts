import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import { ffprobePath } from '../media/binaries.js';
import { localMedia } from '../media/container.js';
import { FfmpegError, localInputArgs } from '../media/ffmpeg-run.js';
import {
  RETRY_SECONDS,
  sourceTooLarge,
  sourceUnavailable,
  sourceUnreadable,
  throwIfAborted,
  waiting,
  watchSize,
  type DownloadContext,
  type Fetched,
} from './download-support.js';
import { remuxToMp4 } from './mp4-remux.js';
import { mapYtDlpError } from './ytdlp.resolver.js';

/**
 * Platform links: `yt-dlp -f <best up to 1080p> --merge-output-format mp4 -o <work>/source.%(ext)s
 * --no-playlist --no-warnings -- <url>`, merging with our ffmpeg (`--ffmpeg-location`). yt-dlp's own
 * connections go to the platform's public hosts; the address rules of safeFetch do not apply to them.
 * A stream on air is skipped (`--match-filter !is_live`) instead of recorded: waiting SOURCE_LIVE_IN_PROGRESS.
 */

export const YTDLP_FORMAT = 'bv*[height<=1080]+ba/b[height<=1080]/b';
const OUTPUT_NAME = 'source';
const STDERR_KEEP = 64 * 1024;

export interface YtDlpDownloadOptions {
  binary: string;
  /** From the operator (cookies file, proxy, ...), placed before `--`. */
  extraArgs?: string[];
}

/** The yt-dlp command line of a download (pure; unit-tested). */
export function ytDlpDownloadArgs(
  url: string,
  o: { outputTemplate: string; ffmpegLocation: string; socketTimeoutSeconds?: number; maxBytes?: number; extraArgs?: string[] },
): string[] {
  const args = ['-f', YTDLP_FORMAT, '--merge-output-format', 'mp4', '-o', o.outputTemplate, '--no-playlist', '--no-warnings'];
  args.push('--newline', '--no-mtime', '--match-filter', '!is_live', '--ffmpeg-location', o.ffmpegLocation);
  args.push('--socket-timeout', String(o.socketTimeoutSeconds ?? 30));
  if (o.maxBytes !== undefined && Number.isFinite(o.maxBytes)) args.push('--max-filesize', String(Math.floor(o.maxBytes)));
  return [...args, ...(o.extraArgs ?? []), '--', url];
}

/** `[download]  42.3% of ...` → 0.423; null for other lines (pure). */
export function parseYtDlpProgress(line: string): number | null {
  const m = /^\[download\]\s+(\d+(?:\.\d+)?)%/.exec(line.trim());
  return m ? Math.min(1, Number(m[1]) / 100) : null;
}

/** yt-dlp's words for a stream that is on air right now (not a scheduled one, not an ended one). Pure. */
export function ytDlpSaysLive(text: string): boolean {
  if (/does not pass filter \(!is_live\)/i.test(text)) return true;
  const errors = text
    .split('\n')
    .filter((l) => /^ERROR:/.test(l.trim()))
    .join('\n');
  if (!errors || /\b(not|n't) (currently )?live\b|offline|will begin|premiere|upcoming|has ended|was live/i.test(errors)) return false;
  return /\bis (currently )?live\b|live event (is )?(in progress|has (already )?started)|currently (live|streaming)|stream is (in progress|ongoing)/i.test(
    errors,
  );
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  tooLarge: boolean;
  spawnError?: Error;
}

export async function downloadWithYtDlp(url: string, ctx: DownloadContext, o: YtDlpDownloadOptions): Promise<Fetched> {
  const dir = path.join(ctx.workDir, 'yt-dlp');
  fs.mkdirSync(dir, { recursive: true });
  const args = ytDlpDownloadArgs(url, {
    outputTemplate: path.join(dir, `${OUTPUT_NAME}.%(ext)s`),
    ffmpegLocation: toolsDir(ctx),
    socketTimeoutSeconds: Math.max(5, Math.round(ctx.fetchTimeoutMs / 1000)),
    maxBytes: ctx.maxBytes,
    extraArgs: o.extraArgs,
  });
  const run = await runYtDlp(o.binary, args, dir, ctx);
  throwIfAborted(ctx.signal);
  if (run.tooLarge) throw sourceTooLarge(ctx.maxBytes);
  if (run.spawnError || run.timedOut) {
    const err = new DomainError('PLATFORM_UNAVAILABLE');
    err.cause = run.spawnError ?? new Error(`yt-dlp timed out after ${ctx.downloadTimeoutMs} ms`);
    throw err;
  }
  const said = `${run.stdout}\n${run.stderr}`;
  if (ytDlpSaysLive(said)) return waiting('SOURCE_LIVE_IN_PROGRESS', RETRY_SECONDS.livePlatform);
  if (run.code !== 0) {
    const failure = mapYtDlpError(run.stderr, ctx.now());
    if (failure.kind === 'waiting') {
      const w = failure.waiting;
      if (w.reason === 'SOURCE_PREMIERE_SCHEDULED') {
        const wait = w.until ? (w.until.getTime() - ctx.now().getTime()) / 1000 + 30 : RETRY_SECONDS.premiereUnknown;
        return waiting(w.reason, Math.max(30, wait), w.until);
      }
      return waiting(w.reason, w.reason === 'SOURCE_LIVE_IN_PROGRESS' ? RETRY_SECONDS.livePlatform : RETRY_SECONDS.processing);
    }
    const detail = new Error(run.stderr.trim().slice(-2000));
    // At download time "no such video" (INVALID_URL at analysis) means the video went away.
    if (failure.error.code === 'INVALID_URL') throw sourceUnavailable('yt-dlp', detail);
    failure.error.cause = detail;
    throw failure.error;
  }
  if (/larger than max-filesize/i.test(said)) throw sourceTooLarge(ctx.maxBytes);
  const file = outputFile(dir);
  if (!file) throw sourceUnavailable('yt-dlp finished without writing a file', new Error(run.stdout.trim().slice(-2000)));
  if (path.extname(file).toLowerCase() === '.mp4') return { kind: 'file', path: file };
  return toMp4(file, ctx);
}

/**
 * A folder with `ffmpeg` and `ffprobe` links for `--ffmpeg-location`: yt-dlp looks for both in one
 * folder, and FFMPEG_PATH / FFPROBE_PATH may name two different folders.
 */
function toolsDir(ctx: DownloadContext): string {
  const bin = path.join(ctx.workDir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(ctx.ffmpegBinary, path.join(bin, 'ffmpeg'));
  try {
    fs.symlinkSync(ffprobePath(), path.join(bin, 'ffprobe'));
  } catch {
    // without ffprobe yt-dlp falls back to ffmpeg for what it needs
  }
  return bin;
}

/** The finished file: `source.<ext>`, not a `.part` or a `source.f137.mp4` format piece. */
function outputFile(dir: string): string | null {
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(`${OUTPUT_NAME}.`) && /^source\.[A-Za-z0-9]{2,5}$/.test(n) && !/\.(part|ytdl|temp|tmp)$/i.test(n))
    .sort((a, b) => Number(b.endsWith('.mp4')) - Number(a.endsWith('.mp4')));
  return names.length ? path.join(dir, names[0]) : null;
}

/** yt-dlp gave another container (a single WebM/FLV format): remux it to MP4 like an HLS source. */
async function toMp4(file: string, ctx: DownloadContext): Promise<Fetched> {
  const out = path.join(ctx.workDir, 'source.mp4');
  try {
    await remuxToMp4({ inputArgs: localInputArgs(localMedia(file)), maps: ['-map', '0:v:0?', '-map', '0:a:0?'] }, out, {
      ffmpegBinary: ctx.ffmpegBinary,
      signal: ctx.signal,
      timeoutMs: ctx.downloadTimeoutMs,
      maxBytes: ctx.maxBytes,
    });
  } catch (err) {
    throwIfAborted(ctx.signal);
    if (err instanceof FfmpegError && err.reason !== 'spawn') throw sourceUnreadable(`cannot turn ${path.basename(file)} into MP4: ${err.message}`);
    throw err;
  } finally {
    fs.rmSync(file, { force: true });
  }
  return { kind: 'file', path: out };
}

function runYtDlp(binary: string, args: string[], dir: string, ctx: DownloadContext): Promise<Run> {
  return new Promise((resolve) => {
    const run: Run = { code: null, stdout: '', stderr: '', timedOut: false, tooLarge: false };
    // Its own process group, so that a kill also reaches the ffmpeg it started.
    const child = spawn(binary, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    const killGroup = () => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      run.timedOut = true;
      killGroup();
    }, ctx.downloadTimeoutMs);
    // Pieces, the merged file and ffmpeg's temporary copy may coexist: allow twice the limit on disk.
    const stopWatch = watchSize(dir, ctx.maxBytes * 2 + 64 * 1024 * 1024, () => {
      run.tooLarge = true;
      killGroup();
    });
    const onAbort = () => killGroup();
    ctx.signal?.addEventListener('abort', onAbort, { once: true });

    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      run.stdout = (run.stdout + chunk).slice(-STDERR_KEEP);
      pending += chunk;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const f = parseYtDlpProgress(line);
        if (f !== null) ctx.progress(f);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      run.stderr = (run.stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('error', (err) => {
      run.spawnError = err;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      stopWatch();
      ctx.signal?.removeEventListener('abort', onAbort);
      run.code = code;
      resolve(run);
    });
  });
}

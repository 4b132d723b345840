import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SourcesConfig } from '../../config/sources.env.js';
import { DomainError } from '../../domain/errors.js';
import { isKnownPlatform } from '../../domain/videos/link-classifier.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import type { DownloadDest, DownloadInput, DownloadOptions, DownloadResult, SourceDownloader } from '../../ports/source-downloader.js';
import { ffmpegPath } from '../media/binaries.js';
import { FfprobeMediaProbe } from '../media/ffprobe.js';
import type { SafeFetchOptions } from '../net/safe-fetch.js';
import { contentTypeOfKey } from '../storage/storage-keys.js';
import { downloadDirect } from './direct.download.js';
import { sourceTooLarge, sourceUnreadable, throwIfAborted, type DownloadContext } from './download-support.js';
import { downloadWithYtDlp } from './ytdlp.download.js';

/**
 * The "downloading" stage's adapter (port: src/ports/source-downloader.ts; rules: docs/sources.md,
 * "Downloading"). Every download gets its own work folder (removed afterwards, also on failure);
 * the fetched file is checked with ffprobe there, then copied into storage with `putFile` and the
 * stored size verified. Nothing is written to storage unless the file is readable media within the limit
 * (`maxBytes`, required on every call: counted while the bytes arrive, the download stops as soon as it is
 * passed and the work folder, partial file included, is removed).
 *
 *   direct   → direct.download.ts (safeFetch to a file; HLS → hls.download.ts, segments fetched in Node, ffmpeg remuxes local files)
 *   platform → ytdlp.download.ts  (yt-dlp, merging with our ffmpeg)
 */

export interface SourceDownloaderOptions {
  /** CUTROOM_ALLOW_PRIVATE_SOURCES. */
  allowPrivate: boolean;
  /** yt-dlp executable for platform links; null or absent: platform links fail with PLATFORM_UNAVAILABLE. */
  ytdlpPath?: string | null;
  ytdlpExtraArgs?: string[];
  /** ffmpeg for HLS remuxing and yt-dlp merging. Default: binaries.ts (FFMPEG_PATH or ffmpeg on PATH). */
  ffmpegPath?: string;
  probe?: MediaProbe;
  /** ffprobe deadline on the downloaded file. Default 60 s. */
  probeTimeoutMs?: number;
  /** Parent of the per-download work folders. Default: the OS temp folder. */
  workDir?: string;
  /** safeFetch deadline for each hop's headers and each idle gap of a body. Default 30 s. */
  fetchTimeoutMs?: number;
  /** Deadline of one download (ffmpeg or yt-dlp run). Default 4 h. */
  downloadTimeoutMs?: number;
  /** Extra attempts after a transient failure. Default 3. */
  retries?: number;
  /** First backoff delay (doubles each attempt, at most 60 s). Default 2 s. */
  retryDelayMs?: number;
  /** Largest playlist read. Default 4 MiB. */
  maxPlaylistBytes?: number;
  now?: () => Date;
  /** Tests: DNS answers and loopback stand-ins for public hosts (see safeFetch). */
  resolve?: SafeFetchOptions['resolve'];
  treatAsPublic?: SafeFetchOptions['treatAsPublic'];
}

/** Share of the progress given to fetching; the rest is checking and storing. */
const FETCH_SHARE = 0.95;

export class MediaSourceDownloader implements SourceDownloader {
  private readonly probe: MediaProbe;

  constructor(private readonly opts: SourceDownloaderOptions) {
    this.probe = opts.probe ?? new FfprobeMediaProbe();
  }

  async download(input: DownloadInput, dest: DownloadDest, opts: DownloadOptions): Promise<DownloadResult> {
    throwIfAborted(opts.signal);
    // Every download is capped (the plan's upload maximum): no default, never unlimited.
    const maxBytes = opts.maxBytes;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError(`maxBytes must be a positive integer (got ${maxBytes})`);
    const report = monotonic(opts.onProgress);
    const parent = this.opts.workDir ?? os.tmpdir();
    // The service's work folder (<data dir>/tmp) is made at boot; made again here if it went missing.
    await fsp.mkdir(parent, { recursive: true });
    const work = await fsp.mkdtemp(path.join(parent, 'cutroom-dl-'));
    try {
      const ctx: DownloadContext = {
        allowPrivate: this.opts.allowPrivate,
        fetchTimeoutMs: this.opts.fetchTimeoutMs ?? 30_000,
        downloadTimeoutMs: this.opts.downloadTimeoutMs ?? 4 * 3600_000,
        retries: this.opts.retries ?? 3,
        retryDelayMs: this.opts.retryDelayMs ?? 2000,
        maxPlaylistBytes: this.opts.maxPlaylistBytes ?? 4 * 1024 * 1024,
        maxBytes,
        workDir: work,
        ffmpegBinary: this.opts.ffmpegPath ?? ffmpegPath(),
        signal: opts.signal,
        progress: (f) => report(f * FETCH_SHARE),
        now: this.opts.now ?? (() => new Date()),
        resolve: this.opts.resolve,
        treatAsPublic: this.opts.treatAsPublic,
      };
      const fetched = await this.fetch(input, ctx);
      if (fetched.kind === 'waiting') return fetched;
      const result = await this.store(fetched.path, dest, ctx);
      report(1);
      return result;
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
  }

  private fetch(input: DownloadInput, ctx: DownloadContext) {
    if (input.platform === 'direct') return downloadDirect(input.mediaUrl, ctx);
    if (!this.opts.ytdlpPath || !isKnownPlatform(input.platform)) {
      const err = new DomainError('PLATFORM_UNAVAILABLE');
      err.cause = new Error(this.opts.ytdlpPath ? `unknown platform ${input.platform}` : 'yt-dlp is not configured');
      return Promise.reject(err);
    }
    return downloadWithYtDlp(input.mediaUrl, ctx, { binary: this.opts.ytdlpPath, extraArgs: this.opts.ytdlpExtraArgs });
  }

  /**
   * Probes the work file (the bytes about to be stored), stores it, and checks that storage holds the
   * same number of bytes. Probing before storing keeps unreadable bytes out of storage, and avoids
   * reading a large object back from S3 just to probe it again.
   */
  private async store(file: string, dest: DownloadDest, ctx: DownloadContext): Promise<DownloadResult> {
    const size = (await fsp.stat(file)).size;
    if (size > ctx.maxBytes) throw sourceTooLarge(ctx.maxBytes);
    if (size === 0) throw sourceUnreadable('the source is empty');
    let info: MediaInfo;
    try {
      info = await this.probe.probe(file, { timeoutMs: this.opts.probeTimeoutMs ?? 60_000, signal: ctx.signal });
    } catch (err) {
      throwIfAborted(ctx.signal);
      throw sourceUnreadable(`ffprobe could not read the download: ${(err as Error).message}`);
    }
    if (!info.hasVideo && !info.hasAudio) throw sourceUnreadable('the download has no audio or video stream');
    throwIfAborted(ctx.signal);

    await dest.storage.putFile(dest.key, file, contentTypeOfKey(dest.key));
    try {
      const stored = await dest.storage.head(dest.key);
      if (!stored || stored.size !== size) throw new Error(`storage holds ${stored?.size ?? 'nothing'} bytes at ${dest.key}, expected ${size}`);
      throwIfAborted(ctx.signal);
    } catch (err) {
      await dest.storage.delete(dest.key).catch(() => {});
      throw err;
    }
    return { kind: 'ready', key: dest.key, info: { ...info, sizeBytes: size }, sizeBytes: size };
  }
}

/** Calls `fn` only with values above the last one, clamped to 0..1. */
function monotonic(fn: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let last = -1;
  return (fraction) => {
    const f = Math.min(1, Math.max(0, fraction));
    if (!fn || !(f > last)) return;
    last = f;
    try {
      fn(f);
    } catch {
      // a progress listener must not break the download
    }
  };
}

export interface SourceDownloaderDeps extends Partial<Omit<SourceDownloaderOptions, 'workDir'>> {
  /** From loadSourcesConfig(): allowPrivateSources, ytdlpPath, ffmpegPath, probeTimeoutMs. */
  sources: SourcesConfig;
  /** Parent of the per-download work folders (`workDir`). Default: the OS temp folder. */
  tmpDir?: string;
}

/** The downloader configured from the environment; the other fields override single settings. */
export function createSourceDownloader(deps: SourceDownloaderDeps): SourceDownloader {
  const { sources, tmpDir, ...overrides } = deps;
  return new MediaSourceDownloader({
    allowPrivate: sources.allowPrivateSources,
    ytdlpPath: sources.ytdlpPath,
    probeTimeoutMs: Math.max(60_000, sources.probeTimeoutMs),
    ...(sources.ffmpegPath ? { ffmpegPath: sources.ffmpegPath } : {}),
    ...(tmpDir ? { workDir: tmpDir } : {}),
    ...overrides,
  });
}

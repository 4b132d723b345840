import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import type { LivePlaylist, LiveRecorder, LiveSegment, StoredChunk } from '../../ports/channel-watcher.js';
import type { MediaProbe } from '../../ports/media.js';
import type { Storage } from '../../ports/storage.js';
import { localMedia } from '../media/container.js';
import { localInputArgs } from '../media/ffmpeg-run.js';
import { readCapped } from '../net/read-body.js';
import type { SafeFetchOptions } from '../net/safe-fetch.js';
import { fetchAttempt, sourceTooLarge, sourceUnreadable, withRetries, type DownloadContext } from '../sources/download-support.js';
import { assembleSegments } from '../sources/hls-fetch.js';
import { downloadIo } from '../sources/hls.download.js';
import { audioPlaylistOf, HlsParseError, parseHlsPlaylist, parseHlsSegments, pickVariant, type HlsSegment } from '../sources/hls-playlist.js';
import { remuxToMp4 } from '../sources/mp4-remux.js';

export interface HlsLiveRecorderOptions {
  storage: Storage;
  probe: MediaProbe;
  ffmpegBinary: string;
  /** CUTROOM_ALLOW_PRIVATE_SOURCES. */
  allowPrivate: boolean;
  /** Work folders (segments joined, the batch's MP4); default the OS temp folder. */
  tmpDir?: string;
  /** Bytes one chunk or one batch's joined chunks may take (CUTROOM_LIVE_BATCH_MAX_BYTES); default 4 GiB. */
  maxBytes?: number;
  fetchTimeoutMs?: number;
  resolve?: SafeFetchOptions['resolve'];
  treatAsPublic?: SafeFetchOptions['treatAsPublic'];
}

const MAX_PLAYLIST_BYTES = 4 * 1024 * 1024;

/**
 * Live HLS recording in Node (docs/monitors.md, docs/security.md): the playlist and every segment, init
 * section and AES-128 key are fetched with the safe fetcher (the downloader's HLS code: address rules on
 * every hop, retries, byte caps); the segments of one poll are stored as one chunk; a batch's chunks are
 * joined as local files and remuxed by ffmpeg with the demuxer named and only the `file` protocol
 * (`-c copy`). ffmpeg never gets the caller's address. Each chunk is measured (ffprobe) before it is
 * stored: batches are billed and cut by what the media holds, not by what the playlist declares.
 * Segments must be MPEG-TS (chunks are joined byte for byte); an fMP4 live stream or one with a separate
 * audio rendition is refused (SOURCE_UNREADABLE).
 */
export class HlsLiveRecorder implements LiveRecorder {
  constructor(private readonly o: HlsLiveRecorderOptions) {}

  /** The cap of one chunk and of one batch's joined bytes. */
  private get maxBytes(): number {
    return this.o.maxBytes ?? 4 * 1024 ** 3;
  }

  private context(workDir: string, signal?: AbortSignal, maxBytes = this.maxBytes): DownloadContext {
    return {
      allowPrivate: this.o.allowPrivate,
      fetchTimeoutMs: this.o.fetchTimeoutMs ?? 15_000,
      downloadTimeoutMs: 10 * 60_000,
      retries: 2,
      retryDelayMs: 500,
      maxPlaylistBytes: MAX_PLAYLIST_BYTES,
      maxBytes,
      workDir,
      ffmpegBinary: this.o.ffmpegBinary,
      signal,
      progress() {},
      now: () => new Date(),
      resolve: this.o.resolve,
      treatAsPublic: this.o.treatAsPublic,
    };
  }

  private async withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    const base = this.o.tmpDir ?? os.tmpdir();
    fs.mkdirSync(base, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(base, 'cutroom-live-'));
    try {
      return await fn(dir);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  private async fetchText(url: string, ctx: DownloadContext): Promise<{ url: string; text: string }> {
    return withRetries(ctx, url, async () => {
      const a = await fetchAttempt(url, ctx, { maxBytes: MAX_PLAYLIST_BYTES });
      if (a.kind === 'waiting') return { kind: 'retry' as const, error: new Error(`${url}: ${a.reason}`) };
      if (a.kind !== 'response') return a;
      try {
        const body = await readCapped(a.res, MAX_PLAYLIST_BYTES, () => sourceUnreadable(`${url}: playlist larger than ${MAX_PLAYLIST_BYTES} bytes`));
        return { url: a.res.url, text: body.toString('utf8') };
      } catch (err) {
        a.res.discard();
        if (err instanceof DomainError) throw err;
        return { kind: 'retry' as const, error: err as Error };
      }
    });
  }

  async readPlaylist(url: string, opts: { signal?: AbortSignal } = {}): Promise<LivePlaylist> {
    const ctx = this.context(os.tmpdir(), opts.signal);
    let got = await this.fetchText(url, ctx);
    let top = parse(got.text, got.url);
    if (top.kind === 'master') {
      const variant = pickVariant(top.variants);
      if (audioPlaylistOf(top, variant)) throw sourceUnreadable(`${url}: live streams with a separate audio rendition are not recorded`);
      got = await this.fetchText(variant.uri, ctx);
      top = parse(got.text, got.url);
      if (top.kind !== 'media') throw sourceUnreadable(`${got.url}: master playlist points at another master playlist`);
    }
    let segments: HlsSegment[];
    try {
      segments = parseHlsSegments(got.text, got.url);
    } catch (err) {
      if (err instanceof HlsParseError) throw sourceUnreadable(`${got.url}: ${err.message}`);
      throw err;
    }
    const target = /#EXT-X-TARGETDURATION:\s*(\d+(?:\.\d+)?)/.exec(got.text);
    return {
      ended: top.ended,
      targetDuration: target ? Number(target[1]) : Math.max(1, ...segments.map((s) => s.duration)),
      segments: segments.map((s) => ({ sequence: s.sequence, duration: s.duration, source: s })),
    };
  }

  /**
   * The segments fetched into one local file (at most `maxBytes`: the fetch stops there with
   * SOURCE_TOO_LARGE, nothing stored), measured with ffprobe, then stored. The seconds answered are the
   * media's own: the poller bills and cuts batches by them, never by the playlist's `#EXTINF`.
   */
  async storeChunk(segments: readonly LiveSegment[], key: string, opts: { signal?: AbortSignal; maxBytes?: number } = {}): Promise<StoredChunk> {
    return this.withWorkDir(async (dir) => {
      const max = Math.max(0, Math.min(this.maxBytes, opts.maxBytes ?? this.maxBytes));
      const ctx = this.context(dir, opts.signal, max);
      const budget = { used: 0, max, tooLarge: () => sourceTooLarge(max) };
      const file = path.join(dir, 'chunk.ts');
      const media = await assembleSegments(
        segments.map((s) => s.source as HlsSegment),
        file,
        downloadIo(ctx),
        { budget },
      );
      if (media.format !== 'mpegts') throw sourceUnreadable(`live segments are ${media.format}; only MPEG-TS live streams are recorded`);
      const bytes = fs.statSync(file).size;
      if (bytes > max) throw sourceTooLarge(max);
      let seconds: number;
      try {
        seconds = (await this.o.probe.probe(file, { signal: opts.signal })).duration;
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw sourceUnreadable(`live chunk not measurable: ${(err as Error).message}`);
      }
      await this.o.storage.putFile(key, file, 'video/mp2t');
      return { bytes, seconds };
    });
  }

  async cutBatch(chunkKeys: readonly string[], key: string): Promise<{ duration: number; width: number; height: number; hasAudio: boolean }> {
    return this.withWorkDir(async (dir) => {
      const joined = path.join(dir, 'batch.ts');
      // MPEG-TS chunks joined byte for byte, in order; never more than the cap of a batch.
      const out = await fsp.open(joined, 'w');
      let written = 0;
      try {
        for (const k of chunkKeys) {
          for await (const buf of await this.o.storage.read(k)) {
            written += (buf as Buffer).length;
            if (written > this.maxBytes) throw sourceTooLarge(this.maxBytes);
            await out.write(buf as Buffer);
          }
        }
      } finally {
        await out.close();
      }
      // The joined bytes are sniffed again: only the container they are is ever opened.
      const media = localMedia(joined);
      const mp4 = path.join(dir, 'batch.mp4');
      await remuxToMp4({ inputArgs: localInputArgs(media), maps: ['-map', '0:v:0?', '-map', '0:a:0?'] }, mp4, {
        ffmpegBinary: this.o.ffmpegBinary,
        timeoutMs: 10 * 60_000,
        maxBytes: this.maxBytes,
      });
      const info = await this.o.probe.probe(mp4);
      await this.o.storage.putFile(key, mp4, 'video/mp4');
      return { duration: info.duration, width: info.width, height: info.height, hasAudio: info.hasAudio };
    });
  }
}

function parse(text: string, url: string) {
  try {
    return parseHlsPlaylist(text, url);
  } catch (err) {
    if (err instanceof HlsParseError) throw sourceUnreadable(`${url}: ${err.message}`);
    throw err;
  }
}

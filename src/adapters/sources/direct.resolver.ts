import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import type { ResolveOptions, ResolveTarget, SourceMetadata, SourceResolver } from '../../ports/source-resolver.js';
import { FfprobeMediaProbe } from '../media/ffprobe.js';
import { SNIFF_BYTES, sniffContainer } from '../media/container.js';
import { isPlaylistHead } from '../net/m3u8-syntax.js';
import { readHead } from '../net/read-body.js';
import { refused, safeFetch, type SafeFetchOptions, type SafeResponse } from '../net/safe-fetch.js';
import { withSafeRelay } from '../net/safe-relay.js';
import { analyzeHls } from './hls.analysis.js';

export interface DirectResolverOptions {
  /** CUTROOM_ALLOW_PRIVATE_SOURCES. */
  allowPrivate: boolean;
  probe?: MediaProbe;
  /** Per-request deadline of the HTTP checks. Default 15 s. */
  fetchTimeoutMs?: number;
  /** ffprobe deadline. Default 30 s. */
  probeTimeoutMs?: number;
  /** Largest playlist read. Default 4 MiB. */
  maxPlaylistBytes?: number;
  /** Tests inject DNS answers and stand-ins for public hosts through safeFetch's `resolve` and `treatAsPublic`. */
  resolve?: SafeFetchOptions['resolve'];
  treatAsPublic?: SafeFetchOptions['treatAsPublic'];
}

/**
 * A link to a media file or an HLS playlist on any host. The link is fetched with safeFetch first
 * (address rules, redirects checked hop by hop) and its first bytes decide what it is: a body that
 * starts as an HLS playlist (`#EXTM3U`) is read in Node (hls.analysis.ts: live or VOD, the first
 * segment probed as a local file); any other body must be a container the service reads
 * (container.ts), and ffprobe reads it through the safe relay with that demuxer named.
 */
export class DirectSourceResolver implements SourceResolver {
  readonly name = 'direct';
  private readonly probe: MediaProbe;

  constructor(private readonly opts: DirectResolverOptions) {
    this.probe = opts.probe ?? new FfprobeMediaProbe();
  }

  supports(platform: string): boolean {
    return platform === 'direct';
  }

  private fetch(url: string, extra: Partial<SafeFetchOptions> = {}, signal?: AbortSignal): Promise<SafeResponse> {
    return safeFetch(url, {
      allowPrivate: this.opts.allowPrivate,
      timeoutMs: this.opts.fetchTimeoutMs ?? 15_000,
      maxRedirects: 5,
      resolve: this.opts.resolve,
      treatAsPublic: this.opts.treatAsPublic,
      signal,
      ...extra,
    });
  }

  async resolve(target: ResolveTarget, opts: ResolveOptions = {}): Promise<SourceMetadata> {
    const res = await this.fetch(target.url, {}, opts.signal);
    try {
      checkStatus(res);
      // The body decides what the link is, never its content type or path.
      let peek: { head: Buffer; complete: boolean };
      try {
        peek = await readHead(res.body, SNIFF_BYTES);
      } catch (err) {
        if (err instanceof DomainError) throw err;
        throw refused(`${res.url}: body interrupted: ${(err as Error).message}`, 'unreachable');
      }
      if (isPlaylistHead(peek.head, peek.complete)) return await this.resolveHls(target, res, peek.head, opts);
      const contentType = String(res.headers['content-type'] ?? '');
      if (/^text\/(html|plain|xml)|^application\/(json|xml|xhtml)/i.test(contentType)) {
        throw refused(`${res.url} answered ${contentType}, not media`, 'not_media');
      }
      const format = sniffContainer(peek.head);
      if (!format) throw refused(`${res.url} is not a media container the service reads`, 'not_media');
      const sizeBytes = totalSize(res);
      res.discard();
      const info = await this.probeUrl(res.url, format, opts);
      return this.metadata(target, res, info, { sizeBytes });
    } finally {
      res.discard();
    }
  }

  /** HLS: playlists and the first segment are read in Node (hls.analysis.ts); ffprobe gets a local file. */
  private async resolveHls(target: ResolveTarget, first: SafeResponse, head: Buffer, opts: ResolveOptions): Promise<SourceMetadata> {
    const hls = await analyzeHls(first, head, {
      fetch: (url, extra) => this.fetch(url, extra, opts.signal),
      checkStatus,
      probe: this.probe,
      probeTimeoutMs: this.opts.probeTimeoutMs ?? 30_000,
      maxPlaylistBytes: this.opts.maxPlaylistBytes ?? 4 * 1024 * 1024,
      addressRules: { allowPrivate: this.opts.allowPrivate, resolve: this.opts.resolve, treatAsPublic: this.opts.treatAsPublic },
      signal: opts.signal,
    });
    const meta: SourceMetadata = {
      title: hls.info?.title ?? fileTitle(target.url, first),
      author: hls.info?.artist ?? hostAuthor(target.url),
      platform: 'direct',
      duration: hls.duration,
      width: hls.info?.width ?? 0,
      height: hls.info?.height ?? 0,
      hasVideo: hls.info?.hasVideo ?? true,
      hasAudio: hls.separateAudio ?? hls.info?.hasAudio ?? true,
      isLive: hls.isLive,
      mediaUrl: hls.mediaUrl,
    };
    // No sizeBytes: the playlist's own size says nothing about the video.
    return meta;
  }

  /**
   * ffprobe reads a direct file through a safe relay, with the demuxer sniffed from the first bytes
   * named (`-f`): it never resolves or connects to the source itself, and never opens a playlist.
   */
  private async probeUrl(url: string, format: string, opts: ResolveOptions): Promise<MediaInfo> {
    const relayOpts = {
      allowPrivate: this.opts.allowPrivate,
      timeoutMs: this.opts.fetchTimeoutMs ?? 15_000,
      resolve: this.opts.resolve,
      treatAsPublic: this.opts.treatAsPublic,
      maxPlaylistBytes: this.opts.maxPlaylistBytes,
    };
    return withSafeRelay(relayOpts, async (relay) => {
      try {
        return await this.probe.probe(relay.url(url), { timeoutMs: this.opts.probeTimeoutMs ?? 30_000, format, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const why = relay.failures.at(-1)?.message ?? (err as Error).message;
        throw refused(`ffprobe could not read ${url}: ${why}`, 'not_media');
      }
    });
  }

  private metadata(target: ResolveTarget, res: SafeResponse, info: MediaInfo, extra: { sizeBytes?: number }): SourceMetadata {
    const meta: SourceMetadata = {
      title: info.title ?? fileTitle(target.url, res),
      author: info.artist ?? hostAuthor(target.url),
      platform: 'direct',
      duration: info.duration,
      width: info.width,
      height: info.height,
      hasVideo: info.hasVideo,
      hasAudio: info.hasAudio,
      isLive: false,
      mediaUrl: res.url,
    };
    const size = extra.sizeBytes ?? info.sizeBytes;
    if (size !== undefined && size > 0) meta.sizeBytes = size;
    return meta;
  }
}

function checkStatus(res: SafeResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  if (res.status === 401 || res.status === 403) throw new DomainError('PRIVATE_VIDEO');
  if (res.status === 451) throw new DomainError('REGION_BLOCKED');
  throw refused(`${res.url} answered HTTP ${res.status}`, 'http_status', { status: res.status });
}

function totalSize(res: SafeResponse): number | undefined {
  const range = /\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''));
  if (range) return Number(range[1]);
  const n = Number(res.headers['content-length']);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** `filename` of Content-Disposition, else the link's file name, without extension; else the host. */
export function fileTitle(link: string, res?: Pick<SafeResponse, 'headers'>): string {
  const cd = String(res?.headers['content-disposition'] ?? '');
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(cd);
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(cd);
  let name = '';
  try {
    if (star) name = decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    else if (plain) name = plain[1].trim();
  } catch {
    name = '';
  }
  if (!name) {
    const url = new URL(link);
    const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
    try {
      name = decodeURIComponent(last);
    } catch {
      name = last;
    }
  }
  name = path
    .basename(name)
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .trim();
  return name || hostAuthor(link);
}

/** The link's host without `www.`. */
export function hostAuthor(link: string): string {
  return new URL(link).hostname.replace(/^www\./i, '').replace(/^\[|\]$/g, '');
}

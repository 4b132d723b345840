import path from 'node:path';
import { DomainError } from '../../domain/errors.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import type { ResolveOptions, ResolveTarget, SourceMetadata, SourceResolver } from '../../ports/source-resolver.js';
import { FfprobeMediaProbe } from '../media/ffprobe.js';
import { checkedUrl, refused, resolveAllowed, safeFetch, type SafeFetchOptions, type SafeResponse } from '../net/safe-fetch.js';
import { withSafeRelay } from '../net/safe-relay.js';
import { HlsParseError, isHlsContentType, parseHlsPlaylist, pickVariant, type HlsPlaylist } from './hls-playlist.js';

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
 * (address rules, redirects checked hop by hop), then the final URL is probed with ffprobe. HLS:
 * the playlist is read to tell live from VOD (no `#EXT-X-ENDLIST` = live), a master playlist is
 * followed to its highest-bandwidth variant, and every host the media playlist points at is checked.
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
      const contentType = String(res.headers['content-type'] ?? '');
      const finalPath = new URL(res.url).pathname.toLowerCase();
      if (isHlsContentType(contentType) || finalPath.endsWith('.m3u8')) {
        return await this.resolveHls(target, res, opts);
      }
      if (/^text\/(html|plain|xml)|^application\/(json|xml|xhtml)/i.test(contentType)) {
        throw refused(`${res.url} answered ${contentType}, not media`);
      }
      const sizeBytes = totalSize(res);
      res.discard();
      const info = await this.probeUrl(res.url, opts);
      return this.metadata(target, res, info, { sizeBytes });
    } finally {
      res.discard();
    }
  }

  private async resolveHls(target: ResolveTarget, first: SafeResponse, opts: ResolveOptions): Promise<SourceMetadata> {
    const maxBytes = this.opts.maxPlaylistBytes ?? 4 * 1024 * 1024;
    let playlistUrl = first.url;
    let playlist = parsePlaylist(await readCapped(first, maxBytes), playlistUrl);
    if (playlist.kind === 'master') {
      const variant = pickVariant(playlist.variants);
      const res = await this.fetch(variant.uri, { maxBytes }, opts.signal);
      try {
        checkStatus(res);
        playlistUrl = res.url;
        playlist = parsePlaylist(await res.text(), playlistUrl);
      } finally {
        res.discard();
      }
      if (playlist.kind === 'master') throw refused('master playlist points at another master playlist');
    }
    if (!playlist.ended) {
      // Still on air: nothing to probe; analysis answers LIVE_STREAM.
      return {
        title: fileTitle(target.url, first),
        author: hostAuthor(target.url),
        platform: 'direct',
        duration: playlist.duration,
        width: 0,
        height: 0,
        hasVideo: true,
        hasAudio: true,
        isLive: true,
        mediaUrl: playlistUrl,
      };
    }
    // ffprobe connects to the segments by itself: every host they live on must pass the address rules.
    const origins = new Map<string, URL>();
    for (const uri of playlist.uris) {
      const u = checkedUrl(uri);
      origins.set(u.origin, u);
    }
    for (const u of origins.values()) {
      await resolveAllowed(u, { allowPrivate: this.opts.allowPrivate, resolve: this.opts.resolve, treatAsPublic: this.opts.treatAsPublic });
    }

    const info = await this.probeUrl(playlistUrl, opts);
    if (!(info.duration > 0)) info.duration = playlist.duration;
    const meta = { ...this.metadata(target, first, info, {}), mediaUrl: playlistUrl };
    delete meta.sizeBytes; // the playlist's own size says nothing about the video
    return meta;
  }

  /** ffprobe reads the URL through a safe relay: it never resolves or connects to the source itself. */
  private async probeUrl(url: string, opts: ResolveOptions): Promise<MediaInfo> {
    const relayOpts = {
      allowPrivate: this.opts.allowPrivate,
      timeoutMs: this.opts.fetchTimeoutMs ?? 15_000,
      resolve: this.opts.resolve,
      treatAsPublic: this.opts.treatAsPublic,
      maxPlaylistBytes: this.opts.maxPlaylistBytes,
    };
    return withSafeRelay(relayOpts, async (relay) => {
      try {
        return await this.probe.probe(relay.url(url), { timeoutMs: this.opts.probeTimeoutMs ?? 30_000, signal: opts.signal });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const why = relay.failures.at(-1)?.message ?? (err as Error).message;
        throw refused(`ffprobe could not read ${url}: ${why}`);
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
  throw refused(`${res.url} answered HTTP ${res.status}`);
}

function parsePlaylist(text: string, url: string): HlsPlaylist {
  try {
    return parseHlsPlaylist(text, url);
  } catch (err) {
    if (err instanceof HlsParseError) throw refused(`${url}: ${err.message}`);
    throw err;
  }
}

async function readCapped(res: SafeResponse, maxBytes: number): Promise<string> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw refused(`playlist larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) throw refused(`playlist larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
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
  name = path.basename(name).replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  return name || hostAuthor(link);
}

/** The link's host without `www.`. */
export function hostAuthor(link: string): string {
  return new URL(link).hostname.replace(/^www\./i, '').replace(/^\[|\]$/g, '');
}

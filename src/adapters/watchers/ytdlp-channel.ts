import { execFile } from 'node:child_process';
import { DomainError } from '../../domain/errors.js';
import type { ChannelEntry, ChannelRef, ChannelWatcher, LiveStatus } from '../../ports/channel-watcher.js';

export interface YtDlpChannelOptions {
  /** The yt-dlp executable (CUTROOM_YTDLP_PATH); null: YouTube and Twitch playlists unavailable. */
  binary: string | null;
  timeoutMs: number;
}

type Json = Record<string, unknown>;

/** Lines yt-dlp prints for a channel that is not on air now. */
const NOT_LIVE = /not currently live|is not live|no live stream|will begin|premieres in|is offline|does not have a live stream|live event will begin/i;

/** yt-dlp's words for a channel that does not exist (any more). */
const GONE = /does not exist|this channel is not available|account has been terminated|HTTP Error 404/i;

/** Runs `yt-dlp -J … -- url` and answers its JSON; `ERROR:` lines become `YtDlpError` (SOURCE_GONE for a channel that does not exist). */
export function runYtDlpJson(o: YtDlpChannelOptions, args: string[], url: string, signal?: AbortSignal): Promise<Json> {
  if (!o.binary) return Promise.reject(new DomainError('PLATFORM_UNAVAILABLE'));
  const binary = o.binary;
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ['-J', '--no-warnings', '--no-progress', ...args, '--', url],
      { timeout: o.timeoutMs, maxBuffer: 64 * 1024 * 1024, signal, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        if (err) {
          const line =
            String(stderr)
              .split('\n')
              .find((l) => l.startsWith('ERROR:')) ??
            String(stderr).trim().split('\n').pop() ??
            err.message;
          reject(GONE.test(line) ? new DomainError('SOURCE_GONE') : new YtDlpError(line));
          return;
        }
        try {
          resolve(JSON.parse(String(stdout)) as Json);
        } catch {
          reject(new YtDlpError('yt-dlp printed no JSON'));
        }
      },
    );
  });
}

export class YtDlpError extends Error {
  override name = 'YtDlpError';
  readonly code = 'PLATFORM_UNAVAILABLE';
  readonly retryable = true;
}

/** The HLS playlist of a stream on air from yt-dlp's JSON: an m3u8 format's `manifest_url` (or its `url`). */
export function hlsManifestOf(json: Json): string | undefined {
  const formats = (Array.isArray(json.formats) ? json.formats : []) as Json[];
  const hls = [json, ...formats].filter((f) => typeof f.protocol === 'string' && (f.protocol as string).startsWith('m3u8'));
  for (const f of hls.reverse()) {
    const u = typeof f.manifest_url === 'string' ? f.manifest_url : typeof f.url === 'string' ? f.url : undefined;
    if (u && /^https?:\/\//i.test(u)) return u;
  }
  return undefined;
}

/** Whether the channel's live page is on air, per yt-dlp (`live_status`), and its HLS playlist. */
export async function liveThroughYtDlp(o: YtDlpChannelOptions, pageUrl: string, signal?: AbortSignal): Promise<LiveStatus> {
  let json: Json;
  try {
    json = await runYtDlpJson(o, ['--no-playlist'], pageUrl, signal);
  } catch (err) {
    if (err instanceof YtDlpError && NOT_LIVE.test(err.message)) return { live: false };
    throw err;
  }
  if (json.live_status !== 'is_live' && json.is_live !== true) return { live: false };
  const playlistUrl = hlsManifestOf(json);
  if (!playlistUrl) throw new YtDlpError(`yt-dlp found no HLS format for ${pageUrl}`);
  const id = typeof json.id === 'string' ? json.id : pageUrl;
  const title = typeof json.title === 'string' ? json.title : id;
  return { live: true, id, title: title.slice(0, 200), playlistUrl };
}

/**
 * `youtube`: a channel through yt-dlp: its `/videos` tab (flat, the 15 newest) for uploads, its `/live`
 * page's `live_status` for broadcasts, the stream's HLS playlist then recorded in Node.
 */
export class YouTubeWatcher implements ChannelWatcher {
  readonly platform = 'youtube' as const;
  constructor(private readonly o: YtDlpChannelOptions) {}

  async uploads(ref: ChannelRef, opts: { signal?: AbortSignal } = {}): Promise<ChannelEntry[]> {
    const json = await runYtDlpJson(this.o, ['--flat-playlist', '--playlist-end', '15'], `${ref.watchUrl}/videos`, opts.signal);
    const entries = (Array.isArray(json.entries) ? json.entries : []) as Json[];
    return entries.flatMap((e) => {
      const id = typeof e.id === 'string' && /^[A-Za-z0-9_-]{11}$/.test(e.id) ? e.id : undefined;
      if (!id) return [];
      return [{ id: `yt:video:${id}`, url: `https://www.youtube.com/watch?v=${id}`, title: typeof e.title === 'string' ? e.title.slice(0, 500) : '' }];
    });
  }

  live(ref: ChannelRef, opts: { signal?: AbortSignal } = {}): Promise<LiveStatus> {
    return liveThroughYtDlp(this.o, `${ref.watchUrl}/live`, opts.signal);
  }
}

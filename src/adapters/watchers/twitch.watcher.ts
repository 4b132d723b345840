import { DomainError } from '../../domain/errors.js';
import { invalidUrl } from '../../domain/videos/url-refusals.js';
import type { ChannelEntry, ChannelRef, ChannelWatcher, LiveStatus } from '../../ports/channel-watcher.js';
import { liveThroughYtDlp, type YtDlpChannelOptions } from './ytdlp-channel.js';

export interface TwitchOptions {
  clientId: string;
  clientSecret: string;
  /** Helix base URL (CUTROOM_TWITCH_API_URL), e.g. https://api.twitch.tv/helix. */
  apiUrl: string;
  /** Token endpoint (CUTROOM_TWITCH_AUTH_URL), e.g. https://id.twitch.tv/oauth2/token. */
  authUrl: string;
  timeoutMs?: number;
  /** yt-dlp resolves a stream on air to its HLS playlist (Helix does not give one). */
  ytdlp: YtDlpChannelOptions;
  fetch?: typeof fetch;
}

type Json = Record<string, unknown>;

class TwitchError extends Error {
  override name = 'TwitchError';
  readonly code = 'PLATFORM_UNAVAILABLE';
  readonly retryable = true;
}

/**
 * `twitch`: a channel through Twitch's Helix API with an app access token (OAuth client credentials,
 * configured by the operator; renewed before it expires and after a 401): `GET /users?login=` for the
 * channel's id, `GET /streams?user_login=` for a broadcast on air, `GET /videos?user_id=&type=archive`
 * for past broadcasts as uploads. The stream's HLS playlist comes from yt-dlp and is recorded in Node.
 */
export class TwitchWatcher implements ChannelWatcher {
  readonly platform = 'twitch' as const;
  private token: { value: string; until: number } | undefined;
  private readonly userIds = new Map<string, string>();

  constructor(private readonly o: TwitchOptions) {}

  private get fetchFn(): typeof fetch {
    return this.o.fetch ?? fetch;
  }

  private async appToken(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const body = new URLSearchParams({ client_id: this.o.clientId, client_secret: this.o.clientSecret, grant_type: 'client_credentials' });
    const res = await this.fetchFn(this.o.authUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
    });
    if (!res.ok) throw new TwitchError(`Twitch token endpoint answered HTTP ${res.status}`);
    const json = (await res.json()) as Json;
    if (typeof json.access_token !== 'string') throw new TwitchError('Twitch token endpoint answered no access_token');
    const ttl = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    this.token = { value: json.access_token, until: Date.now() + Math.max(0, ttl - 60) * 1000 };
    return json.access_token;
  }

  private async helix(path: string, query: Record<string, string>): Promise<Json[]> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.appToken();
      const url = `${this.o.apiUrl}${path}?${new URLSearchParams(query)}`;
      const res = await this.fetchFn(url, {
        headers: { authorization: `Bearer ${token}`, 'client-id': this.o.clientId },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
      if (res.status === 401 && attempt === 0) {
        this.token = undefined; // revoked or expired early: a new one, once
        continue;
      }
      if (!res.ok) throw new TwitchError(`Helix ${path} answered HTTP ${res.status}`);
      const json = (await res.json()) as Json;
      return (Array.isArray(json.data) ? json.data : []) as Json[];
    }
    throw new TwitchError(`Helix ${path}: unauthorised`);
  }

  private loginOf(ref: ChannelRef): string {
    const login = new URL(ref.watchUrl).pathname.split('/').filter(Boolean)[0];
    if (!login) throw invalidUrl('unsupported_link');
    return login;
  }

  private async userId(login: string): Promise<string> {
    const hit = this.userIds.get(login);
    if (hit) return hit;
    const [user] = await this.helix('/users', { login });
    if (!user || typeof user.id !== 'string') throw new DomainError('SOURCE_GONE'); // no such channel (any more)
    this.userIds.set(login, user.id);
    return user.id;
  }

  async uploads(ref: ChannelRef): Promise<ChannelEntry[]> {
    const id = await this.userId(this.loginOf(ref));
    const videos = await this.helix('/videos', { user_id: id, type: 'archive', first: '20' });
    return videos.flatMap((v) => {
      if (typeof v.id !== 'string' || !/^\d+$/.test(v.id)) return [];
      return [{ id: `twitch:video:${v.id}`, url: `https://www.twitch.tv/videos/${v.id}`, title: typeof v.title === 'string' ? v.title.slice(0, 500) : '' }];
    });
  }

  async live(ref: ChannelRef, opts: { signal?: AbortSignal } = {}): Promise<LiveStatus> {
    const login = this.loginOf(ref);
    const [stream] = await this.helix('/streams', { user_login: login });
    if (!stream || stream.type !== 'live') return { live: false };
    const resolved = await liveThroughYtDlp(this.o.ytdlp, `https://www.twitch.tv/${login}`, opts.signal);
    if (!resolved.live) return { live: false };
    return {
      live: true,
      id: typeof stream.id === 'string' ? stream.id : resolved.id,
      title: typeof stream.title === 'string' ? stream.title.slice(0, 200) : resolved.title,
      playlistUrl: resolved.playlistUrl,
    };
  }
}

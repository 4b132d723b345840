import type { ChannelEntry, ChannelRef, ChannelWatcher, LiveRecorder, LiveStatus } from '../../ports/channel-watcher.js';

/** `hls`: a live HLS playlist is on air while it has no `#EXT-X-ENDLIST` and lists segments. No uploads. */
export class HlsWatcher implements ChannelWatcher {
  readonly platform = 'hls' as const;
  constructor(private readonly recorder: Pick<LiveRecorder, 'readPlaylist'>) {}

  async uploads(): Promise<ChannelEntry[]> {
    return [];
  }

  async live(ref: ChannelRef, opts: { signal?: AbortSignal } = {}): Promise<LiveStatus> {
    const p = await this.recorder.readPlaylist(ref.watchUrl, opts);
    if (p.ended || p.segments.length === 0) return { live: false };
    const u = new URL(ref.watchUrl);
    return { live: true, id: ref.watchUrl, title: `${u.hostname}${u.pathname}`.slice(0, 200), playlistUrl: ref.watchUrl };
  }
}

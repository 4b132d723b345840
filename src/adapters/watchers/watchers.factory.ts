import { DomainError } from '../../domain/errors.js';
import type { MonitorsConfig } from '../../config/monitors.env.js';
import type { SourcesConfig } from '../../config/sources.env.js';
import type { ChannelPlatform, ChannelWatcher, LiveRecorder } from '../../ports/channel-watcher.js';
import type { SafeFetchOptions } from '../net/safe-fetch.js';
import { SafeChannelClassifier } from './channel-classifier.js';
import { FeedWatcher } from './feed.watcher.js';
import { HlsWatcher } from './hls.watcher.js';
import { TwitchWatcher } from './twitch.watcher.js';
import { YouTubeWatcher } from './ytdlp-channel.js';

/** The watcher of each kind of channel from the configuration; a kind left unconfigured answers PLATFORM_UNAVAILABLE. */
export function createWatchers(
  cfg: { sources: SourcesConfig; monitors: MonitorsConfig },
  recorder: LiveRecorder,
  net: { resolve?: SafeFetchOptions['resolve']; treatAsPublic?: SafeFetchOptions['treatAsPublic'] } = {},
) {
  const ytdlp = { binary: cfg.sources.ytdlpPath, timeoutMs: cfg.sources.ytdlpTimeoutMs };
  const fetchOpts = { allowPrivate: cfg.sources.allowPrivateSources, ...net };
  const watchers = new Map<ChannelPlatform, ChannelWatcher>();
  watchers.set('feed', new FeedWatcher(fetchOpts));
  watchers.set('hls', new HlsWatcher(recorder));
  if (ytdlp.binary) watchers.set('youtube', new YouTubeWatcher(ytdlp));
  if (cfg.monitors.twitch) watchers.set('twitch', new TwitchWatcher({ ...cfg.monitors.twitch, ytdlp }));
  const classifier = new SafeChannelClassifier({ ...fetchOpts, available: (p) => watchers.has(p) });
  return {
    classifier,
    watcher(platform: ChannelPlatform): ChannelWatcher {
      const w = watchers.get(platform);
      if (!w) throw new DomainError('PLATFORM_UNAVAILABLE');
      return w;
    },
  };
}

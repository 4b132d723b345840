import type { SourcesConfig } from '../../config/sources.env.js';
import type { MediaProbe } from '../../ports/media.js';
import type { SourceResolver } from '../../ports/source-resolver.js';
import { FfprobeMediaProbe } from '../media/ffprobe.js';
import { DirectSourceResolver } from './direct.resolver.js';
import { YtDlpSourceResolver } from './ytdlp.resolver.js';

/** The resolvers analyzeLink uses: `direct` always, `yt-dlp` when an executable is configured or on PATH. */
export function createSourceResolvers(cfg: SourcesConfig, opts: { probe?: MediaProbe } = {}): SourceResolver[] {
  const probe = opts.probe ?? new FfprobeMediaProbe({ timeoutMs: cfg.probeTimeoutMs });
  const resolvers: SourceResolver[] = [new DirectSourceResolver({ allowPrivate: cfg.allowPrivateSources, probe, probeTimeoutMs: cfg.probeTimeoutMs })];
  if (cfg.ytdlpPath) resolvers.push(new YtDlpSourceResolver({ binary: cfg.ytdlpPath, timeoutMs: cfg.ytdlpTimeoutMs }));
  return resolvers;
}

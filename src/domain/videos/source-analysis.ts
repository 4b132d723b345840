import { DomainError } from '../errors.js';
import type { SourceMetadata, SourceResolver } from '../../ports/source-resolver.js';
import { classifyLink, type LinkClassification } from './link-classifier.js';

/** Spec, Limits: minimum video length 1 minute. */
export const MIN_VIDEO_SECONDS = 60;

export interface AnalyzeLinkDeps {
  /** In order of preference; the first that supports the link's platform (or `direct`) is used. */
  resolvers: SourceResolver[];
  /** The workspace plan's maximum video length in seconds; null for no maximum. */
  maxDurationSeconds: number | null;
  /** Default 60 (spec). */
  minDurationSeconds?: number;
  signal?: AbortSignal;
}

export interface LinkAnalysis extends SourceMetadata {
  link: LinkClassification;
  /** Name of the resolver that answered (`direct`, `yt-dlp`). */
  resolver: string;
}

/** The resolver for a classified link, or 400 PLATFORM_UNAVAILABLE. */
export function pickResolver(link: LinkClassification, resolvers: SourceResolver[]): SourceResolver {
  const platform = link.kind === 'direct' ? 'direct' : link.platform;
  const resolver = resolvers.find((r) => r.supports(platform));
  if (!resolver) throw new DomainError('PLATFORM_UNAVAILABLE');
  return resolver;
}

/**
 * Checks resolved metadata against the spec's rules for a usable video:
 * on air → 422 LIVE_STREAM; no video track → 422 AUDIO_ONLY; under the minimum or over the plan's
 * maximum → 422 INVALID_DURATION with `duration`, `min_duration`, `max_duration` in `extra`.
 * A source that does not exist yet (`waiting`) passes; only a known duration over the maximum refuses it.
 */
export function checkUsable(meta: SourceMetadata, limits: { maxDurationSeconds: number | null; minDurationSeconds?: number }): void {
  const min = limits.minDurationSeconds ?? MIN_VIDEO_SECONDS;
  const max = limits.maxDurationSeconds;
  const durationError = () => new DomainError('INVALID_DURATION', { duration: Math.round(meta.duration * 1000) / 1000, min_duration: min, max_duration: max });
  if (meta.waiting) {
    if (max !== null && meta.duration > max) throw durationError();
    return;
  }
  if (meta.isLive) throw new DomainError('LIVE_STREAM');
  if (!meta.hasVideo) throw new DomainError('AUDIO_ONLY');
  if (!(meta.duration >= min) || (max !== null && meta.duration > max)) throw durationError();
}

/**
 * POST /clips/info without the HTTP part: classifies the link (422 PLAYLIST_URL, CHANNEL_URL,
 * SHORTS_NOT_SUPPORTED, INVALID_URL), picks a resolver (400 PLATFORM_UNAVAILABLE), reads the
 * metadata (403 PRIVATE_VIDEO, AGE_RESTRICTED, REGION_BLOCKED; 422 INVALID_URL) and checks it
 * (422 LIVE_STREAM, AUDIO_ONLY, INVALID_DURATION).
 */
export async function analyzeLink(url: string, deps: AnalyzeLinkDeps): Promise<LinkAnalysis> {
  const link = classifyLink(url);
  const resolver = pickResolver(link, deps.resolvers);
  const target = link.kind === 'direct' ? { url: link.url, platform: 'direct' } : { url: link.canonicalUrl, platform: link.platform };
  const meta = await resolver.resolve(target, { signal: deps.signal });
  checkUsable(meta, deps);
  return { ...meta, link, resolver: resolver.name };
}

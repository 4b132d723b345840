/**
 * Source resolvers turn a caller's link into video metadata: `direct` (a media file or HLS playlist,
 * probed with ffprobe) and `yt-dlp` (platform pages). Chosen by src/domain/videos/source-analysis.ts.
 */

export type WaitingReason = 'SOURCE_PREMIERE_SCHEDULED' | 'SOURCE_LIVE_IN_PROGRESS' | 'SOURCE_VOD_PROCESSING';

export interface SourceWaiting {
  reason: WaitingReason;
  /** With SOURCE_PREMIERE_SCHEDULED: the announced start, when known. */
  until?: Date;
}

export interface SourceMetadata {
  title: string;
  author: string;
  /** `direct` or a platform name from the link classifier (`youtube`, `twitch`, ...). */
  platform: string;
  /** Seconds; 0 when not known yet (a scheduled premiere). */
  duration: number;
  width: number;
  height: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** On air right now. */
  isLive: boolean;
  /**
   * What to download later: for `direct`, the final media URL after redirects (fetch it again with
   * safeFetch); for platform links, the canonical page URL to hand to yt-dlp again (format URLs expire).
   */
  mediaUrl: string;
  thumbnailUrl?: string;
  /** Size of the media file in bytes, when the source tells it. */
  sizeBytes?: number;
  /** Set when the video does not fully exist yet; the submission waits instead of failing. */
  waiting?: SourceWaiting;
}

/** What the classifier decided: `platform` is `direct` for media links. */
export interface ResolveTarget {
  url: string;
  platform: string;
}

export interface ResolveOptions {
  signal?: AbortSignal;
}

export interface SourceResolver {
  readonly name: string;
  /** True when this resolver can handle links of `platform` (`direct` or a platform name). */
  supports(platform: string): boolean;
  /**
   * Reads the source's metadata. Throws DomainError with the spec's codes: INVALID_URL (unreachable
   * or not media), PRIVATE_VIDEO, AGE_RESTRICTED, REGION_BLOCKED, LIVE_STREAM, PLATFORM_UNAVAILABLE.
   */
  resolve(target: ResolveTarget, opts?: ResolveOptions): Promise<SourceMetadata>;
}

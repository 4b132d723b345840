/**
 * Watching a channel for live broadcasts and new uploads (docs/monitors.md). One adapter per kind of
 * channel (src/adapters/watchers/): `feed` (Atom/RSS), `hls` (a live playlist), `youtube` (yt-dlp),
 * `twitch` (Helix). Every address a caller gave is fetched with the safe fetcher; media tools never
 * open one.
 */

export type ChannelPlatform = 'feed' | 'hls' | 'youtube' | 'twitch';

/** What a monitor watches: the adapter and the address (or login) it reads. */
export interface ChannelRef {
  platform: ChannelPlatform;
  watchUrl: string;
}

/** An upload of the channel. `id` is the channel's own (stable) id of it. */
export interface ChannelEntry {
  id: string;
  /** A link POST /clips/info accepts (the platform's video page or a media file). */
  url: string;
  title: string;
}

export type LiveStatus =
  | { live: false }
  | {
      live: true;
      /** The stream's id on the platform (the playlist URL for `hls`): a new id is a new broadcast. */
      id: string;
      title: string;
      /** The HLS playlist (master or media) the recorder reads. */
      playlistUrl: string;
    };

export interface ChannelWatcher {
  readonly platform: ChannelPlatform;
  /** The channel's latest uploads (newest first). */
  uploads(ref: ChannelRef, opts?: { signal?: AbortSignal }): Promise<ChannelEntry[]>;
  /** Whether the channel is on air now, and what to record. */
  live(ref: ChannelRef, opts?: { signal?: AbortSignal }): Promise<LiveStatus>;
}

/**
 * Classifies what a user pasted: a known platform's channel, or (other hosts) whatever the body of the
 * address is — an HLS playlist or an Atom/RSS feed — read with the safe fetcher. 422 INVALID_URL for
 * anything else.
 */
export interface ChannelClassifier {
  classify(url: string): Promise<ChannelRef>;
}

/** One segment of a live media playlist; `source` is the adapter's own (URI, key, init section). */
export interface LiveSegment {
  sequence: number;
  duration: number;
  source: unknown;
}

export interface LivePlaylist {
  /** `#EXT-X-ENDLIST` is there: the broadcast is over. */
  ended: boolean;
  /** `#EXT-X-TARGETDURATION`, seconds. */
  targetDuration: number;
  segments: LiveSegment[];
}

/** A stored chunk of live segments, as measured. */
export interface StoredChunk {
  bytes: number;
  /** Seconds of media the chunk holds (its measured duration; 0 when it cannot be told). */
  seconds: number;
}

/** The live recorder's I/O: the playlist and segments in Node with the safe fetcher, ffmpeg on local files only. */
export interface LiveRecorder {
  /** Reads the live media playlist (a master playlist is followed to its best variant). */
  readPlaylist(url: string, opts?: { signal?: AbortSignal }): Promise<LivePlaylist>;
  /**
   * Fetches the segments (in order) and stores them, one after the other, as one object at `key`; answers
   * what was stored: its bytes and its length in seconds as measured from the media (ffprobe of the local
   * file before it is stored), never the playlist's `#EXTINF`. More than `maxBytes` (default: the
   * recorder's own cap) throws SOURCE_TOO_LARGE while fetching, and nothing is stored.
   */
  storeChunk(segments: readonly LiveSegment[], key: string, opts?: { signal?: AbortSignal; maxBytes?: number }): Promise<StoredChunk>;
  /**
   * Joins the stored chunks into one MP4 at `key` (stream copy, `-c copy`; the chunks are read as local
   * files with their demuxer named) and measures it. Joined bytes over the recorder's cap throw SOURCE_TOO_LARGE.
   */
  cutBatch(chunkKeys: readonly string[], key: string): Promise<{ duration: number; width: number; height: number; hasAudio: boolean }>;
}

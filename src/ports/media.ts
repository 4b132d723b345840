/** Media inspection. The adapter runs ffprobe (src/adapters/media/ffprobe.ts). */

export interface MediaInfo {
  /** Seconds; 0 when unknown. */
  duration: number;
  /** Display size: already swapped for a 90/270° rotation. 0 when there is no video. */
  width: number;
  height: number;
  hasVideo: boolean;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
  /** Clockwise display rotation of the video stream in degrees (0, 90, 180, 270). */
  rotation: number;
  /** Average frame rate of the video stream, when known. */
  fps?: number;
  /** `format.tags.title`, when the file carries one. */
  title?: string;
  /** `artist`, `author` or `album_artist` tag, when present. */
  artist?: string;
  /** ffprobe's `format_name`, such as `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /**
   * The demuxer the input was read with, chosen from its bytes (`mov`, `matroska`, `mpegts`, `mp3`,
   * `wav`, …; see src/adapters/media/container.ts). Every later ffmpeg run over the file forces it.
   */
  container?: string;
  sizeBytes?: number;
  bitRate?: number;
}

export interface ProbeOptions {
  /** Kills ffprobe after this long. Default 30 s. */
  timeoutMs?: number;
  /**
   * The demuxer to read a URL input with (required for URLs: the caller sniffs the first bytes it
   * fetched itself). A local file's demuxer is always sniffed from its bytes; this is then ignored.
   */
  format?: string;
  signal?: AbortSignal;
}

export interface MediaProbe {
  /**
   * Inspects a local path or an http(s) URL (only the service's loopback relay: see
   * src/adapters/net/safe-relay.ts). Throws when the input is not readable media or not one of the
   * containers the service reads.
   */
  probe(input: string, opts?: ProbeOptions): Promise<MediaInfo>;
}

/** The speech engines' input: 16 kHz mono WAV. The adapter runs ffmpeg (src/adapters/media/audio-extract.ts). */
export interface AudioExtractor {
  /** Writes [start, end) of the input (seconds) to `output` as a WAV; resolves false when the input has no sound track. */
  extractWav(input: string, output: string, range: { start: number; end: number }): Promise<boolean>;
}

/** A clip's preview: the stretch as it is, small and streamable. The adapter runs ffmpeg (src/adapters/media/preview.ts). */
export interface PreviewRenderer {
  /** Writes [start, end) of the input (seconds) to `output` as an MP4. */
  renderPreview(input: string, output: string, start: number, end: number): Promise<void>;
}

import path from 'node:path';
import { localMedia, type LocalMedia } from './container.js';
import { FfmpegError, localInputArgs, runFfmpeg, type FfmpegProgress } from './ffmpeg-run.js';
import type { AudioExtractor } from '../../ports/media.js';

/**
 * The audio the ASR engines read: 16 kHz mono 16-bit PCM WAV, extracted from any media file
 * (video or audio), optionally from a time range.
 */

export interface AudioExtractRange {
  /** Seconds from the start of the input. Default 0. */
  start?: number;
  /** Seconds from the start of the input (exclusive). Default: the end of the input. */
  end?: number;
}

export interface AudioExtractOptions extends AudioExtractRange {
  /** Default 16000. */
  sampleRate?: number;
}

export class AudioExtractError extends Error {
  constructor(
    readonly code: 'NO_AUDIO_STREAM' | 'EXTRACT_FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'AudioExtractError';
  }
}

const secs = (t: number) => String(Math.round(t * 1000) / 1000);

/** The caller's part of the ffmpeg argv (the runner adds the global flags). Pure. */
export function buildAudioExtractArgs(input: LocalMedia, output: string, opts: AudioExtractOptions = {}): string[] {
  const { start, end } = opts;
  if (start !== undefined && !(Number.isFinite(start) && start >= 0)) throw new RangeError(`start must be >= 0 (got ${start})`);
  if (end !== undefined && !(Number.isFinite(end) && end > (start ?? 0))) throw new RangeError(`end must be after start (got ${start ?? 0}..${end})`);
  const rate = opts.sampleRate ?? 16000;
  if (!Number.isInteger(rate) || rate < 8000 || rate > 48000) throw new RangeError(`sampleRate must be an integer 8000..48000 (got ${rate})`);
  // -ss before -i seeks the input; decoding makes the cut sample-accurate for audio.
  const seek = start ? ['-ss', secs(start)] : [];
  const length = end !== undefined ? ['-t', secs(end - (start ?? 0))] : [];
  return [
    '-y',
    ...localInputArgs(input, seek),
    ...length,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    '1',
    '-ar',
    String(rate),
    '-c:a',
    'pcm_s16le',
    '-f',
    'wav',
    `file:${path.resolve(output)}`,
  ];
}

export interface ExtractRunOptions extends AudioExtractOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Length of the extracted stretch, when known, for progress fractions. */
  durationSeconds?: number;
  onProgress?: (p: FfmpegProgress) => void;
}

/** Writes the WAV to `output`. Throws AudioExtractError (NO_AUDIO_STREAM when the input has no audio). */
export async function extractAudio(input: string, output: string, opts: ExtractRunOptions = {}): Promise<void> {
  try {
    const args = buildAudioExtractArgs(localMedia(input), output, opts);
    await runFfmpeg(args, { signal: opts.signal, timeoutMs: opts.timeoutMs, durationSeconds: opts.durationSeconds, onProgress: opts.onProgress });
  } catch (err) {
    if (err instanceof FfmpegError && err.reason === 'aborted') throw err;
    const tail = err instanceof FfmpegError ? err.stderrTail.join('\n') : '';
    if (/matches no streams/i.test(tail)) throw new AudioExtractError('NO_AUDIO_STREAM', `${path.basename(input)} has no audio stream`);
    throw new AudioExtractError('EXTRACT_FAILED', `audio extraction failed: ${(err as Error).message}`);
  }
}

/** 16 kHz mono WAV of [start, end) of the input; false when it has no sound track (NO_AUDIO_STREAM), any other failure thrown. */
export async function extractWav(input: string, output: string, range: { start: number; end: number }): Promise<boolean> {
  try {
    await extractAudio(input, output, range);
    return true;
  } catch (err) {
    if (err instanceof AudioExtractError && err.code === 'NO_AUDIO_STREAM') return false;
    throw err;
  }
}

/** The AudioExtractor port on ffmpeg (the pipeline's transcribing stage, the transcription jobs). */
export class FfmpegAudioExtractor implements AudioExtractor {
  extractWav(input: string, output: string, range: { start: number; end: number }): Promise<boolean> {
    return extractWav(input, output, range);
  }
}

import fs from 'node:fs';
import path from 'node:path';
import { FfmpegError, startFfmpeg } from '../media/ffmpeg-run.js';
import { sourceTooLarge, watchSize } from './download-support.js';

/**
 * Turns a downloaded source (the local segment files of an HLS source, or a platform file that is not
 * MP4) into an MP4. Inputs are local files only, each given with `localInputArgs` (demuxer named,
 * `file` protocol only): ffmpeg never reads a URL here. Stream copy first (`-c copy -bsf:a aac_adtstoasc`); when the streams cannot
 * go into MP4 as they are, the audio is re-encoded to AAC, and as a last resort the video to H.264.
 */

export type RemuxMode = 'copy' | 'copy-video' | 'encode';
export const REMUX_MODES: readonly RemuxMode[] = ['copy', 'copy-video', 'encode'];

export interface RemuxInput {
  /** Input arguments, each input with its own options and `-i`. */
  inputArgs: string[];
  /** `-map` arguments choosing the streams. */
  maps: string[];
}

export interface RemuxRun {
  ffmpegBinary: string;
  /** Length of the result, seconds, for progress. */
  durationSeconds?: number;
  onProgress?(fraction: number): void;
  onStderrLine?(line: string): void;
  signal?: AbortSignal;
  timeoutMs: number;
  /** The output is killed once it grows past this; then SOURCE_TOO_LARGE. */
  maxBytes: number;
}

/** ffmpeg arguments writing `out` as MP4 in `mode` (pure; unit-tested through the downloader tests). */
export function remuxArgs(input: RemuxInput, out: string, mode: RemuxMode): string[] {
  const codecs =
    mode === 'copy'
      ? ['-c', 'copy', '-bsf:a', 'aac_adtstoasc']
      : mode === 'copy-video'
        ? ['-c:v', 'copy', '-c:a', 'aac', '-b:a', '160k']
        : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k'];
  return ['-y', ...input.inputArgs, ...input.maps, ...codecs, '-movflags', '+faststart', '-f', 'mp4', `file:${path.resolve(out)}`];
}

/** ffmpeg refused to put the streams into MP4 as they are (a reason to try the next mode). */
export function isContainerError(stderr: string[]): boolean {
  return /could not find tag for codec|not supported by the bitstream filter|error initializing bitstream filter|not currently supported in container|could not write header|malformed aac bitstream|incompatible with output codec/i.test(
    stderr.join('\n'),
  );
}

/** Writes `out`; returns the mode that worked. Throws FfmpegError (the last mode's) or SOURCE_TOO_LARGE. */
export async function remuxToMp4(input: RemuxInput, out: string, run: RemuxRun): Promise<RemuxMode> {
  for (const [i, mode] of REMUX_MODES.entries()) {
    try {
      await runOnce(remuxArgs(input, out, mode), out, run);
      return mode;
    } catch (err) {
      const last = i === REMUX_MODES.length - 1;
      if (!last && err instanceof FfmpegError && err.reason === 'exit' && isContainerError(err.stderrTail)) continue;
      throw err;
    }
  }
  throw new Error('unreachable');
}

async function runOnce(args: string[], out: string, run: RemuxRun): Promise<void> {
  fs.rmSync(out, { force: true });
  let tooLarge = false;
  const proc = startFfmpeg(args, {
    binary: run.ffmpegBinary,
    durationSeconds: run.durationSeconds,
    onProgress: (p) => run.onProgress?.(p.fraction),
    onStderrLine: run.onStderrLine,
    logLevel: 'warning',
    signal: run.signal,
    timeoutMs: run.timeoutMs,
  });
  const stop = watchSize(out, run.maxBytes, () => {
    tooLarge = true;
    proc.kill();
  });
  try {
    await proc.done;
  } catch (err) {
    if (tooLarge) throw sourceTooLarge(run.maxBytes);
    throw err;
  } finally {
    stop();
  }
  if (tooLarge || fs.statSync(out).size > run.maxBytes) throw sourceTooLarge(run.maxBytes);
}

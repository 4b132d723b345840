import path from 'node:path';
import { cropFilter, sliceKeyframes } from '../../domain/reframe/crop-keyframes.js';
import { cropSize } from '../../domain/reframe/crop-path.js';
import { clipDuration, outputSize, type Edit } from '../../domain/edits/edit.js';

/**
 * The ffmpeg command for an edit (pure; unit-tested). One input, read from `in` with an accurate
 * seek (`-ss` before `-i`: ffmpeg seeks to the keyframe before and decodes up to `in`), one
 * `-filter_complex` graph with a video chain [v] (reframe, scale, ASS captions, watermark) and an
 * audio chain [a] (loudness normalisation, or a silent track when the source has no audio), and an
 * MP4 output: H.264 High yuv420p, AAC 48 kHz stereo, moov atom first (+faststart).
 */

export const VIDEO_CODEC_ARGS = ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-crf', '20'] as const;
export const AUDIO_CODEC_ARGS = ['-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2'] as const;
/** Single-pass EBU R128 normalisation to about -14 LUFS, true peak -1.5 dBTP (see docs/rendering.md). */
export const LOUDNORM = 'loudnorm=I=-14:TP=-1.5:LRA=11';
export const WATERMARK_TEXT = 'Cutroom';

export interface RenderPaths {
  input: string;
  /** The demuxer the input is read with, sniffed from its bytes (src/adapters/media/container.ts). */
  inputFormat: string;
  output: string;
  /** The ASS script (captions.ass.ts) or null when the edit has no captions and no title. */
  assFile: string | null;
  /** Folder with the .ttf files the ASS script names (libass `fontsdir`). */
  fontsDir: string;
  /** A .ttf for the watermark's drawtext; needed when `edit.watermark`. */
  watermarkFontFile: string | null;
}

export interface RenderCommandOptions {
  /** Whether the source has an audio stream; without one the output gets a silent AAC track. */
  hasAudio: boolean;
}

export interface RenderCommand {
  /** Arguments after ffmpeg's global flags (`-hide_banner`, `-loglevel`, `-progress`). */
  args: string[];
  filterComplex: string;
  /** Output length in seconds (out - in). */
  durationSeconds: number;
  width: number;
  height: number;
}

/** Seconds with at most 3 decimals, no exponent. */
export function sec(v: number): string {
  const s = (Math.round(v * 1000) / 1000).toFixed(3);
  return s.replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * Quotes a value for a filter option inside a filter graph: first the option level (`'...'`, so `:`
 * and `\` are literal), then the graph level (backslash before `\ ' [ ] , ;`).
 */
export function escapeFilterValue(value: string): string {
  const level1 = `'${value.replace(/'/g, "'\\''")}'`;
  return level1.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

function even(v: number): number {
  return Math.max(2, Math.round(v / 2) * 2);
}

/** The reframe part of the video chain, from `[0:v]` to a frame of the output size labelled `out`. */
export function reframeFilters(edit: Edit, out = 'framed'): string {
  const { width: W, height: H } = outputSize(edit.layout.aspect, edit.resolution);
  const sw = edit.source.width;
  const sh = edit.source.height;
  const scale = `scale=${W}:${H},setsar=1`;
  if (edit.layout.reframe === 'fit') {
    // Foreground: the whole source scaled to fit. Background: the source scaled to fill, blurred at a
    // quarter of the size (cheap) and scaled back up.
    const k = Math.min(W / sw, H / sh);
    const fw = Math.min(W, even(sw * k));
    const fh = Math.min(H, even(sh * k));
    if (fw === W && fh === H) return `[0:v]${scale}[${out}]`; // already the output shape: no background
    const bw = even(W / 4);
    const bh = even(H / 4);
    const kb = Math.max(bw / sw, bh / sh);
    const blur = Math.max(2, Math.round(Math.min(bw, bh) / 12));
    return [
      `[0:v]split=2[bgsrc][fgsrc]`,
      `[bgsrc]scale=${Math.max(bw, even(sw * kb))}:${Math.max(bh, even(sh * kb))},crop=${bw}:${bh},boxblur=${blur}:2,scale=${W}:${H},setsar=1[bg]`,
      `[fgsrc]scale=${fw}:${fh},setsar=1[fg]`,
      `[bg][fg]overlay=x=${(W - fw) >> 1}:y=${(H - fh) >> 1}:format=auto[${out}]`,
    ].join(';');
  }
  const { w, h } = cropSize(sw, sh, edit.layout.aspect);
  const path = edit.layout.cropPath;
  let crop: string;
  if (edit.layout.reframe === 'speaker' && path && path.length > 0) {
    crop = cropFilter(sliceKeyframes(path, edit.in, edit.out));
  } else if (w === sw && h === sh) {
    crop = '';
  } else {
    crop = `crop=w=${w}:h=${h}:x=${Math.floor((sw - w) / 4) * 2}:y=${Math.floor((sh - h) / 4) * 2}`;
  }
  return `[0:v]${crop ? `${crop},` : ''}${scale}[${out}]`;
}

/** The drawtext watermark: "Cutroom" in the top-right corner, white at 55 % with a soft shadow. */
export function watermarkFilter(fontFile: string, width: number, height: number): string {
  const short = Math.min(width, height);
  const size = Math.round(short * 0.045);
  const m = Math.round(short * 0.04);
  return [
    `drawtext=fontfile=${escapeFilterValue(fontFile)}`,
    `text=${WATERMARK_TEXT}`,
    `fontsize=${size}`,
    'fontcolor=white@0.55',
    'shadowcolor=black@0.35',
    `shadowx=${Math.max(1, Math.round(size / 24))}`,
    `shadowy=${Math.max(1, Math.round(size / 24))}`,
    `x=w-tw-${m}`,
    `y=${m}`,
  ].join(':');
}

/** The whole `-filter_complex` graph with outputs [v] and [a]. */
export function buildFilterComplex(edit: Edit, paths: RenderPaths, opts: RenderCommandOptions): string {
  const { width, height } = outputSize(edit.layout.aspect, edit.resolution);
  const chain: string[] = [];
  if (paths.assFile) chain.push(`ass=filename=${escapeFilterValue(paths.assFile)}:fontsdir=${escapeFilterValue(paths.fontsDir)}`);
  if (edit.watermark) {
    if (!paths.watermarkFontFile) throw new RangeError('a watermark needs watermarkFontFile');
    chain.push(watermarkFilter(paths.watermarkFontFile, width, height));
  }
  chain.push('format=yuv420p');
  const video = `${reframeFilters(edit, 'framed')};[framed]${chain.join(',')}[v]`;
  const dur = sec(clipDuration(edit));
  const audio = opts.hasAudio
    ? `[0:a:0]${LOUDNORM},aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]`
    : `anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=${dur},aformat=sample_fmts=fltp[a]`;
  return `${video};${audio}`;
}

/** The ffmpeg arguments (without global flags) that render `edit` from paths.input to paths.output. */
export function buildRenderCommand(edit: Edit, paths: RenderPaths, opts: RenderCommandOptions): RenderCommand {
  const { width, height } = outputSize(edit.layout.aspect, edit.resolution);
  const durationSeconds = clipDuration(edit);
  const filterComplex = buildFilterComplex(edit, paths, opts);
  const args = [
    '-protocol_whitelist', 'file',
    '-ss', sec(edit.in),
    '-f', paths.inputFormat,
    '-i', `file:${path.resolve(paths.input)}`,
    '-filter_complex', filterComplex,
    '-map', '[v]',
    '-map', '[a]',
    '-t', sec(durationSeconds),
    ...VIDEO_CODEC_ARGS,
    ...AUDIO_CODEC_ARGS,
    '-map_metadata', '-1',
    '-map_chapters', '-1',
    '-max_muxing_queue_size', '4096',
    '-movflags', '+faststart',
    '-f', 'mp4',
    '-y', `file:${path.resolve(paths.output)}`,
  ];
  return { args, filterComplex, durationSeconds, width, height };
}

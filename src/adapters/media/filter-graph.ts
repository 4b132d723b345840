import path from 'node:path';
import { cropFilter, sliceKeyframes, type Keyframe } from '../../domain/reframe/crop-keyframes.js';
import { cropSize } from '../../domain/reframe/crop-path.js';
import { screenParts } from '../../domain/reframe/screen-path.js';
import { clipDuration, outputSize, type Aspect, type Edit, type EditShot } from '../../domain/edits/edit.js';
import { cutKeyframes, segmentsDuration, snapToFrames, sourceToOutput, type Segment } from '../../domain/edits/edit-timeline.js';
import { PUNCH_IN_EASE, PUNCH_IN_ZOOM, type PunchIn } from '../../domain/reframe/punch-in.js';

/**
 * The ffmpeg command for an edit (pure; unit-tested). One input, read from `in` with an accurate
 * seek (`-ss` before `-i`: ffmpeg seeks to the keyframe before and decodes up to `in`), one
 * `-filter_complex` graph with a video chain [v] (reframe, scale, ASS captions, watermark) and an
 * audio chain [a] (loudness normalisation, or a silent track when the source has no audio), and an
 * MP4 output: H.264 High yuv420p, AAC 48 kHz stereo, moov atom first (+faststart).
 *
 * An edit with several kept stretches (`segments`) is cut first: each stretch's picture and sound
 * are trimmed (`trim`/`atrim`, timestamps restarted) and joined in order by one `concat` that takes
 * picture and sound of a stretch together, so they stay in sync; the sound fades out and in for 5 ms
 * at every joint (no clicks). The rest of the chain works on the joined stream, with the crop path
 * carried onto the output timeline (edit-timeline.ts). A preview is the same graph at 360 px on the
 * short side, encoded with x264 `ultrafast`.
 */

export const VIDEO_CODEC_ARGS = ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-crf', '20'] as const;
/** A preview's encoder: speed over size. */
export const PREVIEW_VIDEO_CODEC_ARGS = ['-c:v', 'libx264', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-preset', 'ultrafast', '-crf', '23'] as const;
/** Short side of a preview. */
export const PREVIEW_SHORT_SIDE = 360;
/** Audio fade at each joint of a cut edit (seconds). */
export const JOINT_FADE_SECONDS = 0.005;
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

/** `final`: the edit's resolution; `preview`: 360 px on the short side, x264 ultrafast. */
export type RenderQuality = 'final' | 'preview';

export interface RenderCommandOptions {
  /** Whether the source has an audio stream; without one the output gets a silent AAC track. */
  hasAudio: boolean;
  /** Default `final`. */
  quality?: RenderQuality;
  /** The source's frame rate (ffprobe); cuts then fall on its frames (snapToFrames). */
  fps?: number;
}

export interface RenderCommand {
  /** Arguments after ffmpeg's global flags (`-hide_banner`, `-loglevel`, `-progress`). */
  args: string[];
  filterComplex: string;
  /** Output length in seconds (out - in, or the sum of the kept stretches). */
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

/** Frame size of a preview: 360 on the short side (360x640, 640x360, 360x360). */
export function previewSize(aspect: Aspect): { width: number; height: number } {
  const big = outputSize(aspect, '720p');
  const k = PREVIEW_SHORT_SIDE / Math.min(big.width, big.height);
  return { width: even(big.width * k), height: even(big.height * k) };
}

/** The output frame size of an edit at a quality. */
export function frameSize(edit: Edit, quality: RenderQuality = 'final'): { width: number; height: number } {
  return quality === 'preview' ? previewSize(edit.layout.aspect) : outputSize(edit.layout.aspect, edit.resolution);
}

/**
 * The stretches an edit with cuts (more than one stretch) is rendered from: on the source's frames
 * when the frame rate is known. Null for an edit without cuts.
 */
export function renderedSegments(edit: Edit, fps?: number): Segment[] | null {
  return edit.segments && edit.segments.length > 1 ? snapToFrames(edit.segments, fps) : null;
}

/** Seconds with up to 6 decimals (cut points on frames of rates like 30000/1001). */
function sec6(v: number): string {
  const s = (Math.round(v * 1e6) / 1e6).toFixed(6);
  return s.replace(/0+$/, '').replace(/\.$/, '');
}

/** Where the input is read from for a cut edit: the first stretch's start, floored to the millisecond. */
function cutSeek(segments: readonly Segment[]): number {
  return Math.floor(segments[0].start * 1000 + 1e-6) / 1000;
}

/**
 * The punch-in of `layout.zoom` (a `crop,` to put before the scale to the output size, or nothing):
 * the middle 1/zoom of the framed picture, centred (crop's default position), so it zooms around the
 * crop's centre (the tracked face's for `speaker`). Each side loses a multiple of 4 pixels, so the
 * offset is even and crop does not round it down for 4:2:0 chroma (which would move the centre).
 */
export function zoomFilter(zoom: number | undefined): string {
  if (!zoom || zoom <= 1) return '';
  const z = Math.round(zoom * 1000) / 1000;
  return `crop=w=iw-4*round(iw*(1-1/${z})/4):h=ih-4*round(ih*(1-1/${z})/4),`;
}

/**
 * The reframe part of the video chain, from `input` (the source, or the joined stretches of a cut
 * edit, whose time is output time) to a frame of the output size labelled `out`.
 */
export function reframeFilters(
  edit: Edit,
  out = 'framed',
  input = '[0:v]',
  size = outputSize(edit.layout.aspect, edit.resolution),
  segs: readonly Segment[] | null = renderedSegments(edit),
  /** Prefix of the graph's inner labels, so several reframes can share one graph. */
  tag = '',
): string {
  const { width: W, height: H } = size;
  const sw = edit.source.width;
  const sh = edit.source.height;
  const zoom = zoomFilter(edit.layout.zoom);
  const scale = `${zoom}scale=${W}:${H},setsar=1`;
  const screen = edit.layout.reframe === 'screen' ? edit.layout.screenPath : undefined;
  if (screen) return screenFilters(screen, edit, out, input, size, segs, tag);
  // `screen` without a face: the whole screen on a blurred fill, as `fit`.
  if (edit.layout.reframe === 'fit' || edit.layout.reframe === 'screen') {
    // Foreground: the whole source scaled to fit. Background: the source scaled to fill, blurred at a
    // quarter of the size (cheap) and scaled back up.
    const k = Math.min(W / sw, H / sh);
    const fw = Math.min(W, even(sw * k));
    const fh = Math.min(H, even(sh * k));
    if (fw === W && fh === H) return `${input}${scale}[${out}]`; // already the output shape: no background
    const bw = even(W / 4);
    const bh = even(H / 4);
    const kb = Math.max(bw / sw, bh / sh);
    const blur = Math.max(2, Math.round(Math.min(bw, bh) / 12));
    return [
      `${input}split=2[${tag}bgsrc][${tag}fgsrc]`,
      `[${tag}bgsrc]scale=${Math.max(bw, even(sw * kb))}:${Math.max(bh, even(sh * kb))},crop=${bw}:${bh},boxblur=${blur}:2,scale=${W}:${H},setsar=1[${tag}bg]`,
      `[${tag}fgsrc]scale=${fw}:${fh},setsar=1[${tag}fg]`,
      `[${tag}bg][${tag}fg]overlay=x=${(W - fw) >> 1}:y=${(H - fh) >> 1}:format=auto${zoom ? `,${scale}` : ''}[${out}]`,
    ].join(';');
  }
  const split = edit.layout.reframe === 'split' ? edit.layout.splitPaths : undefined;
  if (split) return splitFilters(split, edit, out, input, size, segs, tag);
  const { w, h } = cropSize(sw, sh, edit.layout.aspect);
  const path = edit.layout.cropPath;
  let crop: string;
  // `split` without two faces' paths, and `auto` without shots (or inside a speaker shot), are framed as `speaker`.
  if ((edit.layout.reframe === 'speaker' || edit.layout.reframe === 'split' || edit.layout.reframe === 'auto') && path && path.length > 0) {
    crop = cropFilter(segs ? cutKeyframes(path, segs) : sliceKeyframes(path, edit.in, edit.out));
  } else if (w === sw && h === sh) {
    crop = '';
  } else {
    crop = `crop=w=${w}:h=${h}:x=${Math.floor((sw - w) / 4) * 2}:y=${Math.floor((sh - h) / 4) * 2}`;
  }
  return `${input}${crop ? `${crop},` : ''}${scale}[${out}]`;
}

/** Thickness of the split layout's divider, a share of the output height (at least 2 px, even). */
export const SPLIT_DIVIDER_SHARE = 0.003;

/**
 * The `split` layout: the picture twice, each copy cropped by one half's path (shifted to output
 * time like the speaker crop) and scaled to half the output height, stacked (`vstack`), with a thin
 * white divider over the joint.
 */
function splitFilters(
  paths: readonly [readonly Keyframe[], readonly Keyframe[]],
  edit: Edit,
  out: string,
  input: string,
  size: { width: number; height: number },
  segs: readonly Segment[] | null,
  tag: string,
): string {
  const { width: W, height: H } = size;
  const top = Math.floor(H / 4) * 2;
  const zoom = zoomFilter(edit.layout.zoom);
  const crop = (p: readonly Keyframe[]) => cropFilter(segs ? cutKeyframes(p, segs) : sliceKeyframes(p, edit.in, edit.out));
  const d = Math.max(2, Math.round((H * SPLIT_DIVIDER_SHARE) / 2) * 2);
  return [
    `${input}split=2[${tag}sp0][${tag}sp1]`,
    `[${tag}sp0]${crop(paths[0])},${zoom}scale=${W}:${top},setsar=1[${tag}spt]`,
    `[${tag}sp1]${crop(paths[1])},${zoom}scale=${W}:${H - top},setsar=1[${tag}spb]`,
    `[${tag}spt][${tag}spb]vstack=inputs=2,drawbox=x=0:y=${top - d / 2}:w=${W}:h=${d}:color=white:t=fill[${out}]`,
  ].join(';');
}

/** A face crop enlarged at least this much is scaled with Lanczos and lightly sharpened. */
export const SCREEN_FACE_SHARPEN_FROM = 1.5;

/**
 * The `screen` layout with a face: the whole source scaled to the output's width on top (the screen
 * stays readable), and below it the face's crop (its path shifted to output time), scaled to the
 * space left. A punch-in zooms the face only. A webcam's face is small in the source: enlarged
 * SCREEN_FACE_SHARPEN_FROM times or more, it is scaled with Lanczos and given a light luma unsharp
 * mask (5x5, 0.8), which restores edges the enlargement softens (it cannot add detail the webcam did
 * not record).
 */
function screenFilters(
  path: readonly Keyframe[],
  edit: Edit,
  out: string,
  input: string,
  size: { width: number; height: number },
  segs: readonly Segment[] | null,
  tag: string,
): string {
  const { width: W } = size;
  const parts = screenParts(edit.source, size);
  const crop = cropFilter(segs ? cutKeyframes(path, segs) : sliceKeyframes(path, edit.in, edit.out));
  const enlarged = W / Math.max(2, ...path.map((k) => k.w)) >= SCREEN_FACE_SHARPEN_FROM;
  const faceScale = enlarged ? `scale=${W}:${parts.face}:flags=lanczos,setsar=1,unsharp=5:5:0.8:5:5:0` : `scale=${W}:${parts.face},setsar=1`;
  return [
    `${input}split=2[${tag}sc0][${tag}sc1]`,
    `[${tag}sc0]scale=${W}:${parts.screen},setsar=1[${tag}sct]`,
    `[${tag}sc1]${crop},${zoomFilter(edit.layout.zoom)}${faceScale}[${tag}scb]`,
    `[${tag}sct][${tag}scb]vstack=inputs=2[${out}]`,
  ].join(';');
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

/**
 * The cutting part of a graph: each stretch trimmed (times relative to the input, which starts at
 * the first stretch because of the seek) and joined by one concat into [cutv] (and [cuta] with
 * sound), with a short fade at every joint.
 */
export function cutFilters(segments: readonly Segment[], hasAudio: boolean, t0 = cutSeek(segments)): string {
  const n = segments.length;
  const parts: string[] = [];
  const labels = (p: string) => segments.map((_, i) => `[${p}${i}]`).join('');
  parts.push(`[0:v]split=${n}${labels('vs')}`);
  if (hasAudio) parts.push(`[0:a:0]asplit=${n}${labels('as')}`);
  const joined: string[] = [];
  segments.forEach((s, i) => {
    const a = sec6(Math.max(0, s.start - t0));
    const b = sec6(s.end - t0);
    // Restarted at the stretch's first frame: a stretch's picture then lasts a whole number of
    // frames ending where its sound ends, so the offset between them stays under one frame (when
    // a cut falls between frames) and never adds up across joints.
    parts.push(`[vs${i}]trim=start=${a}:end=${b},setpts=PTS-STARTPTS[vc${i}]`);
    joined.push(`[vc${i}]`);
    if (hasAudio) {
      const len = s.end - s.start;
      const fade = Math.min(JOINT_FADE_SECONDS, len / 2);
      const chain = [`atrim=start=${a}:end=${b}`, 'asetpts=PTS-STARTPTS'];
      if (i > 0) chain.push(`afade=t=in:st=0:d=${sec(fade)}`);
      if (i < n - 1) chain.push(`afade=t=out:st=${sec(len - fade)}:d=${sec(fade)}`);
      parts.push(`[as${i}]${chain.join(',')}[ac${i}]`);
      joined.push(`[ac${i}]`);
    }
  });
  parts.push(`${joined.join('')}concat=n=${n}:v=1:a=${hasAudio ? 1 : 0}[cutv]${hasAudio ? '[cuta]' : ''}`);
  return parts.join(';');
}

/** A stretch of an `auto` edit's output with one layout: source seconds, the shot, and whether it starts or ends a kept stretch. */
export interface AutoPiece {
  start: number;
  end: number;
  shot: EditShot;
  /** A joint of kept stretches before / after it (the sound fades there). */
  cutBefore: boolean;
  cutAfter: boolean;
}

/** The pieces of an `auto` edit with shots: each kept stretch split at the shots' boundaries, in play order. */
export function autoPieces(edit: Edit, segs: readonly Segment[] | null): AutoPiece[] {
  const shots = edit.layout.shots ?? [];
  const stretches = segs ?? [{ start: edit.in, end: edit.out }];
  const out: AutoPiece[] = [];
  stretches.forEach((st, si) => {
    const inside = shots.filter((s) => s.end > st.start + 1e-6 && s.start < st.end - 1e-6);
    inside.forEach((shot, k) => {
      // The first shot reaches back to the stretch's start, the last to its end (frame snapping may move them a little).
      const start = k === 0 ? st.start : Math.max(st.start, shot.start);
      const end = k === inside.length - 1 ? st.end : Math.min(st.end, shot.end);
      if (end - start > 1e-3) out.push({ start, end, shot, cutBefore: k === 0 && si > 0, cutAfter: k === inside.length - 1 && si < stretches.length - 1 });
    });
  });
  return out;
}

/**
 * The `auto` layout with shots: each piece (autoPieces) trimmed from the input (times relative to the
 * seek point `t0`), framed with its shot's layout as an edit of that piece alone (the speaker crop
 * path, the shot's halves or face path), and joined by one concat with its sound, as cuts are, into
 * [framed] and [cuta]. Sound fades only at the joints of kept stretches, not at shot changes.
 */
function autoFilters(edit: Edit, pieces: readonly AutoPiece[], size: { width: number; height: number }, hasAudio: boolean, t0: number): string {
  const n = pieces.length;
  const labels = (p: string) => pieces.map((_, i) => `[${p}${i}]`).join('');
  const parts = [`[0:v]split=${n}${labels('vs')}`];
  if (hasAudio) parts.push(`[0:a:0]asplit=${n}${labels('as')}`);
  const joined: string[] = [];
  pieces.forEach((p, i) => {
    const a = sec6(Math.max(0, p.start - t0));
    const b = sec6(p.end - t0);
    const { shot } = p;
    const layout = {
      aspect: edit.layout.aspect,
      reframe: shot.reframe,
      ...(edit.layout.cropPath ? { cropPath: edit.layout.cropPath } : {}),
      ...(shot.splitPaths ? { splitPaths: shot.splitPaths } : {}),
      ...(shot.screenPath ? { screenPath: shot.screenPath } : {}),
      ...(edit.layout.zoom ? { zoom: edit.layout.zoom } : {}),
    };
    const piece: Edit = { ...edit, in: p.start, out: p.end, segments: undefined, layout };
    parts.push(`[vs${i}]trim=start=${a}:end=${b},setpts=PTS-STARTPTS[pv${i}]`);
    parts.push(reframeFilters(piece, `vc${i}`, `[pv${i}]`, size, null, `p${i}`));
    joined.push(`[vc${i}]`);
    if (hasAudio) {
      const len = p.end - p.start;
      const fade = Math.min(JOINT_FADE_SECONDS, len / 2);
      const chain = [`atrim=start=${a}:end=${b}`, 'asetpts=PTS-STARTPTS'];
      if (p.cutBefore) chain.push(`afade=t=in:st=0:d=${sec(fade)}`);
      if (p.cutAfter) chain.push(`afade=t=out:st=${sec(len - fade)}:d=${sec(fade)}`);
      parts.push(`[as${i}]${chain.join(',')}[ac${i}]`);
      joined.push(`[ac${i}]`);
    }
  });
  parts.push(`${joined.join('')}concat=n=${n}:v=1:a=${hasAudio ? 1 : 0}[framed]${hasAudio ? '[cuta]' : ''}`);
  return parts.join(';');
}

/** The punch-ins of an edit on its output timeline (one kept stretch each; one across a joint is left out). */
export function outputPunchIns(edit: Edit, segs: readonly Segment[] | null): PunchIn[] {
  if (edit.layout.punchIn !== 'subtle' || !edit.layout.punchIns?.length) return [];
  const stretches = segs ?? [{ start: edit.in, end: edit.out }];
  const out: PunchIn[] = [];
  for (const p of edit.layout.punchIns) {
    const a = sourceToOutput(stretches, p.start);
    const b = sourceToOutput(stretches, p.end);
    if (a === null || b === null || Math.abs(b - a - (p.end - p.start)) > 0.01) continue;
    out.push({ start: a, end: b });
  }
  return out;
}

/**
 * The zoom of the punch-ins as an ffmpeg expression of the input time `it` (null without any): 1, and
 * for each punch-in 1 + (PUNCH_IN_ZOOM - 1) x smoothstep(u), u rising from 0 to 1 over the ease at its
 * start and back at its end (the same curve as punchInZoom).
 */
export function punchInExpression(edit: Edit, segs: readonly Segment[] | null): string | null {
  const ps = outputPunchIns(edit, segs);
  if (ps.length === 0) return null;
  const k = Math.round((PUNCH_IN_ZOOM - 1) * 1000) / 1000;
  const terms = ps.map((p) => {
    const e = sec(Math.min(PUNCH_IN_EASE, (p.end - p.start) / 2));
    const u = `clip(min((it-${sec(p.start)})/${e},(${sec(p.end)}-it)/${e}),0,1)`;
    return `between(it,${sec(p.start)},${sec(p.end)})*${u}*${u}*(3-2*${u})`;
  });
  return `1+${k}*(${terms.join('+')})`;
}

/**
 * The punch-in filters after the reframe (nothing without punch-ins): the picture at a constant frame
 * rate (the source's, else 30), then `zoompan` one output frame per input frame, zooming around the
 * centre by punchInExpression, at the frame size.
 */
export function punchInFilters(edit: Edit, segs: readonly Segment[] | null, size: { width: number; height: number }, fps?: number): string {
  const z = punchInExpression(edit, segs);
  if (!z) return '';
  const rate = fps && fps > 0 ? Math.round(fps * 1000) / 1000 : 30;
  return `fps=${rate},zoompan=z='${z}':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=${size.width}x${size.height}:fps=${rate},setsar=1`;
}

/** The whole `-filter_complex` graph with outputs [v] and [a]. */
export function buildFilterComplex(edit: Edit, paths: RenderPaths, opts: RenderCommandOptions): string {
  const { width, height } = frameSize(edit, opts.quality);
  const segs = renderedSegments(edit, opts.fps);
  const chain: string[] = [];
  const punch = punchInFilters(edit, segs, { width, height }, opts.fps);
  if (punch) chain.push(punch);
  if (paths.assFile) chain.push(`ass=filename=${escapeFilterValue(paths.assFile)}:fontsdir=${escapeFilterValue(paths.fontsDir)}`);
  if (edit.watermark) {
    if (!paths.watermarkFontFile) throw new RangeError('a watermark needs watermarkFontFile');
    chain.push(watermarkFilter(paths.watermarkFontFile, width, height));
  }
  chain.push('format=yuv420p');
  const dur = sec(segs ? segmentsDuration(segs) : clipDuration(edit));
  const pieces = edit.layout.reframe === 'auto' && edit.layout.shots?.length ? autoPieces(edit, segs) : [];
  if (pieces.length > 0) {
    // `auto` with shots: pieces framed one by one and joined with their sound.
    const auto = autoFilters(edit, pieces, { width, height }, opts.hasAudio, segs ? cutSeek(segs) : edit.in);
    const sound = opts.hasAudio
      ? `[cuta]${LOUDNORM},aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]`
      : `anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=${dur},aformat=sample_fmts=fltp[a]`;
    return `${auto};[framed]${chain.join(',')}[v];${sound}`;
  }
  const video = `${reframeFilters(edit, 'framed', segs ? '[cutv]' : '[0:v]', { width, height }, segs)};[framed]${chain.join(',')}[v]`;
  const audio = opts.hasAudio
    ? `${segs ? '[cuta]' : '[0:a:0]'}${LOUDNORM},aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]`
    : `anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=${dur},aformat=sample_fmts=fltp[a]`;
  return `${segs ? `${cutFilters(segs, opts.hasAudio)};` : ''}${video};${audio}`;
}

/** The ffmpeg arguments (without global flags) that render `edit` from paths.input to paths.output. */
export function buildRenderCommand(edit: Edit, paths: RenderPaths, opts: RenderCommandOptions): RenderCommand {
  const { width, height } = frameSize(edit, opts.quality);
  const segs = renderedSegments(edit, opts.fps);
  const durationSeconds = segs ? segmentsDuration(segs) : clipDuration(edit);
  const filterComplex = buildFilterComplex(edit, paths, opts);
  const args = [
    '-protocol_whitelist',
    'file',
    '-ss',
    sec(segs ? cutSeek(segs) : edit.in),
    '-f',
    paths.inputFormat,
    '-i',
    `file:${path.resolve(paths.input)}`,
    '-filter_complex',
    filterComplex,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-t',
    sec(durationSeconds),
    ...(opts.quality === 'preview' ? PREVIEW_VIDEO_CODEC_ARGS : VIDEO_CODEC_ARGS),
    ...AUDIO_CODEC_ARGS,
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-max_muxing_queue_size',
    '4096',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    `file:${path.resolve(paths.output)}`,
  ];
  return { args, filterComplex, durationSeconds, width, height };
}

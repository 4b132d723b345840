import { sniffFile } from './container.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assFontFamilies, buildAss } from './captions.ass.js';
import { editHash, validateEdit, type Edit } from '../../domain/edits/edit.js';
import { buildRenderCommand, renderedSegments, type RenderCommand, type RenderQuality } from './filter-graph.js';
import type { MediaInfo } from '../../ports/media.js';
import { FfmpegError, runFfmpeg } from './ffmpeg-run.js';
import { probe, ProbeError } from './ffprobe.js';
import { FontMissingError, verifyFonts, WATERMARK_FONT_FAMILY } from './fonts.js';

/**
 * Renders one edit to an MP4 with ffmpeg: checks the edit and the fonts, probes the source, writes
 * the ASS script to a temporary folder, runs the command from filter-graph.ts through the shared
 * runner (progress from `-progress`), writes to a hidden temporary name next to the output and
 * renames it into place only when ffmpeg succeeded, so a crash never leaves a half-written file
 * under the final name.
 */

export type RenderErrorCode = 'EDIT_INVALID' | 'SOURCE_UNREADABLE' | 'RENDER_FONT_MISSING' | 'RENDER_FFMPEG_FAILED' | 'RENDER_TIMEOUT' | 'RENDER_ABORTED';

export class RenderError extends Error {
  constructor(
    readonly error_code: RenderErrorCode,
    message: string,
    readonly detail: string[] = [],
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

export interface RenderEditOptions {
  /** Local path of the source (the file `edit.source.key` names in storage). */
  inputPath: string;
  /** Final path of the MP4; its folder must exist. Replaced atomically when present. */
  outputPath: string;
  /** Folder with the caption fonts (fonts.ts prepareFontsDir). */
  fontsDir: string;
  /** Integer percent 0..100, increasing; 100 only once the file is in place. */
  onProgress?: (pct: number) => void;
  signal?: AbortSignal;
  /** Kills ffmpeg after this long (RENDER_TIMEOUT). Default: no limit. */
  timeoutMs?: number;
  /** Already probed source; skips the ffprobe run. */
  sourceInfo?: MediaInfo;
  /** `final` (default) or `preview` (360 px on the short side, x264 ultrafast). */
  quality?: RenderQuality;
}

export interface RenderResult {
  outputPath: string;
  editHash: string;
  durationSeconds: number;
  width: number;
  height: number;
  sizeBytes: number;
  /** False when the output's audio is the generated silent track. */
  sourceHadAudio: boolean;
  /** Whole call, and the ffmpeg run alone. */
  elapsedMs: number;
  ffmpegMs: number;
  command: RenderCommand;
}

/** Lines of ffmpeg's stderr worth showing (fontconfig's configuration warnings are noise). */
function usefulTail(lines: readonly string[]): string[] {
  return lines.filter((l) => !/^Fontconfig (warning|error)/.test(l)).slice(-20);
}

async function probeSource(edit: Edit, opts: RenderEditOptions): Promise<MediaInfo> {
  let info: MediaInfo;
  try {
    info = opts.sourceInfo ?? (await probe(opts.inputPath, { signal: opts.signal }));
  } catch (err) {
    if (opts.signal?.aborted) throw new RenderError('RENDER_ABORTED', 'render aborted');
    const detail = err instanceof ProbeError && err.detail ? err.detail.split('\n') : [];
    throw new RenderError('SOURCE_UNREADABLE', `source ${opts.inputPath} is not readable media: ${(err as Error).message}`, detail);
  }
  if (!info.hasVideo || info.width <= 0 || info.height <= 0) {
    throw new RenderError('SOURCE_UNREADABLE', `source ${opts.inputPath} has no video stream`);
  }
  if (info.duration > 0 && edit.out > info.duration + 0.5) {
    throw new RenderError('SOURCE_UNREADABLE', `source is ${info.duration.toFixed(2)} s long; the edit ends at ${edit.out} s`);
  }
  return info;
}

export async function renderEdit(edit: Edit, opts: RenderEditOptions): Promise<RenderResult> {
  const started = Date.now();
  if (opts.signal?.aborted) throw new RenderError('RENDER_ABORTED', 'render aborted before start');
  const invalid = validateEdit(edit);
  if (invalid.length) {
    throw new RenderError('EDIT_INVALID', `invalid edit: ${invalid.map((e) => `${e.field} (${e.rule})`).join(', ')}`);
  }

  const families = assFontFamilies(edit);
  if (edit.watermark) families.push(WATERMARK_FONT_FAMILY);
  let fonts: Map<string, string>;
  try {
    fonts = verifyFonts(opts.fontsDir, families);
  } catch (err) {
    if (err instanceof FontMissingError) throw new RenderError('RENDER_FONT_MISSING', err.message, err.families);
    throw err;
  }

  const info = await probeSource(edit, opts);
  const inputFormat = sniffFile(opts.inputPath);
  if (!inputFormat) throw new RenderError('SOURCE_UNREADABLE', `source ${opts.inputPath} is not a media container the service reads`);
  const outDir = path.dirname(path.resolve(opts.outputPath));
  const tag = randomBytes(6).toString('hex');
  const partPath = path.join(outDir, `.${path.basename(opts.outputPath)}.${tag}.part`);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-render-'));
  let last = -1;
  const report = (pct: number) => {
    const p = Math.max(0, Math.min(100, Math.floor(pct)));
    if (p > last) {
      last = p;
      opts.onProgress?.(p);
    }
  };

  try {
    // A cut edit is rendered from its stretches on the source's frames; the captions follow the same cuts.
    const segs = renderedSegments(edit, info.fps);
    const ass = buildAss(segs ? { ...edit, segments: segs } : edit);
    const assFile = ass ? path.join(workDir, 'captions.ass') : null;
    if (assFile && ass) fs.writeFileSync(assFile, ass, 'utf8');
    const command = buildRenderCommand(
      edit,
      {
        input: opts.inputPath,
        inputFormat,
        output: partPath,
        assFile,
        fontsDir: path.resolve(opts.fontsDir),
        watermarkFontFile: edit.watermark ? (fonts.get(WATERMARK_FONT_FAMILY) ?? null) : null,
      },
      { hasAudio: info.hasAudio, quality: opts.quality ?? 'final', fps: info.fps },
    );
    report(0);
    const duration = command.durationSeconds;
    let ffmpegMs: number;
    try {
      const res = await runFfmpeg(command.args, {
        durationSeconds: duration,
        // The moov atom is moved to the front after the last frame: 99 until the file is in place.
        onProgress: (p) => report(Math.min(99, p.fraction * 100)),
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        stderrTailLines: 80,
      });
      ffmpegMs = res.elapsedMs;
    } catch (err) {
      if (err instanceof FfmpegError) {
        const tail = usefulTail(err.stderrTail);
        if (err.reason === 'aborted') throw new RenderError('RENDER_ABORTED', 'render aborted', tail);
        if (err.reason === 'timeout') throw new RenderError('RENDER_TIMEOUT', err.message, tail);
        throw new RenderError('RENDER_FFMPEG_FAILED', `ffmpeg failed: ${tail[tail.length - 1] ?? err.message}`, tail);
      }
      throw err;
    }
    const size = fs.statSync(partPath).size;
    if (size === 0) throw new RenderError('RENDER_FFMPEG_FAILED', 'ffmpeg wrote an empty file');
    fs.renameSync(partPath, opts.outputPath);
    report(100);
    return {
      outputPath: opts.outputPath,
      editHash: editHash(edit),
      durationSeconds: duration,
      width: command.width,
      height: command.height,
      sizeBytes: size,
      sourceHadAudio: info.hasAudio,
      elapsedMs: Date.now() - started,
      ffmpegMs,
      command,
    };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
    fs.rmSync(partPath, { force: true });
  }
}

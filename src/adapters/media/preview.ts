import { localMedia, type LocalMedia } from './container.js';
import { localInputArgs, runFfmpeg } from './ffmpeg-run.js';
import type { PreviewRenderer } from '../../ports/media.js';

/** ffmpeg arguments of a clip preview: the stretch as it is, 480 px high, streamable (pure). */
export function buildPreviewArgs(input: LocalMedia, output: string, start: number, end: number): string[] {
  return [
    '-ss',
    start.toFixed(3),
    ...localInputArgs(input),
    '-t',
    (end - start).toFixed(3),
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-vf',
    'scale=-2:480:flags=bicubic,format=yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-profile:v',
    'high',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    '-y',
    output,
  ];
}

export async function renderPreview(input: string, output: string, start: number, end: number, signal?: AbortSignal): Promise<void> {
  await runFfmpeg(buildPreviewArgs(localMedia(input), output, start, end), { durationSeconds: end - start, signal });
}

/** The PreviewRenderer port on ffmpeg (the pipeline's finalizing stage). */
export class FfmpegPreviewRenderer implements PreviewRenderer {
  renderPreview(input: string, output: string, start: number, end: number): Promise<void> {
    return renderPreview(input, output, start, end);
  }
}

import path from 'node:path';
import type { EmbeddedGenerator, EmbeddedOutput, EmbeddedRun } from '../../ports/images.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { imageCutout, imageMotion, imageUpscale, MotionTask } from './images.tasks.js';
import * as tasks from './images.tasks.js';
import type { Motion } from './motion.js';

/** How a task reaches its thread: the compute pool's, or a direct call on the event loop (no threads). */
type Runner = {
  upscale(p: Parameters<typeof imageUpscale>[0], signal?: AbortSignal): ReturnType<typeof imageUpscale>;
  cutout(p: Parameters<typeof imageCutout>[0], signal?: AbortSignal): ReturnType<typeof imageCutout>;
  motion(p: MotionTask, signal?: AbortSignal): ReturnType<typeof imageMotion>;
};

const SHORT_SIDE: Record<string, number> = { '360p': 360, '720p': 720, '1080p': 1080 };
const FPS = 30;

/**
 * The embedded engines (images.tasks.ts) behind the EmbeddedGenerator port, run in the compute pool's
 * threads (or on the event loop when there are none: CUTROOM_COMPUTE_THREADS=0).
 */
export class LocalEmbeddedGenerator implements EmbeddedGenerator {
  private readonly runner: Runner;

  constructor(
    pool: WorkerPool | null,
    private readonly opts: { videoTimeoutMs?: number } = {},
  ) {
    this.runner = pool
      ? {
          upscale: (p, signal) => pool.run<typeof imageUpscale>('imageUpscale', p, { signal }),
          cutout: (p, signal) => pool.run<typeof imageCutout>('imageCutout', p, { signal }),
          motion: (p, signal) => pool.run<typeof imageMotion>('imageMotion', p, { signal }),
        }
      : {
          upscale: (p, signal) => tasks.imageUpscale(p, { signal }),
          cutout: (p) => tasks.imageCutout(p),
          motion: (p, signal) => tasks.imageMotion(p, { signal }),
        };
  }

  async run(engine: string, input: EmbeddedRun): Promise<EmbeddedOutput> {
    const file = input.images[0];
    if (!file) throw new Error(`${engine} needs one image`);
    const o = input.options;
    switch (engine) {
      case 'upscale-x4': {
        const outFile = path.join(input.outDir, 'upscaled.png');
        const r = await this.runner.upscale({ file, outFile }, input.signal);
        return { file: outFile, contentType: 'image/png', width: r.width, height: r.height, engine: r.engine };
      }
      case 'cutout': {
        const outFile = path.join(input.outDir, 'cutout.png');
        const bg = typeof o.background === 'string' && /^#[0-9a-fA-F]{6}$/.test(o.background) ? o.background : null;
        const background: [number, number, number] | null = bg
          ? [parseInt(bg.slice(1, 3), 16), parseInt(bg.slice(3, 5), 16), parseInt(bg.slice(5, 7), 16)]
          : null;
        const r = await this.runner.cutout({ file, outFile, background }, input.signal);
        return { file: outFile, contentType: 'image/png', width: r.width, height: r.height, engine: r.engine };
      }
      case 'camera-motion':
      case 'parallax': {
        const outFile = path.join(input.outDir, `${engine}.mp4`);
        const seconds = Number(o.duration ?? 5);
        const r = await this.runner.motion(
          {
            file,
            outFile,
            motion: String(o.motion ?? 'push_in') as Motion,
            seconds,
            fps: FPS,
            aspect: String(o.aspect_ratio ?? '16:9'),
            short: SHORT_SIDE[String(o.resolution ?? '720p')] ?? 720,
            parallax: engine === 'parallax',
            timeoutMs: this.opts.videoTimeoutMs,
          },
          input.signal,
        );
        return { file: outFile, contentType: 'video/mp4', width: r.width, height: r.height, seconds: r.frames / FPS, engine: r.engine };
      }
      default:
        throw new Error(`unknown embedded engine ${engine}`);
    }
  }
}

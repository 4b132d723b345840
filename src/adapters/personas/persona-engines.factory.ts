import path from 'node:path';
import type { GenerationsConfig } from '../../config/generations.env.js';
import type { HostedPersonaEngineConfig, PersonasConfig } from '../../config/personas.env.js';
import type { FaceMesher } from '../../ports/face-detector.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { MediaProbe } from '../../ports/media.js';
import type { PortraitEngine, SwapEngine } from '../../ports/persona-engines.js';
import { decodeFacePhoto } from '../faces/face-photo.read.js';
import { WorkerFaceMesher } from '../faces/worker.face-detector.js';
import { createHostedClient } from '../generation/hosted-client.factory.js';
import { SafeOutputFetcher } from '../generation/output-fetcher.js';
import { decodeImage, encodePng, resizeRaw } from '../images/image-format.js';
import { imageUpscale } from '../images/images.tasks.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import { FacePhotoPortraitEngine } from './face-photo.portrait.js';
import { HeadSwapEngine } from './head-swap.engine.js';
import { swapFrame, type SwapFrameTask } from './head-swap.tasks.js';
import { HostedPortraitEngine, HostedSwapEngine, type HostedEngineOptions } from './hosted.engines.js';
import { IllustrationPortraitEngine, illustrationCutout } from './illustration.portrait.js';
import { rasteriseSvg } from './svg-raster.js';

export interface PersonaEnginesOptions {
  personas: PersonasConfig;
  /** Polling, time limit and output ceiling of hosted engines (the generations' settings). */
  generations: Pick<GenerationsConfig, 'pollMs' | 'timeoutMs' | 'outputMaxBytes'>;
  /** CUTROOM_ALLOW_PRIVATE_SOURCES: hosted outputs on private addresses. */
  allowPrivateSources: boolean;
  /** The compute pool (null: 0 threads, its tasks run on the event loop). */
  pool: WorkerPool | null;
  /** CUTROOM_COMPUTE_THREADS (the head swap's frame concurrency). */
  computeThreads: number;
  files: LocalFiles;
  probe: MediaProbe;
}

/** The engines personas use: portraits from chips and from own-face photos, the presets' drawings, the swap. */
export interface PersonaEngineSet {
  chips: PortraitEngine;
  faces: PortraitEngine;
  presets: PortraitEngine;
  swap: SwapEngine;
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * The persona engines: hosted ones where the operator configured them (CUTROOM_PERSONA_PORTRAIT_*,
 * CUTROOM_PERSONA_SWAP_*, through the shared hosted clients), else the embedded ones: illustrations from
 * chips, portraits from own-face photos (aligned, ESRGAN-enhanced in the compute pool), the head swap
 * with its per-frame work in the pool. Presets are always drawn by the embedded illustrator.
 */
export function createPersonaEngines(o: PersonaEnginesOptions): PersonaEngineSet {
  const { pool, files } = o;

  let mesher: Promise<FaceMesher> | undefined;
  const getMesher = () => {
    mesher ??= WorkerFaceMesher.create(pool);
    mesher.catch(() => (mesher = undefined));
    return mesher;
  };

  const upscale = (rgb: Uint8Array, width: number, height: number) =>
    files.withTempDir('persona-up-', async (dir) => {
      const file = path.join(dir, 'crop.png');
      const outFile = path.join(dir, 'up.png');
      await encodePng({ width, height, channels: 3, data: asBuffer(rgb) }, file);
      if (pool) await pool.run<typeof imageUpscale>('imageUpscale', { file, outFile });
      else await imageUpscale({ file, outFile });
      return (await decodeImage(outFile)).data;
    });

  const fetcher = new SafeOutputFetcher({ allowPrivate: o.allowPrivateSources });
  const hostedOptions = (cfg: HostedPersonaEngineConfig): HostedEngineOptions => ({
    client: createHostedClient({ provider: cfg.provider, baseUrl: cfg.baseUrl, apiKey: cfg.apiKey }),
    model: cfg.model,
    options: cfg.options,
    imageField: cfg.imageField,
    pollMs: o.generations.pollMs,
    timeoutMs: o.generations.timeoutMs,
    fetcher,
    maxBytes: o.generations.outputMaxBytes,
    trustedOrigin: cfg.baseUrl,
    files,
  });
  const portraitCfg = o.personas.portrait;
  const chips: PortraitEngine = portraitCfg
    ? new HostedPortraitEngine({
        ...hostedOptions(portraitCfg),
        async toPng(file) {
          const img = await decodeImage(file);
          return { png: (await encodePng(img))!, width: img.width, height: img.height };
        },
      })
    : new IllustrationPortraitEngine(rasteriseSvg);
  const faces = new FacePhotoPortraitEngine({
    decode: decodeFacePhoto,
    upscale,
    resize: async (img, width, height) => resizeRaw({ ...img, channels: 3, data: asBuffer(img.data) }, width, height),
    encodePng: async (img) => (await encodePng({ width: img.width, height: img.height, channels: 3, data: asBuffer(img.data) }))!,
  });
  const swapCfg = o.personas.swap;
  const swap: SwapEngine = swapCfg
    ? new HostedSwapEngine({ ...hostedOptions(swapCfg), replaceModes: swapCfg.replace, videoField: swapCfg.videoField, probe: o.probe })
    : new HeadSwapEngine({
        mesher: getMesher,
        runFrame: (task: SwapFrameTask) =>
          pool ? pool.run<typeof swapFrame>('swapFrame', task, { transfer: [task.data.buffer as ArrayBuffer] }) : Promise.resolve(swapFrame(task)),
        probe: o.probe,
        decode: async (png, alpha) => decodeImage(asBuffer(png), { alpha }),
        illustrationCutout,
        maxWidth: o.personas.swapMaxWidth,
        concurrency: Math.max(2, (pool ? o.computeThreads : 1) * 2),
      });
  return { chips, faces, swap, presets: portraitCfg ? new IllustrationPortraitEngine(rasteriseSvg) : chips };
}

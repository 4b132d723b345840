import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzlePersonasRepository } from '../adapters/db/repositories/personas.repository.js';
import { DrizzleSettingsRepository } from '../adapters/db/repositories/settings.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { FacePhotoReader, WorkerFaceMesher } from '../adapters/faces/worker.face-detector.js';
import { decodeFacePhoto } from '../adapters/faces/face-photo.read.js';
import { decodeImage, encodePng, resizeRaw } from '../adapters/images/image-format.js';
import { imageUpscale } from '../adapters/images/images.tasks.js';
import { FacePhotoPortraitEngine } from '../adapters/personas/face-photo.portrait.js';
import { HeadSwapEngine } from '../adapters/personas/head-swap.engine.js';
import { swapFrame, type SwapFrameTask } from '../adapters/personas/head-swap.tasks.js';
import { IllustrationPortraitEngine, illustrationCutout } from '../adapters/personas/illustration.portrait.js';
import { HostedPortraitEngine, HostedSwapEngine, type HostedEngineOptions } from '../adapters/personas/hosted.engines.js';
import { createHostedClient } from '../adapters/generation/hosted-client.factory.js';
import { SafeOutputFetcher } from '../adapters/generation/output-fetcher.js';
import type { HostedPersonaEngineConfig } from '../config/personas.env.js';
import type { PortraitEngine, SwapEngine } from '../ports/persona-engines.js';
import { rasteriseSvg } from '../adapters/personas/svg-raster.js';
import { createSourceDownloader } from '../adapters/sources/downloader.js';
import type { WorkerPool } from '../adapters/workers/worker-pool.js';
import { PricedCharges } from '../domain/credits/priced-charge.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { editHash, type Edit } from '../domain/edits/edit.js';
import { PersonaVideosService } from '../domain/personas/persona-videos.service.js';
import { PersonaPricesService } from '../domain/personas/persona-prices.service.js';
import { PersonaProcessor } from '../domain/personas/personas.processor.js';
import { PersonasService } from '../domain/personas/personas.service.js';
import type { TranscriptionsService } from '../domain/transcriptions/transcriptions.service.js';
import type { VideosService } from '../domain/videos/videos.service.js';
import type { EventPublisher } from '../domain/webhooks/events.js';
import type { FaceMesher } from '../ports/face-detector.js';
import type { MediaProbe } from '../ports/media.js';
import { PersonaEngineError } from '../ports/persona-engines.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';
import { newId } from '../shared/ids.js';

export interface PersonasWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  credits: CreditsService;
  /** The media uploads (persona sources are media) and the library videos, read when used (the container). */
  services: () => { transcriptions: TranscriptionsService; videos: VideosService };
  events: EventPublisher;
  /** The compute pool (null: 0 threads, tasks run here). */
  pool: WorkerPool | null;
}

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * Personas: the services (API), the processor (jobs `persona.portrait`, `persona.swap`) and the
 * embedded engines: illustrations from chips, portraits from own-face photos (aligned, ESRGAN-enhanced),
 * the head swap with its per-frame work in the compute pool.
 */
export function createPersonas(w: PersonasWiring) {
  const db = w.database.db;
  const repo = new DrizzlePersonasRepository(db);
  const files = new NodeLocalFiles(os.tmpdir());
  const prices = new PersonaPricesService({ settings: new DrizzleSettingsRepository(db) });
  const charges = new PricedCharges({ credits: w.credits, topUpUrl: w.config.billing.topUpUrl });
  const pool = w.pool;

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

  // Hosted engines the operator configured (CUTROOM_PERSONA_PORTRAIT_*, CUTROOM_PERSONA_SWAP_*), through the shared clients.
  const fetcher = new SafeOutputFetcher({ allowPrivate: w.config.sources.allowPrivateSources });
  const hostedOptions = (cfg: HostedPersonaEngineConfig): HostedEngineOptions => ({
    client: createHostedClient({ provider: cfg.provider, baseUrl: cfg.baseUrl, apiKey: cfg.apiKey }),
    model: cfg.model,
    options: cfg.options,
    imageField: cfg.imageField,
    pollMs: w.config.generations.pollMs,
    timeoutMs: w.config.generations.timeoutMs,
    fetcher,
    maxBytes: w.config.generations.outputMaxBytes,
    trustedOrigin: cfg.baseUrl,
    files,
  });
  const portraitCfg = w.config.personas.portrait;
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
  const swapCfg = w.config.personas.swap;
  const swap: SwapEngine = swapCfg
    ? new HostedSwapEngine({ ...hostedOptions(swapCfg), replaceModes: swapCfg.replace, videoField: swapCfg.videoField, probe: w.media })
    : new HeadSwapEngine({
    mesher: getMesher,
    runFrame: (task: SwapFrameTask) => (pool ? pool.run<typeof swapFrame>('swapFrame', task, { transfer: [task.data.buffer as ArrayBuffer] }) : Promise.resolve(swapFrame(task))),
    probe: w.media,
    decode: async (png, alpha) => decodeImage(asBuffer(png), { alpha }),
    illustrationCutout,
    maxWidth: w.config.personas.swapMaxWidth,
    concurrency: Math.max(2, (pool ? w.config.computeThreads : 1) * 2),
  });

  const photos = new FacePhotoReader(pool);
  const personas = new PersonasService({
    repo,
    transactions: w.transactions,
    storage: w.storage,
    queue: w.queue,
    charges,
    engines: { chips, faces, swap, presets: portraitCfg ? new IllustrationPortraitEngine(rasteriseSvg) : chips },
    prices: () => prices.get(),
    putImage: (key, bytes, contentType) =>
      files.withTempDir('persona-img-', async (dir) => {
        const file = path.join(dir, 'image');
        await fs.writeFile(file, bytes);
        await w.storage.putFile(key, file, contentType);
      }),
    // Header, pixel ceiling, a copy of at most 2048 px and the face mesh, in the compute pool (face-photo.read.ts).
    readPhoto: (bytes) => photos.read(bytes),
    maxPhotoBytes: w.config.personas.photoMaxBytes,
    events: w.events,
  });

  const personaVideos = new PersonaVideosService({
    repo,
    transactions: w.transactions,
    storage: w.storage,
    queue: w.queue,
    charges,
    personas,
    prices: () => prices.get(),
    swap,
    probe: (file) => w.media.probe(file),
    media: {
      createUpload: (ctx, input) => w.services().transcriptions.createUpload(ctx, input),
      find: (ws, id) => w.services().transcriptions.getMedia(ws, id).catch(() => undefined),
      complete: async (ws, id) => w.services().transcriptions.prepareMedia(await w.services().transcriptions.getMedia(ws, id)),
    },
    videos: { find: (ws, id) => w.services().videos.get(ws, id).catch(() => undefined) },
    maxSourceBytes: w.config.personas.sourceMaxBytes,
    events: w.events,
  });

  const tmpDir = path.join(w.config.dataDir, 'tmp');
  const downloader = createSourceDownloader({ sources: w.config.sources, probe: w.media, tmpDir });
  const edits = new DrizzleClipsRepository(db);
  const personaProcessor = new PersonaProcessor({
    repo,
    storage: w.storage,
    personas,
    videos: personaVideos,
    engines: { chips, faces, swap },
    files,
    logger: w.logger,
    readFile: async (file) => fs.readFile(file),
    writeFile: (file, bytes) => fs.writeFile(file, bytes),
    async downloadLink(source, key) {
      await fs.mkdir(tmpDir, { recursive: true });
      const out = await downloader.download(source, { storage: w.storage, key }, { maxBytes: w.config.personas.sourceMaxBytes });
      if (out.kind === 'waiting') throw new PersonaEngineError('SOURCE_NOT_AVAILABLE_YET', 'the library video is not available yet');
    },
    async createEdit(workspaceId: string, spec: Edit) {
      const id = newId('edit');
      await w.transactions.run((tx) => edits.insertEdit(tx, { id, workspaceId, clipId: null, hash: editHash(spec), spec, templateId: null }));
      return id;
    },
  });

  return { personas, personaVideos, personaProcessor, personaPrices: prices };
}

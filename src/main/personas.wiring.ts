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
import { FacePhotoReader } from '../adapters/faces/worker.face-detector.js';
import { createPersonaEngines } from '../adapters/personas/persona-engines.factory.js';
import { createSourceDownloader } from '../adapters/sources/downloader.js';
import { bytesToStorage } from '../adapters/storage/put-bytes.js';
import type { WorkerPool } from '../adapters/workers/worker-pool.js';
import { PricedCharges } from '../domain/credits/priced-charge.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { PersonaVideosService } from '../domain/personas/persona-videos.service.js';
import { PersonaPricesService } from '../domain/personas/persona-prices.service.js';
import { PersonaProcessor } from '../domain/personas/personas.processor.js';
import { PersonasService } from '../domain/personas/personas.service.js';
import type { TranscriptionsService } from '../domain/transcriptions/transcriptions.service.js';
import type { VideosService } from '../domain/videos/videos.service.js';
import type { EventPublisher } from '../domain/webhooks/events.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';

export interface PersonasWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  credits: CreditsService;
  /** The media uploads (persona sources are media). */
  transcriptions: Pick<TranscriptionsService, 'createUpload' | 'getMedia' | 'prepareMedia'>;
  /** The library videos (a persona source may be one). */
  videos: Pick<VideosService, 'get'>;
  events: EventPublisher;
  /** The compute pool (null: 0 threads, tasks run here). */
  pool: WorkerPool | null;
}

/**
 * Personas: the services (API), the processor (jobs `persona.portrait`, `persona.swap`) and their
 * engines (adapters/personas/persona-engines.factory.ts).
 */
export function createPersonas(w: PersonasWiring) {
  const db = w.database.db;
  const repo = new DrizzlePersonasRepository(db);
  const files = new NodeLocalFiles(os.tmpdir());
  const prices = new PersonaPricesService({ settings: new DrizzleSettingsRepository(db) });
  const charges = new PricedCharges({ credits: w.credits, topUpUrl: w.config.billing.topUpUrl });
  const { chips, faces, swap, presets } = createPersonaEngines({
    personas: w.config.personas,
    generations: w.config.generations,
    allowPrivateSources: w.config.sources.allowPrivateSources,
    pool: w.pool,
    computeThreads: w.config.computeThreads,
    files,
    probe: w.media,
  });

  const photos = new FacePhotoReader(w.pool);
  const personas = new PersonasService({
    repo,
    transactions: w.transactions,
    storage: w.storage,
    queue: w.queue,
    charges,
    engines: { chips, faces, swap, presets },
    prices: () => prices.get(),
    putImage: bytesToStorage(w.storage, files, 'persona-img-'),
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
    media: w.transcriptions,
    videos: w.videos,
    maxSourceBytes: w.config.personas.sourceMaxBytes,
    events: w.events,
  });

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
    downloader: createSourceDownloader({ sources: w.config.sources, probe: w.media, tmpDir: path.join(w.config.dataDir, 'tmp') }),
    maxSourceBytes: w.config.personas.sourceMaxBytes,
    edits: new DrizzleClipsRepository(db),
    transactions: w.transactions,
  });

  return { personas, personaVideos, personaProcessor, personaPrices: prices };
}

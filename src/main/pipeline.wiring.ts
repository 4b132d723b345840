import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleClipsRepository } from '../adapters/db/repositories/clips.repository.js';
import { DrizzleSubmissionsRepository } from '../adapters/db/repositories/submissions.repository.js';
import { DrizzleVideosRepository } from '../adapters/db/repositories/videos.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { createAsrEngine } from '../adapters/asr/asr.factory.js';
import { FfmpegAudioExtractor } from '../adapters/media/audio-extract.js';
import { FfmpegPreviewRenderer } from '../adapters/media/preview.js';
import { ffmpegAnalysisPasses } from '../adapters/media/analysis-passes.js';
import { createLlmScorer } from '../adapters/llm/openai-chat.scorer.js';
import { WordNetLexicon } from '../adapters/lexicon/wordnet.lexicon.js';
import { createSourceDownloader } from '../adapters/sources/downloader.js';
import type { FaceDetector } from '../ports/face-detector.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { AsrEngine } from '../ports/asr.js';
import type { SubmissionFailure } from '../domain/submissions/submission-failure.js';
import type { TemplatesService } from '../domain/templates/templates.service.js';
import type { WorkspacesService } from '../domain/workspaces/workspaces.service.js';
import { SubmissionPipeline } from '../domain/submissions/pipeline.js';
import type { TransactionRunner } from '../ports/transactions.js';
import type { EventPublisher } from '../domain/webhooks/events.js';
import type { HighlightScorer } from '../ports/highlights.js';

export interface PipelineWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  asr: AsrEngine;
  /** How a run that gives up ends (shared with the submissions service). */
  failure: SubmissionFailure;
  templates: TemplatesService;
  workspaces: Pick<WorkspacesService, 'get'>;
  /** The face detector, loaded on first use (compute.wiring.ts). */
  faces(): Promise<FaceDetector>;
  /** Where highlight scoring runs, given the optional LLM scorer (compute.wiring.ts); absent: on the event loop. */
  highlights?(scorer?: HighlightScorer): HighlightScorer | undefined;
  /** Announces `submission.completed` (webhooks). */
  events?: EventPublisher;
}

/**
 * Builds the clipping pipeline from the configured adapters. The face detector loads on first use. Work
 * files (downloads, WAVs, previews) live in `<CUTROOM_DATA_DIR>/tmp`, on the data volume sized for
 * videos rather than a small system temp folder.
 */
export function createPipeline(w: PipelineWiring): SubmissionPipeline {
  const tmpDir = path.join(w.config.dataDir, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const downloader = createSourceDownloader({ sources: w.config.sources, probe: w.media, tmpDir });
  const db = w.database.db;
  return new SubmissionPipeline({
    repo: new DrizzleSubmissionsRepository(db),
    videos: new DrizzleVideosRepository(db),
    clips: new DrizzleClipsRepository(db),
    transactions: w.transactions,
    workspaces: w.workspaces,
    storage: w.storage,
    queue: w.queue,
    failure: w.failure,
    logger: w.logger,
    files: new NodeLocalFiles(tmpDir),
    downloader,
    audio: new FfmpegAudioExtractor(),
    asr: w.asr,
    analysis: ffmpegAnalysisPasses(w.media),
    faces: w.faces,
    scorer: w.highlights ? w.highlights(createLlmScorer(w.config.llm, w.logger)) : createLlmScorer(w.config.llm, w.logger),
    templates: w.templates,
    lexicon: new WordNetLexicon(),
    previews: new FfmpegPreviewRenderer(),
    events: w.events,
  });
}

export { createAsrEngine };

import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { DrizzleTranscriptionsRepository } from '../adapters/db/repositories/transcriptions.repository.js';
import { NodeLocalFiles } from '../adapters/files/local-files.js';
import { FfmpegAudioExtractor, extractWav } from '../adapters/media/audio-extract.js';
import { speechCheck } from '../adapters/vad/speech-check.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { TranscriptionProcessor } from '../domain/transcriptions/transcriptions.processor.js';
import { TranscriptionsService } from '../domain/transcriptions/transcriptions.service.js';
import type { AsrEngine } from '../ports/asr.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { TransactionRunner } from '../ports/transactions.js';
import type { Diarizer } from '../ports/diarizer.js';
import type { Vad } from '../ports/vad.js';
import type { EventPublisher } from '../domain/webhooks/events.js';

export interface TranscriptionsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  transactions: TransactionRunner;
  media: MediaProbe;
  credits: CreditsService;
  asr: AsrEngine;
  vad: Vad;
  diarizer: Diarizer;
  /** Announces `transcription.ready` and `transcription.failed` (webhooks). */
  events?: EventPublisher;
}

/**
 * The transcription service (API side: uploads, cache, voice detection at creation) and the
 * `transcription.process` worker, on the configured ASR engine and the voice detector and diarizer
 * of compute.wiring.ts (shared by both).
 */
export function createTranscriptions(w: TranscriptionsWiring) {
  const repo = new DrizzleTranscriptionsRepository(w.database.db);
  const files = new NodeLocalFiles(os.tmpdir());
  const vad = w.vad;
  const transcriptions = new TranscriptionsService({
    repo,
    transactions: w.transactions,
    storage: w.storage,
    files,
    probe: w.media,
    credits: w.credits,
    queue: w.queue,
    supportsLanguage: (lang) => w.asr.supportsLanguage(lang),
    hasSpeech: speechCheck({ files, audio: new FfmpegAudioExtractor(), vad }),
    singleUploadMaxBytes: w.config.multipartThresholdBytes,
    events: w.events,
  });
  const transcriptionProcessor = new TranscriptionProcessor({
    repo,
    storage: w.storage,
    transcriptions,
    logger: w.logger,
    files,
    extractAudio: extractWav,
    vad,
    asr: w.asr,
    diarizer: w.diarizer,
  });
  return { transcriptions, transcriptionProcessor, vad };
}

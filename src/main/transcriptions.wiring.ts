import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';
import type { Database } from '../adapters/db/database.js';
import { AudioExtractError, extractAudio } from '../adapters/media/audio-extract.js';
import { SileroVad } from '../adapters/vad/silero.vad.js';
import type { CreditsService } from '../domain/credits/credits.service.js';
import { diarize } from '../domain/transcripts/diarize.js';
import { TranscriptionProcessor } from '../domain/transcriptions/transcriptions.processor.js';
import { TranscriptionsService } from '../domain/transcriptions/transcriptions.service.js';
import type { AsrEngine } from '../ports/asr.js';
import type { MediaProbe } from '../ports/media.js';
import type { JobQueue } from '../ports/queue.js';
import type { Storage } from '../ports/storage.js';
import type { Vad } from '../ports/vad.js';

export interface TranscriptionsWiring {
  config: Config;
  logger: Logger;
  database: Database;
  storage: Storage;
  queue: JobQueue;
  media: MediaProbe;
  credits: CreditsService;
  asr: AsrEngine;
}

/** 16 kHz mono WAV of [start, end) of the input (jobs pass the measured duration); false when it has no sound track. */
async function extractWav(input: string, output: string, range: { start: number; end: number }): Promise<boolean> {
  try {
    await extractAudio(input, output, range);
    return true;
  } catch (err) {
    if (err instanceof AudioExtractError && err.code === 'NO_AUDIO_STREAM') return false;
    throw err;
  }
}

/**
 * The transcription service (API side: uploads, cache, voice detection at creation) and the
 * `transcription.process` worker, on the configured ASR engine, Silero VAD (loaded on first use,
 * shared by both) and the embedded diarizer.
 */
export function createTranscriptions(w: TranscriptionsWiring) {
  const db = w.database.db;
  const vad: Vad = new SileroVad();
  const tmpDir = os.tmpdir();
  const transcriptions = new TranscriptionsService({
    db,
    storage: w.storage,
    probe: w.media,
    credits: w.credits,
    queue: w.queue,
    supportsLanguage: (lang) => w.asr.supportsLanguage(lang),
    async hasSpeech(file, seconds) {
      const dir = await fs.mkdtemp(path.join(tmpDir, 'vad-'));
      try {
        const wav = path.join(dir, 'audio.wav');
        if (!(await extractWav(file, wav, { start: 0, end: seconds }))) return false;
        return (await vad.detect(wav)).length > 0;
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    singleUploadMaxBytes: w.config.multipartThresholdBytes,
  });
  const transcriptionProcessor = new TranscriptionProcessor({
    db,
    storage: w.storage,
    transcriptions,
    logger: w.logger,
    tmpDir,
    extractAudio: extractWav,
    vad,
    asr: w.asr,
    diarize: (wav, speech) => diarize(wav, speech),
  });
  return { transcriptions, transcriptionProcessor, vad };
}

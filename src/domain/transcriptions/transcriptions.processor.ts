import path from 'node:path';
import type { Logger } from 'pino';
import { DomainError, errorCodeOf } from '../errors.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import type { AsrEngine } from '../../ports/asr.js';
import type { Diarizer } from '../../ports/diarizer.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { Storage } from '../../ports/storage.js';
import type { Vad } from '../../ports/vad.js';
import type { TranscriptionStage } from './transcriptions.rules.js';
import { buildCues, transcriptWords, type Cue, type TranscriptWord } from '../transcripts/cues.js';
import { assignSpeakers, steadySpeakers } from '../transcripts/speakers.js';
import type { TranscriptionRow, TranscriptionsRepository } from './transcriptions.records.js';
import type { TranscriptionsService } from './transcriptions.service.js';

/** Everything the job does that is I/O, wired in src/main/transcriptions.wiring.ts. */
export interface TranscriptionProcessorDeps {
  repo: TranscriptionsRepository;
  storage: Storage;
  transcriptions: TranscriptionsService;
  logger: Logger;
  /** The run's private temporary folder (the WAV). */
  files: LocalFiles;
  /** 16 kHz mono WAV of [start, end) of the file; resolves false when the file has no sound track. */
  extractAudio(input: string, output: string, range: { start: number; end: number }): Promise<boolean>;
  vad: Vad;
  asr: AsrEngine;
  diarizer: Diarizer;
}

type Outcome = { kind: 'no_speech' } | { kind: 'ready'; language: string; cues: Cue[]; words: TranscriptWord[] };

/**
 * Job `transcription.process`: WAV of the measured duration → voice detection → ASR → (speaker labels:
 * diarization) → cues.
 * A transcription leaves `processing` in one conditional update (ready, or no_speech/failed with the
 * refund in the same transaction), so a retried or duplicated job changes nothing twice.
 */
export class TranscriptionProcessor {
  constructor(private readonly d: TranscriptionProcessorDeps) {}

  async run(id: string, attempt: Attempt): Promise<void> {
    const row = await this.d.repo.get(id);
    if (!row || row.status !== 'processing') return;
    this.d.logger.info({ transcriptionId: id, workspaceId: row.workspaceId, retry: attempt.retryCount }, 'transcription job started');
    try {
      throwIfLost(attempt);
      const m = await this.d.repo.getMedia(row.mediaId);
      if (!m) throw new DomainError('MEDIA_NOT_FOUND');
      // Only the measured (and charged) seconds are transcribed, whatever the stored file holds.
      const seconds = m.duration ?? 0;
      const out: Outcome =
        seconds > 0 ? await this.d.storage.withLocalFile(m.storageKey, (file) => this.transcribe(row, file, seconds)) : { kind: 'no_speech' };
      if (out.kind === 'no_speech') await this.d.transcriptions.finishWithoutResult(row, 'no_speech');
      else await this.d.transcriptions.finishReady(row, out.language, out.cues, out.words);
      this.d.logger.info({ transcriptionId: id, workspaceId: row.workspaceId, status: out.kind, seconds: this.seconds(row) }, `transcription ${out.kind}`);
    } catch (err) {
      await retryOrFail(err, attempt, {
        fail: async () => {
          const code = errorCodeOf(err);
          this.d.logger.warn({ err, transcriptionId: id, code }, 'transcription failed');
          await this.d.transcriptions.fail(row, code);
        },
      });
    }
  }

  /** Seconds since the transcription was created, to a tenth. */
  private seconds(row: TranscriptionRow): number {
    return Math.round((Date.now() - row.createdAt.getTime()) / 100) / 10;
  }

  /** Records the step under way (what GET shows as `stage`) and logs it. */
  private async stage(row: TranscriptionRow, stage: TranscriptionStage): Promise<void> {
    await this.d.repo.setStage(row.id, stage, new Date());
    this.d.logger.info({ transcriptionId: row.id, workspaceId: row.workspaceId, stage, seconds: this.seconds(row) }, `transcription ${stage}`);
  }

  private transcribe(row: TranscriptionRow, file: string, seconds: number): Promise<Outcome> {
    return this.d.files.withTempDir(`trn-${row.id}-`, async (dir) => {
      const wav = path.join(dir, 'audio.wav');
      await this.stage(row, 'extracting_audio');
      if (!(await this.d.extractAudio(file, wav, { start: 0, end: seconds }))) return { kind: 'no_speech' };
      await this.stage(row, 'detecting_speech');
      const speech = await this.d.vad.detect(wav);
      if (speech.length === 0) return { kind: 'no_speech' };
      const asked = row.sourceLanguage === 'auto' ? undefined : row.sourceLanguage;
      await this.stage(row, 'recognising');
      const result = await this.d.asr.transcribe(wav, { language: asked });
      if (result.words.length === 0) return { kind: 'no_speech' };
      const words = result.words.map((w) => ({
        start: w.start,
        end: w.end,
        text: w.text,
        ...(w.confidence !== undefined ? { confidence: w.confidence } : {}),
      }));
      if (row.speakerLabels) await this.stage(row, 'labelling_speakers');
      const labelled = row.speakerLabels
        ? steadySpeakers(
            assignSpeakers(words, await this.d.diarizer.diarize(wav, speech, row.speakersExpected !== null ? { speakers: row.speakersExpected } : {})),
          )
        : words;
      return { kind: 'ready', language: result.language || asked || 'en', cues: buildCues(labelled), words: transcriptWords(labelled) };
    });
  }
}

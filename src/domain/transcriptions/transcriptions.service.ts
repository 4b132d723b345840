import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { CreditsService } from '../credits/credits.service.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import { toTranscript, type Cue, type Transcript, type TranscriptWord } from '../transcripts/cues.js';
import { formatTranscript, TRANSCRIPT_FORMATS, transcriptFileName, type TranscriptFormat } from '../transcripts/formats.js';
import {
  MEDIA_UPLOAD_CONTAINERS,
  UPLOAD_URL_SECONDS,
  assertUploadSize,
  baseContentType,
  checkMediaDeclaration,
  extensionOf,
  measuredKeyOf,
  mediaKindOf,
  uploadKeyOf,
  type MediaKind,
} from '../videos/upload.rules.js';
import {
  SYNC_VAD_MAX_SECONDS,
  noSpeechLanguage,
  pickReusable,
  transcriptionCredits,
  transcriptionProgress,
  type CacheAsk,
  type TranscriptionStage,
  type TranscriptionStatus,
} from './transcriptions.rules.js';
import type { MediaRow, TranscriptionRow, TranscriptionsRepository } from './transcriptions.records.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

/** The spec's Transcription object plus the fields listed in docs/api-decisions.md. */
export interface TranscriptionView {
  id: string;
  status: TranscriptionStatus;
  credits_charged: number;
  media_id: string;
  file_name: string;
  speaker_labels: boolean;
  /** As asked, when given. */
  speakers_expected?: number;
  source_language: string;
  language: string | null;
  from_cache: boolean;
  error_code: string | null;
  created_at: string;
  finished_at: string | null;
  /** While processing: the step under way (`queued` before the job starts), how far it is 0..1, and the seconds left (transcriptionProgress). */
  stage?: TranscriptionStage | 'queued';
  progress?: number;
  estimated_time?: number;
}

export interface MediaUploadAnswer {
  media_id: string;
  kind: MediaKind;
  upload_url: string;
  expires_in: number;
}

export interface TranscriptionInput {
  media_id: string;
  file_name?: string;
  file_size?: number;
  speaker_labels?: boolean;
  /** How many speakers there are (1–10), only with `speaker_labels`. */
  speakers_expected?: number;
  source_language?: string;
}

/** POST /transcriptions: 202 when work was started (or is under way), 200 for a cache hit or no speech. */
export interface TranscriptionStart {
  started: boolean;
  transcription: TranscriptionView;
}

export interface TranscriptionsDeps {
  repo: TranscriptionsRepository;
  /** The charge and the transcription row commit together, under the workspace's row lock. */
  transactions: TransactionRunner;
  storage: Storage;
  /** Hashes the uploaded file (the cache key). */
  files: Pick<LocalFiles, 'sha256'>;
  probe: MediaProbe;
  credits: CreditsService;
  queue: JobQueue;
  supportsLanguage(lang: string): boolean;
  /** True when somebody talks in the first `seconds` of the media file (16 kHz WAV + voice detection); false without a sound track. */
  hasSpeech(file: string, seconds: number): Promise<boolean>;
  /** Largest single-PUT upload (the multipart threshold of videos): transcription uploads are never in parts. */
  singleUploadMaxBytes: number;
  /** Announces `transcription.ready` and `transcription.failed` (webhooks) in the transaction that ends the run. */
  events?: EventPublisher;
}

/** `EN-us` -> `en`, `auto`/absent -> `auto` (pure). */
export function normalizeSourceLanguage(lang: string | undefined): string {
  const l = (lang ?? '').trim().toLowerCase();
  if (l === '' || l === 'auto') return 'auto';
  return l.split(/[-_]/)[0];
}

const stripSpeakers = <T extends { speaker?: string }>(items: T[]): Array<Omit<T, 'speaker'>> => items.map(({ speaker: _speaker, ...c }) => c);

/**
 * Standalone transcription: media uploads, POST /transcriptions with the workspace cache (same bytes,
 * labels covering, compatible language), voice detection, charging at creation, the Transcription and
 * Transcript objects, files, soft deletion and the listing. The work is done by TranscriptionProcessor.
 */
export class TranscriptionsService {
  constructor(private readonly d: TranscriptionsDeps) {}

  /** POST /transcriptions/upload: a media record waiting for its bytes, and the signed URL to PUT them to. */
  async createUpload(ctx: WorkspaceWithPlan, input: { file_name: string; file_size: number; content_type: string }): Promise<MediaUploadAnswer> {
    const failed = checkMediaDeclaration(input.file_name, input.content_type);
    if (failed.length) throw validationError(failed);
    assertUploadSize(input.file_size, Math.min(ctx.plan.maxUploadSize, this.d.singleUploadMaxBytes));
    const kind = mediaKindOf(input.file_name)!;
    const id = newId('med');
    // The URL writes the upload key; the first use moves the bytes to a key no URL writes (prepareMedia).
    const key = uploadKeyOf('media', ctx.workspace.id, id, extensionOf(input.file_name));
    const contentType = baseContentType(input.content_type);
    const url = await this.d.storage.presignPut(key, { contentType, contentLength: input.file_size, expiresInSeconds: UPLOAD_URL_SECONDS });
    await this.d.repo.insertMedia({
      id,
      workspaceId: ctx.workspace.id,
      kind,
      fileName: input.file_name,
      fileSize: input.file_size,
      contentType,
      storageKey: key,
      status: 'awaiting_upload',
    });
    return { media_id: id, kind, upload_url: url, expires_in: UPLOAD_URL_SECONDS };
  }

  async getMedia(workspaceId: string, id: string): Promise<MediaRow> {
    const row = await this.d.repo.findMedia(workspaceId, id);
    if (!row) throw new DomainError('MEDIA_NOT_FOUND');
    return row;
  }

  /**
   * First use of an upload: its bytes are moved where the upload URL cannot write (404 FILE_NOT_FOUND when
   * nothing was sent), must be readable media (else 400, and the file is deleted so the URL can take a
   * corrected one), then are probed and hashed once. That file, at its new key, is the one charged for and
   * transcribed, whatever is PUT to the URL afterwards. Persona sources are media too (POST
   * /personas/sources/upload/complete completes them here).
   */
  async prepareMedia(m: MediaRow): Promise<MediaRow> {
    if (m.status === 'ready' && m.contentHash) return m;
    const key = measuredKeyOf('media', m.workspaceId, m.id, extensionOf(m.storageKey));
    try {
      await this.d.storage.commitUpload(m.storageKey, key);
    } catch (err) {
      const now = await this.getMedia(m.workspaceId, m.id);
      if (now.status === 'ready' && now.contentHash) return now; // prepared meanwhile by another request
      throw err;
    }
    let measured: { info: MediaInfo; hash: string; size: number };
    try {
      measured = await this.measure(key);
    } catch (err) {
      await this.d.storage.delete(key);
      throw err;
    }
    const row = await this.d.repo.markMediaReady(m.id, m.storageKey, {
      storageKey: key,
      duration: measured.info.duration,
      hasAudio: measured.info.hasAudio,
      contentHash: measured.hash,
      fileSize: measured.size,
    });
    if (row) return row;
    // Another request prepared the same upload first: its file stands, ours goes.
    const winner = await this.getMedia(m.workspaceId, m.id);
    if (winner.storageKey !== key) await this.d.storage.delete(key);
    if (winner.status !== 'ready' || !winner.contentHash) throw new DomainError('FILE_NOT_FOUND');
    return winner;
  }

  /** Size, probe and SHA-256 of a stored media file; 400 `undecodable` when it is not media the service reads. */
  private async measure(key: string): Promise<{ info: MediaInfo; hash: string; size: number }> {
    const head = await this.d.storage.head(key);
    if (!head) throw new DomainError('FILE_NOT_FOUND');
    const measured = await this.d.storage.withLocalFile(key, async (file) => {
      let info: MediaInfo;
      try {
        info = await this.d.probe.probe(file);
      } catch {
        return null;
      }
      return { info, hash: await this.d.files.sha256(file) };
    });
    if (!measured || !MEDIA_UPLOAD_CONTAINERS.includes(measured.info.container ?? '') || (!measured.info.hasAudio && !measured.info.hasVideo)) {
      throw validationError([{ field: 'file', rule: 'undecodable' }]);
    }
    return { ...measured, size: head.size };
  }

  /** The best earlier transcription of the same bytes for this request (cues not loaded). */
  private async findReusable(workspaceId: string, hash: string, ask: CacheAsk, tx?: Tx) {
    return pickReusable(await this.d.repo.cacheCandidates(workspaceId, hash, tx), ask);
  }

  /** POST /transcriptions. */
  async create(ctx: WorkspaceWithPlan, input: TranscriptionInput): Promise<TranscriptionStart> {
    const ws = ctx.workspace;
    const sourceLanguage = normalizeSourceLanguage(input.source_language);
    if (!this.d.supportsLanguage(sourceLanguage)) throw validationError([{ field: 'source_language', rule: 'unsupported_by_engine' }]);
    const m = await this.prepareMedia(await this.getMedia(ws.id, input.media_id));
    if (input.file_size !== undefined && input.file_size !== m.fileSize) throw validationError([{ field: 'file_size', rule: 'upload_size_mismatch' }]);
    const duration = m.duration ?? 0;
    if (duration > ctx.plan.maxVideoDuration) throw new DomainError('VIDEO_TOO_LONG', { duration, max_duration: ctx.plan.maxVideoDuration });

    if (input.speakers_expected !== undefined && !input.speaker_labels)
      throw validationError([{ field: 'speakers_expected', rule: 'only_with_speaker_labels' }]);
    const ask: CacheAsk = { speakerLabels: input.speaker_labels ?? false, speakersExpected: input.speakers_expected ?? null, sourceLanguage };
    const hash = m.contentHash!;
    const base = {
      workspaceId: ws.id,
      mediaId: m.id,
      contentHash: hash,
      fileName: input.file_name ?? m.fileName,
      speakerLabels: ask.speakerLabels,
      speakersExpected: ask.speakersExpected ?? null,
      sourceLanguage,
      mediaSeconds: duration,
    };
    // Voice detection while the caller waits, for files short enough, unless the cache answers anyway.
    let speech = m.hasAudio !== false;
    if (speech && duration <= SYNC_VAD_MAX_SECONDS && !(await this.findReusable(ws.id, hash, ask))) {
      // A detection that fails here (engine, unreadable sound) leaves the decision to the job, as for long files.
      speech = duration > 0 ? await this.d.storage.withLocalFile(m.storageKey, (file) => this.d.hasSpeech(file, duration)).catch(() => true) : false;
    }

    const out = await this.d.transactions.run(async (tx) => {
      // One creation at a time per workspace, so two identical requests cannot both miss the cache.
      await this.d.repo.lockWorkspace(tx, ws.id);
      const hit = m.hasAudio === false ? undefined : await this.findReusable(ws.id, hash, ask, tx);
      const now = new Date();
      if (hit?.status === 'processing') {
        // The same work is under way: answer it (a deleted one comes back into the listings).
        return { started: true, row: await this.d.repo.undelete(tx, hit.id) };
      }
      if (hit || !speech) {
        const ready = hit?.status === 'ready';
        const result = ready ? await this.d.repo.resultOf(tx, hit!.id) : undefined;
        const row = await this.d.repo.insert(tx, {
          id: newId('trn'),
          ...base,
          status: ready ? 'ready' : 'no_speech',
          language: ready ? hit!.language : sourceLanguage === 'auto' ? null : sourceLanguage,
          cues: ready ? (ask.speakerLabels ? result?.cues : stripSpeakers((result?.cues ?? []) as Cue[])) : [],
          words: ready && Array.isArray(result?.words) ? (ask.speakerLabels ? result.words : stripSpeakers(result.words as TranscriptWord[])) : null,
          cachedFrom: hit ? (hit.cachedFrom ?? hit.id) : null,
          creditsCharged: 0,
          finishedAt: now,
        });
        return { started: false, row };
      }
      const id = newId('trn');
      const charge = await this.d.credits.charge(
        {
          workspaceId: ws.id,
          amount: transcriptionCredits(duration, ctx.plan, ask.speakerLabels),
          reason: `transcription of ${Math.round(duration)} s of ${m.id}${ask.speakerLabels ? ' with speaker labels' : ''}`,
          jobType: CHARGE_TYPE.transcription,
          jobId: id,
          insufficientExtra: { scope: 'workspace', is_owner: true },
        },
        tx,
      );
      const row = await this.d.repo.insert(tx, { id, ...base, status: 'processing', creditsCharged: charge.charged });
      return { started: true, row, fresh: true };
    });
    if ('fresh' in out) {
      const row = out.row;
      await enqueueAfterCommit(this.d.queue, { name: 'transcription.process', payload: { transcriptionId: row.id } }, (code) => this.fail(row, code));
    }
    return { started: out.started, transcription: this.view(out.row) };
  }

  /** A transcription of the workspace that was not deleted; 404 TRANSCRIPTION_NOT_FOUND otherwise. */
  async getRow(workspaceId: string, id: string): Promise<TranscriptionRow> {
    const row = await this.d.repo.findInWorkspace(workspaceId, id);
    if (!row) throw new DomainError('TRANSCRIPTION_NOT_FOUND');
    return row;
  }

  async get(workspaceId: string, id: string): Promise<TranscriptionView> {
    return this.view(await this.getRow(workspaceId, id));
  }

  /** GET /transcriptions: the workspace's transcriptions that were not deleted, newest first. */
  async list(workspaceId: string, filter: { status?: string; media_id?: string }, page: PageRequest) {
    const { rows, total } = await this.d.repo.list(workspaceId, { status: filter.status, mediaId: filter.media_id }, page);
    return { items: rows.map((r) => this.view(r)), total };
  }

  view(r: TranscriptionRow): TranscriptionView {
    return {
      id: r.id,
      status: r.status as TranscriptionStatus,
      credits_charged: r.creditsCharged,
      media_id: r.mediaId,
      file_name: r.fileName,
      speaker_labels: r.speakerLabels,
      ...(r.speakersExpected !== null ? { speakers_expected: r.speakersExpected } : {}),
      source_language: r.sourceLanguage,
      language: r.language,
      from_cache: r.cachedFrom !== null,
      error_code: r.errorCode,
      created_at: r.createdAt.toISOString(),
      finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
      ...(r.status === 'processing' ? this.running(r) : {}),
    };
  }

  private running(r: TranscriptionRow): Pick<TranscriptionView, 'stage' | 'progress' | 'estimated_time'> {
    const since = r.stageStartedAt ? (Date.now() - r.stageStartedAt.getTime()) / 1000 : 0;
    const p = transcriptionProgress(r.stage, since, r.mediaSeconds ?? 0, r.speakerLabels);
    return { stage: (r.stage as TranscriptionStage | null) ?? 'queued', ...p };
  }

  /** The cues of a finished transcription: 409 TRANSCRIPTION_NOT_READY while processing, 409 TRANSCRIPTION_FAILED when failed. */
  private finished(r: TranscriptionRow): { language: string; cues: Cue[]; words: TranscriptWord[] } {
    if (r.status === 'processing') throw new DomainError('TRANSCRIPTION_NOT_READY', { status: r.status });
    if (r.status === 'failed') throw new DomainError('TRANSCRIPTION_FAILED', { error_code: r.errorCode });
    const language = r.language ?? noSpeechLanguage(r.sourceLanguage);
    if (r.status === 'no_speech') return { language, cues: [], words: [] };
    return { language, cues: (r.cues ?? []) as Cue[], words: Array.isArray(r.words) ? (r.words as TranscriptWord[]) : [] };
  }

  /** GET /transcriptions/{id}/transcript. */
  async transcript(workspaceId: string, id: string): Promise<Transcript> {
    const r = await this.getRow(workspaceId, id);
    const f = this.finished(r);
    return toTranscript(f.language, r.speakerLabels, f.cues, f.words);
  }

  /** GET /transcriptions/{id}/download: the file's text, Content-Type and file name. */
  async download(workspaceId: string, id: string, format: TranscriptFormat, speakers: boolean) {
    const r = await this.getRow(workspaceId, id);
    const f = this.finished(r);
    return {
      body: formatTranscript(format, f.cues, { speakers: speakers && r.speakerLabels }),
      contentType: TRANSCRIPT_FORMATS[format].contentType,
      fileName: transcriptFileName(r.fileName, format),
    };
  }

  /**
   * DELETE /transcriptions/{id}: leaves the listings (and GET answers 404); the media and the result
   * stay, so the same request again is a cache hit. A transcription still processing keeps running.
   */
  async remove(workspaceId: string, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.d.repo.markDeleted(workspaceId, id, new Date()))) throw new DomainError('TRANSCRIPTION_NOT_FOUND');
    return { id, deleted: true };
  }

  /** processing -> ready with the cues (no-op when it already left processing). */
  async finishReady(r: Pick<TranscriptionRow, 'id' | 'workspaceId'>, language: string, cues: Cue[], words: TranscriptWord[] = []): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      if (!(await this.d.repo.finish(r.id, { status: 'ready', language, cues, words, errorCode: null, finishedAt: new Date() }, tx))) return;
      await this.events.publish(r.workspaceId, 'transcription.ready', { id: r.id, status: 'ready', language, error_code: null }, tx);
    });
  }

  private get events(): EventPublisher {
    return this.d.events ?? noEvents;
  }

  /** processing -> no_speech (or failed with a code), the charge refunded once; `credits_charged` becomes 0. */
  async finishWithoutResult(
    r: Pick<TranscriptionRow, 'id' | 'workspaceId' | 'sourceLanguage'>,
    status: 'no_speech' | 'failed',
    errorCode?: string,
  ): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      const end = {
        status,
        errorCode: errorCode ?? null,
        language: status === 'no_speech' && r.sourceLanguage !== 'auto' ? r.sourceLanguage : null,
        cues: status === 'no_speech' ? [] : null,
        creditsCharged: 0,
        finishedAt: new Date(),
      };
      if (!(await this.d.repo.finish(r.id, end, tx))) return;
      await this.d.credits.refund(
        {
          workspaceId: r.workspaceId,
          jobType: CHARGE_TYPE.transcription,
          jobId: r.id,
          reason: status === 'no_speech' ? 'transcription found no speech' : `transcription failed: ${errorCode}`,
        },
        tx,
      );
      // No speech is a result like any other: `transcription.ready` with status `no_speech`.
      const type = status === 'failed' ? 'transcription.failed' : 'transcription.ready';
      await this.events.publish(r.workspaceId, type, { id: r.id, status, language: end.language, error_code: end.errorCode }, tx);
    });
  }

  fail(r: Pick<TranscriptionRow, 'id' | 'workspaceId' | 'sourceLanguage'>, errorCode: string): Promise<void> {
    return this.finishWithoutResult(r, 'failed', errorCode);
  }
}

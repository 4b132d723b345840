import { createHash } from 'node:crypto';
import { asTx } from '../../adapters/db/transactions.js';
import fs from 'node:fs';
import { and, count, desc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../adapters/db/database.js';
import { media, transcriptions, workspaces } from '../../adapters/db/schema.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { CreditsService } from '../credits/credits.service.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import { toTranscript, type Cue, type Transcript } from '../transcripts/cues.js';
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
  TRANSCRIPTION_JOB,
  TRANSCRIPTION_JOB_OPTIONS,
  noSpeechLanguage,
  pickReusable,
  transcriptionCredits,
  type CacheAsk,
  type TranscriptionStatus,
} from './transcriptions.rules.js';

export type MediaRow = typeof media.$inferSelect;
export type TranscriptionRow = typeof transcriptions.$inferSelect;

/** The spec's Transcription object plus the fields listed in docs/api-decisions.md. */
export interface TranscriptionView {
  id: string;
  status: TranscriptionStatus;
  credits_charged: number;
  media_id: string;
  file_name: string;
  speaker_labels: boolean;
  source_language: string;
  language: string | null;
  from_cache: boolean;
  error_code: string | null;
  created_at: string;
  finished_at: string | null;
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
  source_language?: string;
}

/** POST /transcriptions: 202 when work was started (or is under way), 200 for a cache hit or no speech. */
export interface TranscriptionStart {
  started: boolean;
  transcription: TranscriptionView;
}

export interface TranscriptionsDeps {
  db: Db;
  storage: Storage;
  probe: MediaProbe;
  credits: CreditsService;
  queue: JobQueue;
  supportsLanguage(lang: string): boolean;
  /** True when somebody talks in the first `seconds` of the media file (16 kHz WAV + voice detection); false without a sound track. */
  hasSpeech(file: string, seconds: number): Promise<boolean>;
  /** Largest single-PUT upload (the multipart threshold of videos): transcription uploads are never in parts. */
  singleUploadMaxBytes: number;
}

/** `EN-us` -> `en`, `auto`/absent -> `auto` (pure). */
export function normalizeSourceLanguage(lang: string | undefined): string {
  const l = (lang ?? '').trim().toLowerCase();
  if (l === '' || l === 'auto') return 'auto';
  return l.split(/[-_]/)[0];
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const stripSpeakers = (cues: Cue[]): Cue[] => cues.map(({ speaker: _speaker, ...c }) => c);

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
    await this.d.db.insert(media).values({
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
    const [row] = await this.d.db
      .select()
      .from(media)
      .where(and(eq(media.id, id), eq(media.workspaceId, workspaceId)));
    if (!row) throw new DomainError('MEDIA_NOT_FOUND');
    return row;
  }

  /**
   * First use of an upload: its bytes are moved where the upload URL cannot write (404 FILE_NOT_FOUND when
   * nothing was sent), must be readable media (else 400, and the file is deleted so the URL can take a
   * corrected one), then are probed and hashed once. That file, at its new key, is the one charged for and
   * transcribed, whatever is PUT to the URL afterwards.
   */
  private async prepareMedia(m: MediaRow): Promise<MediaRow> {
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
    const [row] = await this.d.db
      .update(media)
      .set({
        status: 'ready',
        storageKey: key,
        duration: measured.info.duration,
        hasAudio: measured.info.hasAudio,
        contentHash: measured.hash,
        fileSize: measured.size,
      })
      .where(and(eq(media.id, m.id), eq(media.storageKey, m.storageKey), ne(media.status, 'ready')))
      .returning();
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
      return { info, hash: await sha256File(file) };
    });
    if (!measured || !MEDIA_UPLOAD_CONTAINERS.includes(measured.info.container ?? '') || (!measured.info.hasAudio && !measured.info.hasVideo)) {
      throw validationError([{ field: 'file', rule: 'undecodable' }]);
    }
    return { ...measured, size: head.size };
  }

  /** The best earlier transcription of the same bytes for this request (cues not loaded). */
  private async findReusable(tx: Executor, workspaceId: string, hash: string, ask: CacheAsk) {
    const rows = await tx
      .select({
        id: transcriptions.id,
        status: transcriptions.status,
        speakerLabels: transcriptions.speakerLabels,
        sourceLanguage: transcriptions.sourceLanguage,
        language: transcriptions.language,
        cachedFrom: transcriptions.cachedFrom,
        deletedAt: transcriptions.deletedAt,
        createdAt: transcriptions.createdAt,
      })
      .from(transcriptions)
      .where(and(eq(transcriptions.workspaceId, workspaceId), eq(transcriptions.contentHash, hash), ne(transcriptions.status, 'failed')));
    return pickReusable(rows, ask);
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

    const ask: CacheAsk = { speakerLabels: input.speaker_labels ?? false, sourceLanguage };
    const hash = m.contentHash!;
    const base = {
      workspaceId: ws.id,
      mediaId: m.id,
      contentHash: hash,
      fileName: input.file_name ?? m.fileName,
      speakerLabels: ask.speakerLabels,
      sourceLanguage,
    };
    // Voice detection while the caller waits, for files short enough, unless the cache answers anyway.
    let speech = m.hasAudio !== false;
    if (speech && duration <= SYNC_VAD_MAX_SECONDS && !(await this.findReusable(this.d.db, ws.id, hash, ask))) {
      // A detection that fails here (engine, unreadable sound) leaves the decision to the job, as for long files.
      speech = duration > 0 ? await this.d.storage.withLocalFile(m.storageKey, (file) => this.d.hasSpeech(file, duration)).catch(() => true) : false;
    }

    const out = await this.d.db.transaction(async (tx) => {
      // One creation at a time per workspace, so two identical requests cannot both miss the cache.
      await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, ws.id)).for('update');
      const hit = m.hasAudio === false ? undefined : await this.findReusable(tx, ws.id, hash, ask);
      const now = new Date();
      if (hit?.status === 'processing') {
        // The same work is under way: answer it (a deleted one comes back into the listings).
        const [row] = await tx.update(transcriptions).set({ deletedAt: null }).where(eq(transcriptions.id, hit.id)).returning();
        return { started: true, row };
      }
      if (hit || !speech) {
        const ready = hit?.status === 'ready';
        const [source] = ready ? await tx.select({ cues: transcriptions.cues }).from(transcriptions).where(eq(transcriptions.id, hit!.id)) : [];
        const [row] = await tx
          .insert(transcriptions)
          .values({
            id: newId('trn'),
            ...base,
            status: ready ? 'ready' : 'no_speech',
            language: ready ? hit!.language : sourceLanguage === 'auto' ? null : sourceLanguage,
            cues: ready ? (ask.speakerLabels ? source.cues : stripSpeakers((source.cues ?? []) as Cue[])) : [],
            cachedFrom: hit ? (hit.cachedFrom ?? hit.id) : null,
            creditsCharged: 0,
            finishedAt: now,
          })
          .returning();
        return { started: false, row };
      }
      const id = newId('trn');
      const charge = await this.d.credits.charge(
        {
          workspaceId: ws.id,
          amount: transcriptionCredits(duration, ctx.plan, ask.speakerLabels),
          reason: `transcription of ${Math.round(duration)} s of ${m.id}${ask.speakerLabels ? ' with speaker labels' : ''}`,
          jobType: TRANSCRIPTION_JOB,
          jobId: id,
          insufficientExtra: { scope: 'workspace', is_owner: true },
        },
        asTx(tx),
      );
      const [row] = await tx
        .insert(transcriptions)
        .values({ id, ...base, status: 'processing', creditsCharged: charge.charged })
        .returning();
      return { started: true, row, fresh: true };
    });
    if ('fresh' in out) {
      try {
        await this.d.queue.send('transcription.process', { transcriptionId: out.row.id }, TRANSCRIPTION_JOB_OPTIONS);
      } catch (err) {
        await this.fail(out.row, 'QUEUE_UNAVAILABLE');
        throw err;
      }
    }
    return { started: out.started, transcription: this.view(out.row) };
  }

  /** A transcription of the workspace that was not deleted; 404 TRANSCRIPTION_NOT_FOUND otherwise. */
  async getRow(workspaceId: string, id: string): Promise<TranscriptionRow> {
    const [row] = await this.d.db
      .select()
      .from(transcriptions)
      .where(and(eq(transcriptions.id, id), eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)));
    if (!row) throw new DomainError('TRANSCRIPTION_NOT_FOUND');
    return row;
  }

  async get(workspaceId: string, id: string): Promise<TranscriptionView> {
    return this.view(await this.getRow(workspaceId, id));
  }

  /** GET /transcriptions: the workspace's transcriptions that were not deleted, newest first. */
  async list(workspaceId: string, filter: { status?: string; media_id?: string }, page: PageRequest) {
    const conds: SQL[] = [eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)];
    if (filter.status) conds.push(eq(transcriptions.status, filter.status));
    if (filter.media_id) conds.push(eq(transcriptions.mediaId, filter.media_id));
    const where = and(...conds);
    const [rows, [{ n }]] = await Promise.all([
      this.d.db.select().from(transcriptions).where(where).orderBy(desc(transcriptions.createdAt), desc(transcriptions.id)).limit(page.limit).offset(page.offset),
      this.d.db.select({ n: count() }).from(transcriptions).where(where),
    ]);
    return { items: rows.map((r) => this.view(r)), total: Number(n) };
  }

  view(r: TranscriptionRow): TranscriptionView {
    return {
      id: r.id,
      status: r.status as TranscriptionStatus,
      credits_charged: r.creditsCharged,
      media_id: r.mediaId,
      file_name: r.fileName,
      speaker_labels: r.speakerLabels,
      source_language: r.sourceLanguage,
      language: r.language,
      from_cache: r.cachedFrom !== null,
      error_code: r.errorCode,
      created_at: r.createdAt.toISOString(),
      finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
    };
  }

  /** The cues of a finished transcription: 409 TRANSCRIPTION_NOT_READY while processing, 409 TRANSCRIPTION_FAILED when failed. */
  private finished(r: TranscriptionRow): { language: string; cues: Cue[] } {
    if (r.status === 'processing') throw new DomainError('TRANSCRIPTION_NOT_READY', { status: r.status });
    if (r.status === 'failed') throw new DomainError('TRANSCRIPTION_FAILED', { error_code: r.errorCode });
    if (r.status === 'no_speech') return { language: r.language ?? noSpeechLanguage(r.sourceLanguage), cues: [] };
    return { language: r.language ?? noSpeechLanguage(r.sourceLanguage), cues: (r.cues ?? []) as Cue[] };
  }

  /** GET /transcriptions/{id}/transcript. */
  async transcript(workspaceId: string, id: string): Promise<Transcript> {
    const r = await this.getRow(workspaceId, id);
    const f = this.finished(r);
    return toTranscript(f.language, r.speakerLabels, f.cues);
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
    const [row] = await this.d.db
      .update(transcriptions)
      .set({ deletedAt: new Date() })
      .where(and(eq(transcriptions.id, id), eq(transcriptions.workspaceId, workspaceId), isNull(transcriptions.deletedAt)))
      .returning({ id: transcriptions.id });
    if (!row) throw new DomainError('TRANSCRIPTION_NOT_FOUND');
    return { id: row.id, deleted: true };
  }

  /** processing -> ready with the cues (no-op when it already left processing). */
  async finishReady(r: Pick<TranscriptionRow, 'id'>, language: string, cues: Cue[]): Promise<void> {
    await this.d.db
      .update(transcriptions)
      .set({ status: 'ready', language, cues, errorCode: null, finishedAt: new Date() })
      .where(and(eq(transcriptions.id, r.id), eq(transcriptions.status, 'processing')));
  }

  /** processing -> no_speech (or failed with a code), the charge refunded once; `credits_charged` becomes 0. */
  async finishWithoutResult(r: Pick<TranscriptionRow, 'id' | 'workspaceId' | 'sourceLanguage'>, status: 'no_speech' | 'failed', errorCode?: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      const [changed] = await tx
        .update(transcriptions)
        .set({
          status,
          errorCode: errorCode ?? null,
          language: status === 'no_speech' && r.sourceLanguage !== 'auto' ? r.sourceLanguage : null,
          cues: status === 'no_speech' ? [] : null,
          creditsCharged: 0,
          finishedAt: new Date(),
        })
        .where(and(eq(transcriptions.id, r.id), eq(transcriptions.status, 'processing')))
        .returning({ id: transcriptions.id });
      if (!changed) return;
      await this.d.credits.refund(
        { workspaceId: r.workspaceId, jobType: TRANSCRIPTION_JOB, jobId: r.id, reason: status === 'no_speech' ? 'transcription found no speech' : `transcription failed: ${errorCode}` },
        asTx(tx),
      );
    });
  }

  fail(r: Pick<TranscriptionRow, 'id' | 'workspaceId' | 'sourceLanguage'>, errorCode: string): Promise<void> {
    return this.finishWithoutResult(r, 'failed', errorCode);
  }
}

import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { EventPublisher } from '../webhooks/events.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { MediaInfo } from '../../ports/media.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { assertUploadSize, mediaKindOf, VIDEO_CONTENT_TYPES, VIDEO_UPLOAD_CONTAINERS } from '../videos/upload.rules.js';
import { QUALITIES, REPLACE_MODES, SOURCE_LIMITS, type Quality, type ReplaceMode } from './persona-catalog.js';
import type { PersonaPrices } from './persona-prices.js';
import { measuredPrice } from '../credits/priced-charge.js';
import type { PersonasService } from './personas.service.js';
import { checkFeedback, type FeedbackView, type PersonaCharges } from './persona.rules.js';
import type { PersonasRepository, PersonaVideoRow } from './personas.records.js';
import type { TranscriptionsService } from '../transcriptions/transcriptions.service.js';
import type { VideosService } from '../videos/videos.service.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

const URL_SECONDS = 3600;

/** Where a swap's source bytes are. */
export type SwapSource =
  | { kind: 'media'; id: string; key: string; seconds: number }
  | { kind: 'upload'; id: string; key: string; seconds: number }
  | { kind: 'link'; id: string; mediaUrl: string; platform: string; seconds: number };

export interface PersonaVideosDeps {
  repo: PersonasRepository;
  transactions: TransactionRunner;
  storage: Pick<Storage, 'presignGet' | 'withLocalFile'>;
  queue: JobQueue;
  charges: PersonaCharges;
  personas: PersonasService;
  prices(): Promise<PersonaPrices>;
  /** The swap engine's name and the replace modes it can do. */
  swap: { name: string; replaceModes: readonly string[] };
  probe(file: string): Promise<MediaInfo>;
  /** The media uploads (TranscriptionsService: one upload mechanism): declare, find, complete on first use. */
  media: Pick<TranscriptionsService, 'createUpload' | 'getMedia' | 'prepareMedia'>;
  /** The workspace's library videos (a library video is a media_id too). */
  videos: Pick<VideosService, 'get'>;
  /** Largest persona source upload in bytes. */
  maxSourceBytes: number;
  /** Webhook events `persona_video.ready` / `persona_video.failed`. */
  events: EventPublisher;
}

export interface PersonaVideoView {
  id: string;
  persona_id: string;
  type: string;
  status: string;
  error_code: string | null;
  download_url: string | null;
  edit_id: string | null;
  version_id: string;
  media_id: string;
  quality: Quality;
  replace: ReplaceMode;
  engine: string;
  seconds: number;
  credits_charged: number;
  feedback: FeedbackView | null;
  created_at: string;
  finished_at: string | null;
}

const round3 = (s: number) => Math.round(s * 1000) / 1000;

/**
 * Persona sources (uploads or library videos), swap quotes and persona videos: measured, priced per
 * started second, charged even under free usage (402 with `top_up_url`), refunded when the swap fails.
 * The swap itself is PersonaProcessor's (job `persona.swap`).
 */
export class PersonaVideosService {
  constructor(private readonly d: PersonaVideosDeps) {}

  /** POST /personas/sources/upload: a video (.mp4 .mov .webm .mkv) to upload with one signed PUT. */
  async createSourceUpload(ctx: WorkspaceWithPlan, input: { file_name: string; file_size: number; content_type: string }) {
    if (mediaKindOf(input.file_name) !== 'video') throw validationError([{ field: 'file_name', rule: 'extension', allowed: Object.keys(VIDEO_CONTENT_TYPES) }]);
    assertUploadSize(input.file_size, Math.min(this.d.maxSourceBytes, ctx.plan.maxUploadSize));
    const out = await this.d.media.createUpload(ctx, input);
    return { media_id: out.media_id, upload_url: out.upload_url, expires_in: out.expires_in };
  }

  /** POST /personas/sources/upload/complete: the measured source. */
  async completeSourceUpload(ctx: WorkspaceWithPlan, mediaId: string) {
    const m = await this.findMedia(ctx.workspace.id, mediaId);
    if (!m || m.kind !== 'video') throw new DomainError('MEDIA_NOT_FOUND');
    const ready = await this.completeMedia(ctx.workspace.id, m.id);
    const info = await this.measureVideo(ready.storageKey);
    return { media_id: ready.id, duration: round3(ready.duration ?? info.duration), width: info.width, height: info.height, has_audio: info.hasAudio };
  }

  /** A media upload of the workspace, or undefined when there is none to use. */
  private findMedia(workspaceId: string, id: string) {
    return this.d.media.getMedia(workspaceId, id).catch(() => undefined);
  }

  /** Completes the upload (first use): 404 FILE_NOT_FOUND when nothing was sent, 400 when it is not media. */
  private async completeMedia(workspaceId: string, id: string) {
    return this.d.media.prepareMedia(await this.d.media.getMedia(workspaceId, id));
  }

  /** The probe of a stored source: 400 VALIDATION_ERROR (`file`, `no_video_stream`) without a picture. */
  private async measureVideo(key: string): Promise<MediaInfo> {
    const info = await this.d.storage.withLocalFile(key, (f) => this.d.probe(f));
    if (!info.hasVideo || !VIDEO_UPLOAD_CONTAINERS.includes(info.container ?? '')) throw validationError([{ field: 'file', rule: 'no_video_stream' }]);
    return info;
  }

  /** A `media_id`: a persona source upload, or the id of a video of the workspace's library. 404 MEDIA_NOT_FOUND otherwise. */
  async source(workspaceId: string, mediaId: string): Promise<SwapSource> {
    const video = mediaId.startsWith('vid_') ? await this.d.videos.get(workspaceId, mediaId).catch(() => undefined) : undefined;
    if (video) {
      if (video.status !== 'ready') throw new DomainError('MEDIA_NOT_FOUND');
      if (video.source === 'upload' && video.storageKey) return { kind: 'upload', id: video.id, key: video.storageKey, seconds: video.duration };
      const url = video.mediaUrl ?? video.sourceUrl;
      if (!url) throw new DomainError('MEDIA_NOT_FOUND');
      return { kind: 'link', id: video.id, mediaUrl: url, platform: video.platform, seconds: video.duration };
    }
    const m = await this.findMedia(workspaceId, mediaId);
    if (!m || m.kind !== 'video') throw new DomainError('MEDIA_NOT_FOUND');
    const ready = m.status === 'ready' ? m : await this.completeMedia(workspaceId, m.id);
    return { kind: 'media', id: ready.id, key: ready.storageKey, seconds: ready.duration ?? 0 };
  }

  /** Quality and replace mode with their defaults, checked against the engine: 400 REPLACE_MODE_UNAVAILABLE, never another mode. */
  private mode(input: { quality?: string; replace?: string }): { quality: Quality; replace: ReplaceMode } {
    const quality = (input.quality ?? 'standard') as Quality;
    const replace = (input.replace ?? 'person') as ReplaceMode;
    if (!QUALITIES.includes(quality)) throw validationError([{ field: 'quality', rule: 'standard_or_high' }]);
    if (!REPLACE_MODES.includes(replace)) throw validationError([{ field: 'replace', rule: 'person_or_head' }]);
    if (!this.d.swap.replaceModes.includes(replace)) {
      throw new DomainError('REPLACE_MODE_UNAVAILABLE', { replace, available: [...this.d.swap.replaceModes], engine: this.d.swap.name });
    }
    return { quality, replace };
  }

  /** The price of a swap of `seconds`: started seconds × the quality's per-second price, the plan's discount applied, rounded up once. */
  private async credits(ctx: WorkspaceWithPlan, quality: Quality, seconds: number): Promise<number> {
    const p = await this.d.prices();
    const base = quality === 'high' ? p.swap_high_per_second : p.swap_standard_per_second;
    return measuredPrice(base, Math.ceil(round3(seconds)), ctx.plan.discountPercent);
  }

  private async measure(ctx: WorkspaceWithPlan, input: { media_id: string; quality?: string; replace?: string }) {
    const { quality, replace } = this.mode(input);
    const src = await this.source(ctx.workspace.id, input.media_id);
    const seconds = round3(src.seconds);
    const max = SOURCE_LIMITS[quality].max_seconds;
    if (!(seconds > 0)) throw validationError([{ field: 'media_id', rule: 'no_duration' }]);
    if (seconds > max) throw new DomainError('VIDEO_TOO_LONG', { duration: seconds, max_duration: max, quality });
    return { src, quality, replace, seconds, credits: await this.credits(ctx, quality, seconds) };
  }

  /** GET /personas/swap/quote. */
  async quote(ctx: WorkspaceWithPlan, input: { media_id: string; quality?: string; replace?: string }) {
    const m = await this.measure(ctx, input);
    return { media_id: m.src.id, quality: m.quality, replace: m.replace, seconds: m.seconds, credits: m.credits };
  }

  /**
   * POST /personas/{id}/videos: measured and priced again; a different `credits` is 409 PRICE_CHANGED
   * (the measured price in `extra`, nothing charged). Charged even under free usage.
   */
  async create(
    ctx: WorkspaceWithPlan,
    personaId: string,
    input: { type: string; media_id: string; quality?: string; replace?: string; credits: number; version_id?: string },
  ): Promise<PersonaVideoView> {
    if (input.type !== 'swap') throw validationError([{ field: 'type', rule: 'swap' }]);
    const persona = await this.d.personas.get(ctx.workspace.id, personaId);
    const versionId = input.version_id ?? persona.currentVersionId;
    if (!versionId) throw new DomainError('PERSONA_IMAGE_NOT_READY', { image_status: persona.imageStatus });
    if (!(await this.d.personas.version(persona.id, versionId))) throw new DomainError('VERSION_NOT_FOUND');
    const m = await this.measure(ctx, input);
    const id = newId('pvid');
    const row = await this.d.transactions.run(async (tx) => {
      // 409 PRICE_CHANGED (nothing charged) when the measured price is not the quoted one.
      const charge = await this.d.charges.charge(
        {
          workspaceId: ctx.workspace.id,
          quoted: input.credits,
          measured: m.credits,
          reason: `persona swap of ${m.seconds} s (${m.quality}) for ${persona.id}`,
          jobType: CHARGE_TYPE.personaSwap,
          jobId: id,
        },
        tx,
      );
      return this.d.repo.insertVideo(tx, {
        id,
        workspaceId: ctx.workspace.id,
        personaId: persona.id,
        versionId,
        mediaId: m.src.id,
        type: 'swap',
        quality: m.quality,
        replace: m.replace,
        engine: this.d.swap.name,
        seconds: m.seconds,
        credits: m.credits,
        creditsCharged: charge.charged,
        status: 'processing',
      });
    });
    await enqueueAfterCommit(this.d.queue, { name: 'persona.swap', payload: { videoId: row.id } }, (code) => this.fail(row, code));
    return this.view(row);
  }

  /** processing → ready with its file and edit. */
  async finishReady(r: Pick<PersonaVideoRow, 'id' | 'workspaceId' | 'personaId'>, out: { outputKey: string; editId: string }): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      if (!(await this.d.repo.finishVideo(tx, r.id, { status: 'ready', errorCode: null, outputKey: out.outputKey, editId: out.editId }))) return;
      await this.d.events.publish(r.workspaceId, 'persona_video.ready', { id: r.id, persona_id: r.personaId, status: 'ready', edit_id: out.editId }, tx);
    });
  }

  /** processing → failed with its code, refunded once; `credits_charged` becomes 0. */
  async fail(r: Pick<PersonaVideoRow, 'id' | 'workspaceId' | 'personaId'>, code: string): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      if (!(await this.d.repo.finishVideo(tx, r.id, { status: 'failed', errorCode: code, creditsCharged: 0 }))) return;
      await this.d.charges.refund({ workspaceId: r.workspaceId, jobType: CHARGE_TYPE.personaSwap, jobId: r.id, reason: `persona swap failed: ${code}` }, tx);
      await this.d.events.publish(r.workspaceId, 'persona_video.failed', { id: r.id, persona_id: r.personaId, status: 'failed', error_code: code }, tx);
    });
  }

  private async videoOf(ctx: WorkspaceWithPlan, personaId: string, videoId: string): Promise<PersonaVideoRow> {
    const persona = await this.d.personas.get(ctx.workspace.id, personaId);
    const row = await this.d.repo.findVideo(persona.id, videoId);
    if (!row) throw new DomainError('PERSONA_VIDEO_NOT_FOUND');
    return row;
  }

  async get(ctx: WorkspaceWithPlan, personaId: string, videoId: string): Promise<PersonaVideoView> {
    return this.view(await this.videoOf(ctx, personaId, videoId));
  }

  /** GET /personas/{id}/videos (optional `version_id`), newest first. */
  async list(ctx: WorkspaceWithPlan, personaId: string, filter: { version_id?: string }, page: PageRequest) {
    const persona = await this.d.personas.get(ctx.workspace.id, personaId);
    const { rows, total } = await this.d.repo.listVideos(persona.id, { versionId: filter.version_id }, page);
    return { items: await Promise.all(rows.map((r) => this.view(r))), total };
  }

  /** POST /personas/{id}/videos/{videoId}/feedback. */
  async feedback(ctx: WorkspaceWithPlan, personaId: string, videoId: string, input: { vote: string; reason?: string | null }) {
    const fb = checkFeedback(input);
    const row = await this.videoOf(ctx, personaId, videoId);
    return this.view(await this.d.repo.setVideoFeedback(row.id, { ...fb, at: new Date() }));
  }

  async view(r: PersonaVideoRow): Promise<PersonaVideoView> {
    return {
      id: r.id,
      persona_id: r.personaId,
      type: r.type,
      status: r.status,
      error_code: r.errorCode,
      download_url:
        r.status === 'ready' && r.outputKey
          ? await this.d.storage.presignGet(r.outputKey, { expiresInSeconds: URL_SECONDS, contentType: 'video/mp4', downloadFilename: `${r.id}.mp4` })
          : null,
      edit_id: r.editId,
      version_id: r.versionId,
      media_id: r.mediaId,
      quality: r.quality as Quality,
      replace: r.replace as ReplaceMode,
      engine: r.engine,
      seconds: r.seconds,
      credits_charged: r.creditsCharged,
      feedback: this.d.personas.videoFeedbackView(r),
      created_at: r.createdAt.toISOString(),
      finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
    };
  }
}

import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import type { ErrorCode } from '../error-codes.js';
import { creditsForSeconds, isFreeUsageActive } from '../credits/credits.rules.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { Storage } from '../../ports/storage.js';
import type { MediaInfo, MediaProbe } from '../../ports/media.js';
import type { SourceResolver } from '../../ports/source-resolver.js';
import { analyzeLink } from './source-analysis.js';
import type { VideoRow, VideosRepository } from './videos.records.js';
import {
  MIN_VIDEO_SECONDS,
  UPLOAD_URL_SECONDS,
  VIDEO_UPLOAD_CONTAINERS,
  assertUploadSize,
  baseContentType,
  checkVideoDeclaration,
  extensionOf,
  measuredKeyOf,
  titleFromFileName,
  uploadKeyOf,
} from './upload.rules.js';

export type { VideoRow } from './videos.records.js';

export interface UploadLimits {
  /** Uploads above this many bytes are multipart. */
  multipartThreshold: number;
  partSize(size: number): number;
}

/** The spec's video analysis object (also the answer of POST /videos/upload/complete). */
export function analysisView(v: VideoRow, ctx: WorkspaceWithPlan) {
  return {
    id: v.id,
    title: v.title,
    author: v.author,
    platform: v.platform,
    duration: v.duration,
    credits_cost: creditsForSeconds(v.duration, ctx.plan.discountPercent),
    current_balance: ctx.workspace.credits,
    credits_unlimited: isFreeUsageActive(ctx.workspace),
    force_watermark: ctx.plan.forceWatermark,
    discount_percent: ctx.plan.discountPercent,
  };
}

/**
 * The duration limits every submission and upload obeys; throws the code the caller maps, with the
 * duration and both limits in `extra` (`min_duration`, `max_duration`, seconds).
 */
export function checkDuration(duration: number, plan: { maxVideoDuration: number }, codes: { short: ErrorCode; long: ErrorCode }) {
  const extra = { duration, min_duration: MIN_VIDEO_SECONDS, max_duration: plan.maxVideoDuration };
  if (duration < MIN_VIDEO_SECONDS) throw new DomainError(codes.short, extra);
  if (duration > plan.maxVideoDuration) throw new DomainError(codes.long, extra);
}

export interface VideosDeps {
  repo: VideosRepository;
  storage: Storage;
  media: MediaProbe;
  resolvers: SourceResolver[];
  limits: UploadLimits;
}

export class VideosService {
  constructor(private readonly d: VideosDeps) {}

  async get(workspaceId: string, id: string): Promise<VideoRow> {
    const row = await this.d.repo.findInWorkspace(workspaceId, id);
    if (!row) throw new DomainError('VIDEO_NOT_FOUND');
    return row;
  }

  /**
   * POST /clips/info: analyses a public link (free of charge). The same link in the same workspace
   * is the same video: its record is refreshed, never duplicated.
   */
  async analyzeLink(ctx: WorkspaceWithPlan, url: string) {
    const meta = await analyzeLink(url, { resolvers: this.d.resolvers, maxDurationSeconds: ctx.plan.maxVideoDuration });
    const sourceUrl = meta.link.kind === 'direct' ? meta.link.url : meta.link.canonicalUrl;
    const fields = {
      status: 'ready',
      mediaUrl: meta.mediaUrl,
      platform: meta.platform,
      title: meta.title,
      author: meta.author,
      duration: meta.duration,
      width: meta.width,
      height: meta.height,
      hasAudio: meta.hasAudio,
      fileSize: meta.sizeBytes ?? null,
      updatedAt: new Date(),
    };
    const row = await this.d.repo.upsertLink({ id: newId('vid'), workspaceId: ctx.workspace.id, sourceUrl }, fields);
    return analysisView(row, ctx);
  }

  /**
   * POST /videos/upload: a video waiting for its bytes, and where to send them. What the declaration
   * already shows cannot pass is refused before any byte is sent: an extension or content type that is
   * not a video the service takes, a size over the plan's ceiling, and a `duration` the caller measured
   * under the minimum or over the plan's maximum (the file is still measured at completion).
   */
  async createUpload(ctx: WorkspaceWithPlan, input: { file_name: string; file_size: number; content_type: string; duration?: number }) {
    const failed = checkVideoDeclaration(input.file_name, input.content_type);
    if (failed.length) throw validationError(failed);
    assertUploadSize(input.file_size, ctx.plan.maxUploadSize);
    if (input.duration !== undefined) checkDuration(input.duration, ctx.plan, { short: 'VIDEO_TOO_SHORT', long: 'VIDEO_TOO_LONG' });

    const id = newId('vid');
    const ext = extensionOf(input.file_name);
    const contentType = baseContentType(input.content_type);
    const multipart = input.file_size > this.d.limits.multipartThreshold;
    // A single PUT writes the upload key, moved to a new key at completion; the parts of a multipart upload
    // are assembled into the final key (their URLs stop writing then). See docs/storage.md.
    const key = multipart ? measuredKeyOf('videos', ctx.workspace.id, id, ext) : uploadKeyOf('videos', ctx.workspace.id, id, ext);
    const upload = multipart
      ? await this.d.storage.createMultipart(key, {
          contentType,
          size: input.file_size,
          partSize: this.d.limits.partSize(input.file_size),
          expiresInSeconds: UPLOAD_URL_SECONDS,
        })
      : undefined;
    const url = multipart
      ? undefined
      : await this.d.storage.presignPut(key, { contentType, contentLength: input.file_size, expiresInSeconds: UPLOAD_URL_SECONDS });
    await this.d.repo.insertUpload({
      id,
      workspaceId: ctx.workspace.id,
      source: 'upload',
      status: 'awaiting_upload',
      platform: 'upload',
      title: titleFromFileName(input.file_name),
      author: ctx.workspace.name,
      storageKey: key,
      fileName: input.file_name,
      fileSize: input.file_size,
      contentType,
      uploadId: upload?.uploadId ?? null,
    });
    if (upload) {
      return {
        video_id: id,
        mode: 'multipart' as const,
        part_size: upload.partSize,
        parts: upload.parts,
        expires_in: UPLOAD_URL_SECONDS,
      };
    }
    return { video_id: id, upload_url: url!, expires_in: UPLOAD_URL_SECONDS };
  }

  /**
   * POST /videos/upload/complete: takes the uploaded bytes out of reach of the upload URL (a single PUT is
   * moved to a new key, multipart parts are assembled), probes that file (the service's own measurement
   * wins over the caller's), enforces the duration limits and marks the video ready with that key. The
   * measured file is the one every later job reads, whatever is PUT to the URL afterwards. A refused file
   * is deleted so nothing is left behind; a single-PUT URL then takes a corrected file for its hour.
   */
  async completeUpload(ctx: WorkspaceWithPlan, input: { video_id: string; file_name?: string }) {
    const video = await this.get(ctx.workspace.id, input.video_id);
    if (video.source !== 'upload' || !video.storageKey) throw new DomainError('VIDEO_NOT_FOUND');
    if (video.status === 'ready') return analysisView(video, ctx);

    let key: string;
    try {
      key = await this.takeUpload(video);
    } catch (err) {
      // A concurrent completion took the bytes first: answer its result.
      const now = await this.get(ctx.workspace.id, video.id);
      if (now.status === 'ready') return analysisView(now, ctx);
      throw err;
    }
    let measured: { info: MediaInfo; size: number };
    try {
      measured = await this.measure(key, ctx);
    } catch (err) {
      const now = await this.get(ctx.workspace.id, video.id);
      if (now.status === 'ready') {
        // Completed meanwhile by another request: keep its file, drop ours.
        if (now.storageKey !== key) await this.d.storage.delete(key);
        return analysisView(now, ctx);
      }
      await this.d.storage.delete(key);
      throw err;
    }
    const { info, size } = measured;
    const row = await this.d.repo.completeUpload(video.id, video.storageKey, {
      storageKey: key,
      uploadId: null,
      title: input.file_name ? titleFromFileName(input.file_name) : video.title,
      duration: info.duration,
      width: info.width,
      height: info.height,
      hasAudio: info.hasAudio,
      fileSize: size,
      updatedAt: new Date(),
    });
    if (!row) {
      // Another completion of the same upload won: its file and measurement stand; ours goes.
      const winner = await this.get(ctx.workspace.id, video.id);
      if (winner.storageKey !== key) await this.d.storage.delete(key);
      if (winner.status !== 'ready') throw new DomainError('FILE_NOT_FOUND');
      return analysisView(winner, ctx);
    }
    return analysisView(row, ctx);
  }

  /** The key holding the uploaded bytes where no upload URL writes: FILE_NOT_FOUND when nothing was sent. */
  private async takeUpload(video: VideoRow): Promise<string> {
    const from = video.storageKey!;
    if (video.uploadId) {
      await this.d.storage.completeMultipart(from, video.uploadId);
      return from;
    }
    const key = measuredKeyOf('videos', video.workspaceId, video.id, extensionOf(from));
    await this.d.storage.commitUpload(from, key);
    return key;
  }

  /** Probes the stored file and applies the upload rules; throws the code the caller answers. */
  private async measure(key: string, ctx: WorkspaceWithPlan): Promise<{ info: MediaInfo; size: number }> {
    const head = await this.d.storage.head(key);
    if (!head) throw new DomainError('FILE_NOT_FOUND');
    let info: MediaInfo;
    try {
      info = await this.d.storage.withLocalFile(key, (p) => this.d.media.probe(p));
    } catch {
      throw validationError([{ field: 'file', rule: 'undecodable' }]);
    }
    if (!VIDEO_UPLOAD_CONTAINERS.includes(info.container ?? '')) throw validationError([{ field: 'file', rule: 'unsupported_container' }]);
    if (!info.hasVideo) throw validationError([{ field: 'file', rule: 'no_video_stream' }]);
    checkDuration(info.duration, ctx.plan, { short: 'VIDEO_TOO_SHORT', long: 'VIDEO_TOO_LONG' });
    return { info, size: head.size };
  }
}

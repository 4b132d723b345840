/**
 * Render rules (pure): states, what the API shows for a row at a given moment, retention, the
 * progress throttle, download file names and which failures are worth another attempt.
 */

import { createHash } from 'node:crypto';
import { systemErrorCode } from '../errors.js';

export type RenderStatus = 'queued' | 'active' | 'completed' | 'expired' | 'failed';

/** `final`: the edit at its resolution; `preview`: the same edit at 360 px on the short side, fast. */
export type RenderQuality = 'final' | 'preview';
export const RENDER_QUALITIES: readonly RenderQuality[] = ['final', 'preview'];
/** `output_resolution` of a preview (its short side); it is also how a render row says it is one. */
export const PREVIEW_RESOLUTION = '360p';

/**
 * The render cache key of an edit at a quality: a final render's is the edit's hash (as it always
 * was), a preview's is derived from it, so the two are different files.
 */
export function renderCacheKey(editHash: string, quality: RenderQuality): string {
  return quality === 'final' ? editHash : createHash('sha256').update(`cutroom-preview/v1\n${editHash}`).digest('hex');
}

/** The quality a render row was made at. */
export function renderQuality(row: { outputResolution: string }): RenderQuality {
  return row.outputResolution === PREVIEW_RESOLUTION ? 'preview' : 'final';
}
export const UNFINISHED_RENDER_STATES: readonly RenderStatus[] = ['queued', 'active'];

/** `Retry-After` (seconds) of 429 RATE_LIMIT_EXCEEDED when the workspace's simultaneous renders are all in use. */
export const RENDER_RETRY_AFTER_SECONDS = 10;
/** Signed download URLs (Render `download_url`, GET /renders/{id}/download) live one hour (spec: Limits). */
export const DOWNLOAD_URL_SECONDS = 3600;
/** A render still queued or active this long after its creation is given up as `failed` / RENDER_LOST. */
export const RENDER_LOST_AFTER_MS = 24 * 3600 * 1000;
/** One ffmpeg run may take this long before it is killed (RENDER_TIMEOUT); the job expires a little later (src/shared/jobs.ts). */
export const RENDER_TIMEOUT_MS = 55 * 60 * 1000;

/** Failure codes another attempt cannot cure: the render fails at once instead of being retried. */
const PERMANENT_CODES = new Set(['EDIT_INVALID', 'SOURCE_UNREADABLE', 'SOURCE_NOT_FOUND', 'RENDER_FONT_MISSING', 'EDITS_NOT_FOUND']);

export interface RenderTimes {
  status: string;
  expiresAt: Date | null;
}

/**
 * The status the API shows: a completed render whose `expires_at` has passed is `expired` at once,
 * even before the sweeper has deleted its file.
 */
export function effectiveStatus(r: RenderTimes, now: Date): RenderStatus {
  if (r.status === 'completed' && r.expiresAt && r.expiresAt.getTime() <= now.getTime()) return 'expired';
  return r.status as RenderStatus;
}

/** `completed_at + render_expiry_hours` (fractions of an hour allowed). */
export function expiryFrom(completedAt: Date, renderExpiryHours: number): Date {
  return new Date(completedAt.getTime() + Math.max(0, renderExpiryHours) * 3600 * 1000);
}

/** Storage key of a render's file. */
export function renderStorageKey(workspaceId: string, renderId: string): string {
  return `renders/${workspaceId}/${renderId}.mp4`;
}

/** A file name for the download: the clip's title made safe, or `render-<id>`; always ends in .mp4. */
export function renderFileName(title: string | null | undefined, renderId: string): string {
  const base = (title ?? '')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 _-]+/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${base || `render-${renderId}`}.mp4`;
}

/**
 * The failure code of an error: `error_code` (render engine) or an uppercase `code` (domain errors), else
 * RENDER_FAILED. A system error (`ENOSPC`, `ECONNRESET`…) becomes its stable code (`systemErrorCode`).
 */
export function renderErrorCode(err: unknown): string {
  const system = systemErrorCode(err, 'RENDER_FAILED');
  if (system) return system;
  const e = err as { error_code?: unknown; code?: unknown } | null;
  const code = e?.error_code ?? e?.code;
  if (code === 'FILE_NOT_FOUND') return 'SOURCE_NOT_FOUND';
  if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  return 'RENDER_FAILED';
}

export function isPermanentRenderFailure(code: string): boolean {
  return PERMANENT_CODES.has(code);
}

/**
 * Decides which progress values are written: at most one write per `minIntervalMs` unless the value
 * moved by `minStep` points or more; values never go down; 100 is left to completion.
 */
export class ProgressThrottle {
  private lastValue = -1;
  private lastAt = -Infinity;

  constructor(
    private readonly minStep = 5,
    private readonly minIntervalMs = 1000,
  ) {}

  /** The value to write now, or null. */
  next(pct: number, nowMs: number): number | null {
    const p = Math.max(0, Math.min(99, Math.floor(pct)));
    if (p <= this.lastValue) return null;
    if (this.lastValue >= 0 && p - this.lastValue < this.minStep && nowMs - this.lastAt < this.minIntervalMs) return null;
    this.lastValue = p;
    this.lastAt = nowMs;
    return p;
  }
}

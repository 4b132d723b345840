import { DomainError } from '../errors.js';
import type { AuthCache } from '../auth/auth-cache.js';
import type { PlanRow, PlanSettings, PlansRepository } from './plans.records.js';

export type { PlanRow } from './plans.records.js';

export interface PlanFields {
  is_free: boolean;
  max_video_duration: number;
  max_upload_size: number;
  render_expiry_hours: number;
  max_concurrent_renders: number;
  daily_post_limit: number;
  force_watermark: boolean;
  rate_limit_per_minute: number;
  analysis_rate_limit_per_minute: number;
  discount_percent: number;
  /** Credits per started minute of a standalone transcription. */
  transcription_credits_per_minute: number;
  /** Added per started minute when speaker labels are asked. */
  speaker_labels_credits_per_minute: number;
  /** Hours a finished submission's source, clip previews and stage results are kept; then 410 SUBMISSION_EXPIRED. */
  submission_retention_hours: number;
  /** Monitors a workspace may keep (deleted ones do not count); then 409 MONITOR_LIMIT_REACHED. */
  max_monitors: number;
}

export interface PlanView extends PlanFields {
  name: string;
  created_at: string;
  updated_at: string;
}

export const DEFAULT_PLAN_NAME = 'default';

/** The built-in plan every new installation starts with, and the defaults of new plans. */
export const DEFAULT_PLAN: PlanFields = {
  is_free: false,
  max_video_duration: 10800,
  max_upload_size: 10 * 1024 ** 3,
  render_expiry_hours: 72,
  max_concurrent_renders: 3,
  daily_post_limit: 25,
  force_watermark: false,
  rate_limit_per_minute: 600,
  analysis_rate_limit_per_minute: 10,
  discount_percent: 0,
  transcription_credits_per_minute: 1,
  speaker_labels_credits_per_minute: 1,
  submission_retention_hours: 720,
  max_monitors: 20,
};

function toRow(f: PlanFields): PlanSettings;
function toRow(f: Partial<PlanFields>): Partial<PlanSettings>;
function toRow(f: Partial<PlanFields>): Partial<PlanSettings> {
  return {
    isFree: f.is_free,
    maxVideoDuration: f.max_video_duration,
    maxUploadSize: f.max_upload_size,
    renderExpiryHours: f.render_expiry_hours,
    maxConcurrentRenders: f.max_concurrent_renders,
    dailyPostLimit: f.daily_post_limit,
    forceWatermark: f.force_watermark,
    rateLimitPerMinute: f.rate_limit_per_minute,
    analysisRateLimitPerMinute: f.analysis_rate_limit_per_minute,
    discountPercent: f.discount_percent,
    transcriptionCreditsPerMinute: f.transcription_credits_per_minute,
    speakerLabelsCreditsPerMinute: f.speaker_labels_credits_per_minute,
    submissionRetentionHours: f.submission_retention_hours,
    maxMonitors: f.max_monitors,
  };
}

export function planView(p: PlanRow): PlanView {
  return {
    name: p.name,
    is_free: p.isFree,
    max_video_duration: p.maxVideoDuration,
    max_upload_size: p.maxUploadSize,
    render_expiry_hours: p.renderExpiryHours,
    max_concurrent_renders: p.maxConcurrentRenders,
    daily_post_limit: p.dailyPostLimit,
    force_watermark: p.forceWatermark,
    rate_limit_per_minute: p.rateLimitPerMinute,
    analysis_rate_limit_per_minute: p.analysisRateLimitPerMinute,
    discount_percent: p.discountPercent,
    transcription_credits_per_minute: p.transcriptionCreditsPerMinute,
    speaker_labels_credits_per_minute: p.speakerLabelsCreditsPerMinute,
    submission_retention_hours: p.submissionRetentionHours,
    max_monitors: p.maxMonitors,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface PlansDeps {
  repo: PlansRepository;
  cache: AuthCache;
}

export class PlansService {
  constructor(private readonly d: PlansDeps) {}

  /** Creates the built-in default plan when missing (first start). */
  async ensureDefault(): Promise<void> {
    await this.d.repo.insert({ name: DEFAULT_PLAN_NAME, ...toRow(DEFAULT_PLAN) });
  }

  list(): Promise<PlanRow[]> {
    return this.d.repo.list();
  }

  async get(name: string): Promise<PlanRow> {
    const row = await this.d.repo.find(name);
    if (!row) throw new DomainError('PLAN_NOT_FOUND');
    return row;
  }

  async create(name: string, fields: Partial<PlanFields>): Promise<PlanRow> {
    const row = await this.d.repo.insert({ name, ...toRow({ ...DEFAULT_PLAN, ...dropUndefined(fields) }) });
    if (!row) throw new DomainError('PLAN_ALREADY_EXISTS');
    return row;
  }

  async update(name: string, fields: Partial<PlanFields>): Promise<PlanRow> {
    const row = await this.d.repo.update(name, { ...dropUndefined(toRow(fields)), updatedAt: new Date() });
    if (!row) throw new DomainError('PLAN_NOT_FOUND');
    await this.d.cache.changed({ kind: 'plan', name });
    return row;
  }
}

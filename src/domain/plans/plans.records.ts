import type { Tx } from '../../ports/transactions.js';

/** A plan: what a workspace may do and what it pays (spec: plans). */
export interface PlanRow {
  name: string;
  isFree: boolean;
  maxVideoDuration: number;
  maxUploadSize: number;
  renderExpiryHours: number;
  maxConcurrentRenders: number;
  dailyPostLimit: number;
  forceWatermark: boolean;
  rateLimitPerMinute: number;
  analysisRateLimitPerMinute: number;
  discountPercent: number;
  transcriptionCreditsPerMinute: number;
  speakerLabelsCreditsPerMinute: number;
  /** Hours a finished submission's source, clip previews and stage results are kept. */
  submissionRetentionHours: number;
  /** Monitors a workspace may keep (deleted ones do not count). */
  maxMonitors: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A plan's limits and prices: everything but its name and timestamps. */
export type PlanSettings = Omit<PlanRow, 'name' | 'createdAt' | 'updatedAt'>;

/** The plans aggregate's storage (src/adapters/db/repositories/plans.repository.ts). */
export interface PlansRepository {
  /** Stores a new plan; undefined when a plan of that name exists (nothing changes then). */
  insert(plan: PlanSettings & { name: string }): Promise<PlanRow | undefined>;
  /** Every plan, by name. */
  list(): Promise<PlanRow[]>;
  find(name: string, tx?: Tx): Promise<PlanRow | undefined>;
  /** Undefined when there is no such plan. */
  update(name: string, changes: Partial<PlanSettings> & { updatedAt: Date }): Promise<PlanRow | undefined>;
}

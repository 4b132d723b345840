import { resolveSteering, type PickSteering } from '../highlights/steering.js';
import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { isFreeUsageActive } from '../credits/credits.rules.js';
import { sendJob } from '../jobs/enqueue.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import type { PageRequest } from '../pagination.js';
import type { ClipListOrder, ClipRow } from '../clips/clips.records.js';
import type { AppliedTemplate } from '../clips/clip-edits.service.js';
import type { RenderStart } from '../renders/renders.service.js';
import type { SubmissionChecks, SubmissionsService } from '../submissions/submissions.service.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { ChannelClassifier, ChannelPlatform } from '../../ports/channel-watcher.js';
import type { JobQueue } from '../../ports/queue.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { BroadcastEnding } from './broadcast-end.js';
import { batchPrice, checkTypeFits, defaultName, type MonitorStatus, type MonitorType, type StopReason } from './monitor.rules.js';
import type { BroadcastClipRow, BroadcastSummary, MonitorRow, MonitorsRepository } from './monitors.records.js';

/** `prompt`, `keywords` and `clip_length` steer the picks of its submissions and batches (steering.ts). */
export interface MonitorInput extends PickSteering {
  type: MonitorType;
  url: string;
  name?: string;
  template_id?: string;
  strategy_id?: string;
  source_language?: string;
}

export interface MonitorPatch {
  name?: string;
  template_id?: string | null;
  strategy_id?: string | null;
  source_language?: string;
  /** null removes it. */
  prompt?: string | null;
  keywords?: string[] | null;
  clip_length?: { min: number; max: number } | null;
}

export interface MonitorView {
  id: string;
  type: MonitorType;
  name: string;
  url: string;
  platform: ChannelPlatform;
  status: MonitorStatus;
  stop_reason: StopReason | null;
  template_id: string | null;
  strategy_id: string | null;
  source_language: string;
  prompt: string | null;
  keywords: string[] | null;
  clip_length: { min: number; max: number } | null;
  started_at: string | null;
  last_checked_at: string | null;
  created_at: string;
}

export interface BroadcastView {
  id: string;
  monitor_id: string;
  title: string;
  status: 'live' | 'processing' | 'ended';
  started_at: string;
  ended_at: string | null;
  batches_count: number;
  clips_count: number;
  credits_charged: number;
}

/** What the service uses of the other areas (wired in src/main/monitors.wiring.ts). */
export interface MonitorsServiceDeps {
  repo: MonitorsRepository;
  tx: TransactionRunner;
  queue: JobQueue;
  classifier: ChannelClassifier;
  checks: SubmissionChecks;
  ending: BroadcastEnding;
  /** The spec's Clip object of a clip row (SubmissionsService.clipView: signed preview URLs). */
  clipView(row: ClipRow): ReturnType<SubmissionsService['clipView']>;
  /** Renders a clip of a submission (RendersService.renderClip). */
  renderClip(ctx: WorkspaceWithPlan, videoId: string, submissionId: string, clipId: string): Promise<RenderStart>;
  /** Applies a template to a submission's clips (ClipEditsService.applyTemplate). */
  applyTemplate(workspaceId: string, videoId: string, submissionId: string, templateId: string): Promise<AppliedTemplate>;
  /** The workspace's plan's price of one live batch needs the batch length. */
  batchSeconds: number;
  /** Announces `monitor.stopped` when the service stops a monitor itself (webhooks). */
  events?: EventPublisher;
}

/**
 * Monitors (docs/monitors.md): created `stopped`; start → `watching` (a monitor.poll chain watches the
 * channel), `live` while a broadcast is recorded; stop → `stopped` with `stop_reason`. Broadcasts and
 * their clips are read through the monitor.
 */
export class MonitorsService {
  constructor(private readonly d: MonitorsServiceDeps) {}

  /**
   * POST /monitors: at most the plan's `max_monitors` kept (409 MONITOR_LIMIT_REACHED), the URL classified
   * (422 INVALID_URL), the type checked against it (400), options checked (404).
   */
  async create(ctx: WorkspaceWithPlan, input: MonitorInput): Promise<MonitorRow> {
    const ws = ctx.workspace.id;
    const max = ctx.plan.maxMonitors;
    const full = () => new DomainError('MONITOR_LIMIT_REACHED', { max_monitors: max });
    // Refused before the link is fetched; counted again, under a lock, when the monitor is stored.
    if ((await this.d.repo.countKept(ws)) >= max) throw full();
    const ref = await this.d.classifier.classify(input.url);
    checkTypeFits(input.type, ref);
    await this.checkOptions(ws, input);
    const steering = resolveSteering({ prompt: input.prompt, keywords: input.keywords, clip_length: input.clip_length });
    const row = await this.d.repo.insertWithinLimit(
      {
        id: newId('mon'),
        workspaceId: ws,
        type: input.type,
        name: input.name?.trim() || defaultName(ref),
        url: input.url,
        platform: ref.platform,
        watchUrl: ref.watchUrl,
        templateId: input.template_id ?? null,
        strategyId: input.strategy_id ?? null,
        sourceLanguage: input.source_language ?? 'auto',
        steering: Object.keys(steering).length > 0 ? steering : null,
      },
      max,
    );
    if (!row) throw full();
    return row;
  }

  private async checkOptions(ws: string, input: { template_id?: string | null; strategy_id?: string | null; source_language?: string }): Promise<void> {
    if (input.template_id) await this.d.checks.checkTemplate(ws, input.template_id);
    if (input.strategy_id) await this.d.checks.checkStrategy(ws, input.strategy_id);
    if (input.source_language !== undefined && !this.d.checks.supportsLanguage(input.source_language)) {
      throw validationError([{ field: 'source_language', rule: 'unsupported_by_engine' }]);
    }
  }

  /**
   * 404 MONITOR_NOT_FOUND outside the workspace or once deleted. With `includeDeleted` (the broadcast
   * routes), a deleted monitor is found too: its broadcasts and their clips stay readable (and
   * renderable) through their own ids until retention purges their batches.
   */
  async get(workspaceId: string, id: string, opts: { includeDeleted?: boolean } = {}): Promise<MonitorRow> {
    const row = await this.d.repo.findInWorkspace(workspaceId, id, opts);
    if (!row) throw new DomainError('MONITOR_NOT_FOUND');
    return row;
  }

  list(workspaceId: string, page: PageRequest) {
    return this.d.repo.list(workspaceId, page);
  }

  async update(workspaceId: string, id: string, patch: MonitorPatch): Promise<MonitorRow> {
    const row = await this.get(workspaceId, id);
    await this.checkOptions(workspaceId, patch);
    const changes: Record<string, unknown> = {};
    if (patch.name !== undefined) {
      if (patch.name.trim() === '') throw validationError([{ field: 'name', rule: 'minLength' }]);
      changes.name = patch.name.trim();
    }
    if (patch.template_id !== undefined) changes.templateId = patch.template_id;
    if (patch.strategy_id !== undefined) changes.strategyId = patch.strategy_id;
    if (patch.source_language !== undefined) changes.sourceLanguage = patch.source_language;
    if (patch.prompt !== undefined || patch.keywords !== undefined || patch.clip_length !== undefined) {
      // Each field given replaces the monitor's (null removes it); the others stay.
      const next: PickSteering = { ...(row.steering ?? {}) };
      const given = resolveSteering({
        ...(patch.prompt != null ? { prompt: patch.prompt } : {}),
        ...(patch.keywords != null ? { keywords: patch.keywords } : {}),
        ...(patch.clip_length != null ? { clip_length: patch.clip_length } : {}),
      });
      for (const k of ['prompt', 'keywords', 'clip_length'] as const) {
        if (patch[k] === null) delete next[k];
        else if (patch[k] !== undefined) Object.assign(next, { [k]: given[k] });
        if (next[k] === undefined) delete next[k];
      }
      changes.steering = Object.keys(next).length > 0 ? next : null;
    }
    return this.d.repo.update(row.id, changes, new Date());
  }

  /** The price of starting: one batch for a live monitor; 1 credit (a positive balance) for a video monitor. */
  private startPrice(ctx: WorkspaceWithPlan, type: string): number {
    return type === 'live' ? Math.max(1, batchPrice(this.d.batchSeconds, ctx.plan.discountPercent)) : 1;
  }

  /**
   * POST /monitors/{id}/start: needs a positive balance or free usage (402 INSUFFICIENT_CREDITS with
   * `credits_needed`, one batch, and `current_balance`); a new watching chain starts. Idempotent.
   */
  async start(ctx: WorkspaceWithPlan, id: string): Promise<MonitorRow> {
    const ws = ctx.workspace;
    const row = await this.get(ws.id, id);
    if (row.status !== 'stopped') return row;
    if (!isFreeUsageActive(ws) && ws.credits <= 0) {
      throw new DomainError('INSUFFICIENT_CREDITS', { credits_needed: this.startPrice(ctx, row.type), current_balance: ws.credits });
    }
    const seq = await this.d.tx.run(async (tx) => {
      const locked = await this.d.repo.lock(tx, row.id);
      if (!locked || locked.status !== 'stopped' || locked.deletedAt) return null;
      const next = locked.pollSeq + 1;
      await this.d.repo.setStatus(
        tx,
        row.id,
        { status: 'watching', stopReason: null, startedAt: new Date(), pollSeq: next, watchState: { baseline: false } },
        new Date(),
      );
      return next;
    });
    if (seq !== null) await sendJob(this.d.queue, { name: 'monitor.poll', payload: { monitorId: row.id, seq } });
    return (await this.d.repo.get(row.id))!;
  }

  /**
   * Stops the monitor with `reason` (POST …/stop: USER): the watching chain ends, a broadcast being
   * recorded is cut there (its batch processed like a last one) and nothing is recorded or charged
   * afterwards. Idempotent.
   */
  async stopMonitor(id: string, reason: string): Promise<void> {
    const now = new Date();
    const ended = await this.d.tx.run(async (tx) => {
      const locked = await this.d.repo.lock(tx, id);
      if (!locked || locked.status === 'stopped') return null;
      await this.d.repo.setStatus(tx, id, { status: 'stopped', stopReason: reason, pollSeq: locked.pollSeq + 1 }, now);
      if (reason !== 'USER') {
        const data = { id, status: 'stopped', stop_reason: reason };
        await (this.d.events ?? noEvents).publish(locked.workspaceId, 'monitor.stopped', data, tx);
      }
      const b = await this.d.repo.liveBroadcast(id, tx);
      if (!b) return null;
      return { broadcastId: b.id, batchId: await this.d.ending.endInTx(tx, b, 'STOPPED', now) };
    });
    if (ended) await this.d.ending.afterEnd(ended.broadcastId, ended.batchId);
  }

  async stop(workspaceId: string, id: string): Promise<MonitorRow> {
    const row = await this.get(workspaceId, id);
    await this.stopMonitor(row.id, 'USER');
    return (await this.d.repo.get(row.id))!;
  }

  /**
   * DELETE /monitors/{id}: stops it, then hides it (its own routes answer 404); its submissions, its
   * broadcasts and their clips (the broadcast routes, by their ids), edits and renders stay until purged.
   */
  async remove(workspaceId: string, id: string): Promise<void> {
    const row = await this.get(workspaceId, id);
    await this.stopMonitor(row.id, 'USER');
    await this.d.repo.setStatus(undefined, row.id, { status: 'stopped', deletedAt: new Date() }, new Date());
  }

  view(row: MonitorRow): MonitorView {
    return {
      id: row.id,
      type: row.type as MonitorType,
      name: row.name,
      url: row.url,
      platform: row.platform as ChannelPlatform,
      status: row.status as MonitorStatus,
      stop_reason: row.stopReason as StopReason | null,
      template_id: row.templateId,
      strategy_id: row.strategyId,
      source_language: row.sourceLanguage,
      prompt: row.steering?.prompt ?? null,
      keywords: row.steering?.keywords ?? null,
      clip_length: row.steering?.clip_length ?? null,
      started_at: row.startedAt?.toISOString() ?? null,
      last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }

  async broadcasts(workspaceId: string, monitorId: string, page: PageRequest) {
    const m = await this.get(workspaceId, monitorId, { includeDeleted: true });
    return this.d.repo.listBroadcasts(workspaceId, m.id, page);
  }

  /** 404 MONITOR_NOT_FOUND, then BROADCAST_NOT_FOUND (another monitor's or workspace's broadcast). A deleted monitor's broadcasts stay readable. */
  async broadcast(workspaceId: string, monitorId: string, broadcastId: string): Promise<BroadcastSummary> {
    const m = await this.get(workspaceId, monitorId, { includeDeleted: true });
    const b = await this.d.repo.findBroadcast(workspaceId, m.id, broadcastId);
    if (!b) throw new DomainError('BROADCAST_NOT_FOUND');
    return b;
  }

  broadcastView(b: BroadcastSummary): BroadcastView {
    return {
      id: b.id,
      monitor_id: b.monitorId,
      title: b.title,
      status: b.status as BroadcastView['status'],
      started_at: b.startedAt.toISOString(),
      ended_at: b.endedAt?.toISOString() ?? null,
      batches_count: b.batchesCount,
      clips_count: b.clipsCount,
      credits_charged: b.creditsCharged,
    };
  }

  async clips(workspaceId: string, monitorId: string, broadcastId: string, order: ClipListOrder, page: PageRequest) {
    const b = await this.broadcast(workspaceId, monitorId, broadcastId);
    return this.d.repo.listBroadcastClips(workspaceId, b.id, order, page);
  }

  /**
   * The spec's Clip object plus `batch_index`, `broadcast_offset` (seconds from the broadcast's start)
   * and the batch's `video_id` and `submission_id` (the clip is a submission clip too: its editor).
   */
  async clipView(row: BroadcastClipRow) {
    const { batchIndex, batchOffset, videoId, ...clip } = row;
    return {
      ...(await this.d.clipView(clip)),
      batch_index: batchIndex,
      broadcast_offset: Math.round((batchOffset + row.startTime) * 1000) / 1000,
      video_id: videoId,
      submission_id: row.submissionId,
    };
  }

  /** POST …/clips/{clipId}/render: the clip's current edit rendered like a submission clip's (202, or 200 from_cache). */
  async renderClip(ctx: WorkspaceWithPlan, monitorId: string, broadcastId: string, clipId: string): Promise<RenderStart> {
    const ws = ctx.workspace.id;
    const b = await this.broadcast(ws, monitorId, broadcastId);
    const clip = await this.d.repo.findBroadcastClip(ws, b.id, clipId);
    if (!clip) throw new DomainError('CLIP_NOT_FOUND');
    return this.d.renderClip(ctx, clip.videoId, clip.submissionId, clip.id);
  }

  /**
   * POST …/broadcasts/{broadcastId}/apply_template: the template on every clip of the broadcast's
   * clipped batches (the submission rules per batch; batches still being clipped are left out).
   */
  async applyTemplate(workspaceId: string, monitorId: string, broadcastId: string, templateId: string) {
    const b = await this.broadcast(workspaceId, monitorId, broadcastId);
    await this.d.checks.checkTemplate(workspaceId, templateId);
    const out: AppliedTemplate['clips'] = [];
    for (const s of await this.d.repo.batchSubmissions(b.id)) {
      if (s.status !== 'completed') continue;
      const applied = await this.d.applyTemplate(workspaceId, s.videoId, s.submissionId, templateId);
      out.push(...applied.clips);
    }
    return { broadcast_id: b.id, template_id: templateId, clips: out };
  }
}

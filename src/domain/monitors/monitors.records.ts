import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';
import type { ClipListOrder, ClipRow } from '../clips/clips.records.js';
import type { PickSteering } from '../highlights/steering.js';

/** A channel monitor (table `monitors`, docs/monitors.md). */
export interface MonitorRow {
  id: string;
  workspaceId: string;
  /** `live` or `video`. */
  type: string;
  name: string;
  url: string;
  /** `youtube`, `twitch`, `feed` or `hls`. */
  platform: string;
  watchUrl: string;
  /** `stopped`, `watching` or `live`. */
  status: string;
  stopReason: string | null;
  templateId: string | null;
  strategyId: string | null;
  sourceLanguage: string;
  /** The prompt, keywords and clip length its submissions and batches are picked with; null: none. */
  steering: PickSteering | null;
  startedAt: Date | null;
  lastCheckedAt: Date | null;
  pollSeq: number;
  pollLeaseUntil: Date | null;
  watchState: unknown;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewMonitor = Pick<
  MonitorRow,
  'id' | 'workspaceId' | 'type' | 'name' | 'url' | 'platform' | 'watchUrl' | 'templateId' | 'strategyId' | 'sourceLanguage'
> &
  Partial<Pick<MonitorRow, 'steering'>>;

export type MonitorChanges = Partial<Pick<MonitorRow, 'name' | 'templateId' | 'strategyId' | 'sourceLanguage' | 'steering'>>;

/** An upload a video monitor saw (table `monitor_entries`). */
export interface MonitorEntryRow {
  monitorId: string;
  entryId: string;
  url: string;
  title: string;
  baseline: boolean;
  /** `pending`, `submitted`, `skipped` (baseline) or `failed`. */
  status: string;
  submissionId: string | null;
  errorCode: string | null;
  createdAt: Date;
}

/** A broadcast (table `broadcasts`). */
export interface BroadcastRow {
  id: string;
  workspaceId: string;
  monitorId: string;
  title: string;
  /** `live`, `processing` or `ended`. */
  status: string;
  externalId: string;
  playlistUrl: string;
  nextSequence: number | null;
  lastGrowthAt: Date | null;
  endReason: string | null;
  startedAt: Date;
  endedAt: Date | null;
  createdAt: Date;
}

/** One stored piece of a batch's recording: segments fetched together in one poll. */
export interface BatchChunk {
  key: string;
  /** What the stored chunk measures (ffprobe), not what the playlist declares: the batch is billed and cut by it. */
  seconds: number;
  firstSequence: number;
  lastSequence: number;
  /** Bytes stored (the batch's byte cap counts them); absent on chunks stored before it was kept. */
  bytes?: number;
  /** What its segments' `#EXTINF` declared, for the record. */
  declaredSeconds?: number;
}

/** A batch of a broadcast (table `broadcast_batches`). */
export interface BatchRow {
  id: string;
  workspaceId: string;
  broadcastId: string;
  index: number;
  /** `recording`, `recorded`, `processing` or `done`. */
  status: string;
  offsetSeconds: number;
  seconds: number;
  chunks: unknown;
  creditsCharged: number;
  submissionId: string | null;
  clipsCount: number;
  errorCode: string | null;
  startedAt: Date;
  recordedAt: Date | null;
  finishedAt: Date | null;
}

/** A broadcast with its batch totals, for the Broadcast object. */
export interface BroadcastSummary extends BroadcastRow {
  batchesCount: number;
  clipsCount: number;
  creditsCharged: number;
}

/** A clip of a broadcast: the clip row with its batch's index and offset, and what renders it. */
export interface BroadcastClipRow extends ClipRow {
  batchIndex: number;
  batchOffset: number;
  videoId: string;
}

/** The monitors aggregate's storage (src/adapters/db/repositories/monitors.repository.ts). */
export interface MonitorsRepository {
  /**
   * Stores a new monitor unless its workspace already keeps `max` (deleted ones do not count): counted
   * under a lock on the workspace row, so simultaneous creations cannot pass it. Undefined then.
   */
  insertWithinLimit(monitor: NewMonitor, max: number): Promise<MonitorRow | undefined>;
  /** The workspace's monitors that are not deleted. */
  countKept(workspaceId: string): Promise<number>;
  get(id: string, tx?: Tx): Promise<MonitorRow | undefined>;
  /** The workspace's monitor, unless deleted (or deleted too with `includeDeleted`: its broadcasts stay readable). */
  findInWorkspace(workspaceId: string, id: string, opts?: { includeDeleted?: boolean }): Promise<MonitorRow | undefined>;
  list(workspaceId: string, page: PageRequest): Promise<{ rows: MonitorRow[]; total: number }>;
  update(id: string, changes: MonitorChanges, at: Date): Promise<MonitorRow>;
  /** Locks the monitor until `tx` ends. */
  lock(tx: Tx, id: string): Promise<MonitorRow | undefined>;
  /** Status change; `pollSeq` given: the new watching chain. */
  setStatus(
    tx: Tx | undefined,
    id: string,
    change: { status: string; stopReason?: string | null; startedAt?: Date | null; pollSeq?: number; watchState?: unknown; deletedAt?: Date },
    at: Date,
  ): Promise<void>;
  /**
   * Takes the poll lease of the monitor for the run of chain `seq` until `until`: only while `seq` is the
   * monitor's chain, it is not stopped or deleted, and no other run holds an unexpired lease. Answers the row.
   */
  claimPoll(id: string, seq: number, until: Date, now: Date): Promise<MonitorRow | undefined>;
  /** Ends the run of chain `seq`: the chain moves to `seq + 1` (the run sends that job), the lease is freed, `last_checked_at` set. */
  releasePoll(id: string, seq: number, at: Date, changes: { watchState?: unknown; status?: string }): Promise<boolean>;
  /** Monitors on (not stopped, not deleted) whose chain has not run since `before` (a lost poll job). */
  silentSince(before: Date, limit: number): Promise<MonitorRow[]>;

  /** Records entries not seen yet (the baseline or new uploads); answers the ones this call inserted. */
  insertEntries(entries: ReadonlyArray<Pick<MonitorEntryRow, 'monitorId' | 'entryId' | 'url' | 'title' | 'baseline' | 'status'>>): Promise<MonitorEntryRow[]>;
  pendingEntries(monitorId: string, limit: number): Promise<MonitorEntryRow[]>;
  /** Entries left pending when the monitor stopped are not clipped after a restart: they become skipped. */
  skipPending(monitorId: string): Promise<void>;
  /** The submission a monitor already made of that video, if any (a run that stopped after creating it). */
  monitorSubmissionOfVideo(monitorId: string, videoId: string): Promise<string | undefined>;
  settleEntry(monitorId: string, entryId: string, change: { status: string; submissionId?: string | null; errorCode?: string | null }): Promise<void>;

  insertBroadcast(
    tx: Tx,
    b: Pick<BroadcastRow, 'id' | 'workspaceId' | 'monitorId' | 'title' | 'status' | 'externalId' | 'playlistUrl' | 'startedAt'>,
  ): Promise<BroadcastRow>;
  liveBroadcast(monitorId: string, tx?: Tx): Promise<BroadcastRow | undefined>;
  /** The monitor's latest broadcast that is no longer live. */
  lastEndedBroadcast(monitorId: string): Promise<BroadcastRow | undefined>;
  getBroadcast(id: string): Promise<BroadcastRow | undefined>;
  findBroadcast(workspaceId: string, monitorId: string, id: string): Promise<BroadcastSummary | undefined>;
  listBroadcasts(workspaceId: string, monitorId: string, page: PageRequest): Promise<{ rows: BroadcastSummary[]; total: number }>;
  /**
   * Playlist progress: the next sequence to fetch becomes `to` (and `lastGrowthAt` now) only while it is
   * still at most `from` (the chunk's first segment); false when another run stored those segments already.
   */
  advanceBroadcast(tx: Tx, id: string, from: number, to: number, at: Date): Promise<boolean>;
  /** `live` → `processing` or `ended`; false when it was not live. */
  endBroadcast(tx: Tx, id: string, status: 'processing' | 'ended', reason: string, at: Date): Promise<boolean>;
  /** `processing` → `ended` once no batch of it is unfinished. */
  finishBroadcastIfDone(id: string): Promise<boolean>;

  insertBatch(
    tx: Tx,
    b: Pick<BatchRow, 'id' | 'workspaceId' | 'broadcastId' | 'index' | 'status' | 'offsetSeconds' | 'creditsCharged' | 'startedAt'>,
  ): Promise<BatchRow>;
  getBatch(id: string, tx?: Tx): Promise<BatchRow | undefined>;
  /** The batch being recorded, if any. */
  recordingBatch(broadcastId: string, tx?: Tx): Promise<BatchRow | undefined>;
  /** The broadcast's last batch (highest index). */
  lastBatch(broadcastId: string, tx?: Tx): Promise<BatchRow | undefined>;
  /** Adds a chunk to a batch still `recording`; false when it no longer is (stopped, cut). */
  appendChunk(tx: Tx, batchId: string, chunk: BatchChunk): Promise<boolean>;
  /** `recording` → `recorded`; false when it was not recording. */
  cutBatch(tx: Tx, batchId: string, at: Date): Promise<boolean>;
  setBatchSubmission(tx: Tx, batchId: string, submissionId: string): Promise<void>;
  /** Ends a batch: its clip count, the net credits, an error code. False when it was done already. */
  finishBatch(tx: Tx, batchId: string, r: { clipsCount: number; creditsCharged: number; errorCode: string | null }, at: Date): Promise<boolean>;
  /** A page of a broadcast's clips (through its batches' submissions). */
  listBroadcastClips(workspaceId: string, broadcastId: string, order: ClipListOrder, page: PageRequest): Promise<{ rows: BroadcastClipRow[]; total: number }>;
  findBroadcastClip(workspaceId: string, broadcastId: string, clipId: string): Promise<BroadcastClipRow | undefined>;
  /** The internal submissions of a broadcast's batches, with their video ids. */
  batchSubmissions(broadcastId: string): Promise<Array<{ submissionId: string; videoId: string; status: string }>>;
}

import path from 'node:path';
import type { Logger } from 'pino';
import { newId } from '../../shared/ids.js';
import { DomainError, errorCodeOf } from '../errors.js';
import type { Storage } from '../../ports/storage.js';
import type { JobQueue } from '../../ports/queue.js';
import type { LocalFiles } from '../../ports/local-files.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';
import type { AsrEngine, AsrWord } from '../../ports/asr.js';
import type { HighlightClip, HighlightScorer } from '../../ports/highlights.js';
import type { FaceDetector } from '../../ports/face-detector.js';
import type { AudioExtractor, PreviewRenderer } from '../../ports/media.js';
import type { SourceDownloader } from '../../ports/source-downloader.js';
import { analyzeVideo, compactFaces, toSourceTimeline, type RangedAnalysis, type VideoAnalysis, type VideoAnalysisPasses } from '../analysis/video-analysis.js';
import type { ClipsRepository } from '../clips/clips.records.js';
import { pickHighlightsWithScorer } from '../highlights/highlight-engine.js';
import { steeredStrategy } from '../highlights/steering.js';
import { promptSynonyms } from '../highlights/matching.js';
import type { Lexicon } from '../../ports/lexicon.js';
import { buildClipEdit, sourceFaces } from '../edits/clip-edit.js';
import { editTemplateOf, type TemplatesService } from '../templates/templates.service.js';
import { editHash } from '../edits/edit.js';
import { sendJob } from '../jobs/enqueue.js';
import { retryOrFail, throwIfLost, type Attempt } from '../jobs/retry.js';
import type { VideosRepository } from '../videos/videos.records.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.records.js';
import type { StageChanges, SubmissionRow, SubmissionsRepository } from './submissions.records.js';
import type { SubmissionFailure } from './submission-failure.js';
import { analysedRange, linkSourceKey, nextState, resolveTimeframe, waitingRetrySeconds, type SubmissionState } from './submission.rules.js';

/** Everything the pipeline does that is I/O, wired in src/main/pipeline.wiring.ts. */
export interface PipelineDeps {
  repo: SubmissionsRepository;
  videos: Pick<VideosRepository, 'get' | 'setMeasurements'>;
  clips: ClipsRepository;
  transactions: TransactionRunner;
  /** The workspace's plan caps a linked source's size and forces a watermark. */
  workspaces: { get(id: string): Promise<WorkspaceWithPlan> };
  storage: Storage;
  queue: JobQueue;
  /** Ends a run that gives up: `failed`, refunded, announced (the same outcome as a refused enqueue at creation). */
  failure: Pick<SubmissionFailure, 'fail'>;
  logger: Logger;
  /** Work folders (WAVs, previews). */
  files: LocalFiles;
  /**
   * Brings a linked video's bytes into storage, or says the source is not there yet. A source above the
   * plan's upload maximum fails with SOURCE_TOO_LARGE as soon as the cap is passed.
   */
  downloader: SourceDownloader;
  /** The transcribing stage's WAV of the paid stretch. */
  audio: AudioExtractor;
  asr: AsrEngine;
  /** The video_analysis stage's media passes (each reads the paid stretch only). */
  analysis: VideoAnalysisPasses;
  /** The face detector, loaded on first use. */
  faces(): Promise<FaceDetector>;
  scorer?: HighlightScorer;
  /** The submission's strategy and caption template, or the defaults. */
  templates: Pick<TemplatesService, 'strategyOrDefault' | 'templateOrDefault'>;
  /** Synonyms of a prompt's words (WordNet); absent: a prompt matches its own words and their stems only. */
  lexicon?: Lexicon;
  /** The clips' preview MP4s. */
  previews: PreviewRenderer;
  /** Announces `submission.completed` (webhooks) in the transaction that completes the submission. */
  events?: EventPublisher;
}

interface Transcript {
  language: string;
  words: AsrWord[];
}

/**
 * The stored analysis: the source's timeline (`range` absent on rows analysed before ranges were kept: the
 * whole file; `faces` absent on rows analysed before the face samples were kept).
 */
export type StoredAnalysis = Omit<RangedAnalysis, 'faces' | 'range'> & {
  range?: RangedAnalysis['range'];
  faces?: RangedAnalysis['faces'];
  picks?: HighlightClip[];
};

/**
 * What the video_analysis stage stores (pure): the analysis of the stretch in the source's timeline, with
 * its face samples compacted (compactFaces), so layouts can be computed later for any clip of it.
 */
export function storedAnalysis(analysed: VideoAnalysis, range: { start: number; end: number }): StoredAnalysis {
  const ranged = toSourceTimeline(analysed, range);
  return { ...ranged, faces: compactFaces(ranged.faces) };
}

/** What the highlight picker reads: the paid stretch only, in its own timeline starting at source second `offset`. */
export interface HighlightStretch {
  offset: number;
  words: AsrWord[];
  loudness: number[];
  sceneCuts: number[];
  duration: number;
}

/**
 * The highlight picker's input for a timeframe (pure): the words inside it and the analysis of the
 * analysed range, moved so that the stretch starts at 0 (a whole second, so that loudness indexes stay
 * seconds). Loudness statistics and candidate windows then come from the paid stretch alone; picks
 * are moved back by `offset`.
 */
export function highlightStretch(
  analysis: Pick<StoredAnalysis, 'range' | 'duration' | 'loudness' | 'sceneCuts'>,
  words: readonly AsrWord[],
  timeframe: { start: number; end: number },
): HighlightStretch {
  const range = analysis.range ?? { start: 0, end: analysis.duration };
  const offset = Math.round(range.start);
  const end = Math.min(range.end, timeframe.end);
  const move = (t: number) => Math.round((t - offset) * 1000) / 1000;
  return {
    offset,
    words: words.filter((w) => w.start >= timeframe.start && w.end <= end + 0.01).map((w) => ({ ...w, start: move(w.start), end: move(w.end) })),
    loudness: analysis.loudness.slice(offset, Math.ceil(end - 1e-6)),
    sceneCuts: analysis.sceneCuts.filter((c) => c > offset && c < end).map(move),
    duration: move(end),
  };
}

/**
 * Runs a submission through downloading → transcribing → video_analysis → analyzing → finalizing.
 * Each stage keeps its result on the submission, so a job retried after a crash resumes where it
 * stopped; clips are keyed by position, so finalizing twice creates nothing twice.
 */
export class SubmissionPipeline {
  constructor(private readonly d: PipelineDeps) {}

  private async advance(row: SubmissionRow, from: SubmissionState, changes: StageChanges = {}, tx?: Tx): Promise<SubmissionRow> {
    const next = await this.d.repo.transition(row.id, from, nextState(from), changes, new Date(), tx);
    if (!next) throw new DomainError('SUBMISSION_STATE_CHANGED');
    const seconds = Math.round((Date.now() - row.updatedAt.getTime()) / 100) / 10;
    this.d.logger.info({ submissionId: row.id, workspaceId: row.workspaceId, from, to: next.status, seconds }, `submission ${next.status}`);
    return next;
  }

  async run(id: string, attempt: Attempt): Promise<void> {
    const loaded = await this.d.repo.get(id);
    if (!loaded || loaded.status === 'completed' || loaded.status === 'failed') return;
    let row = loaded;
    this.d.logger.info({ submissionId: id, workspaceId: row.workspaceId, status: row.status, retry: attempt.retryCount }, 'submission job started');
    try {
      throwIfLost(attempt);
      if (row.status === 'queued') row = await this.advance(row, 'queued', { startedAt: new Date() });
      if (row.status === 'downloading') {
        const next = await this.downloading(row);
        if (!next) return; // waiting for the source; a later job resumes
        row = next;
      }
      const current = row;
      // Every stage works on the paid stretch, never past the duration measured on the stored file.
      const video = await this.d.videos.get(current.videoId);
      if (!video) throw new DomainError('VIDEO_NOT_FOUND');
      const stretch = () => analysedRange({ start: current.timeframeStart, end: current.timeframeEnd }, video.duration);
      await this.d.storage.withLocalFile(current.sourceKey!, async (file) => {
        let r = current;
        if (r.status === 'transcribing') r = await this.transcribing(r, file, stretch());
        if (r.status === 'video_analysis') r = await this.videoAnalysis(r, file, stretch());
        if (r.status === 'analyzing') r = await this.analyzing(r);
        if (r.status === 'finalizing') await this.finalizing(r, file);
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'SUBMISSION_STATE_CHANGED') return; // removed or finished elsewhere
      await retryOrFail(err, attempt, {
        fail: async (e) => {
          const code = errorCodeOf(e);
          this.d.logger.warn({ err: e, submissionId: id, code }, 'submission failed');
          await this.d.failure.fail(row, code);
        },
      });
    }
  }

  private async downloading(row: SubmissionRow): Promise<SubmissionRow | null> {
    const video = await this.d.videos.get(row.videoId);
    if (!video) throw new DomainError('VIDEO_NOT_FOUND');
    let key = video.storageKey;
    if (video.source === 'link') {
      key = linkSourceKey(video.workspaceId, video.id);
      if (!(await this.d.storage.head(key))) {
        const { plan } = await this.d.workspaces.get(row.workspaceId);
        // The plan's upload maximum caps a linked source too, checked while the bytes arrive.
        const out = await this.d.downloader.download(
          { mediaUrl: video.mediaUrl ?? video.sourceUrl!, platform: video.platform },
          { storage: this.d.storage, key },
          { maxBytes: plan.maxUploadSize },
        );
        if (out.kind === 'waiting') {
          const retry = waitingRetrySeconds(out.retryAfterSeconds, row.attempts);
          await this.d.repo.setWaiting(row.id, { waitingReason: out.reason, waitingUntil: out.until ?? null, attempts: row.attempts + 1 }, new Date());
          await sendJob(this.d.queue, { name: 'submission.process', payload: { submissionId: row.id }, startAfter: new Date(Date.now() + retry * 1000) });
          return null;
        }
        key = out.key;
        // The real measurements are known now (a premiere had none): keep them, and check the timeframe.
        const { duration, width, height, hasAudio } = out.info;
        await this.d.videos.setMeasurements(video.id, { duration, width, height, hasAudio }, new Date());
        resolveTimeframe(duration, { start: row.timeframeStart, end: row.timeframeEnd });
      }
    }
    if (!key || !(await this.d.storage.head(key))) throw new DomainError('FILE_NOT_FOUND');
    return this.advance(row, 'downloading', { sourceKey: key, waitingReason: null, waitingUntil: null });
  }

  private async transcribing(row: SubmissionRow, file: string, range: { start: number; end: number }): Promise<SubmissionRow> {
    return this.d.files.withTempDir(`asr-${row.id}-`, async (dir) => {
      const wav = path.join(dir, 'audio.wav');
      const hasAudio = await this.d.audio.extractWav(file, wav, range);
      if (!hasAudio) throw new DomainError('NO_SPEECH');
      const lang = row.sourceLanguage === 'auto' ? undefined : row.sourceLanguage;
      const result = await this.d.asr.transcribe(wav, { language: lang });
      const words = result.words.map((w) => ({ ...w, start: w.start + range.start, end: w.end + range.start }));
      if (words.length === 0) throw new DomainError('NO_SPEECH');
      const transcript: Transcript = { language: result.language || lang || 'en', words };
      return this.advance(row, 'transcribing', { transcript, language: transcript.language });
    });
  }

  /** Analyses the stretch only (never the rest of the file); stored in the source's timeline with its range. */
  private async videoAnalysis(row: SubmissionRow, file: string, range: { start: number; end: number }): Promise<SubmissionRow> {
    const report = stageReporter((f) => this.d.repo.setStageProgress(row.id, 'video_analysis', f));
    const analysed = await analyzeVideo(file, { ...this.d.analysis, faceDetector: await this.d.faces() }, { range, onProgress: (f) => report(f) });
    return this.advance(row, 'video_analysis', { analysis: storedAnalysis(analysed, range) });
  }

  private async analyzing(row: SubmissionRow): Promise<SubmissionRow> {
    const transcript = row.transcript as Transcript;
    const analysis = row.analysis as StoredAnalysis;
    // The submission's prompt and keywords, else its strategy's; its clip_length, else the strategy's range.
    const {
      prompt: strategyPrompt,
      keywords: strategyKeywords,
      ...strategyConfig
    } = (await this.d.templates.strategyOrDefault(row.workspaceId, row.strategyId)).config;
    const steering = { prompt: strategyPrompt, keywords: strategyKeywords, ...(row.steering ?? {}) };
    const strategy = steeredStrategy(strategyConfig, steering);
    // Picked on the paid stretch alone, in its own timeline; clip times go back to the source's.
    const s = highlightStretch(analysis, transcript.words, { start: row.timeframeStart, end: row.timeframeEnd });
    const synonyms = steering.prompt && this.d.lexicon ? await promptSynonyms(steering.prompt, this.d.lexicon) : undefined;
    const picks = await pickHighlightsWithScorer(
      {
        words: s.words,
        loudness: s.loudness,
        scene_cuts: s.sceneCuts,
        duration: s.duration,
        strategy,
        language: transcript.language,
        prompt: steering.prompt,
        keywords: steering.keywords,
        synonyms,
      },
      this.d.scorer,
      { onScorerError: (err) => this.d.logger.warn({ err }, 'highlight scorer failed') },
    );
    const back = (t: number) => Math.round((t + s.offset) * 1000) / 1000;
    const inside = picks
      .map((p) => ({ ...p, start: back(p.start), end: back(p.end) }))
      .filter((p) => p.start >= row.timeframeStart - 0.01 && p.end <= row.timeframeEnd + 0.01);
    return this.advance(row, 'analyzing', { analysis: { ...analysis, picks: inside } });
  }

  private async finalizing(row: SubmissionRow, file: string): Promise<void> {
    const analysis = row.analysis as StoredAnalysis;
    const transcript = row.transcript as Transcript;
    const picks = [...(analysis.picks ?? [])].sort((a, b) => a.start - b.start);
    const { plan } = await this.d.workspaces.get(row.workspaceId);
    const template = editTemplateOf(await this.d.templates.templateOrDefault(row.workspaceId, row.templateId));
    const language = transcript.language;
    await this.d.clips.insertMissing(
      picks.map((pick, position) => ({
        id: newId('clip'),
        workspaceId: row.workspaceId,
        submissionId: row.id,
        position,
        title: pick.title,
        text: pick.text,
        rating: pick.rating,
        startTime: pick.start,
        endTime: pick.end,
        language,
        signals: pick.signals,
        scoreDetails: pick.score_details ?? null,
        reason: pick.reason ?? null,
        matched: pick.matched ?? [],
        hasTemplateApplied: row.templateId !== null,
      })),
    );
    const rows = await this.d.clips.ofSubmission(row.id);
    let done = 0;
    for (const clip of rows) {
      if (!clip.editId) {
        const edit = buildClipEdit({
          source: { key: row.sourceKey!, duration: analysis.duration, width: analysis.width, height: analysis.height },
          start: clip.startTime,
          end: clip.endTime,
          words: transcript.words,
          cropPath9x16: analysis.cropPath9x16,
          faces: sourceFaces(analysis),
          template,
          watermark: plan.forceWatermark,
          loudness: analysis.loudness,
          pitch: analysis.pitch,
        });
        const editId = newId('edit');
        await this.d.transactions.run(async (tx) => {
          await this.d.clips.insertEdit(tx, {
            id: editId,
            workspaceId: row.workspaceId,
            clipId: clip.id,
            hash: editHash(edit),
            spec: edit,
            templateId: template.id,
          });
          await this.d.clips.setEdit(tx, clip.id, { editId });
        });
      }
      if (!clip.previewKey) {
        const key = `previews/${row.workspaceId}/${clip.id}.mp4`;
        await this.d.files.withTempDir(`preview-${clip.id}-`, async (dir) => {
          const out = path.join(dir, 'preview.mp4');
          await this.d.previews.renderPreview(file, out, clip.startTime, clip.endTime);
          await this.d.storage.putFile(key, out, 'video/mp4');
        });
        await this.d.clips.setPreview(clip.id, key);
      }
      await this.d.repo.setStageProgress(row.id, 'finalizing', ++done / rows.length);
    }
    await this.d.transactions.run(async (tx) => {
      await this.advance(row, 'finalizing', { clipsCount: rows.length, finishedAt: new Date() }, tx);
      const data = { id: row.id, video_id: row.videoId, status: 'completed', clips_count: rows.length };
      // A live batch's submission is internal (docs/monitors.md): its broadcast announces itself.
      if (!row.liveBatch) await (this.d.events ?? noEvents).publish(row.workspaceId, 'submission.completed', data, tx);
    });
  }
}

/**
 * Passes a stage's progress on at most once every 2 s and only when it moved by a percent or more
 * (the database is written each time); the writes run one after another, and a failed one is dropped
 * (progress is a hint, the stage goes on).
 */
export function stageReporter(write: (fraction: number) => Promise<void>, minSeconds = 2): (fraction: number) => void {
  let last = -1;
  let at = 0;
  let chain: Promise<void> = Promise.resolve();
  return (fraction) => {
    const now = Date.now();
    if (fraction - last < 0.01 || now - at < minSeconds * 1000) return;
    last = fraction;
    at = now;
    chain = chain.then(() => write(fraction)).catch(() => {});
  };
}

import fs from 'node:fs';
import path from 'node:path';
import { acceptedExtensions, errorReason, type Cutroom, type Render, type Schemas, type Submission, type UploadKind } from '@cutroom/sdk';
import { creditsForSeconds } from '../../domain/credits/credits.rules.js';
import { startedMinutes } from '../../domain/transcriptions/transcriptions.rules.js';
import { CliFailure, USER_EXIT } from './failure.js';
import { probeDuration } from './probe.js';
import { table, type OutStream, type Progress } from './progress.js';
import { confirmCharge, credits, requireConsent, type ChargeConsent, type InStream } from './consent.js';
import { downloadName, downloadTo, outputDir, target, writeText } from './download.js';
import { jobProgress } from './waiting.js';

/** What a command runs with: the SDK client, the streams and environment, JSON or text, the progress display. */
export interface CliContext {
  cutroom: Cutroom;
  io: { stdout: OutStream; stderr: OutStream; stdin?: InStream; env: Readonly<Record<string, string | undefined>> };
  json: boolean;
  progress: Progress;
}

type Clip = Schemas['Clip'];
type Transcription = Schemas['Transcription'];

const UNFINISHED_SUBMISSIONS = ['queued', 'downloading', 'transcribing', 'video_analysis', 'analyzing', 'finalizing'] as const;

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** 1:02:03 / 4:05 */
export function clock(s: number): string {
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** The size of a local file to send; exit 5 when it cannot be read. */
function inputFile(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    throw new CliFailure(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, USER_EXIT.file);
  }
  if (!stat.isFile()) throw new CliFailure(`${file} is not a file`, USER_EXIT.file);
  return stat.size;
}

/** Spec, Limits: the shortest video the service clips, in seconds. */
const MIN_VIDEO_SECONDS = 60;

/**
 * A refusal the CLI makes itself before any byte is sent, because the service would make it after the
 * upload: in the words of the SDK's table, `<reason> (<CODE>, <how it was known>)`; --json prints the body.
 */
function refuseLocally(code: string, extra: Record<string, unknown>, how: string, exitCode: number): CliFailure {
  const reason = errorReason(code, extra);
  return new CliFailure(`${reason} (${code}, ${how})`, exitCode, { code, status: null, reason, extra });
}

/** A file whose extension the service never takes: refused before any request (exit 2). */
function checkExtension(file: string, kind: UploadKind): void {
  const allowed = acceptedExtensions(kind);
  if (allowed.includes(path.extname(file).toLowerCase())) return;
  throw refuseLocally(
    'VALIDATION_ERROR',
    { errors: [{ field: 'file_name', rule: 'extension', allowed }] },
    `${path.basename(file)}, before uploading`,
    USER_EXIT.usage,
  );
}

/**
 * The duration of a local video measured with ffprobe (when it is on the PATH), refused at once when it
 * is under the minimum; answered so that POST /videos/upload refuses one over the plan's maximum before
 * any byte is sent. Undefined when ffprobe is absent or cannot read the file: the service decides.
 */
async function checkDuration(ctx: CliContext, file: string): Promise<number | undefined> {
  const duration = await probeDuration(file, ctx.io.env);
  if (duration !== undefined && duration < MIN_VIDEO_SECONDS) {
    const extra = { duration: Math.round(duration * 1000) / 1000, min_duration: MIN_VIDEO_SECONDS };
    throw refuseLocally('VIDEO_TOO_SHORT', extra, 'measured by ffprobe before uploading', USER_EXIT.apiError);
  }
  return duration;
}

/** The name a render of an edit is saved under: `<title-slug>-<render id>.mp4` (the service's file name gives the title). */
function renderFileName(renderId: string, serviceName: string): string {
  const title = serviceName.replace(/\.mp4$/i, '');
  return downloadName(title === `render-${renderId}` ? '' : title, renderId, 'mp4', 'render');
}

/** Saves a completed render's MP4 as `file` (never over an existing file unless `force`); answers the path. */
export async function saveRender(ctx: CliContext, renderId: string, file: string, force?: boolean): Promise<string> {
  const { url } = await ctx.cutroom.renders.downloadLink(renderId);
  return downloadTo(ctx.progress, url, file, force);
}

/** Waits for a render, its progress on stderr (`[12:00:03] render rnd_…: active  40 %`), and answers it completed. */
export async function waitRender(ctx: CliContext, render: Render): Promise<Render> {
  if (render.status === 'completed') {
    ctx.progress.line(`render ${render.id}: completed${render.from_cache ? ' (from cache)' : ''}`);
    return render;
  }
  const shown = jobProgress(ctx.io.stderr, `render ${render.id}`);
  const show = (r: Render) => shown.update({ stage: r.status, fraction: r.progress / 100 });
  show(render);
  try {
    return await ctx.cutroom.waitForRender(render.id, { onPoll: show });
  } finally {
    shown.done();
  }
}

/** Waits for a submission, its stage, progress and time left on stderr; answers it completed. */
export async function waitSubmission(ctx: CliContext, videoId: string, submissionId: string): Promise<Submission> {
  const shown = jobProgress(ctx.io.stderr, `submission ${submissionId}`);
  try {
    return await ctx.cutroom.waitForSubmission(videoId, submissionId, {
      onPoll: (s) =>
        shown.update({
          stage: s.waiting_reason
            ? `${s.status} (waiting: ${s.waiting_reason})`
            : s.status === 'queued' && s.queue_position
              ? `queued (#${s.queue_position})`
              : s.status,
          fraction: s.status === 'completed' ? 1 : s.progress,
          secondsLeft: s.estimated_time,
        }),
    });
  } finally {
    shown.done();
  }
}

/** Waits for a transcription with its stage, progress and time left; answers it finished (ready or no_speech), or exit 4 when it failed. */
export async function waitTranscription(ctx: CliContext, started: Transcription): Promise<Transcription> {
  if (started.status === 'failed') throw transcriptionFailure(started);
  if (started.status !== 'processing') return started;
  const shown = jobProgress(ctx.io.stderr, `transcription ${started.id}`);
  try {
    // A failed one throws the SDK's TRANSCRIPTION_FAILED (exit 4), with the transcription in `extra`.
    return await ctx.cutroom.waitForTranscription(started.id, {
      onPoll: (t) =>
        shown.update({ stage: t.status === 'processing' ? (t.stage ?? 'processing') : t.status, fraction: t.progress, secondsLeft: t.estimated_time }),
    });
  } finally {
    shown.done();
  }
}

function transcriptionFailure(t: Transcription): CliFailure {
  const reason = errorReason('TRANSCRIPTION_FAILED', t);
  return new CliFailure(`${reason} (TRANSCRIPTION_FAILED, ${t.id}: ${t.error_code})`, USER_EXIT.jobFailed, {
    code: 'TRANSCRIPTION_FAILED',
    status: null,
    reason,
    extra: t,
  });
}

export interface ClipOptions extends ChargeConsent {
  timeframe?: { start: number; end: number };
  template?: string;
  strategy?: string;
  language: string;
  prompt?: string;
  keywords?: string[];
  length?: { min: number; max: number };
  render: 'best' | 'all' | 'none';
  out: string;
  force?: boolean;
}

/**
 * The quote of POST /clips from the video's analysis (a link's, or an upload's once completed: both free):
 * the whole video's `credits_cost`, or the stretch asked priced the same way (the plan's discount).
 */
function clipQuote(video: Schemas['VideoAnalysis'], timeframe?: { start: number; end: number }) {
  const price = timeframe ? creditsForSeconds(timeframe.end - timeframe.start, video.discount_percent) : video.credits_cost;
  const seconds = timeframe ? timeframe.end - timeframe.start : video.duration;
  const discount = video.discount_percent > 0 ? `, ${video.discount_percent} % off` : '';
  return {
    credits: price,
    balance: video.current_balance,
    waived: video.credits_unlimited,
    detail: `${clock(seconds)} of video, 1 credit a minute${discount}`,
  };
}

/**
 * cutroom clip <file|url>: analyse the link or upload the file (both free), quote the price and have it
 * accepted, submit, follow the stages, list the clips, render and download (`<title-slug>-<clip id>.mp4`).
 */
export async function clipCommand(ctx: CliContext, source: string, opts: ClipOptions): Promise<void> {
  const { cutroom, progress } = ctx;
  const link = /^https?:\/\//i.test(source);
  // The local checks first (a missing file is exit 5), then the consent, before anything is sent.
  const size = link ? 0 : inputFile(source);
  if (!link) checkExtension(source, 'video');
  const duration = link ? undefined : await checkDuration(ctx, source);
  requireConsent(ctx.io, opts);
  let video: Schemas['VideoAnalysis'];
  if (link) {
    progress.line(`analysing ${source}`);
    video = await cutroom.videos.analyzeLink({ url: source });
    progress.line(`video ${video.id}: "${video.title}", ${clock(video.duration)}, ${credits(video.credits_cost)}`);
  } else {
    const bar = progress.bar(`upload ${path.basename(source)}`, size, { bytes: true });
    video = await cutroom.uploadVideo(source, { onProgress: (p) => bar.update(p.sentBytes), ...(duration === undefined ? {} : { duration }) });
    bar.done();
    progress.line(`video ${video.id}: ${clock(video.duration)}, ${credits(video.credits_cost)}`);
  }
  if (opts.render !== 'none') outputDir(opts.out);
  await confirmCharge(ctx.io, clipQuote(video, opts.timeframe), opts);

  const language = opts.language as 'auto' | 'en' | 'pt';
  const created = await cutroom.clips.create({
    video_id: video.id,
    ...(opts.timeframe ? { timeframe: opts.timeframe } : {}),
    ...(opts.template ? { template_id: opts.template } : {}),
    ...(opts.strategy ? { strategy_id: opts.strategy } : {}),
    ...(opts.prompt ? { prompt: opts.prompt } : {}),
    ...(opts.keywords?.length ? { keywords: opts.keywords } : {}),
    ...(opts.length ? { clip_length: opts.length } : {}),
    source_language: language,
  });
  progress.line(`submission ${created.id}: queued (${credits(created.credits_charged)} charged)`);
  const submission: Submission = await waitSubmission(ctx, created.video_id, created.id);

  const { clips } = await cutroom.clips.listClips(submission.video_id, submission.id, { sort: 'rating', order: 'desc', limit: 100 });
  if (!ctx.json) {
    ctx.io.stdout.write(
      table(
        ['#', 'rating', 'start', 'end', 'title', 'clip'],
        clips.map((c: Clip, i: number) => [String(i + 1), c.rating.toFixed(1), clock(c.start_time), clock(c.end_time), c.title, c.id]),
      ),
    );
    // Why each clip scored as it did (and what it matched of the prompt or keywords).
    for (const [i, c] of clips.entries()) {
      const d = c.score_details;
      const subs = d ? ` [hook ${d.hook}, coherence ${d.coherence}, value ${d.value}, delivery ${d.delivery}]` : '';
      if (c.reason) ctx.io.stdout.write(`${i + 1}. ${c.reason}${subs}\n`);
    }
    ctx.io.stdout.write(`clips: cutroom clips list ${submission.video_id}/${submission.id}\n`);
  }

  const chosen = opts.render === 'all' ? clips : opts.render === 'best' ? clips.slice(0, 1) : [];
  // Every name checked before the first render: one file per clip, none over an existing file.
  const files = chosen.map((clip) => target(opts.out, downloadName(clip.title, clip.id, 'mp4'), opts.force));
  const renders: Array<{ clip_id: string; render: Render; file: string }> = [];
  for (const [i, clip] of chosen.entries()) {
    const started = await cutroom.renders.renderClip(submission.video_id, submission.id, clip.id);
    const render = await waitRender(ctx, started);
    const file = await saveRender(ctx, render.id, files[i], opts.force);
    progress.line(`saved ${file}`);
    renders.push({ clip_id: clip.id, render, file });
  }
  if (ctx.json) printJson(ctx, { submission, clips, renders });
  else for (const r of renders) ctx.io.stdout.write(`${r.file}\n`);
}

export interface TranscribeOptions extends ChargeConsent {
  speakers: boolean;
  format: 'srt' | 'vtt' | 'txt';
  language: string;
  output?: string;
  force?: boolean;
}

/**
 * The quote of POST /transcriptions: started minutes of the duration ffprobe measured × (the plan's price
 * per minute + the speaker-labels surcharge when asked). Without a measurement only the rate is known.
 */
async function transcriptionQuote(ctx: CliContext, seconds: number | undefined, speakers: boolean) {
  const [prices, balance] = await Promise.all([ctx.cutroom.transcriptions.getPrices(), ctx.cutroom.balance.get()]);
  const perMinute = prices.per_minute + (speakers ? prices.speaker_labels_per_minute : 0);
  const rate = speakers
    ? `${prices.per_minute} + ${prices.speaker_labels_per_minute} for speaker labels = ${credits(perMinute)} a started minute`
    : `${credits(perMinute)} a started minute; speaker labels add ${prices.speaker_labels_per_minute}`;
  const base = { balance: balance.balance, waived: prices.free_usage };
  if (seconds === undefined)
    return { ...base, credits: perMinute, unknown: `${rate}; ffprobe could not measure the file, so the number of minutes is not known` };
  const minutes = startedMinutes(seconds);
  return {
    ...base,
    credits: minutes * perMinute,
    detail: `${minutes} started minute${minutes === 1 ? '' : 's'}, ${rate}; nothing when these bytes were transcribed before`,
    estimate: 'from the duration ffprobe measured; the service measures the file again',
  };
}

/** cutroom transcribe <file>: quote, upload, transcribe (wait), download the file in the format asked. */
export async function transcribeCommand(ctx: CliContext, file: string, opts: TranscribeOptions): Promise<void> {
  const { cutroom, progress } = ctx;
  const size = inputFile(file);
  checkExtension(file, 'media');
  requireConsent(ctx.io, opts);
  if (opts.output) refuseExistingOutput(opts.output, opts.force);
  await confirmCharge(ctx.io, await transcriptionQuote(ctx, await probeDuration(file, ctx.io.env), opts.speakers), opts);
  const bar = progress.bar(`upload ${path.basename(file)}`, size, { bytes: true });
  const media = await cutroom.uploadMedia(file, { onProgress: (p) => bar.update(p.sentBytes) });
  bar.done();
  const started = await cutroom.transcriptions.create({
    media_id: media.media_id,
    file_name: media.file_name,
    file_size: media.file_size,
    speaker_labels: opts.speakers,
    source_language: opts.language,
  });
  progress.line(`transcription ${started.id}: ${started.status} (${credits(started.credits_charged)} charged${started.from_cache ? ', from cache' : ''})`);
  const done = await waitTranscription(ctx, started);
  if (done !== started) progress.line(`transcription ${done.id}: ${done.status}`);
  await writeTranscript(ctx, done, { format: opts.format, speakers: opts.speakers, output: opts.output, force: opts.force });
}

function refuseExistingOutput(file: string, force?: boolean): void {
  if (!force && fs.existsSync(file)) throw new CliFailure(`${file} already exists: not overwritten (add --force to replace it)`, USER_EXIT.file);
}

/** The transcript as a file (`output`, never over an existing file without `force`) or on stdout; --json prints the transcription with it. */
export async function writeTranscript(
  ctx: CliContext,
  done: Transcription,
  opts: { format: 'srt' | 'vtt' | 'txt'; speakers: boolean; output?: string; force?: boolean },
): Promise<void> {
  const text = await ctx.cutroom.transcriptions.downloadText(done.id, { format: opts.format, speakers: opts.speakers });
  if (opts.output) {
    writeText(opts.output, text, opts.force);
    ctx.progress.line(`saved ${opts.output}`);
  }
  if (ctx.json) printJson(ctx, { transcription: done, ...(opts.output ? { file: opts.output } : { text }) });
  else if (!opts.output) ctx.io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

function renderLines(r: Render): string {
  const rows: Array<[string, string | number | boolean | null]> = [
    ['id', r.id],
    ['edit', r.edit_id],
    ['status', r.status],
    ['progress', `${r.progress}%`],
    ['resolution', r.output_resolution],
    ['quality', r.quality],
    ['watermark', r.has_watermark],
    ['from cache', r.from_cache],
    ['error', r.error_code],
    ['created', r.created_at],
    ['expires', r.expires_at],
    ['download', r.download_url],
  ];
  return rows
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k.padEnd(11)}${String(v)}\n`)
    .join('');
}

/** cutroom renders get <id>. */
export async function renderGetCommand(ctx: CliContext, renderId: string): Promise<void> {
  const render = await ctx.cutroom.renders.get(renderId);
  if (ctx.json) printJson(ctx, render);
  else ctx.io.stdout.write(renderLines(render));
}

/** cutroom renders create <editId> [--preview]: starts a render (a fast low-resolution one with --preview) and shows it without waiting. */
export async function renderCreateCommand(ctx: CliContext, editId: string, opts: { preview?: boolean }): Promise<void> {
  const render = await ctx.cutroom.renders.create({ edit_id: editId, ...(opts.preview ? { quality: 'preview' as const } : {}) });
  if (ctx.json) printJson(ctx, render);
  else ctx.io.stdout.write(renderLines(render));
}

/** cutroom renders download <id> [--out dir]: waits while it renders, then saves the MP4. */
export async function renderDownloadCommand(ctx: CliContext, renderId: string, opts: { out: string; force?: boolean }): Promise<void> {
  const first = await ctx.cutroom.renders.get(renderId);
  const fileOf = async () => {
    const { filename } = await ctx.cutroom.renders.downloadLink(renderId);
    return target(outputDir(opts.out), renderFileName(renderId, filename), opts.force);
  };
  // Known at once when it is completed: an existing file is refused before anything else.
  const early = first.status === 'completed' ? await fileOf() : undefined;
  const render = await waitRender(ctx, first);
  const file = await saveRender(ctx, render.id, early ?? (await fileOf()), opts.force);
  if (ctx.json) printJson(ctx, { render, file });
  else ctx.io.stdout.write(`${file}\n`);
}

/** cutroom balance. */
export async function balanceCommand(ctx: CliContext): Promise<void> {
  const balance = await ctx.cutroom.balance.get();
  if (ctx.json) return printJson(ctx, balance);
  const free = balance.unlimited ? ` (free usage${balance.unlimited_until ? ` until ${balance.unlimited_until}` : ''})` : '';
  ctx.io.stdout.write(`${credits(balance.balance)}${free}\n`);
}

/** cutroom jobs: submissions, renders and transcriptions not finished, oldest first. */
export async function jobsCommand(ctx: CliContext): Promise<void> {
  const c = ctx.cutroom;
  const submissions = (await Promise.all(UNFINISHED_SUBMISSIONS.map((status) => c.clips.list({ status, limit: 100 })))).flatMap((page) => page.submissions);
  const renders = (await Promise.all((['queued', 'active'] as const).map((status) => c.renders.list({ status, limit: 100 })))).flatMap((page) => page.renders);
  const transcriptions = (await c.transcriptions.list({ status: 'processing', limit: 100 })).transcriptions;
  if (ctx.json) return printJson(ctx, { submissions, renders, transcriptions });
  const rows = [
    ...submissions.map((s) => ({
      at: s.created_at,
      row: ['submission', s.id, s.waiting_reason ? `${s.status} (waiting: ${s.waiting_reason})` : s.status, s.created_at],
    })),
    ...renders.map((r) => ({ at: r.created_at, row: ['render', r.id, `${r.status} ${r.progress}%`, r.created_at] })),
    ...transcriptions.map((t) => ({ at: t.created_at, row: ['transcription', t.id, t.status, t.created_at] })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (rows.length === 0) ctx.io.stdout.write('nothing running\n');
  else
    ctx.io.stdout.write(
      table(
        ['kind', 'id', 'status', 'created'],
        rows.map((r) => r.row),
      ),
    );
}

type Edit = Schemas['Edit'];

/** 41.2 → "41.20" */
function secs(s: number): string {
  return s.toFixed(2);
}

/** An edit as text: its fields, then its words with their indices (`17 Kubernetes 41.20–41.73`). */
function editLines(e: Edit): string {
  const rows: Array<[string, string]> = [
    ['id', e.id],
    ['parent', e.parent_edit_id ?? 'none'],
    ['clip', e.clip_id ?? 'none'],
    ['video', e.video_id ?? 'none'],
    ['duration', `${secs(e.duration)} s`],
    ['aspect', `${e.aspect_ratio} (reframe ${e.reframe}${e.zoom !== 1 ? `, zoom ${e.zoom}` : ''})`],
    ['template', e.template_id ?? 'none'],
    ['captions', e.captions_enabled ? 'on' : 'off'],
    ['title', e.title ? e.title.text : 'none'],
    ['created', e.created_at],
    ['segments', e.segments.map((s) => `${secs(s.start)}–${secs(s.end)}`).join(', ')],
  ];
  const width = String(Math.max(0, e.words.length - 1)).length;
  const words = e.words.map((w) => `  ${String(w.index).padStart(width)} ${w.text === '' ? '(hidden)' : w.text} ${secs(w.start)}–${secs(w.end)}\n`);
  return `${rows.map(([k, v]) => `${k.padEnd(11)}${v}\n`).join('')}words${e.words.length === 0 ? '      none' : ''}\n${words.join('')}`;
}

/** cutroom edits get <id>. */
export async function editGetCommand(ctx: CliContext, editId: string): Promise<void> {
  const edit = await ctx.cutroom.getEdit(editId);
  if (ctx.json) printJson(ctx, edit);
  else ctx.io.stdout.write(editLines(edit));
}

/** cutroom edits versions <id>: every version of the edit's clip, newest first. */
export async function editVersionsCommand(ctx: CliContext, editId: string): Promise<void> {
  const list = await ctx.cutroom.listEditVersions(editId, { limit: 100 });
  if (ctx.json) return printJson(ctx, list);
  ctx.io.stdout.write(
    table(
      ['id', 'parent', 'duration', 'aspect', 'created'],
      list.edits.map((e) => [e.id, e.parent_edit_id ?? '-', `${secs(e.duration)} s`, e.aspect_ratio, e.created_at]),
    ),
  );
}

export interface DeriveOptions {
  trim?: { start: number; end: number };
  fix?: Array<{ index: number; text: string }>;
  removeWords?: number[];
  removeFillers?: boolean;
  removeSilences?: boolean;
  /** Implies removeSilences. */
  minSilence?: number;
  snap: boolean;
  aspect?: '9:16' | '1:1' | '16:9';
  reframe?: 'auto' | 'speaker' | 'split' | 'screen' | 'center' | 'fit';
  zoom?: number | 'subtle' | 'none';
  template?: string;
  captions: boolean;
  title?: string;
}

/** The body of POST /edits for `cutroom edits derive`: only the changes asked. */
export function deriveBody(baseEditId: string, opts: DeriveOptions): Parameters<Cutroom['deriveEdit']>[0] {
  return {
    base_edit_id: baseEditId,
    ...(opts.trim ? { trim: opts.trim } : {}),
    ...(opts.fix?.length ? { word_text: opts.fix } : {}),
    ...(opts.removeWords?.length ? { remove_words: opts.removeWords } : {}),
    ...(opts.removeFillers ? { remove_fillers: true } : {}),
    ...(opts.minSilence !== undefined ? { remove_silences: { min_seconds: opts.minSilence } } : opts.removeSilences ? { remove_silences: true } : {}),
    ...(opts.snap === false ? { snap: false } : {}),
    ...(opts.aspect ? { aspect_ratio: opts.aspect } : {}),
    ...(opts.reframe ? { reframe: opts.reframe } : {}),
    ...(opts.zoom !== undefined ? { zoom: opts.zoom } : {}),
    ...(opts.template ? { template_id: opts.template } : {}),
    ...(opts.captions === false ? { captions_enabled: false } : {}),
    ...(opts.title !== undefined ? { title: { text: opts.title } } : {}),
  };
}

/** cutroom edits derive <id> [changes]: a new edit from the base (which never changes), printed like `edits get`. */
export async function editDeriveCommand(ctx: CliContext, editId: string, opts: DeriveOptions): Promise<void> {
  const edit = await ctx.cutroom.deriveEdit(deriveBody(editId, opts));
  if (ctx.json) printJson(ctx, edit);
  else ctx.io.stdout.write(editLines(edit));
}

/** cutroom clips review <videoId> <submissionId> <clipId> kept|skipped|none. */
export async function clipReviewCommand(
  ctx: CliContext,
  ids: { videoId: string; submissionId: string; clipId: string },
  review: 'kept' | 'skipped' | 'none',
): Promise<void> {
  const clip = await ctx.cutroom.setClipReview(ids.videoId, ids.submissionId, ids.clipId, review === 'none' ? null : review);
  if (ctx.json) printJson(ctx, clip);
  else ctx.io.stdout.write(`clip ${clip.id}: ${clip.review ?? 'not reviewed'}\n`);
}

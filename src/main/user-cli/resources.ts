import fs from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Schemas } from '@cutroom/sdk';
import { measuredPrice } from '../../domain/credits/priced-charge.js';
import { CliFailure, USER_EXIT } from './failure.js';
import { table } from './progress.js';
import { confirmCharge, requireConsent, type ChargeConsent } from './consent.js';
import { downloadName, downloadTo, outputDir, target } from './download.js';
import { jobProgress } from './waiting.js';
import { clock, printJson, saveRender, waitRender, waitTranscription, writeTranscript, type CliContext } from './commands.js';

/**
 * The user commands over the API's resources: clips of a submission, templates, renders, transcriptions,
 * personas, generations, monitors, posts and webhooks. Each is an SDK call or two and its printing;
 * downloads, quotes and waits go through download.ts, consent.ts and waiting.ts.
 */

type Clip = Schemas['Clip'];
type Persona = Schemas['Persona'];
type Generation = Schemas['Generation'];

/** `key  value` lines, the empty values left out. */
function fields(rows: Array<[string, unknown]>): string {
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  return rows
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k.padEnd(width)}${typeof v === 'object' ? JSON.stringify(v) : String(v)}\n`)
    .join('');
}

function print(ctx: CliContext, json: unknown, text: () => string): void {
  if (ctx.json) printJson(ctx, json);
  else ctx.io.stdout.write(text());
}

function list(ctx: CliContext, json: unknown, header: string[], rows: string[][], empty: string): void {
  print(ctx, json, () => (rows.length === 0 ? `${empty}\n` : table(header, rows)));
}

// ---- Clips: addressed by their submission, which belongs to a video ----

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** `<video-id>/<submission-id>` or `<submission-id>` (its video is then looked up). */
export function parseSubmissionRef(raw: string): { videoId?: string; submissionId: string } {
  const parts = raw.trim().split('/');
  if (parts.length > 2 || !parts.every((p) => ID.test(p))) {
    throw new CliFailure(
      `${JSON.stringify(raw)} is not a submission: expected <submission-id> or <video-id>/<submission-id> (as \`cutroom clip\` prints it)`,
      USER_EXIT.usage,
    );
  }
  return parts.length === 2 ? { videoId: parts[0], submissionId: parts[1] } : { submissionId: parts[0] };
}

/** `<video-id>/<submission-id>/<clip-id>` or `<submission-id>/<clip-id>`. */
export function parseClipRef(raw: string): { videoId?: string; submissionId: string; clipId: string } {
  const parts = raw.trim().split('/');
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => ID.test(p))) {
    throw new CliFailure(
      `${JSON.stringify(raw)} is not a clip: expected <video-id>/<submission-id>/<clip-id> or <submission-id>/<clip-id> (as \`clips list\` prints it)`,
      USER_EXIT.usage,
    );
  }
  return parts.length === 3 ? { videoId: parts[0], submissionId: parts[1], clipId: parts[2] } : { submissionId: parts[0], clipId: parts[1] };
}

/** The video of a submission given alone: GET /clips, newest first, page by page. */
async function submissionOf(ctx: CliContext, ref: { videoId?: string; submissionId: string }): Promise<{ videoId: string; submissionId: string }> {
  if (ref.videoId) return { videoId: ref.videoId, submissionId: ref.submissionId };
  for (let page = 1; page <= 100; page++) {
    const found = await ctx.cutroom.clips.list({ page, limit: 100 });
    const hit = found.submissions.find((s) => s.id === ref.submissionId);
    if (hit) return { videoId: hit.video_id, submissionId: hit.id };
    if (!found.pagination.has_next_page) break;
  }
  throw new CliFailure(`no submission ${ref.submissionId} in this workspace`, USER_EXIT.apiError, { code: 'SUBMISSION_NOT_FOUND', status: 404 });
}

async function clipsOf(ctx: CliContext, videoId: string, submissionId: string): Promise<Clip[]> {
  const all: Clip[] = [];
  for (let page = 1; ; page++) {
    const got = await ctx.cutroom.clips.listClips(videoId, submissionId, { page, limit: 100, sort: 'rating', order: 'desc' });
    all.push(...got.clips);
    if (!got.pagination.has_next_page) return all;
  }
}

async function findClip(ctx: CliContext, raw: string): Promise<{ videoId: string; submissionId: string; clip: Clip }> {
  const ref = parseClipRef(raw);
  const { videoId, submissionId } = await submissionOf(ctx, ref);
  const clip = (await clipsOf(ctx, videoId, submissionId)).find((c) => c.id === ref.clipId);
  if (!clip) throw new CliFailure(`no clip ${ref.clipId} in submission ${submissionId}`, USER_EXIT.apiError, { code: 'CLIP_NOT_FOUND', status: 404 });
  return { videoId, submissionId, clip };
}

/** cutroom clips list <submission>: the clips, best first, each with the reference the other commands take. */
export async function clipsListCommand(ctx: CliContext, raw: string): Promise<void> {
  const { videoId, submissionId } = await submissionOf(ctx, parseSubmissionRef(raw));
  const clips = await clipsOf(ctx, videoId, submissionId);
  list(
    ctx,
    { video_id: videoId, submission_id: submissionId, clips },
    ['rating', 'start', 'end', 'review', 'title', 'clip'],
    clips.map((c) => [c.rating.toFixed(1), clock(c.start_time), clock(c.end_time), c.review ?? '-', c.title, `${videoId}/${submissionId}/${c.id}`]),
    'no clips',
  );
}

/** cutroom clips show <clip>. */
export async function clipsShowCommand(ctx: CliContext, raw: string): Promise<void> {
  const { videoId, submissionId, clip: c } = await findClip(ctx, raw);
  print(ctx, c, () =>
    fields([
      ['clip', `${videoId}/${submissionId}/${c.id}`],
      ['title', c.title],
      ['rating', c.rating.toFixed(1)],
      ['time', `${clock(c.start_time)}–${clock(c.end_time)}`],
      ['language', c.language],
      ['review', c.review ?? 'none'],
      ['edit', c.edit_id],
      ['template', c.has_template_applied ? 'applied' : 'default'],
      ['reason', c.reason],
      ['matched', c.matched.join(', ')],
    ]),
  );
}

/** Starts the render of a clip: its own render, or (another template, a preview) a render of its edit. */
async function startClipRender(ctx: CliContext, raw: string, opts: { template?: string; preview?: boolean }) {
  const { videoId, submissionId, clip } = await findClip(ctx, raw);
  if (!opts.template && !opts.preview) {
    const render = await ctx.cutroom.renders.renderClip(videoId, submissionId, clip.id);
    return { clip, render };
  }
  if (!clip.edit_id) throw new CliFailure(`clip ${clip.id} has no edit yet: wait until its submission has completed`, USER_EXIT.apiError);
  // Another template: a new edit of the clip (the clip points at it), then its render.
  const editId = opts.template ? (await ctx.cutroom.deriveEdit({ base_edit_id: clip.edit_id, template_id: opts.template })).id : clip.edit_id;
  const render = await ctx.cutroom.renders.create({ edit_id: editId, ...(opts.preview ? { quality: 'preview' as const } : {}) });
  return { clip, render };
}

/** cutroom clips render <clip> [--template id] [--preview]: starts it and shows the render. */
export async function clipsRenderCommand(ctx: CliContext, raw: string, opts: { template?: string; preview?: boolean }): Promise<void> {
  const { render } = await startClipRender(ctx, raw, opts);
  print(ctx, render, () => fields(Object.entries(render)));
}

/** cutroom clips download <clip>: renders it when needed, waits, saves `<title-slug>-<clip id>.mp4`. */
export async function clipsDownloadCommand(
  ctx: CliContext,
  raw: string,
  opts: { template?: string; preview?: boolean; out: string; force?: boolean },
): Promise<void> {
  const { clip } = await findClip(ctx, raw);
  const file = target(outputDir(opts.out), downloadName(clip.title, clip.id, 'mp4'), opts.force);
  const { render: started } = await startClipRender(ctx, raw, opts);
  const render = await waitRender(ctx, started);
  await saveRender(ctx, render.id, file, opts.force);
  ctx.progress.line(`saved ${file}`);
  print(ctx, { clip_id: clip.id, render, file }, () => `${file}\n`);
}

// ---- Templates and renders ----

/** cutroom templates list. */
export async function templatesListCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.templates.list({ limit: 100 });
  list(
    ctx,
    page,
    ['id', 'kind', 'name', 'built-in'],
    page.templates.map((t) => [t.id, t.kind, t.name, t.builtin ? 'yes' : 'no']),
    'no templates',
  );
}

/** cutroom renders list [--status s]. */
export async function rendersListCommand(ctx: CliContext, opts: { status?: 'queued' | 'active' | 'completed' | 'failed' | 'expired' }): Promise<void> {
  const page = await ctx.cutroom.renders.list({ limit: 100, ...(opts.status ? { status: opts.status } : {}) });
  list(
    ctx,
    page,
    ['id', 'edit', 'status', 'progress', 'resolution', 'created'],
    page.renders.map((r) => [r.id, r.edit_id, r.status, `${r.progress}%`, r.output_resolution, r.created_at]),
    'no renders',
  );
}

// ---- Transcriptions ----

/** cutroom transcriptions list [--status s]. */
export async function transcriptionsListCommand(ctx: CliContext, opts: { status?: 'processing' | 'ready' | 'no_speech' | 'failed' }): Promise<void> {
  const page = await ctx.cutroom.transcriptions.list({ limit: 100, ...(opts.status ? { status: opts.status } : {}) });
  list(
    ctx,
    page,
    ['id', 'status', 'file', 'speakers', 'credits', 'created'],
    page.transcriptions.map((t) => [t.id, t.status, t.file_name, t.speaker_labels ? 'yes' : 'no', String(t.credits_charged), t.created_at]),
    'no transcriptions',
  );
}

/** cutroom transcriptions get <id>: with its stage, progress and time left while processing. */
export async function transcriptionsGetCommand(ctx: CliContext, id: string): Promise<void> {
  const t = await ctx.cutroom.transcriptions.get(id);
  print(ctx, t, () =>
    fields([
      ['id', t.id],
      ['status', t.status],
      ['stage', t.stage],
      ['progress', typeof t.progress === 'number' ? `${Math.floor(t.progress * 100)} %` : null],
      ['time left', typeof t.estimated_time === 'number' ? `${t.estimated_time} s` : null],
      ['file', t.file_name],
      ['speakers', t.speaker_labels ? 'labelled' : 'no'],
      ['language', t.language],
      ['credits', t.credits_charged],
      ['from cache', t.from_cache],
      ['error', t.error_code],
      ['created', t.created_at],
      ['finished', t.finished_at],
    ]),
  );
}

/** cutroom transcriptions download <id>: waits while it processes, then the file (-o, never overwritten without --force) or stdout. */
export async function transcriptionsDownloadCommand(
  ctx: CliContext,
  id: string,
  opts: { format: 'srt' | 'vtt' | 'txt'; speakers: boolean; output?: string; force?: boolean },
): Promise<void> {
  if (opts.output && !opts.force && fs.existsSync(opts.output)) {
    throw new CliFailure(`${opts.output} already exists: not overwritten (add --force to replace it)`, USER_EXIT.file);
  }
  const t = await ctx.cutroom.transcriptions.get(id);
  await writeTranscript(ctx, await waitTranscription(ctx, t), opts);
}

// ---- Personas ----

/** `--chip trait=option`, repeatable. */
export function parseChip(raw: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([a-z_]{1,30})=([A-Za-z0-9_-]{1,50})$/.exec(raw.trim());
  if (!m) throw new InvalidArgumentError('expected <trait>=<option>, such as hair_color=red (options: GET /personas/catalog)');
  return { ...previous, [m[1]]: m[2] };
}

function personaLines(p: Persona): string {
  return fields([
    ['id', p.id],
    ['name', p.name ?? '(not saved)'],
    ['portrait', p.image_status],
    ['error', p.error_code],
    ['version', p.current_version_id],
    ['versions', p.versions.length],
    [
      'chips',
      Object.entries(p.chips)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    ],
    ['image', p.image_url],
    ['created', p.created_at],
  ]);
}

async function personaQuote(ctx: CliContext) {
  const [catalog, balance] = await Promise.all([ctx.cutroom.personas.getCatalog(), ctx.cutroom.balance.get()]);
  // Persona portraits are charged under free usage too.
  return { credits: catalog.prices.image, balance: balance.balance, detail: 'one portrait, the catalog’s price' };
}

async function waitPersona(ctx: CliContext, persona: Persona): Promise<Persona> {
  const shown = jobProgress(ctx.io.stderr, `persona ${persona.id}`);
  try {
    return await ctx.cutroom.waitForPersona(persona.id, { onPoll: (p) => shown.update({ stage: p.image_status }) });
  } finally {
    shown.done();
  }
}

/** cutroom personas list. */
export async function personasListCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.personas.list({ limit: 100 });
  list(
    ctx,
    page,
    ['id', 'name', 'portrait', 'versions', 'created'],
    page.personas.map((p) => [p.id, p.name ?? '-', p.image_status, String(p.versions.length), p.created_at]),
    'no personas',
  );
}

/** cutroom personas get <id>. */
export async function personasGetCommand(ctx: CliContext, id: string): Promise<void> {
  const p = await ctx.cutroom.personas.get(id);
  print(ctx, p, () => personaLines(p));
}

/** cutroom personas create [--chip k=v…]: the quote, then the portrait (waited for unless --no-wait). */
export async function personasCreateCommand(ctx: CliContext, opts: ChargeConsent & { chip?: Record<string, string>; wait: boolean }): Promise<void> {
  requireConsent(ctx.io, opts);
  await confirmCharge(ctx.io, await personaQuote(ctx), opts);
  const created = await ctx.cutroom.personas.create({ chips: opts.chip ?? {} });
  const p = opts.wait ? await waitPersona(ctx, created) : created;
  print(ctx, p, () => personaLines(p));
}

/** cutroom personas regenerate <id> (--chip k=v… | --note text): the quote, then the new portrait. */
export async function personasRegenerateCommand(
  ctx: CliContext,
  id: string,
  opts: ChargeConsent & { chip?: Record<string, string>; note?: string; wait: boolean },
): Promise<void> {
  if ((opts.chip === undefined) === (opts.note === undefined)) throw new CliFailure('give either --chip (one or more) or --note', USER_EXIT.usage);
  requireConsent(ctx.io, opts);
  await confirmCharge(ctx.io, await personaQuote(ctx), opts);
  const started = await ctx.cutroom.personas.regenerate(id, opts.note !== undefined ? { note: opts.note } : { chips: opts.chip });
  const p = opts.wait ? await waitPersona(ctx, started) : started;
  print(ctx, p, () => personaLines(p));
}

/** cutroom personas download <id>: the current portrait as `<name-slug>-<persona id>.png`. */
export async function personasDownloadCommand(ctx: CliContext, id: string, opts: { out: string; force?: boolean }): Promise<void> {
  const p = await ctx.cutroom.personas.get(id);
  if (!p.image_url) throw new CliFailure(`persona ${p.id} has no portrait yet (${p.image_status})`, USER_EXIT.jobFailed);
  const file = target(outputDir(opts.out), downloadName(p.name ?? '', p.id, 'png', 'persona'), opts.force);
  await downloadTo(ctx.progress, p.image_url, file, opts.force);
  print(ctx, { persona: p, file }, () => `${file}\n`);
}

const VIDEO_TYPES: Record<string, string> = { '.mp4': 'video/mp4', '.mov': 'video/quicktime', '.webm': 'video/webm', '.mkv': 'video/x-matroska' };

/**
 * cutroom personas swap <id> <video>: the source uploaded (free) and measured, the exact quote of GET
 * /personas/swap/quote, then the persona video (the quoted price sent), waited for and saved as
 * `<name-slug>-<video id>.mp4`.
 */
export async function personasSwapCommand(
  ctx: CliContext,
  id: string,
  file: string,
  opts: ChargeConsent & { quality: 'standard' | 'high'; replace: 'person' | 'head'; out: string; force?: boolean; wait: boolean },
): Promise<void> {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch (err) {
    throw new CliFailure(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, USER_EXIT.file);
  }
  const type = VIDEO_TYPES[path.extname(file).toLowerCase()];
  if (!type) throw new CliFailure(`${path.basename(file)}: a source video must be .mp4, .mov, .webm or .mkv`, USER_EXIT.usage);
  requireConsent(ctx.io, opts);
  const persona = await ctx.cutroom.personas.get(id);
  // The SDK's upload: declared, sent with one streamed PUT (retried like every part), completed and measured.
  const source = await ctx.cutroom.uploadPersonaSource(file, { contentType: type });
  ctx.progress.line(`source ${source.media_id}: ${source.duration.toFixed(1)} s uploaded`);
  const [quote, balance] = await Promise.all([
    ctx.cutroom.personas.quoteSwap({ media_id: source.media_id, quality: opts.quality, replace: opts.replace }),
    ctx.cutroom.balance.get(),
  ]);
  await confirmCharge(
    ctx.io,
    { credits: quote.credits, balance: balance.balance, detail: `${quote.seconds.toFixed(1)} s, ${opts.quality} quality, replace ${opts.replace}` },
    opts,
  );
  const started = await ctx.cutroom.personas.createVideo(persona.id, {
    type: 'swap',
    media_id: source.media_id,
    quality: opts.quality,
    replace: opts.replace,
    credits: quote.credits,
  });
  if (!opts.wait) return print(ctx, started, () => fields(Object.entries(started)));
  const shown = jobProgress(ctx.io.stderr, `persona video ${started.id}`);
  let video: Schemas['PersonaVideo'];
  try {
    video = await ctx.cutroom.waitForPersonaVideo(persona.id, started.id, { onPoll: (v) => shown.update({ stage: v.status }) });
  } finally {
    shown.done();
  }
  if (!video.download_url) throw new CliFailure(`persona video ${video.id} has no file`, USER_EXIT.jobFailed);
  const saved = target(outputDir(opts.out), downloadName(persona.name ?? '', video.id, 'mp4', 'persona'), opts.force);
  await downloadTo(ctx.progress, video.download_url, saved, opts.force);
  ctx.progress.line(`saved ${saved}`);
  print(ctx, { video, file: saved }, () => `${saved}\n`);
}

// ---- Generations ----

/** `--option name=value`, repeatable (typed by the model's options when sent). */
export function parseOption(raw: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([A-Za-z0-9_]{1,60})=(.{0,500})$/s.exec(raw);
  if (!m) throw new InvalidArgumentError('expected <name>=<value>, such as duration=3');
  return { ...previous, [m[1]]: m[2] };
}

/** `--image <file|id>`, repeatable. */
export function collect(raw: string, previous: string[] = []): string[] {
  return [...previous, raw];
}

type Model = Schemas['GenerationModel'];

async function modelOf(ctx: CliContext, id: string): Promise<Model> {
  for (let page = 1; ; page++) {
    const got = await ctx.cutroom.generations.listModels({ page, limit: 100 });
    const hit = got.models.find((m) => m.id === id);
    if (hit) return hit;
    if (!got.pagination.has_next_page)
      throw new CliFailure(`no model ${id} (cutroom generations models)`, USER_EXIT.apiError, { code: 'MODEL_NOT_FOUND', status: 404 });
  }
}

/** The options as the model types them (numbers, booleans); a value that is not of its type is a usage error. */
function typedOptions(model: Model, raw: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const type = model.options[name]?.type;
    if (type === 'number' || type === 'integer') {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) throw new CliFailure(`--option ${name} must be a number`, USER_EXIT.usage);
      out[name] = n;
    } else if (type === 'boolean') {
      if (value !== 'true' && value !== 'false') throw new CliFailure(`--option ${name} must be true or false`, USER_EXIT.usage);
      out[name] = value === 'true';
    } else out[name] = value;
  }
  return out;
}

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

/** An `--image` that is a local file is uploaded (free); anything else is taken as an image id. */
async function imageId(ctx: CliContext, ref: string): Promise<string> {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(ref);
  } catch {
    stat = undefined;
  }
  if (!stat) {
    if (!ID.test(ref)) throw new CliFailure(`--image ${JSON.stringify(ref)} is neither a file nor an image id`, USER_EXIT.file);
    return ref;
  }
  if (!stat.isFile()) throw new CliFailure(`${ref} is not a file`, USER_EXIT.file);
  const type = IMAGE_TYPES[path.extname(ref).toLowerCase()] ?? 'application/octet-stream';
  const img = await ctx.cutroom.generations.uploadImage(new Blob([fs.readFileSync(ref)], { type }), { fileName: path.basename(ref) });
  ctx.progress.line(`image ${img.id}: ${path.basename(ref)} uploaded`);
  return img.id;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };

async function saveGeneration(ctx: CliContext, g: Generation, opts: { out: string; force?: boolean }): Promise<string> {
  const output = g.output as { url?: string; content_type?: string } | null;
  if (g.status !== 'ready' || !output?.url) throw new CliFailure(`generation ${g.id} is ${g.status}: nothing to download yet`, USER_EXIT.jobFailed);
  const ext = EXTENSIONS[output.content_type ?? ''] ?? 'bin';
  const file = target(outputDir(opts.out), downloadName(g.model_id, g.id, ext, 'generation'), opts.force);
  await downloadTo(ctx.progress, output.url, file, opts.force);
  ctx.progress.line(`saved ${file}`);
  return file;
}

async function waitGeneration(ctx: CliContext, g: Generation): Promise<Generation> {
  const shown = jobProgress(ctx.io.stderr, `generation ${g.id}`);
  try {
    return await ctx.cutroom.waitForGeneration(g.id, { onPoll: (x) => shown.update({ stage: x.status }) });
  } finally {
    shown.done();
  }
}

/** cutroom generations models. */
export async function generationsModelsCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.generations.listModels({ limit: 100 });
  const price = (m: Model) => ('per_image' in m.price ? `${m.price.per_image}/image` : `${m.price.per_second}/second`);
  list(
    ctx,
    page,
    ['id', 'kind', 'price', 'options', 'name'],
    page.models.map((m) => [m.id, m.kind, price(m), Object.keys(m.options).join(',') || '-', m.name]),
    'no models',
  );
}

/**
 * cutroom generations create <model>: the quote (the model's price × images or seconds, the plan's
 * discount, as POST /generations measures it), then the generation, waited for and downloaded.
 */
export async function generationsCreateCommand(
  ctx: CliContext,
  modelId: string,
  opts: ChargeConsent & { prompt?: string; image?: string[]; option?: Record<string, string>; out: string; force?: boolean; wait: boolean },
): Promise<void> {
  requireConsent(ctx.io, opts);
  const model = await modelOf(ctx, modelId);
  const options = typedOptions(model, opts.option ?? {});
  const [catalog, balance] = await Promise.all([ctx.cutroom.personas.getCatalog(), ctx.cutroom.balance.get()]);
  const discount = catalog.discount_percent;
  let units = 1;
  let detail = `one image at ${'per_image' in model.price ? model.price.per_image : 0}`;
  let unit = 'per_image' in model.price ? model.price.per_image : 0;
  if ('per_second' in model.price) {
    const d = options.duration ?? model.options.duration?.default;
    if (typeof d !== 'number') throw new CliFailure(`model ${model.id} needs --option duration=<seconds>`, USER_EXIT.usage);
    units = d;
    unit = model.price.per_second;
    detail = `${d} s at ${unit} a second`;
  }
  const price = measuredPrice(unit, units, discount);
  await confirmCharge(ctx.io, { credits: price, balance: balance.balance, detail: `${detail}${discount > 0 ? `, ${discount} % off` : ''}` }, opts);
  const images = [];
  for (const ref of opts.image ?? []) images.push(await imageId(ctx, ref));
  const started = await ctx.cutroom.generations.create({
    model_id: model.id,
    credits: price,
    ...(opts.prompt ? { prompt: opts.prompt } : {}),
    ...(images.length ? { image_ids: images } : {}),
    ...(Object.keys(options).length ? { options } : {}),
  });
  if (!opts.wait) return print(ctx, started, () => fields(Object.entries(started)));
  const g = await waitGeneration(ctx, started);
  const file = await saveGeneration(ctx, g, opts);
  print(ctx, { generation: g, file }, () => `${file}\n`);
}

/** cutroom generations get <id>. */
export async function generationsGetCommand(ctx: CliContext, id: string): Promise<void> {
  const g = await ctx.cutroom.generations.get(id);
  print(ctx, g, () => fields(Object.entries(g)));
}

/** cutroom generations download <id>: waits while it runs, then saves `<model-slug>-<generation id>.<ext>`. */
export async function generationsDownloadCommand(ctx: CliContext, id: string, opts: { out: string; force?: boolean }): Promise<void> {
  const first = await ctx.cutroom.generations.get(id);
  const g = first.status === 'ready' || first.status === 'failed' ? first : await waitGeneration(ctx, first);
  const file = await saveGeneration(ctx, g, opts);
  print(ctx, { generation: g, file }, () => `${file}\n`);
}

// ---- Monitors ----

type Monitor = Schemas['Monitor'];

function monitorLines(m: Monitor): string {
  return fields([
    ['id', m.id],
    ['type', m.type],
    ['name', m.name],
    ['url', m.url],
    ['platform', m.platform],
    ['status', m.status],
    ['stop reason', m.stop_reason],
    ['template', m.template_id],
    ['language', m.source_language],
    ['started', m.started_at],
    ['checked', m.last_checked_at],
    ['created', m.created_at],
  ]);
}

/** cutroom monitors list. */
export async function monitorsListCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.monitors.list({ limit: 100 });
  list(
    ctx,
    page,
    ['id', 'type', 'status', 'name', 'url'],
    page.monitors.map((m) => [m.id, m.type, m.status, m.name, m.url]),
    'no monitors',
  );
}

/** cutroom monitors get <id>. */
export async function monitorsGetCommand(ctx: CliContext, id: string): Promise<void> {
  const m = await ctx.cutroom.monitors.get(id);
  print(ctx, m, () => monitorLines(m));
}

/** cutroom monitors create --type live|video --url <channel> [--name] [--template] [--language]. */
export async function monitorsCreateCommand(
  ctx: CliContext,
  opts: { type: 'live' | 'video'; url: string; name?: string; template?: string; language?: 'auto' | 'en' | 'pt' },
): Promise<void> {
  const m = await ctx.cutroom.monitors.create({
    type: opts.type,
    url: opts.url,
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.template ? { template_id: opts.template } : {}),
    ...(opts.language ? { source_language: opts.language } : {}),
  });
  print(ctx, m, () => monitorLines(m));
}

/** cutroom monitors start|stop <id>. */
export async function monitorsSwitchCommand(ctx: CliContext, id: string, action: 'start' | 'stop'): Promise<void> {
  const m = action === 'start' ? await ctx.cutroom.monitors.start(id) : await ctx.cutroom.monitors.stop(id);
  print(ctx, m, () => monitorLines(m));
}

// ---- Posts ----

type Post = Schemas['Post'];

function postLines(p: Post): string {
  const head = fields([
    ['id', p.id],
    ['status', p.status],
    ['items', p.item_count],
    ['scheduled', p.scheduled_at ?? 'now'],
    ['created', p.created_at],
  ]);
  const items = p.items.map((i) => [i.id, i.platform, i.status, i.edit_id, i.published_url ?? i.error_code ?? '-']);
  return items.length ? `${head}\n${table(['item', 'platform', 'status', 'edit', 'url or error'], items)}` : head;
}

/** `--metadata <json>`: an object keyed by lowercase network name. */
export function parseMetadata(raw: string): Record<string, Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidArgumentError('expected a JSON object such as {"youtube":{"title":"…"}}');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgumentError('expected a JSON object keyed by network');
  return value as Record<string, Record<string, unknown>>;
}

/** cutroom posts list. */
export async function postsListCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.posts.list({ limit: 100 });
  list(
    ctx,
    page,
    ['id', 'status', 'items', 'scheduled', 'created'],
    page.posts.map((p) => [p.id, p.status, String(p.item_count), p.scheduled_at ?? 'now', p.created_at]),
    'no posts',
  );
}

/** cutroom posts get <id>. */
export async function postsGetCommand(ctx: CliContext, id: string): Promise<void> {
  const p = await ctx.cutroom.posts.get(id);
  print(ctx, p, () => postLines(p));
}

/** cutroom posts create --edit <id>… --to <connection>… [--metadata json] [--at time]. */
export async function postsCreateCommand(
  ctx: CliContext,
  opts: { edit: string[]; to: string[]; metadata?: Record<string, Record<string, unknown>>; at?: string },
): Promise<void> {
  const created = await ctx.cutroom.posts.create({
    videos: opts.edit.map((edit_id) => ({
      edit_id,
      targets: opts.to.map((connection_id) => ({ connection_id, ...(opts.metadata ? { metadata: opts.metadata } : {}) })),
    })),
    ...(opts.at ? { scheduled_at: opts.at } : {}),
  });
  print(ctx, created, () => fields(Object.entries(created)));
}

/** cutroom posts delete <id>. */
export async function postsDeleteCommand(ctx: CliContext, id: string): Promise<void> {
  await ctx.cutroom.posts.delete(id);
  print(ctx, { id, deleted: true }, () => `post ${id} deleted\n`);
}

// ---- Webhooks ----

/** cutroom webhooks list. */
export async function webhooksListCommand(ctx: CliContext): Promise<void> {
  const page = await ctx.cutroom.webhooks.list({ limit: 100 });
  list(
    ctx,
    page,
    ['id', 'url', 'events', 'created'],
    page.webhooks.map((w) => [w.id, w.url, w.events.join(','), w.created_at]),
    'no webhooks',
  );
}

/** cutroom webhooks create --url <url> --event <type>…: prints the signing secret (shown once). */
export async function webhooksCreateCommand(ctx: CliContext, opts: { url: string; event: string[] }): Promise<void> {
  const w = await ctx.cutroom.webhooks.create({ url: opts.url, events: opts.event as never });
  print(ctx, w, () =>
    fields([
      ['id', w.id],
      ['url', w.url],
      ['events', w.events.join(', ')],
      ['secret', `${w.secret}  (shown once: keep it to verify the signatures)`],
    ]),
  );
}

/** cutroom webhooks delete <id>. */
export async function webhooksDeleteCommand(ctx: CliContext, id: string): Promise<void> {
  await ctx.cutroom.webhooks.delete(id);
  print(ctx, { id, deleted: true }, () => `webhook ${id} deleted\n`);
}

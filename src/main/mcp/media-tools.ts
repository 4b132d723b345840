import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Schemas } from '@cutroom/sdk';
import { z } from 'zod';
import { guarded, ok, refusal, waitForJob, waitSeconds, type Extra, type ToolContext } from './tool-kit.js';

/** The transcription, publishing and generation tools. */

type Transcription = Schemas['Transcription'];
type Generation = Schemas['Generation'];

/** A transcript longer than this many characters is cut (the rest: the download link of the API). */
const MAX_TEXT = 200_000;

const format = z
  .enum(['txt', 'srt', 'vtt', 'json'])
  .default('txt')
  .describe(
    'How the finished transcript comes back: `txt` (plain text, a line per cue, with speaker names), `srt` or `vtt` (subtitles with timestamps), or `json` (cues and words with times, speakers and confidence).',
  );
const speakers = z.boolean().default(true).describe('false leaves the speaker names out of txt, srt and vtt.');

const idem = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .describe('Any unique string: a retried call with the same key answers the first result instead of charging again.');

const finished = (t: Transcription) => t.status !== 'processing';

async function withTranscript(ctx: ToolContext, t: Transcription, fmt: 'txt' | 'srt' | 'vtt' | 'json', withSpeakers: boolean): Promise<CallToolResult> {
  const charged = `${t.credits_charged} credits charged`;
  if (!finished(t)) {
    return ok(
      `transcription ${t.id} is processing (${t.stage ?? 'queued'}, ${Math.round((t.progress ?? 0) * 100)} %${t.estimated_time !== undefined ? `, about ${t.estimated_time} s left` : ''}); ${charged}. Call get_transcription with transcription_id ${t.id} and wait_seconds.`,
      { transcription: t },
    );
  }
  if (t.status === 'failed') return ok(`transcription ${t.id} failed: ${t.error_code ?? 'unknown error'} (refunded)`, { transcription: t });
  if (t.status === 'no_speech') return ok(`transcription ${t.id}: no speech was heard in the media; ${charged}.`, { transcription: t });
  if (fmt === 'json') {
    const transcript = await ctx.cutroom.transcriptions.getTranscript(t.id);
    return ok(`transcription ${t.id} is ready (${t.language}, ${transcript.cues.length} cues); ${charged}.\n${transcript.text.slice(0, MAX_TEXT)}`, {
      transcription: t,
      transcript,
    });
  }
  const full = await ctx.cutroom.transcriptions.downloadText(t.id, { format: fmt, speakers: withSpeakers });
  const text = full.slice(0, MAX_TEXT);
  const cut = full.length > text.length;
  return ok(`transcription ${t.id} is ready (${t.language}); ${charged}. ${fmt.toUpperCase()}${cut ? ` (the first ${MAX_TEXT} characters)` : ''}:\n${text}`, {
    transcription: t,
    format: fmt,
    text,
    truncated: cut,
  });
}

const transcriptionProgress = (t: Transcription) => ({ progress: finished(t) ? 1 : (t.progress ?? 0), message: t.stage ?? t.status });

function waitTranscription(ctx: ToolContext, extra: Extra, seconds: number, t: Transcription): Promise<Transcription> {
  return waitForJob(extra, finished(t) ? 0 : seconds, t, (o) => ctx.cutroom.waitForTranscription(t.id, o), transcriptionProgress);
}

const generationText = (g: Generation) =>
  g.status === 'ready'
    ? `generation ${g.id} is ready: ${g.output?.url}${g.output?.image_id ? ` (image_id ${g.output.image_id}: pass it in image_ids to animate it)` : ''}`
    : g.status === 'failed'
      ? `generation ${g.id} failed: ${g.error_code ?? 'unknown error'} (refunded)`
      : `generation ${g.id} is ${g.status}. Call get_generation with generation_id ${g.id} and wait_seconds.`;

const generationProgress = (g: Generation) => ({ progress: g.status === 'ready' ? 1 : g.status === 'processing' ? 0.5 : 0, message: g.status });

export function registerMediaTools(server: McpServer, ctx: ToolContext): void {
  const { cutroom, schemas } = ctx;

  server.registerTool(
    'transcribe',
    {
      title: 'Transcribe audio or video (spends credits)',
      description: `Turns speech into text with timestamps (and speaker names with \`speaker_labels\`). SPENDS CREDITS: the plan’s price per started minute of the media (by default 1 credit a minute, 2 with speaker_labels; a repeat on the same media_id is not charged again), charged when it starts; the result says \`credits_charged\`. \`source\` is a direct link to an audio or video file (http or https; it is read and uploaded)${ctx.localFiles ? ', the absolute path of a local audio or video file on this computer,' : ''} or the \`media_id\` of an earlier upload. Takes about a fifth of the media’s length; it waits up to \`wait_seconds\` and answers the transcript in \`format\` when done, else the transcription id: then call get_transcription.`,
      inputSchema: {
        source: z
          .string()
          .min(1)
          .max(4096)
          .describe(
            ctx.localFiles
              ? 'A direct link to an audio or video file, the absolute path of a local one, or a media_id (med_…).'
              : 'A direct link to an audio or video file, or a media_id (med_…).',
          ),
        ...schemas.fields('createTranscription', ['speaker_labels', 'speakers_expected', 'source_language']),
        format,
        speakers,
        wait_seconds: waitSeconds(30, 'the transcript'),
        idempotency_key: idem,
      },
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ source, format: fmt, speakers: withSpeakers, wait_seconds, idempotency_key, ...opts }, extra) =>
      guarded(async () => {
        let mediaId: string;
        if (/^med_[A-Za-z0-9]+$/.test(source)) mediaId = source;
        else if (/^https?:\/\//i.test(source)) {
          const link = await ctx.openLink(source, extra.signal);
          if (link.size === undefined) {
            link.body.destroy();
            return refusal(
              'LINK_SIZE_UNKNOWN',
              'The link does not say how large the file is (no Content-Length), so it cannot be uploaded: give a direct file link.',
            );
          }
          mediaId = (await cutroom.uploadMedia(link.body, { fileName: link.fileName, size: link.size, contentType: link.contentType, signal: extra.signal }))
            .media_id;
        } else if (ctx.localFiles) {
          mediaId = (await cutroom.uploadMedia(path.resolve(source), { signal: extra.signal })).media_id;
        } else {
          return refusal('LOCAL_FILE_UNAVAILABLE', 'Over HTTP the service cannot read a file on your computer: give a direct link or a media_id.');
        }
        const started = await cutroom.transcriptions.create({ media_id: mediaId, ...opts }, idempotency_key ? { idempotencyKey: idempotency_key } : undefined);
        return withTranscript(ctx, await waitTranscription(ctx, extra, wait_seconds, started), fmt, withSpeakers);
      }),
  );

  server.registerTool(
    'get_transcription',
    {
      title: 'A transcription and its transcript',
      description:
        'A transcription’s `status` (processing, ready, no_speech or failed) with `stage`, `progress` and `estimated_time` while processing; when ready, the transcript in `format`. Free. With `wait_seconds` it waits (sending progress notifications) until it is done or the time is up.',
      inputSchema: {
        transcription_id: z.string().min(1).max(100).describe('The transcription id (from transcribe).'),
        format,
        speakers,
        wait_seconds: waitSeconds(0, 'the transcript'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ transcription_id, format: fmt, speakers: withSpeakers, wait_seconds }, extra) =>
      guarded(async () => {
        const t = await waitTranscription(ctx, extra, wait_seconds, await cutroom.transcriptions.get(transcription_id));
        return withTranscript(ctx, t, fmt, withSpeakers);
      }),
  );

  server.registerTool(
    'list_connections',
    {
      title: 'Connected social accounts',
      description:
        'The social accounts this workspace can publish to: each with `id` (the `connection_id` publish takes), `platform`, `account_name`, `status` and `can_publish_video`. Free and instant. Accounts are connected in the Studio or with the API, not here.',
      inputSchema: schemas.fields('listConnections', ['page', 'limit'], { from: 'query' }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query) =>
      guarded(async () => {
        const list = await cutroom.connections.list(query);
        const lines = list.connections.map(
          (c) => `- ${c.id}: ${c.platform} "${c.account_name}" (${c.status}${c.can_publish_video ? '' : ', cannot publish videos'})`,
        );
        return ok([`${list.connections.length} connections`, ...lines].join('\n'), list);
      }),
  );

  server.registerTool(
    'publish',
    {
      title: 'Publish clips to social accounts',
      description:
        'Posts rendered clips to connected accounts, now or at `scheduled_at` (an ISO 8601 time in the future). `videos`: for each edit (a clip’s `edit_id`, rendered first if needed), the `targets`: `connection_id` from list_connections and optional `metadata` keyed by network, e.g. { "youtube": { "title": "…", "description": "…", "privacyStatus": "public" } }. Free, but it publishes in public under the person’s accounts: confirm with them first. Returns the post id; each item’s status and published link: get_post.',
      inputSchema: { ...schemas.fields('createPost', ['videos', 'scheduled_at']), idempotency_key: idem },
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ idempotency_key, ...body }) =>
      guarded(async () => {
        const post = await cutroom.posts.create(
          body as Parameters<typeof cutroom.posts.create>[0],
          idempotency_key ? { idempotencyKey: idempotency_key } : undefined,
        );
        return ok(
          `post ${post.id} with ${post.item_count} item${post.item_count === 1 ? '' : 's'} is ${post.status}${post.scheduled_at ? `, scheduled for ${post.scheduled_at}` : ''}. Next: get_post with post_id ${post.id}.`,
          post,
        );
      }),
  );

  server.registerTool(
    'get_post',
    {
      title: 'A post and its items',
      description:
        'A post’s `status` and its items: each with `platform`, `status`, `published_url` once published and `error_code` when it failed. Free and instant.',
      inputSchema: { post_id: z.string().min(1).max(100).describe('The post id (from publish).') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ post_id }) =>
      guarded(async () => {
        const p = await cutroom.posts.get(post_id);
        const lines = p.items.map(
          (i) => `- ${i.platform}: ${i.status}${i.published_url ? ` ${i.published_url}` : ''}${i.error_code ? ` (${i.error_code})` : ''}`,
        );
        return ok([`post ${p.id} is ${p.status}${p.scheduled_at ? ` (scheduled for ${p.scheduled_at})` : ''}`, ...lines].join('\n'), p);
      }),
  );

  server.registerTool(
    'list_generation_models',
    {
      title: 'AI generation models and prices',
      description:
        'The image and video generation models: each with `id`, `kind`, `inputs` (prompt, images), `options` (with their allowed values) and `price` (`per_image` or `per_second` of video, before the plan’s discount; totals round up to a whole credit). Free and instant. Next: create_generation with the price as `credits`.',
      inputSchema: schemas.fields('listGenerationModels', ['page', 'limit'], { from: 'query' }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (query) =>
      guarded(async () => {
        const list = await cutroom.generations.listModels(query);
        const lines = list.models.map((m) => {
          const price = 'per_image' in m.price ? `${m.price.per_image} credits an image` : `${m.price.per_second} credits a second`;
          return `- ${m.id} (${m.kind}): ${m.name}, ${price}`;
        });
        return ok([`${list.models.length} models`, ...lines].join('\n'), list);
      }),
  );

  server.registerTool(
    'create_generation',
    {
      title: 'Generate an image or video (spends credits)',
      description:
        'Starts an AI generation with a model from list_generation_models. SPENDS CREDITS: `credits` must be the price the catalogue gives (per image, or options.duration × per second, after the plan’s discount, rounded up); another number is refused with PRICE_CHANGED and the right price in `extra`, nothing charged. `image_ids` are reference images (an earlier generation’s `output.image_id`, e.g. to animate an image). It waits up to `wait_seconds` and answers the output’s URL when ready, else the id: then call get_generation.',
      inputSchema: {
        ...schemas.fields('createGeneration', ['model_id', 'prompt', 'image_ids', 'options', 'credits']),
        wait_seconds: waitSeconds(30, 'the output'),
        idempotency_key: idem,
      },
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ wait_seconds, idempotency_key, ...body }, extra) =>
      guarded(async () => {
        const started = await cutroom.generations.create(
          body as Parameters<typeof cutroom.generations.create>[0],
          idempotency_key ? { idempotencyKey: idempotency_key } : undefined,
        );
        const g = await waitForJob(
          extra,
          started.status === 'ready' || started.status === 'failed' ? 0 : wait_seconds,
          started,
          (o) => cutroom.waitForGeneration(started.id, o),
          generationProgress,
        );
        return ok(`${generationText(g)}; ${g.credits_charged} credits charged.`, g);
      }),
  );

  server.registerTool(
    'get_generation',
    {
      title: 'A generation and its output',
      description:
        'A generation’s `status` (queued, processing, ready or failed) and when ready its `output` (`url`, valid one hour; `image_id` for images). Free. With `wait_seconds` it waits (sending progress notifications) until it is done or the time is up.',
      inputSchema: {
        generation_id: z.string().min(1).max(100).describe('The generation id (from create_generation).'),
        wait_seconds: waitSeconds(0, 'the output'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ generation_id, wait_seconds }, extra) =>
      guarded(async () => {
        const first = await cutroom.generations.get(generation_id);
        const g = await waitForJob(
          extra,
          first.status === 'ready' || first.status === 'failed' ? 0 : wait_seconds,
          first,
          (o) => cutroom.waitForGeneration(generation_id, o),
          generationProgress,
        );
        return ok(generationText(g), g);
      }),
  );
}

import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Schemas } from '@cutroom/sdk';
import { z } from 'zod';
import { creditsForSeconds } from '../../domain/credits/credits.rules.js';
import { guarded, minutes, ok, refusal, waitForJob, waitSeconds, type ToolContext } from './tool-kit.js';

/** The clipping tools: balance, analyse, clip, follow, read the clips, derive an edit, render it. */

type Render = Schemas['Render'];
type ClipBody = Parameters<ToolContext['cutroom']['clips']['create']>[0];

const POLL_HINT =
  'Processing takes a few minutes (about the video’s length, less for short videos): call get_submission with video_id and submission_id (with wait_seconds, or every 15–30 seconds; its estimated_time says how long is left) until status is completed, then list_clips.';

const ids = {
  video_id: z.string().min(1).max(100).describe('The video id (from analyze_video or clip_video).'),
  submission_id: z.string().min(1).max(100).describe('The submission id (from clip_video).'),
};

function renderText(r: Render): string {
  if (r.status === 'completed')
    return `render ${r.id} is completed${r.from_cache ? ' (from the cache)' : ''}: download it at ${r.download_url} (a signed link, valid for a while)`;
  if (r.status === 'failed') return `render ${r.id} failed: ${r.error_code ?? 'unknown error'}`;
  if (r.status === 'expired') return `render ${r.id} has expired: its file is gone; call render_clip with edit_id ${r.edit_id} again`;
  return `render ${r.id} is ${r.status} (${Math.round((r.progress ?? 0) * 100)} %). Call get_render with render_id ${r.id} and wait_seconds to follow it.`;
}

const renderProgress = (r: Render) => ({ progress: r.status === 'completed' ? 1 : (r.progress ?? 0), message: `render ${r.status}` });

export function registerClipTools(server: McpServer, ctx: ToolContext): void {
  const { cutroom, schemas } = ctx;

  server.registerTool(
    'get_balance',
    {
      title: 'Credit balance',
      description:
        'The workspace’s credits: `balance` (an integer), and `unlimited` with `unlimited_until` when usage is not counted. Free and instant. Call it before clip_video, transcribe or create_generation to check the price can be paid.',
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded(async () => {
        const b = await cutroom.balance.get();
        return ok(
          b.unlimited ? `unlimited credits${b.unlimited_until ? ` until ${b.unlimited_until}` : ''} (balance ${b.balance})` : `${b.balance} credits`,
          b,
        );
      }),
  );

  server.registerTool(
    'analyze_video',
    {
      title: 'Analyse a video link',
      description:
        'Looks up a public video link (a platform page such as YouTube, a direct media file or an HLS playlist) without clipping it: its title, author, duration in seconds and `credits_cost`, the price of clipping the whole video (1 credit a minute), with the current balance. Free; takes a few seconds. Next: clip_video with the same link once the price is acceptable.',
      inputSchema: schemas.fields('analyzeVideoLink', ['url'], {
        describe: { url: 'A public video link: a platform page, a direct media file or an HLS playlist.' },
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) =>
      guarded(async () => {
        const v = await cutroom.videos.analyzeLink(args as { url: string });
        return ok(
          `video ${v.id}: "${v.title}" by ${v.author}, ${minutes(v.duration)}, clipping it costs ${v.credits_cost} credits (balance ${v.current_balance})`,
          v,
        );
      }),
  );

  const clipFields = schemas.fields('createSubmission', ['prompt', 'keywords', 'timeframe', 'template_id', 'strategy_id', 'clip_length', 'source_language'], {
    describe: { timeframe: 'Only this stretch of the video, in seconds { start, end } (and only it is charged).' },
  });
  server.registerTool(
    'clip_video',
    {
      title: 'Clip a video (spends credits)',
      description:
        `Finds the best short clips of a video and rates them. SPENDS CREDITS: 1 credit a minute of the video (of \`timeframe\` when given, less the plan’s discount), charged when the submission starts; the result says the price (\`submission.credits_charged\`). \`max_credits\` refuses a higher price before anything is charged. \`source\` is a public link (analysed first, as analyze_video)${ctx.localFiles ? ' or the absolute path of a local video file on this computer (uploaded first, free; a large file takes a while to send)' : ''}. Videos must be at least 60 seconds long. The same \`idempotency_key\` never charges twice. Returns at once with the video id and the submission id; the clipping itself takes minutes: ` +
        POLL_HINT,
      inputSchema: {
        source: z
          .string()
          .min(1)
          .max(4096)
          .describe(
            ctx.localFiles ? 'A public video link (http or https) or the absolute path of a local video file.' : 'A public video link (http or https).',
          ),
        max_credits: z.number().int().min(0).optional().describe('The most this may cost: a higher price is refused and nothing is charged.'),
        idempotency_key: z
          .string()
          .min(1)
          .max(255)
          .optional()
          .describe('Any unique string: a retried call with the same key answers the first submission instead of charging again.'),
        ...clipFields,
      },
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ source, max_credits, idempotency_key, ...rest }) =>
      guarded(async () => {
        const opts = rest as Omit<ClipBody, 'video_id'>;
        const link = /^https?:\/\//i.test(source);
        if (!link && !ctx.localFiles) {
          return refusal(
            'LOCAL_FILE_UNAVAILABLE',
            'Over HTTP the service cannot read a file on your computer: give a public link (or run `cutroom mcp` locally).',
          );
        }
        const video = link ? await cutroom.videos.analyzeLink({ url: source }) : await cutroom.uploadVideo(path.resolve(source));
        const timeframe = opts.timeframe;
        const seconds = timeframe ? (timeframe.end ?? video.duration) - (timeframe.start ?? 0) : video.duration;
        const price = timeframe ? creditsForSeconds(Math.max(0, seconds), video.discount_percent) : video.credits_cost;
        if (max_credits !== undefined && price > max_credits && !video.credits_unlimited) {
          return refusal('PRICE_ABOVE_MAX_CREDITS', `The price, ${price} credits, is above max_credits ${max_credits}: nothing was charged.`, {
            credits: price,
            max_credits,
            video,
          });
        }
        const submission = await cutroom.clips.create({ video_id: video.id, ...opts }, idempotency_key ? { idempotencyKey: idempotency_key } : undefined);
        return ok(
          `submission ${submission.id} of video ${video.id} ("${video.title}", ${minutes(video.duration)}) is ${submission.status}; ${submission.credits_charged} credits charged. Next: get_submission with video_id ${video.id} and submission_id ${submission.id}.`,
          { video, submission, next: { tool: 'get_submission', arguments: { video_id: video.id, submission_id: submission.id } } },
        );
      }),
  );

  server.registerTool(
    'get_submission',
    {
      title: 'A clipping submission’s progress',
      description:
        'The state of a clip_video submission: `status` (queued, downloading, transcribing, video_analysis, analyzing, finalizing, completed or failed), `stage` and `progress` (0 to 1) while running, `estimated_time` (seconds left), `queue_position` while queued, `clips_count`, and `error_code` when failed. Free. With `wait_seconds` it waits (sending progress notifications) until the submission ends or the time is up. Once completed, call list_clips.',
      inputSchema: { ...ids, wait_seconds: waitSeconds(0, 'the submission to end') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ video_id, submission_id, wait_seconds }, extra) =>
      guarded(async () => {
        const first = await cutroom.clips.get(video_id, submission_id);
        const s = await waitForJob(
          extra,
          first.status === 'completed' || first.status === 'failed' ? 0 : wait_seconds,
          first,
          (o) => cutroom.waitForSubmission(video_id, submission_id, o),
          (j) => ({ progress: j.status === 'completed' ? 1 : (j.progress ?? 0), message: `${j.stage ?? j.status}` }),
        );
        const running = s.stage ? `, ${s.stage} ${Math.round((s.progress ?? 0) * 100)} %` : '';
        const eta = s.estimated_time !== undefined ? `, about ${s.estimated_time} s left` : '';
        const end =
          s.status === 'completed'
            ? `: ${s.clips_count} clips. Next: list_clips.`
            : s.status === 'failed'
              ? `: ${s.error_code ?? 'failed'}.`
              : `${running}${eta}. Call get_submission again (wait_seconds up to 50, or in 15–30 seconds).`;
        return ok(`submission ${s.id} is ${s.status}${end}`, s);
      }),
  );

  server.registerTool(
    'list_clips',
    {
      title: 'The clips of a submission',
      description:
        'The clips a completed submission found, best rated first by default: each with `title`, `rating` (0 to 10) and `score_details` (hook, coherence, value, delivery), `reason` (why it scored so), `matched` (the prompt’s or keywords’ words it says), `start_time` and `end_time` in seconds of the video, `edit_id` (what derive_edit and render_clip take) and `play_url`. Free and instant. Up to 100 a page.',
      inputSchema: { ...ids, ...schemas.fields('listClips', ['sort', 'order', 'review', 'page', 'limit'], { from: 'query' }) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ video_id, submission_id, ...query }) =>
      guarded(async () => {
        const list = await cutroom.clips.listClips(video_id, submission_id, query);
        const lines = list.clips.map(
          (c, i) => `${i + 1}. [${c.rating.toFixed(1)}] ${minutes(c.start_time)}–${minutes(c.end_time)} "${c.title}" (edit_id ${c.edit_id}): ${c.reason}`,
        );
        return ok([`${list.clips.length} clips of ${list.pagination.total_count}`, ...lines].join('\n'), list);
      }),
  );

  server.registerTool(
    'derive_edit',
    {
      title: 'Change a clip (a new edit)',
      description:
        'Makes a new version of a clip’s edit from `base_edit_id` (a clip’s `edit_id` from list_clips, or an edit this tool returned); the base never changes. Changes: `trim` { start, end } or `segments` (source seconds; boundaries snap to word edges), `remove_words` (word indices), `word_text` (fix a caption word: { index, text }), `remove_fillers`, `remove_silences` (true or { min_seconds }), `aspect_ratio`, `reframe`, `zoom`, `template_id`, `captions_enabled`, `title`. Free; takes a second (longer with remove_silences, which listens to the sound). Returns the edit with its `words` (index, text, start, end) and `duration`. Next: render_clip with the new edit’s id.',
      inputSchema: schemas.fields('deriveEdit', [
        'base_edit_id',
        'trim',
        'segments',
        'snap',
        'remove_words',
        'word_text',
        'remove_fillers',
        'remove_silences',
        'aspect_ratio',
        'reframe',
        'zoom',
        'template_id',
        'captions_enabled',
        'title',
      ]),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (body) =>
      guarded(async () => {
        const e = await cutroom.edits.derive(body as Parameters<typeof cutroom.edits.derive>[0]);
        return ok(
          `edit ${e.id} (from ${e.parent_edit_id}): ${e.duration.toFixed(1)} s in ${e.segments.length} stretch${e.segments.length === 1 ? '' : 'es'}, ${e.words.length} words. Next: render_clip with edit_id ${e.id}.`,
          e,
        );
      }),
  );

  server.registerTool(
    'render_clip',
    {
      title: 'Render an edit to MP4',
      description:
        'Renders an edit (a clip’s `edit_id` from list_clips, or derive_edit’s id) to a vertical MP4 with its captions and layout. Free. `quality: preview` is a fast 360 px version. An edit rendered before answers at once from the cache. A render takes about the clip’s length; with `wait_seconds` this tool waits for it (sending progress notifications) and answers the `download_url` when done, else call get_render.',
      inputSchema: { ...schemas.fields('createRender', ['edit_id', 'quality']), wait_seconds: waitSeconds(30, 'the render') },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ wait_seconds, ...body }, extra) =>
      guarded(async () => {
        const started = await cutroom.renders.create(body as Parameters<typeof cutroom.renders.create>[0]);
        const r = await waitForJob(
          extra,
          started.status === 'completed' ? 0 : wait_seconds,
          started,
          (o) => cutroom.waitForRender(started.id, o),
          renderProgress,
        );
        return ok(renderText(r), r);
      }),
  );

  server.registerTool(
    'get_render',
    {
      title: 'A render and its download link',
      description:
        'A render’s `status` (queued, active, completed, failed or expired), `progress`, and when completed its `download_url` (a signed link to the MP4). Free. With `wait_seconds` it waits (sending progress notifications) until the render ends or the time is up.',
      inputSchema: {
        render_id: z.string().min(1).max(100).describe('The render id (from render_clip).'),
        wait_seconds: waitSeconds(0, 'the render to end'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ render_id, wait_seconds }, extra) =>
      guarded(async () => {
        const first = await cutroom.renders.get(render_id);
        const running = first.status !== 'completed' && first.status !== 'failed' && first.status !== 'expired';
        const r = await waitForJob(extra, running ? wait_seconds : 0, first, (o) => cutroom.waitForRender(render_id, o), renderProgress);
        return ok(renderText(r), r);
      }),
  );
}

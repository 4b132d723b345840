import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Cutroom, CutroomError } from '@cutroom/sdk';
import { z } from 'zod';

/**
 * The MCP server of `cutroom mcp`: tools for a model that call the service through the project's SDK
 * (@cutroom/sdk; no second copy of its rules). Every result carries the API's JSON as `structuredContent`
 * beside one line of text; a refusal of the API is a tool error (`isError`) with the SDK's reason
 * sentence and `{ code, extra }`. Input schemas follow the OpenAPI document's fields (sdk/openapi.json).
 */

const VERSION = '0.1.0';

/** A result: the API's JSON and one line for the model. */
function ok(text: string, json: object): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: json as Record<string, unknown> };
}

/** A tool error in the words of the SDK: the reason sentence, and the API's `code` and `extra`. */
export function toolError(err: unknown): CallToolResult {
  if (err instanceof CutroomError) {
    return {
      isError: true,
      content: [{ type: 'text', text: err.describe() }],
      structuredContent: { code: err.code, status: err.status, reason: err.reason, ...(err.extra ? { extra: err.extra } : {}) },
    };
  }
  const code = (err as NodeJS.ErrnoException)?.code;
  const cause = (err as { cause?: { message?: string } })?.cause?.message;
  const message = err instanceof Error ? err.message : String(err);
  const text =
    err instanceof TypeError && /fetch failed/.test(message)
      ? `cannot reach the Cutroom service: ${cause ?? message} (is CUTROOM_URL right?)`
      : typeof code === 'string' && code.startsWith('E')
        ? `the local file cannot be read: ${message}`
        : message;
  return { isError: true, content: [{ type: 'text', text }] };
}

async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    return toolError(err);
  }
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;

const POLL_HINT =
  'Processing takes a few minutes (about the video’s length, less for short videos): call get_submission with video_id and submission_id every 15–30 seconds (its estimated_time says how long is left) until status is completed, then list_clips.';

const ids = {
  video_id: z.string().min(1).describe('The video id (from analyze_video or clip_video).'),
  submission_id: z.string().min(1).describe('The submission id (from clip_video).'),
};

/** The server with its tools, calling the service with `cutroom`. */
export function createMcpServer(cutroom: Cutroom): McpServer {
  const server = new McpServer({ name: 'cutroom', version: VERSION });

  server.registerTool(
    'get_balance',
    {
      title: 'Credit balance',
      description:
        'The workspace’s credits: `balance` (an integer), and `unlimited` with `unlimited_until` when usage is not counted. Free and instant. Call it before clip_video to check the price (1 credit a minute of video) can be paid.',
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
        'Looks up a public video link (a platform page such as YouTube, a direct media file or an HLS playlist) without clipping it: its title, author, duration in seconds and `credits_cost`, the price of clipping the whole video (1 credit a minute), with the current balance. Free; takes a few seconds. Next: clip_video with the same link (it analyses again) once the price is acceptable.',
      inputSchema: { url: z.string().min(1).max(2048).describe('A public video link: a platform page, a direct media file or an HLS playlist.') },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url }) =>
      guarded(async () => {
        const v = await cutroom.videos.analyzeLink({ url });
        return ok(
          `video ${v.id}: "${v.title}" by ${v.author}, ${minutes(v.duration)}, clipping it costs ${v.credits_cost} credits (balance ${v.current_balance})`,
          v,
        );
      }),
  );

  server.registerTool(
    'clip_video',
    {
      title: 'Clip a video (spends credits)',
      description:
        'Finds the best short clips of a video and rates them. SPENDS CREDITS: 1 credit a minute of the video (of `timeframe` when given), charged now; the result says the price (`submission.credits_charged`). `source` is a public link (analysed first, as analyze_video) or the absolute path of a local video file on this computer (uploaded first; a large file takes a while to send). Videos must be at least 60 seconds long. Returns at once with the video id and the submission id; the clipping itself takes minutes: ' +
        POLL_HINT,
      inputSchema: {
        source: z.string().min(1).describe('A public video link (http or https) or the absolute path of a local video file.'),
        prompt: z
          .string()
          .min(1)
          .max(500)
          .optional()
          .describe('What to look for, in the video’s language (“the moments about pricing”); matching clips are rated above the others.'),
        keywords: z
          .array(z.string().min(1).max(80))
          .max(20)
          .optional()
          .describe('Words or phrases a clip must say (up to 20); every clip returned says one, except those that only make up a minimum of three.'),
        timeframe: z
          .object({ start: z.number().min(0).describe('Seconds.'), end: z.number().min(0).describe('Seconds.') })
          .optional()
          .describe('Only this stretch of the video, in seconds (and only it is charged).'),
        template_id: z.string().min(1).optional().describe('A caption template id (the default template when omitted).'),
        strategy_id: z.string().min(1).optional().describe('A clipping strategy id (how many clips and how long; the default when omitted).'),
        clip_length: z
          .object({ min: z.number().min(10).max(180), max: z.number().min(10).max(180) })
          .optional()
          .describe('Every clip’s length in seconds, 10–180, min ≤ max; replaces the strategy’s range.'),
        source_language: z.enum(['auto', 'en', 'pt']).optional().describe('The language spoken; auto (the default) detects it.'),
      },
      annotations: { destructiveHint: true, readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ source, ...opts }) =>
      guarded(async () => {
        const link = /^https?:\/\//i.test(source);
        const video = link ? await cutroom.videos.analyzeLink({ url: source }) : await cutroom.uploadVideo(path.resolve(source));
        const submission = await cutroom.clips.create({ video_id: video.id, ...opts });
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
        'The state of a clip_video submission: `status` (queued, downloading, transcribing, video_analysis, analyzing, finalizing, completed or failed), `stage` and `progress` (0 to 1) while running, `estimated_time` (seconds left), `queue_position` while queued, `clips_count`, and `error_code` when failed. Free and instant. While not completed or failed, call again after 15–30 seconds; once completed, call list_clips.',
      inputSchema: ids,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ video_id, submission_id }) =>
      guarded(async () => {
        const s = await cutroom.clips.get(video_id, submission_id);
        const running = s.stage ? `, ${s.stage} ${Math.round((s.progress ?? 0) * 100)} %` : '';
        const eta = s.estimated_time !== undefined ? `, about ${s.estimated_time} s left` : '';
        const end =
          s.status === 'completed'
            ? `: ${s.clips_count} clips. Next: list_clips.`
            : s.status === 'failed'
              ? `: ${s.error_code ?? 'failed'}.`
              : `${running}${eta}. Call get_submission again in 15–30 seconds.`;
        return ok(`submission ${s.id} is ${s.status}${end}`, s);
      }),
  );

  server.registerTool(
    'list_clips',
    {
      title: 'The clips of a submission',
      description:
        'The clips a completed submission found, best rated first by default: each with `title`, `rating` (0 to 10) and `score_details` (hook, coherence, value, delivery), `reason` (why it scored so), `matched` (the prompt’s or keywords’ words it says), `start_time` and `end_time` in seconds of the video, and `play_url`. Free and instant. Up to 100 a page.',
      inputSchema: {
        ...ids,
        sort: z.enum(['rating', 'start_time', 'created_at']).optional().describe('rating (the default), start_time or created_at.'),
        order: z.enum(['asc', 'desc']).optional().describe('desc (the default) or asc.'),
        page: z.number().int().min(1).optional().describe('From 1 (the default).'),
        limit: z.number().int().min(1).max(100).optional().describe('Clips a page, 1–100 (20 by default).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ video_id, submission_id, ...query }) =>
      guarded(async () => {
        const list = await cutroom.clips.listClips(video_id, submission_id, query);
        const lines = list.clips.map((c, i) => `${i + 1}. [${c.rating.toFixed(1)}] ${minutes(c.start_time)}–${minutes(c.end_time)} "${c.title}"`);
        return ok([`${list.clips.length} clips`, ...lines].join('\n'), list);
      }),
  );

  return server;
}

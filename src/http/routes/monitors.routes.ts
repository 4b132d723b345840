import { listResponse, pageRequest } from '../../domain/pagination.js';
import type { MonitorsService } from '../../domain/monitors/monitors.service.js';
import type { Api } from '../types.js';
import { callerOf } from '../plugins/auth.js';
import { NoContent, answer, errorResponses } from '../schemas/common.js';
import { PageQuery } from '../schemas/pagination.schemas.js';
import { ApplyTemplateSchema, RenderSchema } from '../schemas/render.schemas.js';
import { ClipListQuery } from '../schemas/submission.schemas.js';
import {
  BroadcastAppliedTemplateSchema,
  BroadcastClipListSchema,
  BroadcastClipPath,
  BroadcastListSchema,
  BroadcastPath,
  CreateMonitorSchema,
  MonitorListSchema,
  MonitorPath,
  MonitorSchema,
  UpdateMonitorSchema,
} from '../schemas/monitor.schemas.js';

export interface MonitorRoutesDeps {
  monitors: MonitorsService;
}

/** /monitors/* : channel monitors, their broadcasts and the broadcasts' clips (docs/monitors.md). */
export function monitorRoutes(app: Api, deps: MonitorRoutesDeps) {
  const tags = ['Monitors'];
  const m = deps.monitors;

  app.post(
    '/monitors',
    {
      schema: {
        operationId: 'createMonitor',
        tags,
        summary: 'Create a monitor',
        description:
          'A `live` monitor clips every broadcast of a channel while it airs, in batches; a `video` monitor turns each new upload into an ordinary submission. ' +
          '`url` is a YouTube channel (`/@handle`, `/channel/UC…`, `/c/…`, `/user/…`), a Twitch channel, an Atom/RSS feed of uploads (YouTube’s `feeds/videos.xml` or any RSS with ' +
          '`<enclosure>`), or for `live` a live HLS playlist. Other addresses are read with the safe fetching rules of POST /clips/info: 422 INVALID_URL when the address ' +
          'is refused or is not a channel, feed or playlist; 400 VALIDATION_ERROR for `type: video` on an HLS playlist (or `live` on a feed); 400 PLATFORM_UNAVAILABLE when the ' +
          'channel’s platform is not configured on this server. Created `stopped`: POST /monitors/{id}/start. A workspace keeps at most its plan’s `max_monitors` ' +
          '(20 by default; deleted monitors do not count): 409 MONITOR_LIMIT_REACHED (`extra.max_monitors`) past it, before the link is read. The link is read like ' +
          'POST /clips/info’s, so the call counts in the same analysis rate limit (10 a minute per key by default; 429 RATE_LIMIT_EXCEEDED).',
        body: CreateMonitorSchema,
        response: {
          201: answer(MonitorSchema, 'The monitor, `stopped`.'),
          ...errorResponses('INVALID_URL', 'PLATFORM_UNAVAILABLE', 'TEMPLATE_NOT_FOUND', 'STRATEGY_NOT_FOUND', 'MONITOR_LIMIT_REACHED'),
        },
      },
      config: { rateLimitGroup: 'analysis' },
    },
    async (req, reply) => reply.code(201).send(m.view(await m.create(callerOf(req), req.body))),
  );

  app.get(
    '/monitors',
    {
      schema: {
        operationId: 'listMonitors',
        tags,
        summary: 'List monitors',
        description: 'Newest first; deleted monitors are not listed.',
        querystring: PageQuery,
        response: { 200: answer(MonitorListSchema, 'One page of monitors.') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await m.list(callerOf(req).workspace.id, page);
      return listResponse(
        'monitors',
        rows.map((r) => m.view(r)),
        total,
        page,
      );
    },
  );

  app.get(
    '/monitors/:id',
    {
      schema: {
        operationId: 'getMonitor',
        tags,
        summary: 'Get a monitor',
        description:
          '`status`: `stopped` (see `stop_reason`), `watching` (on, waiting for a broadcast or an upload), `live` (recording a broadcast). Poll every 5 to 10 seconds.',
        params: MonitorPath,
        response: { 200: answer(MonitorSchema, 'The monitor.'), ...errorResponses('MONITOR_NOT_FOUND') },
      },
    },
    async (req) => m.view(await m.get(callerOf(req).workspace.id, req.params.id)),
  );

  app.patch(
    '/monitors/:id',
    {
      schema: {
        operationId: 'updateMonitor',
        tags,
        summary: 'Change a monitor’s name, template, strategy or language',
        description: 'Applies to the batches and uploads clipped from now on. `null` clears a template or strategy (the defaults apply).',
        params: MonitorPath,
        body: UpdateMonitorSchema,
        response: { 200: answer(MonitorSchema, 'The monitor.'), ...errorResponses('MONITOR_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'STRATEGY_NOT_FOUND') },
      },
    },
    async (req) => m.view(await m.update(callerOf(req).workspace.id, req.params.id, req.body)),
  );

  app.delete(
    '/monitors/:id',
    {
      schema: {
        operationId: 'deleteMonitor',
        tags,
        summary: 'Delete a monitor',
        description:
          'Stops it first (a broadcast being recorded is cut there and its last batch processed), then removes it: GET /monitors no longer lists it and GET, PATCH, ' +
          'DELETE, start and stop answer 404 MONITOR_NOT_FOUND. Its broadcasts and their clips stay readable through their own ids (GET /monitors/{id}/broadcasts, ' +
          '…/broadcasts/{broadcastId}/clips, …/clips/{clipId}/render, …/apply_template) until the plan’s retention purges the batches (render and apply_template then answer 410 SUBMISSION_EXPIRED); ' +
          'its submissions stay in GET /clips, and its clips’ edits and renders stay usable (POST /renders, POST /posts).',
        params: MonitorPath,
        response: { 204: NoContent, ...errorResponses('MONITOR_NOT_FOUND') },
      },
    },
    async (req, reply) => {
      await m.remove(callerOf(req).workspace.id, req.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/monitors/:id/start',
    {
      schema: {
        operationId: 'startMonitor',
        tags,
        summary: 'Start a monitor',
        description:
          'Starts charging and clipping: the monitor becomes `watching` (then `live` while it records a broadcast). Needs a positive balance or free usage, else 402 ' +
          'INSUFFICIENT_CREDITS with `credits_needed` (the price of one live batch; 1 for a video monitor) and `current_balance`. A video monitor’s first check takes ' +
          'the channel’s current uploads as its baseline: only later uploads are clipped. Idempotent.',
        params: MonitorPath,
        response: { 200: answer(MonitorSchema, 'The monitor, no longer `stopped`.'), ...errorResponses('MONITOR_NOT_FOUND', 'INSUFFICIENT_CREDITS') },
      },
    },
    async (req) => m.view(await m.start(callerOf(req), req.params.id)),
  );

  app.post(
    '/monitors/:id/stop',
    {
      schema: {
        operationId: 'stopMonitor',
        tags,
        summary: 'Stop a monitor',
        description:
          'Recording stops at once: the batch in progress is cut there and processed like a last batch; nothing is recorded or charged afterwards. ' +
          'Answers `stopped` with `stop_reason: USER`. Idempotent (a monitor already stopped keeps its reason).',
        params: MonitorPath,
        response: { 200: answer(MonitorSchema, 'The monitor, `stopped`.'), ...errorResponses('MONITOR_NOT_FOUND') },
      },
    },
    async (req) => m.view(await m.stop(callerOf(req).workspace.id, req.params.id)),
  );

  app.get(
    '/monitors/:id/broadcasts',
    {
      schema: {
        operationId: 'listBroadcasts',
        tags,
        summary: 'List a monitor’s broadcasts',
        description: 'Newest first. `credits_charged` is the net amount of the broadcast’s batches. A deleted monitor’s broadcasts stay listed here.',
        params: MonitorPath,
        querystring: PageQuery,
        response: { 200: answer(BroadcastListSchema, 'One page of broadcasts.'), ...errorResponses('MONITOR_NOT_FOUND') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const { rows, total } = await m.broadcasts(callerOf(req).workspace.id, req.params.id, page);
      return listResponse(
        'broadcasts',
        rows.map((b) => m.broadcastView(b)),
        total,
        page,
      );
    },
  );

  app.get(
    '/monitors/:id/broadcasts/:broadcastId/clips',
    {
      schema: {
        operationId: 'listBroadcastClips',
        tags,
        summary: 'List the clips of a broadcast',
        description:
          'Clips of every clipped batch, sorted by `rating` (default), `start_time` (the broadcast’s timeline) or `created_at`. `start_time` and `end_time` are inside ' +
          'the batch’s own recording; `batch_index` (0-based) and `broadcast_offset` (seconds from the broadcast’s start) place the clip in the broadcast. ' +
          '`play_url` and `download_url` are signed, valid one hour.',
        params: BroadcastPath,
        querystring: ClipListQuery,
        response: { 200: answer(BroadcastClipListSchema, 'One page of clips.'), ...errorResponses('MONITOR_NOT_FOUND', 'BROADCAST_NOT_FOUND') },
      },
    },
    async (req) => {
      const page = pageRequest(req.query);
      const order = { sort: req.query.sort ?? 'rating', order: req.query.order ?? 'desc' } as const;
      const { rows, total } = await m.clips(callerOf(req).workspace.id, req.params.id, req.params.broadcastId, order, page);
      return listResponse('clips', await Promise.all(rows.map((r) => m.clipView(r))), total, page);
    },
  );

  app.post(
    '/monitors/:id/broadcasts/:broadcastId/clips/:clipId/render',
    {
      schema: {
        operationId: 'renderBroadcastClip',
        tags,
        summary: 'Render a live clip',
        description:
          'Exactly like a submission clip’s render (no body): 200 with `from_cache: true` and `download_url` when an identical unexpired file exists, else 202 `queued`; ' +
          'poll GET /renders/{renderId}. Its `edit_id` works with POST /renders and POST /posts. 429 RATE_LIMIT_EXCEEDED when the plan’s simultaneous renders are in use.',
        params: BroadcastClipPath,
        response: {
          200: answer(RenderSchema, 'An identical file already existed: `completed`, `from_cache: true`.'),
          202: answer(RenderSchema, 'Queued: poll GET /renders/{renderId} every 5 to 10 seconds.'),
          ...errorResponses('MONITOR_NOT_FOUND', 'BROADCAST_NOT_FOUND', 'CLIP_NOT_FOUND', 'EDITS_NOT_FOUND', 'SUBMISSION_NOT_COMPLETED', 'SUBMISSION_EXPIRED'),
        },
      },
    },
    async (req, reply) => {
      const out = await m.renderClip(callerOf(req), req.params.id, req.params.broadcastId, req.params.clipId);
      return reply.code(out.fromCache ? 200 : 202).send(out.render);
    },
  );

  app.post(
    '/monitors/:id/broadcasts/:broadcastId/apply_template',
    {
      schema: {
        operationId: 'applyBroadcastTemplate',
        tags,
        summary: 'Apply a template to every clip of a broadcast',
        description:
          'The submission rules, batch by batch: each clip of a clipped batch gets a new edit with the template and `has_template_applied: true` (batches still being ' +
          'clipped are left out; apply again once they are). 404 TEMPLATE_NOT_FOUND for an id that is neither built-in nor the workspace’s; 410 SUBMISSION_EXPIRED ' +
          'once the plan’s retention purged a batch of the broadcast.',
        params: BroadcastPath,
        body: ApplyTemplateSchema,
        response: {
          200: answer(BroadcastAppliedTemplateSchema, 'The clips and their new edits.'),
          ...errorResponses('MONITOR_NOT_FOUND', 'BROADCAST_NOT_FOUND', 'TEMPLATE_NOT_FOUND', 'SUBMISSION_EXPIRED'),
        },
      },
    },
    async (req) => m.applyTemplate(callerOf(req).workspace.id, req.params.id, req.params.broadcastId, req.body.template_id),
  );
}

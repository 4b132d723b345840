import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.js';

/** HTTP status of every error code the service answers (spec: Errors; our additions in docs/api-decisions.md). */
export const ERROR_STATUS: Record<string, number> = {
  VALIDATION_ERROR: 400,
  TIMEFRAME_OUT_OF_BOUNDS: 400,
  INVALID_METADATA: 400,
  INVALID_CONNECTIONS: 400,
  PLATFORM_UNAVAILABLE: 400,
  MISSING_WORKSPACE_ID: 400,
  VIDEO_TOO_SHORT: 400,
  VIDEO_TOO_LONG: 400,
  UNSUPPORTED_IMAGE: 400,
  REPLACE_MODE_UNAVAILABLE: 400,
  NOTE_NOT_UNDERSTOOD: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  PRIVATE_VIDEO: 403,
  AGE_RESTRICTED: 403,
  REGION_BLOCKED: 403,
  DAILY_LIMIT_EXCEEDED: 403,
  SIGNATURE_INVALID: 403,
  SIGNATURE_EXPIRED: 403,
  VIDEO_NOT_FOUND: 404,
  RENDER_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  EDITS_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  WORKSPACE_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  KEY_NOT_FOUND: 404,
  SUBMISSION_NOT_FOUND: 404,
  TEMPLATE_NOT_FOUND: 404,
  STRATEGY_NOT_FOUND: 404,
  CLIP_NOT_FOUND: 404,
  POST_NOT_FOUND: 404,
  POST_ITEM_NOT_FOUND: 404,
  CONNECTION_NOT_FOUND: 404,
  MEDIA_NOT_FOUND: 404,
  TRANSCRIPTION_NOT_FOUND: 404,
  MODEL_NOT_FOUND: 404,
  IMAGE_NOT_FOUND: 404,
  GENERATION_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  MONITOR_NOT_FOUND: 404,
  BROADCAST_NOT_FOUND: 404,
  PERSONA_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  PERSONA_VIDEO_NOT_FOUND: 404,
  PRESET_NOT_FOUND: 404,
  FACE_NOT_FOUND: 404,
  VIDEO_ALREADY_PROCESSING: 409,
  DUPLICATE_POST: 409,
  TRANSCRIPTION_NOT_READY: 409,
  PRICE_CHANGED: 409,
  PLAN_ALREADY_EXISTS: 409,
  REQUEST_IN_PROGRESS: 409,
  SUBMISSION_NOT_WAITING: 409,
  SUBMISSION_NOT_COMPLETED: 409,
  RENDER_NOT_READY: 409,
  RENDER_FAILED: 409,
  POST_ALREADY_PROCESSING: 409,
  POST_ITEM_NOT_FAILED: 409,
  TRANSCRIPTION_FAILED: 409,
  UPLOAD_ALREADY_COMPLETED: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  MONITOR_LIMIT_REACHED: 409,
  PERSONA_IMAGE_PROCESSING: 409,
  PERSONA_IMAGE_NOT_READY: 409,
  SUBMISSION_EXPIRED: 410,
  RENDER_FILE_EXPIRED: 410,
  FILE_TOO_LARGE: 413,
  LIVE_STREAM: 422,
  PLAYLIST_URL: 422,
  CHANNEL_URL: 422,
  SHORTS_NOT_SUPPORTED: 422,
  AUDIO_ONLY: 422,
  INVALID_DURATION: 422,
  INVALID_URL: 422,
  INVALID_WEBHOOK_URL: 422,
  NO_FACE_FOUND: 422,
  MULTIPLE_FACES: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export function statusOf(code: string): number {
  const status = ERROR_STATUS[code];
  if (status === undefined) throw new Error(`error code ${code} has no HTTP status`);
  return status;
}

export function sendError(reply: FastifyReply, code: string, extra?: Record<string, unknown>) {
  return reply.code(statusOf(code)).type('application/json; charset=utf-8').send(extra ? { code, extra } : { code });
}

type AjvError = { instancePath: string; keyword: string; params: { missingProperty?: string; additionalProperty?: string } & Record<string, unknown> };

const CONTEXT_PREFIX: Record<string, string> = { body: '', querystring: 'query.', params: 'path.', headers: 'header.' };

/** Ajv errors → `[{ field, rule }]`; `field` is the dotted path, prefixed for non-body inputs. */
export function validationFields(errors: AjvError[], context = 'body'): Array<{ field: string; rule: string }> {
  const prefix = CONTEXT_PREFIX[context] ?? `${context}.`;
  const out: Array<{ field: string; rule: string }> = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    if (e.keyword === 'required') path = path ? `${path}.${e.params.missingProperty}` : String(e.params.missingProperty);
    if (e.keyword === 'additionalProperties') path = path ? `${path}.${e.params.additionalProperty}` : String(e.params.additionalProperty);
    const field = `${prefix}${path}`.replace(/\.$/, '') || context;
    // anyOf/oneOf branches repeat the same field; keep the first rule per field.
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, rule: e.keyword });
  }
  return out;
}

export function registerErrorHandling(app: FastifyInstance, opts: { bodyLimitBytes: number }) {
  app.setNotFoundHandler((_req: FastifyRequest, reply: FastifyReply) => sendError(reply, 'ROUTE_NOT_FOUND'));

  app.setErrorHandler((err: FastifyError | DomainError | Error, req, reply) => {
    if (err instanceof DomainError) {
      if (err.headers) reply.headers(err.headers);
      if (statusOf(err.code) >= 500) req.log.error({ err }, 'server fault');
      return sendError(reply, err.code, err.extra);
    }
    const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
    if (fe.validation) {
      return sendError(reply, 'VALIDATION_ERROR', { errors: validationFields(fe.validation, fe.validationContext) });
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, 'FILE_TOO_LARGE', { max_size: opts.bodyLimitBytes });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'header.content-type', rule: 'media_type' }] });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'body', rule: 'required' }] });
    }
    if (fe.statusCode === 400 && (fe instanceof SyntaxError || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(fe.message))) {
      return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'body', rule: 'json' }] });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      req.log.info({ err }, 'client error');
      return sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'request', rule: 'invalid' }] });
    }
    req.log.error({ err }, 'server fault');
    return sendError(reply, 'INTERNAL_ERROR');
  });
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type FieldFailure } from '../domain/errors.js';
import { ERROR_STATUS as STATUS_OF_CODE, type ErrorCode } from '../domain/error-codes.js';

/** HTTP status of every error code the service answers: the domain's one table (src/domain/error-codes.ts), looked up by any string. */
export const ERROR_STATUS: Readonly<Record<string, number>> = STATUS_OF_CODE;

/** The status of `code`; throws for a code that is never answered (FAILURE_ONLY_CODES). */
export function statusOf(code: ErrorCode): number {
  const status = ERROR_STATUS[code];
  if (status === undefined) throw new Error(`error code ${code} has no HTTP status`);
  return status;
}

export function sendError(reply: FastifyReply, code: ErrorCode, extra?: Record<string, unknown>) {
  return reply
    .code(statusOf(code))
    .type('application/json; charset=utf-8')
    .send(extra ? { code, extra } : { code });
}

type AjvError = {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown } & Record<string, unknown>;
};

const CONTEXT_PREFIX: Record<string, string> = { body: '', querystring: 'query.', params: 'path.', headers: 'header.' };

/**
 * The values a field takes when its rule picks among fixed values: an `enum`'s list, or every `const`
 * of a choice among literals (TypeBox's union of literals is an `anyOf` of `const` branches, each failing
 * at the same place) — undefined for other rules.
 */
function allowedValues(first: AjvError, errors: AjvError[]): unknown[] | undefined {
  if (first.keyword === 'enum' && Array.isArray(first.params.allowedValues)) return first.params.allowedValues;
  if (first.keyword !== 'const') return undefined;
  const branch = /^(.*\/(?:anyOf|oneOf))\/\d+\/const$/.exec(first.schemaPath ?? '');
  if (!branch) return [first.params.allowedValue];
  // Every branch of that choice failed (allErrors): only a choice whose every branch is a `const` (or `null`) is a list of values.
  const inChoice = errors.filter((e) => e.instancePath === first.instancePath && (e.schemaPath ?? '').startsWith(`${branch[1]}/`));
  const values: unknown[] = [];
  for (const e of inChoice) {
    const rest = (e.schemaPath ?? '').slice(branch[1].length + 1);
    if (e.keyword === 'const' && /^\d+\/const$/.test(rest)) values.push(e.params.allowedValue);
    else if (e.keyword === 'type' && e.params.type === 'null' && /^\d+\/type$/.test(rest)) values.push(null);
    else return undefined;
  }
  return values;
}

/** Ajv errors → `[{ field, rule, allowed? }]`; `field` is the dotted path, prefixed for non-body inputs; `allowed` for `enum` and `const`. */
export function validationFields(errors: AjvError[], context = 'body'): FieldFailure[] {
  const prefix = CONTEXT_PREFIX[context] ?? `${context}.`;
  const out: FieldFailure[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    if (e.keyword === 'required') path = path ? `${path}.${e.params.missingProperty}` : String(e.params.missingProperty);
    if (e.keyword === 'additionalProperties') path = path ? `${path}.${e.params.additionalProperty}` : String(e.params.additionalProperty);
    const field = `${prefix}${path}`.replace(/\.$/, '') || context;
    // anyOf/oneOf branches repeat the same field; keep the first rule per field.
    if (seen.has(field)) continue;
    seen.add(field);
    const allowed = allowedValues(e, errors);
    out.push(allowed ? { field, rule: e.keyword, allowed } : { field, rule: e.keyword });
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

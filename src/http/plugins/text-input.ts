import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { sendError } from '../errors.js';

/**
 * Every text a request carries must be valid Unicode without U+0000: PostgreSQL refuses NUL in
 * `text` and `jsonb` (a 500 otherwise), and invalid UTF-8 would be stored as U+FFFD. Checked once
 * for every route (docs/api-decisions.md, "Text in requests"):
 *
 * - path parameters, query keys and values, header values: before authentication (onRequest);
 * - JSON (and text/plain) bodies: in the body parser, string values and keys at any depth.
 *
 * A failure is 400 VALIDATION_ERROR naming each field (`path.renderId`, `query.video_id`,
 * `header.x-workspace-id`, `metadata.youtube.title`) with rule `nul` or `utf8`.
 */

export type TextRule = 'nul' | 'utf8';
export interface FieldError {
  field: string;
  rule: string;
}

/** More than this many bad fields are not listed. */
const MAX_ERRORS = 20;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with `s` as text, if anything. */
export function textProblem(s: string): TextRule | undefined {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'utf8';
  return undefined;
}

/** A key as it appears in a field path: NUL and other control characters escaped, so the answer stays printable. */
function printable(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

/** The bad strings (values and keys) of a parsed JSON value, as `{ field, rule }` with dotted paths. */
export function jsonTextErrors(value: unknown, root = 'body'): FieldError[] {
  const out: FieldError[] = [];
  const walk = (v: unknown, path: string) => {
    if (out.length >= MAX_ERRORS) return;
    if (typeof v === 'string') {
      const rule = textProblem(v);
      if (rule) out.push({ field: path || root, rule });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, path ? `${path}.${i}` : String(i)));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const field = path ? `${path}.${printable(k)}` : printable(k);
        const rule = textProblem(k);
        if (rule) out.push({ field, rule });
        walk(item, field);
      }
    }
  };
  walk(value, '');
  return out;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `bytes` as a string, or undefined when they are not valid UTF-8. A leading BOM is dropped. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes one query-string component like the query parser (`+` is a space, a malformed `%` escape
 * is kept as written) but strictly: undefined when the escapes spell invalid UTF-8.
 */
export function decodeQueryComponent(raw: string): string | undefined {
  const s = raw.replace(/\+/g, ' ');
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
    }
  }
  return decodeUtf8(Uint8Array.from(bytes));
}

function queryErrors(url: string): FieldError[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const out: FieldError[] = [];
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const key = decodeQueryComponent(rawKey);
    const value = eq < 0 ? '' : decodeQueryComponent(pair.slice(eq + 1));
    const field = `query.${printable(key ?? rawKey)}`;
    if (key === undefined || value === undefined) out.push({ field, rule: 'utf8' });
    else {
      const rule = textProblem(key) ?? textProblem(value);
      if (rule) out.push({ field, rule });
    }
  }
  return out;
}

function requestTextErrors(req: FastifyRequest): FieldError[] {
  const out: FieldError[] = [];
  for (const [name, value] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
    const rule = typeof value === 'string' ? textProblem(value) : undefined;
    // A wildcard (`/files/*`) is the rest of the path.
    if (rule) out.push({ field: name === '*' ? 'path' : `path.${name}`, rule });
  }
  out.push(...queryErrors(req.url));
  for (const [name, value] of Object.entries(req.headers)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) out.push({ field: `header.${name}`, rule: 'nul' });
  }
  return out.slice(0, MAX_ERRORS);
}

function invalid(errors: FieldError[]): DomainError {
  return new DomainError('VALIDATION_ERROR', { errors });
}

/**
 * Installs the checks on `app` (the root instance, before any route): the onRequest hook and the
 * JSON and text/plain parsers. Scopes that replace their parsers (the signed file uploads, whose
 * bodies are bytes) keep the path, query and header checks.
 */
export function registerTextInputChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    const errors = requestTextErrors(req);
    if (errors.length) throw invalid(errors);
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const text = decodeUtf8(body as Buffer);
    if (text === undefined) return done(invalid([{ field: 'body', rule: 'utf8' }]), undefined);
    // The default parser calls back synchronously; what it returns is not a promise to wait for.
    void parseJson(req, text, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      const errors = jsonTextErrors(value);
      if (errors.length) return done(invalid(errors), undefined);
      done(null, value);
    });
  });
  app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_req, body, done) => {
    const text = decodeUtf8(body as Buffer);
    const rule = text === undefined ? 'utf8' : textProblem(text);
    if (rule) return done(invalid([{ field: 'body', rule }]), undefined);
    done(null, text);
  });
}

/**
 * Fastify's `frameworkErrors`: a path the router cannot decode (a `%` escape of invalid UTF-8, such
 * as `/renders/%ff`) or with a parameter over the router's length limit is answered in the API's error
 * format instead of Fastify's own.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', req.id);
  if (err.code === 'FST_ERR_BAD_URL') sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'path', rule: 'utf8' }] });
  else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') sendError(reply, 'VALIDATION_ERROR', { errors: [{ field: 'path', rule: 'maxLength' }] });
  else {
    req.log.error({ err }, 'router fault');
    sendError(reply, 'INTERNAL_ERROR');
  }
}

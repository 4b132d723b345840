import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import { ErrorBody, commonErrorCodes, errorCodesOf, errorResponses } from './schemas/common.js';

export const API_PREFIX = '/api/v1';

/** The tags of the document, one per resource, in the order a reader meets them. */
export const TAGS = [
  { name: 'Workspace', description: 'The workspace the key runs in (a key bound to several names it in `X-Workspace-Id`).' },
  { name: 'Balance', description: 'Credits and their ledger. 1 credit is 1 processed minute of video.' },
  { name: 'Videos', description: 'Uploads and public links, measured and priced before anything is charged.' },
  { name: 'Submissions', description: 'Clipping jobs: a video (or a stretch of it) in, highlight clips out. Poll every 10 to 15 seconds.' },
  { name: 'Edits', description: 'Cutroom’s addition: an edit as a document (kept stretches, words), its versions, and new edits derived from it.' },
  { name: 'Renders', description: 'MP4 files of edits (a clip’s edit, or any older one). Poll every 5 to 10 seconds.' },
  { name: 'Templates', description: 'Caption templates (how clips look) and clipping strategies (how clips are picked).' },
  { name: 'Connections', description: 'Publishing accounts, connected by the operator outside the API.' },
  { name: 'Posts', description: 'Publishing rendered edits to connected accounts, now or on a schedule. Poll every 5 to 10 seconds.' },
  {
    name: 'Transcriptions',
    description: 'Standalone transcription of an audio or video file into timed cues or SRT, VTT and TXT files. Poll every 5 to 10 seconds.',
  },
  {
    name: 'Monitors',
    description:
      'Channel monitors: live broadcasts clipped in batches while they air, new uploads turned into submissions; docs/monitors.md. Poll every 5 to 10 seconds.',
  },
  {
    name: 'Personas',
    description: 'AI personas from trait chips or own-face photos, their versions and presets, and persona videos (swaps) priced per second; docs/personas.md.',
  },
  {
    name: 'Generations',
    description:
      'AI images and videos with the models the service lists (embedded or hosted), priced per image or per second, charged even under free usage and refunded on failure. Poll every 5 to 10 seconds; docs/generations.md.',
  },
  { name: 'Webhooks', description: 'Endpoints that receive signed events (Standard Webhooks) when work finishes, instead of polling; docs/webhooks.md.' },
];

const DESCRIPTION = [
  'Clipping, transcription, persona and generation API. Decisions on what the specification leaves open are listed in docs/api-decisions.md.',
  '',
  'Every call carries the API key in `X-Api-Key` or `Authorization: Bearer`. Errors are always `{ code, extra? }` with no message: switch on `code`. ' +
    '429 answers carry `Retry-After` (seconds); 5xx answers are worth a retry with backoff. Every POST accepts an `Idempotency-Key` header ' +
    '(1 to 255 characters): the same key with the same request answers the first result again (`Idempotent-Replayed: true`), so retries are safe.',
  '',
  'Long work is asynchronous: create the job, then poll it, every 5 to 10 seconds (submissions every 10 to 15).',
].join('\n');

const RETRY_AFTER = { type: 'integer', description: 'Seconds to wait before trying again.' };

/** `{ allOf: [{ $ref }] }` is `{ $ref }`. */
function collapseRefWrappers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(collapseRefWrappers);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && Array.isArray(obj.allOf) && obj.allOf.length === 1) {
    const only = obj.allOf[0] as Record<string, unknown>;
    if (only && typeof only.$ref === 'string' && Object.keys(only).length === 1) return only;
  }
  return Object.fromEntries(keys.map((k) => [k, collapseRefWrappers(obj[k])]));
}

/**
 * The route's schema as the document shows it (never what Fastify validates or serializes with):
 * an answer whose schema has an `$id` becomes a reference to a named component; the error responses
 * gain the codes every operation can answer (`commonErrorCodes`) and refer to `ErrorBody` with `code`
 * narrowed to their codes; a 429 documents `Retry-After`.
 */
function documentedSchema(schema: FastifySchema & { response?: Record<string, unknown> }, method: string): FastifySchema {
  const response: Record<string, unknown> = {};
  const errorCodes: Record<number, string[]> = {};
  for (const [status, entry] of Object.entries(schema.response ?? {})) {
    const codes = errorCodesOf(entry);
    if (codes) {
      errorCodes[Number(status)] = codes;
      continue;
    }
    const s = entry as Record<string, unknown>;
    if (typeof s.$id === 'string') {
      const { 'x-response-description': description, ...inner } = s;
      // Nested schemas with an `$id` become components (refResolver below): wrapping makes this one nested.
      response[status] = { allOf: [inner], 'x-response-description': description ?? inner.description ?? 'OK' };
    } else {
      response[status] = entry;
    }
  }
  const codes = [...Object.values(errorCodes).flat(), ...commonErrorCodes(method)];
  for (const [status, entry] of Object.entries(errorResponses(...codes))) {
    const list = errorCodesOf(entry)!;
    const schema = { allOf: [Type.Ref('ErrorBody'), { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: list } } }] };
    // Errors are JSON whatever the route's success answers are (`produces`).
    const body: Record<string, unknown> = { description: list.join(', '), content: { 'application/json': { schema } } };
    if (Number(status) === 429) body.headers = { 'Retry-After': RETRY_AFTER };
    response[status] = body;
  }
  return { ...schema, response } as FastifySchema;
}

/** `GET /api/v1/openapi.json` (OpenAPI 3.1 of the /api/v1 routes) and the browsable `/api/v1/docs`. */
export async function registerOpenApi(app: FastifyInstance, opts: { serverUrl: string }): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cutroom API',
        version: '1.0.0',
        description: DESCRIPTION,
        // No licence is granted yet (docs/api-decisions.md).
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: opts.serverUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          Bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ ApiKey: [] }, { Bearer: [] }],
    },
    refResolver: { clone: true, buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
    transform: ({ schema, url, route }) => {
      if (!schema || !url.startsWith(`${API_PREFIX}/`)) return { schema, url };
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      return { schema: documentedSchema(schema as FastifySchema & { response?: Record<string, unknown> }, method), url };
    },
    transformObject: (doc) => collapseRefWrappers('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs` });
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}

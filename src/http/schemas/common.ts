import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS } from '../errors.js';

/** The error body of every answer (spec: Errors). In the OpenAPI document each error response narrows `code` to the codes it can carry. */
export const ErrorBody = Type.Object(
  {
    code: Type.String({ description: 'Stable, uppercase, from a closed set: switch on it. There is never a human-readable message.' }),
    extra: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'Present only when something can be acted on; its fields depend on the code (docs/api-decisions.md, "Error extras"). ' +
            'VALIDATION_ERROR: `errors`, a list of `{ field, rule, allowed? }` (`allowed`: the values a field with a fixed set takes); ' +
            'VIDEO_TOO_SHORT / VIDEO_TOO_LONG: `duration`, `min_duration`, `max_duration` (seconds); ' +
            'INVALID_URL: `reason`, the rule that refused the link (`private_address`, `scheme`, `unsupported_host`, …); FILE_TOO_LARGE: `max_size`.',
        },
      ),
    ),
  },
  { $id: 'ErrorBody', additionalProperties: false },
);

export const IsoDate = Type.String({ format: 'date-time' });
export const NullableIsoDate = Type.Union([IsoDate, Type.Null()]);

/** An error response answering `codes` (all of one status): the `{ code, extra }` body with `code` narrowed to them. */
function errorResponse(codes: string[]): TSchema {
  return Type.Object(
    {
      code: Type.Unsafe<string>({ type: 'string', enum: codes }),
      extra: Type.Optional(Type.Object({}, { additionalProperties: true })),
    },
    { additionalProperties: false, description: codes.join(', ') },
  );
}

/** Response entries for the error codes a route can answer, grouped by status. */
export function errorResponses(...codes: string[]): Record<number, TSchema> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    if (status === undefined) throw new Error(`unknown error code ${code}`);
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) out[status] = errorResponse(list);
  return out;
}

/** The codes of an error response made by `errorResponses`; undefined for any other schema. */
export function errorCodesOf(schema: unknown): string[] | undefined {
  const code = (schema as { properties?: { code?: { enum?: unknown } } } | null)?.properties?.code;
  return Array.isArray(code?.enum) ? (code.enum as string[]) : undefined;
}

/**
 * Codes every /api/v1 operation can answer whatever it does, by method; a route's schema lists only
 * its own and the OpenAPI document adds these (src/http/openapi.ts). Input checks, the key, the
 * workspace and the rate limit run before any handler, a server fault can happen anywhere; a method
 * Fastify reads a body for can exceed the body limit; a POST may carry an Idempotency-Key.
 */
export function commonErrorCodes(method: string): string[] {
  const codes = ['VALIDATION_ERROR', 'MISSING_WORKSPACE_ID', 'UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'];
  if (method !== 'GET' && method !== 'HEAD') codes.push('FILE_TOO_LARGE');
  if (method === 'POST') codes.push('REQUEST_IN_PROGRESS');
  return codes;
}

/** `schema` as the answer of a route, described for the OpenAPI document (the schema itself is unchanged). */
export function answer<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, 'x-response-description': description };
}

/** The 204 answer of a route that answers no body (`reply.code(204).send()`). */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'Done; no body.' });

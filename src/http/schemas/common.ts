import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS } from '../errors.js';

export const ErrorBody = Type.Object(
  {
    code: Type.String(),
    extra: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'ErrorBody', additionalProperties: false },
);

export const IsoDate = Type.String({ format: 'date-time' });
export const NullableIsoDate = Type.Union([IsoDate, Type.Null()]);

/** Response entries for the error codes a route can answer, grouped by status, for the OpenAPI document. */
export function errorResponses(...codes: string[]): Record<number, TSchema> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    if (status === undefined) throw new Error(`unknown error code ${code}`);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    out[status] = Type.Ref('ErrorBody', { description: list.join(', ') });
  }
  return out;
}

/** Codes every authenticated /api/v1 route can answer. */
export const AUTH_ERRORS = ['VALIDATION_ERROR', 'MISSING_WORKSPACE_ID', 'UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED'] as const;

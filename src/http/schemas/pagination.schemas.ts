import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../domain/pagination.js';

/** Query schema every list accepts. */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
});
export type PageQuery = Static<typeof PageQuery>;

/** The `pagination` object of every list answer (src/domain/pagination.ts builds it). */
export const PaginationSchema = Type.Object(
  {
    current_page: Type.Integer(),
    total_pages: Type.Integer(),
    total_count: Type.Integer(),
    has_next_page: Type.Boolean(),
  },
  { $id: 'Pagination' },
);

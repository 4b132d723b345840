import { Type, type Static } from '@sinclair/typebox';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Query schema every list accepts. */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
});
export type PageQuery = Static<typeof PageQuery>;

export const PaginationSchema = Type.Object({
  current_page: Type.Integer(),
  total_pages: Type.Integer(),
  total_count: Type.Integer(),
  has_next_page: Type.Boolean(),
});

export interface Pagination {
  current_page: number;
  total_pages: number;
  total_count: number;
  has_next_page: boolean;
}

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(q: { page?: number; limit?: number }): PageRequest {
  const page = q.page ?? 1;
  const limit = q.limit ?? DEFAULT_LIMIT;
  return { page, limit, offset: (page - 1) * limit };
}

export function pagination(totalCount: number, req: { page: number; limit: number }): Pagination {
  const totalPages = Math.ceil(totalCount / req.limit);
  return {
    current_page: req.page,
    total_pages: totalPages,
    total_count: totalCount,
    has_next_page: req.page < totalPages,
  };
}

/** `{ <resource>: items, pagination }`, the spec's list shape. */
export function listResponse<K extends string, T>(key: K, items: T[], total: number, req: PageRequest) {
  return { [key]: items, pagination: pagination(total, req) } as { [P in K]: T[] } & { pagination: Pagination };
}

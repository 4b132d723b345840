/** Paging of every list: the page asked, the `pagination` object answered (TypeBox schemas: src/http/schemas/pagination.schemas.ts). */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

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

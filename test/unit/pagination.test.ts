import { describe, expect, it } from 'vitest';
import { listResponse, pageRequest, pagination } from '../../src/domain/pagination.js';

describe('pagination', () => {
  it('defaults to page 1 of 20', () => {
    expect(pageRequest({})).toEqual({ page: 1, limit: 20, offset: 0 });
    expect(pageRequest({ page: 3, limit: 10 })).toEqual({ page: 3, limit: 10, offset: 20 });
  });

  it('counts pages and says whether another follows', () => {
    expect(pagination(0, { page: 1, limit: 20 })).toEqual({ current_page: 1, total_pages: 0, total_count: 0, has_next_page: false });
    expect(pagination(41, { page: 2, limit: 20 })).toEqual({ current_page: 2, total_pages: 3, total_count: 41, has_next_page: true });
    expect(pagination(40, { page: 2, limit: 20 })).toEqual({ current_page: 2, total_pages: 2, total_count: 40, has_next_page: false });
    expect(pagination(5, { page: 9, limit: 20 }).has_next_page).toBe(false);
  });

  it('wraps items under the resource name', () => {
    const r = listResponse('clips', [1, 2], 2, pageRequest({}));
    expect(r).toEqual({ clips: [1, 2], pagination: { current_page: 1, total_pages: 1, total_count: 2, has_next_page: false } });
  });
});

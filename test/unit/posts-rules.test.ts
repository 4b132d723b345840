import { describe, expect, it } from 'vitest';
import { derivePostStatus, notYetDue, retryDelayMs, utcDay } from '../../src/domain/publishing/posts.rules.js';

describe('post rules', () => {
  it('derives the post status from its items', () => {
    expect(derivePostStatus(['pending', 'pending'], false, 'pending')).toBe('pending');
    expect(derivePostStatus(['pending', 'pending'], true, 'failed')).toBe('processing'); // a retry of a started post
    expect(derivePostStatus(['processing', 'pending'], true, 'pending')).toBe('processing');
    expect(derivePostStatus(['published', 'pending'], true, 'partial')).toBe('processing');
    expect(derivePostStatus(['published', 'published'], true, 'processing')).toBe('completed');
    expect(derivePostStatus(['published', 'failed'], true, 'processing')).toBe('partial');
    expect(derivePostStatus(['failed', 'failed'], true, 'processing')).toBe('failed');
    expect(derivePostStatus([], true, 'completed')).toBe('completed');
  });

  it('the UTC day of an instant', () => {
    const { start, end } = utcDay(new Date('2026-03-04T23:59:59.999Z'));
    expect(start.toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(utcDay(new Date('2026-03-05T00:00:00.000Z')).start.toISOString()).toBe('2026-03-05T00:00:00.000Z');
  });

  it('retry delays double from the base, honour Retry-After, stop at one hour', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(1, 30_000, 90)).toBe(90_000);
    expect(retryDelayMs(20, 30_000)).toBe(3600_000);
  });

  it('a pending item is due within a second of its schedule', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(notYetDue(null, now)).toBe(false);
    expect(notYetDue(new Date('2026-01-01T00:00:00.900Z'), now)).toBe(false);
    expect(notYetDue(new Date('2026-01-01T00:00:05Z'), now)).toBe(true);
  });
});

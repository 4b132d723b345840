import { describe, expect, it } from 'vitest';
import { creditsForSeconds, freeUsageUntil, isFreeUsageActive } from '../../src/domain/credits/credits.rules.js';

describe('credit rules', () => {
  it('charges one credit per started minute', () => {
    expect(creditsForSeconds(0)).toBe(0);
    expect(creditsForSeconds(1)).toBe(1);
    expect(creditsForSeconds(60)).toBe(1);
    expect(creditsForSeconds(61)).toBe(2);
    expect(creditsForSeconds(600)).toBe(10);
    expect(creditsForSeconds(10800)).toBe(180);
  });

  it('applies the discount before rounding up', () => {
    expect(creditsForSeconds(600, 50)).toBe(5);
    expect(creditsForSeconds(610, 50)).toBe(6);
    expect(creditsForSeconds(600, 10)).toBe(9);
    expect(creditsForSeconds(30, 90)).toBe(1);
    expect(creditsForSeconds(600, 100)).toBe(0);
  });

  it('keeps free usage on until the window ends', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(isFreeUsageActive({ unlimited: false, unlimitedUntil: null }, now)).toBe(false);
    expect(isFreeUsageActive({ unlimited: true, unlimitedUntil: null }, now)).toBe(true);
    expect(isFreeUsageActive({ unlimited: true, unlimitedUntil: new Date('2026-01-02T00:00:00Z') }, now)).toBe(true);
    expect(isFreeUsageActive({ unlimited: true, unlimitedUntil: new Date('2025-12-31T23:59:59Z') }, now)).toBe(false);
    expect(freeUsageUntil({ unlimited: true, unlimitedUntil: new Date('2025-12-31T00:00:00Z') }, now)).toBeNull();
    expect(freeUsageUntil({ unlimited: true, unlimitedUntil: new Date('2026-02-01T00:00:00Z') }, now)?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });
});

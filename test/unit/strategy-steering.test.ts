import { describe, expect, it } from 'vitest';
import { checkStrategyConfig } from '../../src/domain/templates/templates.rules.js';
import { steeredStrategy } from '../../src/domain/highlights/steering.js';

describe('a strategy’s prompt and keywords', () => {
  it('are checked as POST /clips checks them, and kept trimmed', () => {
    expect(checkStrategyConfig({ max_clips: 3, prompt: ' the  pricing ', keywords: ['fee', 'FEE', 'cost'] })).toEqual({
      ok: true,
      config: { min_seconds: 20, max_seconds: 60, max_clips: 3, prompt: 'the pricing', keywords: ['fee', 'cost'] },
    });
    expect(checkStrategyConfig({ prompt: 'x'.repeat(501), keywords: 'fee' })).toEqual({
      ok: false,
      errors: [
        { field: 'config.prompt', rule: 'maxLength' },
        { field: 'config.keywords', rule: 'maxItems' },
      ],
    });
  });

  it('a submission’s clip_length replaces the strategy’s range, its clip count stays', () => {
    expect(steeredStrategy({ min_seconds: 20, max_seconds: 60, max_clips: 4 }, { clip_length: { min: 30, max: 45 } })).toEqual({
      min_seconds: 30,
      max_seconds: 45,
      max_clips: 4,
    });
    expect(steeredStrategy({ min_seconds: 20, max_seconds: 60, max_clips: 4 }, null)).toEqual({ min_seconds: 20, max_seconds: 60, max_clips: 4 });
  });
});

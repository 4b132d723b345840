import { describe, expect, it } from 'vitest';
import { checkAsk, embeddedModelRows, modelFromPut, modelView, parseBackground, unitsOf } from '../../src/domain/generations/generations.rules.js';

const video = embeddedModelRows().find((m) => m.id === 'camera-motion')!;
const model = { ...video, createdAt: new Date(0), updatedAt: new Date(0) };

describe('checkAsk', () => {
  it('fills defaults and answers the seconds charged for a video', () => {
    expect(checkAsk(model, { image_ids: ['a'], options: { duration: 3 } })).toEqual({
      options: { duration: 3, motion: 'push_in', aspect_ratio: '16:9', resolution: '720p' },
      seconds: 3,
    });
    expect(checkAsk(model, { image_ids: ['a'] }).seconds).toBe(5);
  });

  it('names every wrong field at once', () => {
    try {
      checkAsk(model, { prompt: 'x', image_ids: [], options: { duration: 0.5, motion: 'spin', colour: 'red' } });
      expect.unreachable();
    } catch (err: any) {
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.extra.errors).toEqual([
        { field: 'prompt', rule: 'not_accepted' },
        { field: 'image_ids', rule: 'min_items' },
        { field: 'options.duration', rule: 'minimum' },
        { field: 'options.motion', rule: 'enum', allowed: ['push_in', 'zoom_in', 'zoom_out', 'pan_left', 'pan_right'] },
        { field: 'options.colour', rule: 'unknown' },
      ]);
    }
  });
});

describe('modelFromPut', () => {
  it('gives a hosted video model a duration option within max_seconds', () => {
    const row = modelFromPut(
      'v',
      {
        name: 'V',
        kind: 'video',
        provider: 'fal',
        provider_model: 'a/b',
        price: { per_second: 2 },
        max_seconds: 8,
        options: { duration: { type: 'integer', minimum: 5, maximum: 10, default: 5 } },
      },
      'sealed',
    );
    expect(row.options).toEqual({ duration: { type: 'integer', minimum: 5, maximum: 8, default: 5 } });
    expect(row).toMatchObject({
      pricePerSecond: 2,
      pricePerImage: null,
      maxSeconds: 8,
      apiKeySealed: 'sealed',
      inputs: { prompt: 'optional', image_ids: { min: 0, max: 1 } },
    });
    expect(modelView({ ...row, createdAt: new Date(), updatedAt: new Date() })).toMatchObject({ engine: 'fal', price: { per_second: 2 }, max_seconds: 8 });
  });

  it('accepts a duration a provider takes as text, when every allowed value is a number of seconds within max_seconds', () => {
    const put = {
      name: 'Kling',
      kind: 'video' as const,
      provider: 'fal' as const,
      provider_model: 'fal-ai/kling-video/v2/image-to-video',
      price: { per_second: 5 },
      max_seconds: 10,
    };
    const row = modelFromPut('kling', { ...put, options: { duration: { type: 'string', values: ['5', '10'], default: '5' } } }, null);
    const m = { ...row, createdAt: new Date(), updatedAt: new Date() };
    expect(checkAsk(m, { options: { duration: '10' } })).toEqual({ options: { duration: '10' }, seconds: 10 });
    expect(checkAsk(m, {}).seconds).toBe(5);
    expect(() => checkAsk(m, { options: { duration: '7' } })).toThrow('VALIDATION_ERROR');
    expect(() => modelFromPut('kling', { ...put, options: { duration: { type: 'string', values: ['5', '20'] } } }, null)).toThrow('VALIDATION_ERROR');
    expect(() => modelFromPut('kling', { ...put, options: { duration: { type: 'string', values: ['short'] } } }, null)).toThrow('VALIDATION_ERROR');
  });

  it('keeps an embedded engine’s inputs and options, caps its max_seconds at 30 and refuses keys', () => {
    const row = modelFromPut(
      'camera-motion',
      {
        name: 'Moves',
        kind: 'video',
        provider: 'embedded',
        provider_model: 'camera-motion',
        price: { per_second: 3 },
        max_seconds: 90,
        inputs: { prompt: 'required', image_ids: { min: 0, max: 9 } },
      },
      null,
    );
    expect(row.inputs).toEqual({ prompt: 'none', image_ids: { min: 1, max: 1 } });
    expect(row.maxSeconds).toBe(30);
    expect((row.options as any).duration.maximum).toBe(30);
    expect(() =>
      modelFromPut('x', { name: 'X', kind: 'image', provider: 'embedded', provider_model: 'cutout', price: { per_image: 1 }, api_key: 'k' }, null),
    ).toThrow('VALIDATION_ERROR');
  });
});

describe('prices and colours', () => {
  it('charges one image or the seconds', () => {
    expect(unitsOf({ kind: 'image', pricePerImage: 4, pricePerSecond: null }, null)).toEqual({ unitPrice: 4, units: 1 });
    expect(unitsOf({ kind: 'video', pricePerImage: null, pricePerSecond: 1.5 }, 6)).toEqual({ unitPrice: 1.5, units: 6 });
  });

  it('reads #rrggbb', () => {
    expect(parseBackground('#ff8000')).toEqual([255, 128, 0]);
    expect(parseBackground('transparent')).toBeNull();
  });
});

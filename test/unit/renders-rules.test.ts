import { describe, expect, it } from 'vitest';
import {
  ProgressThrottle,
  effectiveStatus,
  expiryFrom,
  isPermanentRenderFailure,
  renderErrorCode,
  renderCacheKey,
  renderFileName,
  renderQuality,
  renderStorageKey,
} from '../../src/domain/renders/renders.rules.js';
import { rebuildEdit } from '../../src/domain/clips/clip-edits.service.js';
import { buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { editHash } from '../../src/domain/edits/edit.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { DomainError } from '../../src/domain/errors.js';

describe('render rules', () => {
  it('a completed render past expires_at shows as expired', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(effectiveStatus({ status: 'completed', expiresAt: new Date('2026-01-01T12:00:01Z') }, now)).toBe('completed');
    expect(effectiveStatus({ status: 'completed', expiresAt: now }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'active', expiresAt: null }, now)).toBe('active');
    expect(effectiveStatus({ status: 'failed', expiresAt: null }, now)).toBe('failed');
  });

  it('retention in hours, fractions allowed', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    expect(expiryFrom(t, 72).toISOString()).toBe('2026-01-04T00:00:00.000Z');
    expect(expiryFrom(t, 0.0003).getTime() - t.getTime()).toBe(1080);
  });

  it('file names and keys', () => {
    expect(renderFileName('Big moment! — café', 'rnd_1')).toBe('Big-moment-cafe.mp4');
    expect(renderFileName('', 'rnd_1')).toBe('render-rnd_1.mp4');
    expect(renderFileName(null, 'rnd_2')).toBe('render-rnd_2.mp4');
    expect(renderFileName('x'.repeat(200), 'r')).toBe(`${'x'.repeat(60)}.mp4`);
    expect(renderStorageKey('ws_a', 'rnd_b')).toBe('renders/ws_a/rnd_b.mp4');
  });

  it('failure codes: engine codes, domain codes, anything else; permanent ones are not retried', () => {
    expect(renderErrorCode(Object.assign(new Error('x'), { error_code: 'RENDER_FFMPEG_FAILED' }))).toBe('RENDER_FFMPEG_FAILED');
    expect(renderErrorCode(new DomainError('FILE_NOT_FOUND'))).toBe('SOURCE_NOT_FOUND');
    expect(renderErrorCode(new Error('boom'))).toBe('RENDER_FAILED');
    expect(renderErrorCode(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('STORAGE_FAILED');
    expect(isPermanentRenderFailure('SOURCE_NOT_FOUND')).toBe(true);
    expect(isPermanentRenderFailure('RENDER_FONT_MISSING')).toBe(true);
    expect(isPermanentRenderFailure('RENDER_FFMPEG_FAILED')).toBe(false);
  });

  it('progress: increasing, at most once a second unless 5 points moved, 100 left to completion', () => {
    const th = new ProgressThrottle();
    expect(th.next(0, 0)).toBe(0);
    expect(th.next(2, 100)).toBeNull();
    expect(th.next(5, 200)).toBe(5);
    expect(th.next(4, 5000)).toBeNull();
    expect(th.next(6, 300)).toBeNull();
    expect(th.next(6, 1300)).toBe(6);
    expect(th.next(100, 1400)).toBe(99);
    expect(th.next(100, 9999)).toBeNull();
  });
});

describe('rebuildEdit (apply_template)', () => {
  const pop = getBuiltinTemplate('bold-pop')!;
  const clean = getBuiltinTemplate('clean')!;
  const source = { key: 'videos/ws/v/source.mp4', duration: 60, width: 1920, height: 1080 };
  const path = [
    { t: 0, x: 100, y: 0, w: 606, h: 1080 },
    { t: 20, x: 700, y: 0, w: 606, h: 1080 },
  ];
  const words = [
    { start: 10.2, end: 10.5, text: 'hello' },
    { start: 10.6, end: 11, text: 'there' },
  ];
  const prev = buildClipEdit({
    source,
    start: 10,
    end: 12,
    words,
    cropPath9x16: path,
    template: { captions: pop.captions, layout: pop.layout },
    watermark: true,
  });

  it('keeps source, times, words, crop path and watermark; takes the template’s captions and layout', () => {
    const next = rebuildEdit(prev, { captions: clean.captions, layout: clean.layout });
    expect(next.in).toBe(10);
    expect(next.out).toBe(12);
    expect(next.source).toEqual(source);
    expect(next.watermark).toBe(true);
    expect(next.captions?.words).toEqual(prev.captions?.words);
    expect(next.captions?.style).toEqual(clean.captions);
    // The previous edit's source-time path, sliced again, is the same path.
    expect(next.layout.cropPath).toEqual(prev.layout.cropPath);
    expect(editHash(next)).not.toBe(editHash(prev));
    // The source's full path (from the analysis) gives the same result.
    expect(rebuildEdit(prev, { captions: clean.captions, layout: clean.layout }, path).layout.cropPath).toEqual(prev.layout.cropPath);
    // The same template gives the same edit.
    expect(editHash(rebuildEdit(prev, { captions: pop.captions, layout: pop.layout }))).toBe(editHash(prev));
  });

  it('a layout without a crop path (fit) drops it', () => {
    const karaoke = getBuiltinTemplate('karaoke')!;
    const next = rebuildEdit(prev, { captions: karaoke.captions, layout: karaoke.layout });
    expect(next.layout).toEqual({ aspect: '9:16', reframe: 'fit' });
  });
});

describe('render quality and the cache key', () => {
  const hash = 'a'.repeat(64);
  it('a final render keeps the edit hash as its key; a preview has its own', () => {
    expect(renderCacheKey(hash, 'final')).toBe(hash);
    const p = renderCacheKey(hash, 'preview');
    expect(p).toMatch(/^[0-9a-f]{64}$/);
    expect(p).not.toBe(hash);
    expect(renderCacheKey(hash, 'preview')).toBe(p);
    expect(renderCacheKey('b'.repeat(64), 'preview')).not.toBe(p);
  });
  it('a row at 360p is a preview', () => {
    expect(renderQuality({ outputResolution: '360p' })).toBe('preview');
    expect(renderQuality({ outputResolution: '720p' })).toBe('final');
    expect(renderQuality({ outputResolution: '1080p' })).toBe('final');
  });
});

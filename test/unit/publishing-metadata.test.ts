import { describe, expect, it } from 'vitest';
import {
  applyMetadataDefaults,
  countHashtags,
  countMentions,
  knownMetadataKeys,
  networkMetadata,
  validateMetadata,
  validateTargetMetadata,
  youtubeTagsLength,
} from '../../src/domain/publishing/metadata.rules.js';

const field = (platform: string, md: unknown) => validateMetadata(platform, md)?.field ?? null;

describe('local metadata', () => {
  it('needs a title of at most 100 characters; caption optional up to 2200', () => {
    expect(field('local', { title: 'Clip' })).toBeNull();
    expect(field('local', { title: 'Clip', caption: 'c'.repeat(2200) })).toBeNull();
    expect(field('local', {})).toBe('local.title');
    expect(field('local', { title: '   ' })).toBe('local.title');
    expect(field('local', { title: 't'.repeat(101) })).toBe('local.title');
    expect(field('local', { title: 5 })).toBe('local.title');
    expect(field('local', { title: 'ok', caption: 'c'.repeat(2201) })).toBe('local.caption');
    expect(field('local', { title: 'ok', caption: null })).toBe('local.caption');
  });

  it('accepts unknown keys untouched', () => {
    expect(field('local', { title: 'ok', someFlag: { nested: true } })).toBeNull();
  });
});

describe('youtube metadata', () => {
  const ok = { title: 'My clip' };

  it('title is required, at most 100 characters, without < or >', () => {
    expect(field('youtube', ok)).toBeNull();
    expect(field('youtube', {})).toBe('youtube.title');
    expect(field('youtube', { title: 'x'.repeat(100) })).toBeNull();
    expect(field('youtube', { title: 'x'.repeat(101) })).toBe('youtube.title');
    expect(field('youtube', { title: 'a <b> c' })).toBe('youtube.title');
    expect(field('youtube', { title: '' })).toBe('youtube.title');
  });

  it('description is at most 5000 UTF-8 bytes without < or >', () => {
    expect(field('youtube', { ...ok, description: 'd'.repeat(5000) })).toBeNull();
    expect(field('youtube', { ...ok, description: 'd'.repeat(5001) })).toBe('youtube.description');
    expect(field('youtube', { ...ok, description: 'é'.repeat(2501) })).toBe('youtube.description'); // 5002 bytes
    expect(field('youtube', { ...ok, description: 'a > b' })).toBe('youtube.description');
  });

  it('privacyStatus, categoryId, madeForKids and the status options', () => {
    for (const p of ['public', 'unlisted', 'private']) expect(field('youtube', { ...ok, privacyStatus: p })).toBeNull();
    expect(field('youtube', { ...ok, privacyStatus: 'Public' })).toBe('youtube.privacyStatus');
    expect(field('youtube', { ...ok, categoryId: '22' })).toBeNull();
    expect(field('youtube', { ...ok, categoryId: 22 })).toBe('youtube.categoryId');
    expect(field('youtube', { ...ok, categoryId: 'gaming' })).toBe('youtube.categoryId');
    expect(field('youtube', { ...ok, madeForKids: false })).toBeNull();
    expect(field('youtube', { ...ok, madeForKids: 'no' })).toBe('youtube.madeForKids');
    expect(field('youtube', { ...ok, license: 'creativeCommon', embeddable: true, defaultLanguage: 'pt-BR' })).toBeNull();
    expect(field('youtube', { ...ok, license: 'cc' })).toBe('youtube.license');
    expect(field('youtube', { ...ok, publishAt: '2030-01-01T10:00:00Z' })).toBeNull();
    expect(field('youtube', { ...ok, publishAt: '2030-01-01T10:00:00Z', privacyStatus: 'public' })).toBe('youtube.publishAt');
    expect(field('youtube', { ...ok, publishAt: 'tomorrow' })).toBe('youtube.publishAt');
  });

  it('tags: strings, at most 500 characters counted like YouTube', () => {
    expect(youtubeTagsLength(['a', 'b c'])).toBe(1 + 1 + 5);
    expect(field('youtube', { ...ok, tags: ['clips', 'funny moments'] })).toBeNull();
    expect(field('youtube', { ...ok, tags: 'clips' })).toBe('youtube.tags');
    expect(field('youtube', { ...ok, tags: ['ok', 3] })).toBe('youtube.tags');
    expect(field('youtube', { ...ok, tags: ['a<b'] })).toBe('youtube.tags');
    const fifty = Array.from({ length: 50 }, (_, i) => `tag${String(i).padStart(5, '0')}`); // 50 × 8 + 49 commas = 449
    expect(field('youtube', { ...ok, tags: fifty })).toBeNull();
    expect(field('youtube', { ...ok, tags: [...fifty, 'x'.repeat(50)] })).toBeNull(); // 449 + 1 + 50 = 500
    expect(field('youtube', { ...ok, tags: [...fifty, 'x'.repeat(51)] })).toBe('youtube.tags');
    expect(field('youtube', { ...ok, tags: [...fifty, 'x'.repeat(24) + ' ' + 'y'.repeat(24)] })).toBe('youtube.tags'); // 49 + 2 quotes + 1 comma: 501
  });

  it('reports the first failing field in rule order', () => {
    expect(field('youtube', { title: '', privacyStatus: 'nope' })).toBe('youtube.title');
    expect(field('youtube', { title: 'ok', privacyStatus: 'nope', categoryId: 'x' })).toBe('youtube.privacyStatus');
  });
});

describe('tiktok metadata', () => {
  it('privacyLevel is required and one of the four levels', () => {
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY' })).toBeNull();
    expect(field('tiktok', { privacyLevel: 'PUBLIC_TO_EVERYONE', title: 'x'.repeat(2200) })).toBeNull();
    expect(field('tiktok', {})).toBe('tiktok.privacyLevel');
    expect(field('tiktok', { privacyLevel: 'PUBLIC' })).toBe('tiktok.privacyLevel');
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY', title: 'x'.repeat(2201) })).toBe('tiktok.title');
  });

  it('disable flags are booleans; cover timestamp a non-negative integer', () => {
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY', disableComment: true, disableDuet: false, disableStitch: true })).toBeNull();
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY', disableDuet: 'yes' })).toBe('tiktok.disableDuet');
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY', videoCoverTimestampMs: 1500 })).toBeNull();
    expect(field('tiktok', { privacyLevel: 'SELF_ONLY', videoCoverTimestampMs: -1 })).toBe('tiktok.videoCoverTimestampMs');
  });
});

describe('instagram metadata', () => {
  it('caption ≤ 2200 characters, ≤ 30 hashtags, ≤ 20 mentions; shareToFeed boolean; nothing required', () => {
    expect(field('instagram', {})).toBeNull();
    expect(field('instagram', { caption: 'c'.repeat(2200), shareToFeed: false })).toBeNull();
    expect(field('instagram', { caption: 'c'.repeat(2201) })).toBe('instagram.caption');
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');
    expect(field('instagram', { caption: tags(30) })).toBeNull();
    expect(field('instagram', { caption: tags(31) })).toBe('instagram.caption');
    expect(field('instagram', { caption: Array.from({ length: 21 }, (_, i) => `@user${i}`).join(' ') })).toBe('instagram.caption');
    expect(field('instagram', { shareToFeed: 'true' })).toBe('instagram.shareToFeed');
    expect(field('instagram', { collaborators: ['a', 'b', 'c', 'd'] })).toBe('instagram.collaborators');
    expect(field('instagram', { coverUrl: 'ftp://x' })).toBe('instagram.coverUrl');
  });

  it('counts hashtags and mentions like words, not every # or @', () => {
    expect(countHashtags('#one two#notatag #três ## # #4ever https://x.y/#anchor')).toBe(3);
    expect(countMentions('@ana hi @bo.b mail@example.com')).toBe(2);
  });
});

describe('target metadata keyed by network', () => {
  it('validates only the entry of the target network; other networks are ignored', () => {
    expect(validateTargetMetadata('youtube', { youtube: { title: 'ok' }, tiktok: { privacyLevel: 'bogus' } })).toBeNull();
    expect(validateTargetMetadata('tiktok', { youtube: { title: 'ok' }, tiktok: { privacyLevel: 'bogus' } })).toEqual({ field: 'tiktok.privacyLevel' });
  });

  it('absent metadata or entry counts as {}; a non-object is refused', () => {
    expect(validateTargetMetadata('youtube', undefined)).toEqual({ field: 'youtube.title' });
    expect(validateTargetMetadata('instagram', {})).toBeNull();
    expect(validateTargetMetadata('youtube', 'title')).toEqual({ field: 'metadata' });
    expect(validateTargetMetadata('youtube', { youtube: ['x'] })).toEqual({ field: 'youtube' });
    expect(validateTargetMetadata('myspace', { myspace: {} })).toEqual({ field: 'myspace' });
  });

  it('networkMetadata picks the entry; defaults are shown on top of the untouched keys', () => {
    const md = { youtube: { title: 'ok', customKey: 1 } };
    expect(networkMetadata('youtube', md)).toEqual({ title: 'ok', customKey: 1 });
    expect(networkMetadata('tiktok', md)).toEqual({});
    expect(applyMetadataDefaults('youtube', { title: 'ok', customKey: 1 })).toEqual({ title: 'ok', customKey: 1, privacyStatus: 'private' });
    expect(applyMetadataDefaults('youtube', { title: 'ok', privacyStatus: 'public' })).toEqual({ title: 'ok', privacyStatus: 'public' });
    expect(applyMetadataDefaults('instagram', {})).toEqual({ shareToFeed: true });
    expect(knownMetadataKeys('tiktok')).toContain('privacyLevel');
  });
});

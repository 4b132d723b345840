import { describe, expect, it } from 'vitest';
import { noSpeechLanguage, pickReusable, reusable, startedMinutes, transcriptionCredits } from '../../src/domain/transcriptions/transcriptions.rules.js';
import { normalizeSourceLanguage } from '../../src/domain/transcriptions/transcriptions.service.js';
import { assertUploadSize, checkMediaDeclaration, checkVideoDeclaration, mediaKindOf } from '../../src/domain/videos/upload.rules.js';
import { DomainError } from '../../src/domain/errors.js';

describe('transcription price', () => {
  it('counts started minutes, at least one', () => {
    expect([0, 0.5, 59.9, 60, 60.001, 120.0000001, 600].map(startedMinutes)).toEqual([1, 1, 1, 1, 2, 2, 10]);
  });

  it('adds the speaker-labels surcharge per minute', () => {
    const prices = { transcriptionCreditsPerMinute: 3, speakerLabelsCreditsPerMinute: 2 };
    expect(transcriptionCredits(150, prices, false)).toBe(9);
    expect(transcriptionCredits(150, prices, true)).toBe(15);
    expect(transcriptionCredits(150, { transcriptionCreditsPerMinute: 0, speakerLabelsCreditsPerMinute: 0 }, true)).toBe(0);
  });
});

describe('transcription cache', () => {
  const ready = (speakerLabels: boolean, language = 'en', sourceLanguage = 'auto') => ({ status: 'ready', speakerLabels, language, sourceLanguage });

  it('labels must be there when asked; a labelled result serves an unlabelled ask', () => {
    expect(reusable(ready(false), { speakerLabels: true, sourceLanguage: 'auto' })).toBe(false);
    expect(reusable(ready(true), { speakerLabels: false, sourceLanguage: 'auto' })).toBe(true);
    expect(reusable(ready(true), { speakerLabels: true, sourceLanguage: 'auto' })).toBe(true);
  });

  it('labels counted for a given number of speakers serve only that number, and estimates only estimates', () => {
    const two = { ...ready(true), speakersExpected: 2 };
    expect(reusable(two, { speakerLabels: true, speakersExpected: 2, sourceLanguage: 'auto' })).toBe(true);
    expect(reusable(two, { speakerLabels: true, speakersExpected: 3, sourceLanguage: 'auto' })).toBe(false);
    expect(reusable(two, { speakerLabels: true, sourceLanguage: 'auto' })).toBe(false);
    expect(reusable(ready(true), { speakerLabels: true, speakersExpected: 2, sourceLanguage: 'auto' })).toBe(false);
    // Without labels asked, any ready result serves.
    expect(reusable(two, { speakerLabels: false, sourceLanguage: 'auto' })).toBe(true);
  });

  it('a language asked must be the one transcribed (or asked, while processing)', () => {
    expect(reusable(ready(false, 'en'), { speakerLabels: false, sourceLanguage: 'en' })).toBe(true);
    expect(reusable(ready(false, 'en'), { speakerLabels: false, sourceLanguage: 'de' })).toBe(false);
    const running = { status: 'processing', speakerLabels: false, language: null, sourceLanguage: 'auto' };
    expect(reusable(running, { speakerLabels: false, sourceLanguage: 'auto' })).toBe(true);
    expect(reusable(running, { speakerLabels: false, sourceLanguage: 'en' })).toBe(false);
    expect(reusable({ ...running, sourceLanguage: 'en' }, { speakerLabels: false, sourceLanguage: 'en' })).toBe(true);
  });

  it('no_speech serves anything; failed serves nothing', () => {
    expect(reusable({ status: 'no_speech', speakerLabels: false, language: null, sourceLanguage: 'auto' }, { speakerLabels: true, sourceLanguage: 'en' })).toBe(
      true,
    );
    expect(reusable({ status: 'failed', speakerLabels: true, language: null, sourceLanguage: 'auto' }, { speakerLabels: false, sourceLanguage: 'auto' })).toBe(
      false,
    );
  });

  it('prefers ready with the same labels, then labelled, then no_speech, then processing; newest first', () => {
    const at = (s: number) => new Date(1_700_000_000_000 + s * 1000);
    const rows = [
      { id: 'running', status: 'processing', speakerLabels: false, language: null, sourceLanguage: 'auto', createdAt: at(9) },
      { id: 'labelled', ...ready(true), createdAt: at(5) },
      { id: 'plain-old', ...ready(false), createdAt: at(1) },
      { id: 'plain-new', ...ready(false), createdAt: at(2) },
    ];
    expect(pickReusable(rows, { speakerLabels: false, sourceLanguage: 'auto' })?.id).toBe('plain-new');
    expect(pickReusable(rows, { speakerLabels: true, sourceLanguage: 'auto' })?.id).toBe('labelled');
    expect(pickReusable(rows.slice(0, 1), { speakerLabels: false, sourceLanguage: 'auto' })?.id).toBe('running');
    expect(pickReusable(rows.slice(0, 1), { speakerLabels: true, sourceLanguage: 'auto' })).toBeUndefined();
  });

  it('normalises languages', () => {
    expect([undefined, '', 'AUTO', 'en-US', 'pt_BR', 'haw'].map(normalizeSourceLanguage)).toEqual(['auto', 'auto', 'auto', 'en', 'pt', 'haw']);
    expect(noSpeechLanguage('auto')).toBe('und');
    expect(noSpeechLanguage('en')).toBe('en');
  });
});

describe('upload rules', () => {
  it('tells audio from video and checks the content type against the extension', () => {
    expect(mediaKindOf('a.FLAC')).toBe('audio');
    expect(mediaKindOf('a.mkv')).toBe('video');
    expect(mediaKindOf('a.avi')).toBeUndefined();
    expect(checkMediaDeclaration('talk.mp3', 'audio/mpeg')).toEqual([]);
    expect(checkMediaDeclaration('talk.opus', 'audio/ogg; codecs=opus')).toEqual([]);
    expect(checkMediaDeclaration('talk.mp4', 'video/mp4')).toEqual([]);
    expect(checkMediaDeclaration('talk.wav', 'audio/mpeg')).toEqual([
      { field: 'content_type', rule: 'media_type', allowed: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'] },
    ]);
    expect(checkMediaDeclaration('talk.avi', 'video/x-msvideo')).toEqual([
      { field: 'file_name', rule: 'extension', allowed: ['.mp4', '.mov', '.webm', '.mkv', '.mp3', '.wav', '.m4a', '.aac', '.ogg', '.opus', '.flac'] },
    ]);
    // Videos still take only video files.
    expect(checkVideoDeclaration('talk.mp3', 'audio/mpeg')).toEqual([{ field: 'file_name', rule: 'extension', allowed: ['.mp4', '.mov', '.webm', '.mkv'] }]);
  });

  it('FILE_TOO_LARGE carries the ceiling', () => {
    expect(() => assertUploadSize(10, 10)).not.toThrow();
    try {
      assertUploadSize(11, 10);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('FILE_TOO_LARGE');
      expect((err as DomainError).extra).toEqual({ max_size: 10 });
    }
  });
});

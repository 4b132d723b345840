import { describe, expect, it } from 'vitest';
import {
  MIN_HOLD_SECONDS,
  mouthChange,
  talksInTurns,
  voiceSpans,
  withActiveSpeaker,
  type MouthSample,
  type VoiceSpan,
} from '../../src/domain/reframe/active-speaker.js';
import { computeCropPath, cropAt } from '../../src/domain/reframe/crop-path.js';
import { autoShots, buildClipEdit } from '../../src/domain/edits/clip-edit.js';
import { getBuiltinTemplate } from '../../src/domain/edits/caption-styles.js';
import { deriveEdit } from '../../src/domain/edits/edit-changes.js';
import { validateEdit } from '../../src/domain/edits/edit.js';

const SRC = { width: 1920, height: 1080 };
const W = 606;
const LEFT = 0.25;
const RIGHT = 0.75;

function box(cx: number, mouth?: number, size = 0.2) {
  return { x: cx - size / 2, y: 0.3, width: size, height: size * (16 / 9), score: 0.9, ...(mouth !== undefined ? { mouth } : {}) };
}

/**
 * Two faces over `turns` (who speaks in each second: 0 left, 1 right, null nobody): the speaker's
 * mouth moves (0.06), the other's barely (0.004, its still texture and noise).
 */
function talk(turns: Array<0 | 1 | null>): { samples: MouthSample[]; voice: VoiceSpan[] } {
  const samples = turns.map((who, t) => ({ t, boxes: [box(LEFT, who === 0 ? 0.06 : 0.004), box(RIGHT, who === 1 ? 0.06 : 0.004)] }));
  const voice: VoiceSpan[] = [];
  turns.forEach((who, t) => {
    if (who === null) return;
    const last = voice[voice.length - 1];
    // A sample's mouth covers [t - 0.2, t + 0.8).
    if (last && last.end >= t - 0.2) last.end = t + 0.8;
    else voice.push({ start: t - 0.2, end: t + 0.8 });
  });
  return { samples, voice };
}

function holders(samples: ReturnType<typeof withActiveSpeaker>): Array<number | undefined> {
  return samples.map((s) => (s.speaker === undefined ? undefined : s.boxes[s.speaker].x + s.boxes[s.speaker].width / 2 < 0.5 ? 0 : 1));
}

describe('the mouth measurement', () => {
  it('measures the change of the mouth region of the box only', () => {
    const width = 100;
    const height = 100;
    const prev = new Uint8Array(width * height).fill(100);
    const next = Uint8Array.from(prev);
    const b = { x: 0.2, y: 0.2, width: 0.5, height: 0.5 };
    // A dark mouth inside the region (x 0.3..0.6, y 0.48..0.66), and a change above it, on the eyes.
    for (let y = 52; y < 60; y++) for (let x = 35; x < 55; x++) next[y * width + x] = 20;
    for (let y = 25; y < 35; y++) for (let x = 30; x < 60; x++) next[y * width + x] = 250;
    const m = mouthChange(next, prev, width, height, b)!;
    const area = 30 * 18;
    expect(m).toBeCloseTo((8 * 20 * 80) / area / 255, 5);
    expect(mouthChange(prev, prev, width, height, b)).toBe(0);
    expect(mouthChange(next, prev, width, height, { x: 0.5, y: 0.5, width: 0.01, height: 0.01 })).toBeUndefined();
  });
});

describe('withActiveSpeaker', () => {
  it('gives the floor to the moving mouth while a voice is heard, and keeps it through silence', () => {
    const { samples, voice } = talk([0, 0, 0, 0, null, null, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    const out = withActiveSpeaker(samples, voice);
    expect(holders(out)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    // Each change is placed at the voice's onset.
    expect(out.filter((s) => s.speakerSince !== undefined).map((s) => s.speakerSince)).toEqual([5.8, 10.8]);
    expect(talksInTurns(out, { start: 0, end: 15 })).toBe(true);
    expect(talksInTurns(out, { start: 0, end: 5 })).toBe(false);
  });

  it('never hands the floor over for a turn shorter than 1.2 s', () => {
    const { samples, voice } = talk([0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0]);
    const out = withActiveSpeaker(samples, voice);
    expect(holders(out)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0]);
    const changes = out.filter((s) => s.speakerSince !== undefined).map((s) => s.speakerSince!);
    for (let i = 1; i < changes.length; i++) expect(changes[i] - changes[i - 1]).toBeGreaterThanOrEqual(MIN_HOLD_SECONDS);
  });

  it('measures each mouth against its own baseline: a busy but steady mouth does not take the floor', () => {
    // The right face's mouth region always changes a lot (a moving texture), the left one speaks.
    const samples = Array.from({ length: 12 }, (_, t) => ({
      t,
      boxes: [box(LEFT, t >= 2 && t < 10 && t % 4 !== 3 ? 0.05 : 0.003), box(RIGHT, 0.09 + (t % 2) * 0.002)],
    }));
    const voice = [{ start: 1.8, end: 9.8 }];
    expect(holders(withActiveSpeaker(samples, voice)).slice(2, 10)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('follows the diarizer’s labels, matched to the faces by mouth movement', () => {
    // Labels A (left) and B (right); in second 6 both mouths move the same, the label decides.
    const turns: Array<0 | 1> = [0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1];
    const samples = turns.map((who, t) => ({
      t,
      boxes: [box(LEFT, t === 6 ? 0.05 : who === 0 ? 0.06 : 0.004), box(RIGHT, t === 6 ? 0.05 : who === 1 ? 0.06 : 0.004)],
    }));
    const voice = turns.map((who, t) => ({ start: t - 0.2, end: t + 0.8, speaker: who === 0 ? 'A' : 'B' }));
    const out = withActiveSpeaker(samples, voice);
    expect(holders(out)).toEqual(turns);
    // Without the labels, second 6 is undecided and the floor stays (with the right face) until 7.
    const plain = withActiveSpeaker(
      samples,
      voice.map(({ start, end }) => ({ start, end })),
    );
    expect(holders(plain)).toEqual([0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1]);
  });

  it('leaves single faces, shots without mouths and silent shots alone', () => {
    const one = Array.from({ length: 6 }, (_, t) => ({ t, boxes: [box(LEFT, 0.05)] }));
    expect(withActiveSpeaker(one, [{ start: 0, end: 6 }]).some((s) => s.speaker !== undefined)).toBe(false);
    const old = Array.from({ length: 6 }, (_, t) => ({ t, boxes: [box(LEFT), box(RIGHT)] }));
    expect(withActiveSpeaker(old, [{ start: 0, end: 6 }]).some((s) => s.speaker !== undefined)).toBe(false);
    const { samples } = talk([0, 0, 0, 1, 1, 1]);
    expect(withActiveSpeaker(samples, []).some((s) => s.speaker !== undefined)).toBe(false);
  });

  it('starts afresh at a scene cut', () => {
    const { samples, voice } = talk([0, 0, 0, 0, 1, 1, 1, 1]);
    const out = withActiveSpeaker(samples, voice, { sceneCuts: [4] });
    expect(holders(out)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    // No change of floor inside either shot: the cut is the change.
    expect(out.some((s) => s.speakerSince !== undefined)).toBe(false);
  });
});

describe('voiceSpans', () => {
  it('finds the voiced stretches of 100 ms loudness blocks', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => {
      const t = Math.round((i + 1) * 100) / 1000;
      const voiced = (t > 0.5 && t <= 2) || (t > 3 && t <= 5.5);
      return { t, momentary: voiced ? -20 : -65 };
    });
    expect(voiceSpans(blocks)).toEqual([
      { start: 0.5, end: 1.7 },
      { start: 3, end: 5.2 },
    ]);
    expect(voiceSpans([])).toEqual([]);
  });
});

describe('the camera with the active speaker', () => {
  it('eases to the new speaker in 0.5 s from the change, never before it', () => {
    const { samples, voice } = talk([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    const kfs = computeCropPath(withActiveSpeaker(samples, voice), SRC, { duration: 15 });
    const centre = (t: number) => (cropAt(kfs, t).x + W / 2) / SRC.width;
    // The change of floor: the second voice starts at 4.8.
    expect(centre(4.7)).toBeCloseTo(LEFT, 1);
    expect(centre(4.8)).toBeCloseTo(LEFT, 1);
    expect(centre(5.3)).toBeCloseTo(RIGHT, 1);
    expect(centre(9.8)).toBeCloseTo(RIGHT, 1);
    expect(centre(10.3)).toBeCloseTo(LEFT, 1);
    // The same faces without mouths: the camera keeps its first subject.
    const still = samples.map((s) => ({ t: s.t, boxes: s.boxes.map(({ x, y, width, height, score }) => ({ x, y, width, height, score })) }));
    const plain = computeCropPath(still, SRC, { duration: 15 });
    expect(Math.abs((cropAt(plain, 7).x + W / 2) / SRC.width - RIGHT)).toBeGreaterThan(0.2);
  });
});

describe('auto with two faces', () => {
  it('takes the active speaker when they talk in turns, split otherwise or when split is preferred', () => {
    const { samples, voice } = talk([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    const range = { start: 0, end: 14 };
    expect(autoShots({ samples, sceneCuts: [], speech: voice }, SRC, range).map((s) => s.reframe)).toEqual(['speaker']);
    expect(autoShots({ samples, sceneCuts: [], speech: voice }, SRC, range, 'split').map((s) => s.reframe)).toEqual(['split']);
    // Nobody heard, or an analysis without voice stretches: split.
    expect(autoShots({ samples, sceneCuts: [], speech: [] }, SRC, range).map((s) => s.reframe)).toEqual(['split']);
    expect(autoShots({ samples, sceneCuts: [] }, SRC, range).map((s) => s.reframe)).toEqual(['split']);
    // One face talking all along, the other listening: split.
    const one = talk([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(autoShots({ samples: one.samples, sceneCuts: [], speech: one.voice }, SRC, { start: 0, end: 9 }).map((s) => s.reframe)).toEqual(['split']);
  });
});

describe('a template’s two_faces', () => {
  it('chooses split or the active speaker for a new clip, kept in the edit and by later versions', () => {
    const { samples, voice } = talk([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]);
    const tpl = getBuiltinTemplate('bold-pop')!;
    const source = { key: 'k', duration: 15, ...SRC };
    const faces = { samples, sceneCuts: [], speech: voice };
    const make = (twoFaces: 'speaker' | 'split') =>
      buildClipEdit({
        source,
        start: 0,
        end: 14,
        words: [],
        faces,
        template: { captions: tpl.captions, layout: { ...tpl.layout, twoFaces } },
        watermark: false,
      });
    const speaker = make('speaker');
    const split = make('split');
    expect(speaker.layout.shots?.map((s) => s.reframe)).toEqual(['speaker']);
    expect(speaker.layout.twoFaces).toBeUndefined();
    expect(split.layout.shots?.map((s) => s.reframe)).toEqual(['split']);
    expect(split.layout.twoFaces).toBe('split');
    expect(validateEdit(split)).toEqual([]);
    expect(validateEdit({ ...speaker, layout: { ...speaker.layout, reframe: 'speaker', shots: undefined, twoFaces: 'split' } })).toContainEqual({
      field: 'layout.twoFaces',
      rule: 'split, only with reframe auto',
    });
    // A later version keeps the choice; applying a template that prefers the speaker changes it.
    const words = [{ index: 0, start: 1, end: 1.4, text: 'hello', speaker: null }];
    const derive = (base: typeof split, template = tpl, applyTemplate = false) =>
      deriveEdit({ base, words, change: { trim: { start: 0, end: 12 }, snap: false }, template, applyTemplate, maxSeconds: 180, sourceFaces: faces }).spec;
    expect(derive(split).layout.shots?.map((s) => s.reframe)).toEqual(['split']);
    expect(derive(split, { ...tpl, layout: { ...tpl.layout, reframe: 'auto', twoFaces: 'speaker' } }, true).layout.shots?.map((s) => s.reframe)).toEqual([
      'speaker',
    ]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurePitch } from '../../src/adapters/media/pitch.js';
import { punchIns } from '../../src/domain/reframe/punch-in.js';
import { measureLoudness } from '../../src/adapters/media/loudness.js';
import { makeSpeechWav, type SpeechFixture } from '../helpers/speech-fixtures.js';

/**
 * The voice's pitch per second (src/adapters/media/pitch.ts) on real speech: espeak-ng reads plain
 * sentences at a low pitch and one phrase much higher at the same loudness; the high phrase's seconds
 * measure well above the rest, the silence measures 0, and the `subtle` punch-in lands on the raised
 * phrase although no second is louder than the others.
 */

let dir: string;
let talk: SpeechFixture;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-pitch-'));
  talk = await makeSpeechWav(path.join(dir, 'talk.wav'), [
    { silence: 1 },
    { say: 'this is a plain sentence said at an even pitch for quite a while now', pitch: 25, speaker: 'low' },
    { say: 'really important', pitch: 95, speaker: 'high' },
    { say: 'and then the voice goes back down to where it was before', pitch: 25, speaker: 'low' },
    { silence: 1.5 },
  ]);
}, 120_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('measurePitch', () => {
  it('measures a raised phrase well above the plain voice, and silence as 0', async () => {
    const pitch = await measurePitch(talk.path, { durationSeconds: talk.duration });
    expect(pitch.length).toBe(Math.ceil(talk.duration - 1e-6));
    const high = talk.parts.find((p) => p.speaker === 'high')!;
    const highSecond = Math.floor((high.start + high.end) / 2);
    const plain = pitch.filter((v, s) => v > 0 && (s < Math.floor(high.start) || s > Math.ceil(high.end)));
    plain.sort((a, b) => a - b);
    const median = plain[plain.length >> 1];
    expect(median).toBeGreaterThan(60);
    expect(pitch[highSecond], JSON.stringify(pitch)).toBeGreaterThan(median * 2 ** (4 / 12));
    expect(pitch[0]).toBe(0);
    expect(pitch[pitch.length - 1]).toBe(0);
  });

  it('lets the punch-in land on the raised phrase, which is no louder', async () => {
    const [pitch, loudness] = await Promise.all([measurePitch(talk.path), measureLoudness(talk.path)]);
    const high = talk.parts.find((p) => p.speaker === 'high')!;
    // One word a third of a second long every half second of speech.
    const words = [];
    for (let t = 1; t < talk.duration - 1.6; t += 0.5) words.push({ start: t, end: t + 0.3 });
    const range = { start: 0, end: talk.duration };
    const withPitch = punchIns(words, loudness, range, [], pitch);
    expect(
      withPitch.some((p) => p.start < high.end && p.end > high.start),
      JSON.stringify({ withPitch, high, pitch, loudness }),
    ).toBe(true);
    // Loudness alone finds nothing there.
    expect(punchIns(words, loudness, range).some((p) => p.start < high.end && p.end > high.start)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { breakLines, buildCues, toTranscript, transcriptWords, type Cue, type TimedWord } from '../../src/domain/transcripts/cues.js';

/** Words at a steady pace (0.3 s each, 0.05 s apart) from `start`, optionally all for one speaker. */
function say(text: string, start = 0, speaker?: string, step = 0.35): TimedWord[] {
  return text.split(' ').map((w, i) => ({ start: start + i * step, end: start + i * step + 0.3, text: w, ...(speaker ? { speaker } : {}) }));
}

function checkRules(cues: Cue[], maxLine = 42) {
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i];
    const lines = c.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(2);
    for (const l of lines) if (l.includes(' ')) expect(l.length).toBeLessThanOrEqual(maxLine);
    expect(c.end).toBeGreaterThanOrEqual(c.start);
    expect(c.end - c.start).toBeLessThanOrEqual(7 + 1e-9);
    if (i > 0) expect(c.start).toBeGreaterThanOrEqual(cues[i - 1].end);
  }
}

describe('buildCues', () => {
  it("keeps a short sentence in one single-line cue with the words' times", () => {
    const cues = buildCues(say('Hello there, how are you?', 1));
    expect(cues).toEqual([{ start: 1, end: 2.7, text: 'Hello there, how are you?' }]);
  });

  it('never joins two sentences, two speakers or words across a long pause', () => {
    const words = [...say('One sentence here.', 0), ...say('Another one', 1.2), ...say('after a pause', 4), ...say('and a new voice', 5.2, 'B')];
    const cues = buildCues(words);
    expect(cues.map((c) => c.text)).toEqual(['One sentence here.', 'Another one', 'after a pause', 'and a new voice']);
    expect(cues[3].speaker).toBe('B');
    expect(cues[0].speaker).toBeUndefined();
  });

  it('splits long speech into cues of at most 2 lines of 42 characters and 7 seconds', () => {
    const text =
      'this is a rather long stretch of speech without any punctuation at all because the engine gave none and the speaker just kept talking for a very long time about many different things that matter to them';
    const cues = buildCues(say(text, 0, undefined, 0.25));
    checkRules(cues);
    expect(cues.length).toBeGreaterThan(1);
    expect(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(text);
  });

  it('splits at 7 seconds even when the text would fit', () => {
    const cues = buildCues(say('slow words spoken with long gaps between them all', 0, undefined, 1));
    checkRules(cues);
    expect(cues.length).toBe(2);
  });

  it('balances cues and lines instead of filling greedily', () => {
    // 99 characters: two cues of about 50, each on two lines of about 25.
    const text = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa q';
    expect(text.length).toBe(99);
    const cues = buildCues(say(text, 0, undefined, 0.2));
    expect(cues).toHaveLength(2);
    const [a, b] = cues.map((c) => c.text.replace('\n', ' ').length);
    expect(Math.abs(a - b)).toBeLessThan(12);
    for (const c of cues) {
      const lines = c.text.split('\n');
      expect(lines).toHaveLength(2);
      expect(Math.abs(lines[0].length - lines[1].length)).toBeLessThan(12);
    }
  });

  it('prefers to cut after a comma', () => {
    const text = 'we went to the market on the corner of the street, and then we walked all the way home along the river';
    const cues = buildCues(say(text, 0, undefined, 0.2));
    expect(cues).toHaveLength(2);
    expect(cues[0].text.replace('\n', ' ')).toBe('we went to the market on the corner of the street,');
  });

  it('lengthens short cues to 0.8 s into the silence after, then before, never into a neighbour', () => {
    const words: TimedWord[] = [
      { start: 1, end: 1.2, text: 'Yes.' },
      { start: 1.5, end: 1.7, text: 'No.' },
      { start: 5, end: 5.2, text: 'Maybe.' },
    ];
    const cues = buildCues(words);
    expect(cues.map((c) => [c.start, c.end])).toEqual([
      [0.7, 1.5],
      [1.5, 2.3],
      [5, 5.8],
    ]);
  });

  it('uses the silence before a short cue when the one after is taken', () => {
    const words: TimedWord[] = [
      { start: 0, end: 0.5, text: 'First.' },
      { start: 2, end: 2.2, text: 'Second.' },
      { start: 2.3, end: 4, text: 'Third.' },
    ];
    const cues = buildCues(words);
    expect(cues[1]).toEqual({ start: 1.5, end: 2.3, text: 'Second.' });
    checkRules(cues);
  });

  it('removes overlaps between words of different cues', () => {
    const words: TimedWord[] = [
      { start: 0, end: 1.4, text: 'Overlapping.', speaker: 'A' },
      { start: 1.2, end: 2, text: 'Words.', speaker: 'B' },
    ];
    const cues = buildCues(words);
    checkRules(cues);
    expect(cues[0].end).toBeLessThanOrEqual(cues[1].start);
  });

  it('glues punctuation tokens, trims, sorts and skips empty words', () => {
    const words: TimedWord[] = [
      { start: 0.6, end: 0.9, text: 'world' },
      { start: 0, end: 0.5, text: ' hello ' },
      { start: 0.9, end: 0.95, text: '!' },
      { start: 1, end: 1.1, text: '  ' },
    ];
    expect(buildCues(words)).toEqual([{ start: 0, end: 0.95, text: 'hello world!' }]);
  });

  it('does not end sentences at common abbreviations', () => {
    const cues = buildCues(say('I met Dr. Smith today.', 0));
    expect(cues).toHaveLength(1);
  });

  it('gives a lone over-long word its own cue', () => {
    const url = 'https://example.com/a/very/long/path/that/does/not/fit/on/one/line';
    const cues = buildCues(say(`see ${url} now`, 0));
    expect(cues.some((c) => c.text === url)).toBe(true);
  });

  it('returns no cues for no words', () => {
    expect(buildCues([])).toEqual([]);
  });
});

describe('breakLines', () => {
  it('keeps short text on one line and splits evenly otherwise', () => {
    expect(breakLines(['short', 'text'])).toEqual(['short text']);
    const words = 'the quick brown fox jumps over the lazy dog and runs far away'.split(' ');
    const lines = breakLines(words)!;
    expect(lines).toHaveLength(2);
    expect(lines.join(' ')).toBe(words.join(' '));
    expect(Math.abs(lines[0].length - lines[1].length)).toBeLessThanOrEqual(6);
  });

  it('says when words do not fit', () => {
    expect(
      breakLines('a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h i j k l m n o p q r s t u v w x y z'.split(' '), 42, 2),
    ).toBeUndefined();
  });
});

describe('toTranscript', () => {
  const cues: Cue[] = [
    { start: 0, end: 1, text: 'Hi.', speaker: 'A' },
    { start: 1.2, end: 2.5, text: 'Hello there,\nfriend.', speaker: 'B' },
  ];
  const words = transcriptWords([
    { start: 0.1, end: 0.5, text: 'Hi', speaker: 'A', confidence: 0.912 },
    { start: 0.5, end: 0.5, text: '.', speaker: 'A' },
    { start: 1.2, end: 1.5, text: ' Hello ', speaker: 'B' },
    { start: 1.55, end: 1.9, text: 'there,', speaker: 'B', confidence: 1.4 },
    { start: 2, end: 2.45, text: 'friend.', speaker: 'B', confidence: -1 },
  ]);
  it('keeps speakers only when labels were requested, on cues and words', () => {
    expect(toTranscript('en', true, cues.slice(0, 1))).toEqual({
      language: 'en',
      speaker_labels: true,
      cues: [{ start: 0, end: 1, text: 'Hi.', speaker: 'A' }],
      words: [],
      text: 'Hi.',
    });
    expect(toTranscript('en', false, cues.slice(0, 1))).toEqual({
      language: 'en',
      speaker_labels: false,
      cues: [{ start: 0, end: 1, text: 'Hi.' }],
      words: [],
      text: 'Hi.',
    });
    expect(toTranscript('en', true, cues, words).words[0]).toEqual({ text: 'Hi.', start: 0.1, end: 0.5, confidence: 0.91, speaker: 'A' });
    expect(toTranscript('en', false, cues, words).words[0]).toEqual({ text: 'Hi.', start: 0.1, end: 0.5, confidence: 0.91 });
  });
  it('shows the words as the cues do: trimmed, punctuation glued on, confidence 0..1 or null; the whole text', () => {
    expect(words.map((w) => [w.text, w.confidence])).toEqual([
      ['Hi.', 0.91],
      ['Hello', null],
      ['there,', 1],
      ['friend.', 0],
    ]);
    expect(toTranscript('en', true, cues, words).text).toBe('Hi. Hello there, friend.');
    // Built from the same words, every word lies inside its cue.
    const built = buildCues(words.map((w) => ({ ...w, confidence: w.confidence ?? undefined })));
    for (const w of words) expect(built.some((c) => w.start >= c.start && w.end <= c.end && c.text.replace(/\n/g, ' ').includes(w.text))).toBe(true);
  });
});

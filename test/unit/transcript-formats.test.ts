import { describe, expect, it } from 'vitest';
import type { Cue } from '../../src/domain/transcripts/cues.js';
import {
  formatTimestamp,
  formatTranscript,
  isTranscriptFormat,
  toSrt,
  toTxt,
  toVtt,
  TRANSCRIPT_FORMATS,
  transcriptFileName,
} from '../../src/domain/transcripts/formats.js';

/** Tiny parsers, strict about the layout the formats promise. */
interface Parsed {
  start: number;
  end: number;
  lines: string[];
  id: string;
}

const TIME = /^(\d{2,}):([0-5]\d):([0-5]\d)[,.](\d{3})$/;
function parseTime(t: string, sep: ',' | '.'): number {
  const m = TIME.exec(t);
  if (!m || !t.includes(sep)) throw new Error(`bad timestamp ${t}`);
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

function parseBlocks(body: string, sep: ',' | '.'): Parsed[] {
  if (body === '') return [];
  expect(body.endsWith('\n')).toBe(true);
  expect(body.endsWith('\n\n')).toBe(false);
  return body
    .slice(0, -1)
    .split('\n\n')
    .map((block) => {
      const [id, timing, ...lines] = block.split('\n');
      const m = /^(\S+) --> (\S+)$/.exec(timing ?? '');
      if (!m) throw new Error(`bad timing line ${timing}`);
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l.trim()).not.toBe('');
      return { id, start: parseTime(m[1], sep), end: parseTime(m[2], sep), lines };
    });
}

function parseSrt(file: string): Parsed[] {
  const blocks = parseBlocks(file, ',');
  blocks.forEach((b, i) => expect(b.id).toBe(String(i + 1)));
  return blocks;
}

function parseVtt(file: string): Parsed[] {
  expect(file.startsWith('WEBVTT\n')).toBe(true);
  const rest = file.slice('WEBVTT\n'.length);
  if (rest === '') return [];
  expect(rest.startsWith('\n')).toBe(true);
  return parseBlocks(rest.slice(1), '.');
}

const unescapeVtt = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const cues: Cue[] = [
  { start: 0.5, end: 2.25, text: 'Hello there,\nhow are you?', speaker: 'A' },
  { start: 2.25, end: 4.001, text: 'Fine, thanks.', speaker: 'B' },
  { start: 5, end: 6.5, text: 'And you?', speaker: 'B' },
  { start: 3725.042, end: 3729.999, text: 'Tom & Jerry <live> -- over an hour in', speaker: 'A' },
];

describe('timestamps', () => {
  it('formats hours, minutes, seconds and milliseconds', () => {
    expect(formatTimestamp(0, ',')).toBe('00:00:00,000');
    expect(formatTimestamp(1.2345, '.')).toBe('00:00:01.235');
    expect(formatTimestamp(59.9996, ',')).toBe('00:01:00,000');
    expect(formatTimestamp(3725.042, ',')).toBe('01:02:05,042');
    expect(formatTimestamp(100 * 3600, '.')).toBe('100:00:00.000');
    expect(formatTimestamp(-1, ',')).toBe('00:00:00,000');
  });
});

describe('SRT', () => {
  it('round-trips times and texts, with speaker prefixes', () => {
    const parsed = parseSrt(toSrt(cues));
    expect(parsed).toHaveLength(cues.length);
    parsed.forEach((p, i) => {
      expect(p.start).toBeCloseTo(cues[i].start, 3);
      expect(p.end).toBeCloseTo(cues[i].end, 3);
      expect(p.lines.join('\n')).toBe(`${cues[i].speaker}: ${cues[i].text}`);
    });
  });

  it('drops speaker names with speakers: false', () => {
    const parsed = parseSrt(toSrt(cues, { speakers: false }));
    expect(parsed.map((p) => p.lines.join('\n'))).toEqual(cues.map((c) => c.text));
  });

  it('writes the exact layout', () => {
    expect(toSrt(cues.slice(0, 2))).toBe(
      '1\n00:00:00,500 --> 00:00:02,250\nA: Hello there,\nhow are you?\n\n2\n00:00:02,250 --> 00:00:04,001\nB: Fine, thanks.\n',
    );
  });

  it('keeps the timing arrow out of texts and skips empty cues', () => {
    const file = toSrt([
      { start: 0, end: 1, text: 'a --> b' },
      { start: 1, end: 2, text: ' \n ' },
      { start: 2, end: 3, text: 'line one\n\nline two' },
    ]);
    const parsed = parseSrt(file);
    expect(parsed.map((p) => p.lines)).toEqual([['a -> b'], ['line one', 'line two']]);
  });

  it('is an empty file for an empty transcript', () => {
    expect(toSrt([])).toBe('');
    expect(parseSrt(toSrt([]))).toEqual([]);
  });
});

describe('WebVTT', () => {
  it('round-trips times and texts, with voice tags and escaping', () => {
    const parsed = parseVtt(toVtt(cues));
    expect(parsed).toHaveLength(cues.length);
    parsed.forEach((p, i) => {
      expect(p.start).toBeCloseTo(cues[i].start, 3);
      expect(p.end).toBeCloseTo(cues[i].end, 3);
      const m = /^<v ([^>]+)>(.*)$/s.exec(p.lines.join('\n'));
      expect(m?.[1]).toBe(cues[i].speaker);
      expect(unescapeVtt(m![2])).toBe(cues[i].text);
    });
    expect(toVtt(cues)).toContain('<v A>Tom &amp; Jerry &lt;live&gt; -- over an hour in');
  });

  it('drops voice tags with speakers: false', () => {
    const parsed = parseVtt(toVtt(cues, { speakers: false }));
    expect(parsed.map((p) => unescapeVtt(p.lines.join('\n')))).toEqual(cues.map((c) => c.text));
    expect(toVtt(cues, { speakers: false })).not.toContain('<v');
  });

  it('writes the exact layout', () => {
    expect(toVtt(cues.slice(2, 3))).toBe('WEBVTT\n\n1\n00:00:05.000 --> 00:00:06.500\n<v B>And you?\n');
  });

  it('is a header alone for an empty transcript', () => {
    expect(toVtt([])).toBe('WEBVTT\n');
    expect(parseVtt(toVtt([]))).toEqual([]);
  });
});

describe('TXT', () => {
  it('joins consecutive cues of one speaker into a paragraph with a prefix', () => {
    expect(toTxt(cues)).toBe('A: Hello there, how are you?\n\nB: Fine, thanks. And you?\n\nA: Tom & Jerry <live> -- over an hour in\n');
  });

  it('drops prefixes with speakers: false but keeps the paragraphs', () => {
    expect(toTxt(cues, { speakers: false })).toBe('Hello there, how are you?\n\nFine, thanks. And you?\n\nTom & Jerry <live> -- over an hour in\n');
  });

  it('starts a new paragraph after a long pause or a long paragraph', () => {
    const plain: Cue[] = [
      { start: 0, end: 1, text: 'One.' },
      { start: 1.5, end: 2, text: 'Two.' },
      { start: 10, end: 11, text: 'Three.' },
    ];
    expect(toTxt(plain)).toBe('One. Two.\n\nThree.\n');
    const long = Array.from({ length: 30 }, (_, i) => ({ start: i, end: i + 1, text: 'A sentence of about thirty characters.' }));
    const paragraphs = toTxt(long).trimEnd().split('\n\n');
    expect(paragraphs.length).toBeGreaterThan(1);
    for (const p of paragraphs) expect(p.length).toBeLessThan(700);
  });

  it('is an empty file for an empty transcript', () => {
    expect(toTxt([])).toBe('');
  });
});

describe('format table', () => {
  it('maps formats to content types, extensions and file names', () => {
    expect(TRANSCRIPT_FORMATS.srt).toEqual({ contentType: 'application/x-subrip; charset=utf-8', extension: 'srt' });
    expect(TRANSCRIPT_FORMATS.vtt.contentType).toBe('text/vtt; charset=utf-8');
    expect(TRANSCRIPT_FORMATS.txt.contentType).toBe('text/plain; charset=utf-8');
    expect(isTranscriptFormat('vtt')).toBe(true);
    expect(isTranscriptFormat('docx')).toBe(false);
    expect(formatTranscript('srt', cues)).toBe(toSrt(cues));
    expect(formatTranscript('vtt', cues, { speakers: false })).toBe(toVtt(cues, { speakers: false }));
    expect(formatTranscript('txt', cues)).toBe(toTxt(cues));
    expect(transcriptFileName('interview.final.mp4', 'srt')).toBe('interview.final.srt');
    expect(transcriptFileName('a"b\r\n.wav', 'vtt')).toBe('a_b_.vtt');
    expect(transcriptFileName('', 'txt')).toBe('transcript.txt');
  });
});

import { describe, expect, it } from 'vitest';
import { downloadName, slugify } from '../../src/main/user-cli/download.js';
import { quoteLine } from '../../src/main/user-cli/consent.js';
import { describeState, formatEta, jobProgress } from '../../src/main/user-cli/waiting.js';

describe('download names', () => {
  it('slugs: lowercase ASCII and dashes, accents folded, at most 60 characters', () => {
    expect(slugify('Why We Cut: Long Videos!')).toBe('why-we-cut-long-videos');
    expect(slugify('Ação e emoção — São Paulo')).toBe('acao-e-emocao-sao-paulo');
    const long = slugify('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^word(-word)*$/);
    expect(slugify('x'.repeat(100))).toBe('x'.repeat(60));
  });

  it('hostile titles never leave the folder: separators, dots, control characters, nothing left', () => {
    for (const title of ['../../etc/passwd', '..\\..\\windows', '/abs/path', '.', '..', 'a\u0000b\nc\u0007', '\u202e gnp.exe', '....//....']) {
      const name = downloadName(title, 'clip_1', 'mp4');
      expect(name, title).toMatch(/^[a-z0-9-]+-clip_1\.mp4$/);
      expect(name).not.toContain('/');
      expect(name).not.toContain('..');
    }
    expect(downloadName('', 'clip_1', 'mp4')).toBe('clip-clip_1.mp4');
    expect(downloadName('Same', '../x/../y', 'mp4')).toBe('same-xy.mp4');
  });
});

describe('quotes', () => {
  it('the price and the balance after, exact or an estimate, short, waived, or unknown', () => {
    expect(quoteLine({ credits: 2, balance: 10, detail: '1:01 of video' })).toBe('This will cost 2 credits (1:01 of video); balance after: 8');
    expect(quoteLine({ credits: 1, balance: 10, estimate: 'from ffprobe' })).toBe('This will cost about 1 credit; balance after: 9; an estimate: from ffprobe');
    expect(quoteLine({ credits: 3, balance: 1 })).toBe('This will cost 3 credits; balance after: not enough, the balance is 1');
    expect(quoteLine({ credits: 3, balance: 1, waived: true })).toBe('This will cost 3 credits; balance after: 1 (free usage: nothing is taken)');
    expect(quoteLine({ credits: 2, balance: 5, unknown: '2 credits a started minute' })).toBe(
      'The price cannot be known before the upload: 2 credits a started minute; balance now: 5',
    );
  });
});

describe('job progress', () => {
  it('stage, percent and time left', () => {
    expect(formatEta(7)).toBe('7s');
    expect(formatEta(80)).toBe('1m20s');
    expect(formatEta(3725)).toBe('1h02m');
    expect(describeState({ stage: 'transcribing', fraction: 0.423, secondsLeft: 80 })).toBe('transcribing  42 %  ~1m20s left');
    expect(describeState({ stage: 'queued' })).toBe('queued');
    expect(describeState({ stage: 'finalizing', fraction: 1.2, secondsLeft: 0 })).toBe('finalizing  100 %');
  });

  it('plain timestamped lines when not a terminal (a line when it changes); one redrawn line on a terminal', () => {
    let text = '';
    const at = new Date(2026, 0, 2, 9, 5, 7);
    const plain = jobProgress({ isTTY: false, write: (s: string) => void (text += s) }, 'submission sub_1', () => at);
    plain.update({ stage: 'transcribing', fraction: 0.1, secondsLeft: 90 });
    plain.update({ stage: 'transcribing', fraction: 0.1, secondsLeft: 90 });
    plain.update({ stage: 'finalizing', fraction: 0.9, secondsLeft: 5 });
    plain.done();
    expect(text).toBe('[09:05:07] submission sub_1: transcribing  10 %  ~1m30s left\n[09:05:07] submission sub_1: finalizing  90 %  ~5s left\n');

    let tty = '';
    const live = jobProgress({ isTTY: true, write: (s: string) => void (tty += s) }, 'render rnd_1', () => at);
    live.update({ stage: 'active', fraction: 0.5 });
    live.update({ stage: 'active', fraction: 0.75 });
    live.done();
    expect(tty).toBe('\r\u001b[2K[09:05:07] render rnd_1: active  50 %\r\u001b[2K[09:05:07] render rnd_1: active  75 %\n');
  });
});

import { describe, expect, it } from 'vitest';
import { Progress, formatBytes, table } from '../../src/main/user-cli/progress.js';

function stream(isTTY: boolean) {
  let text = '';
  return { out: { isTTY, columns: 100, write: (s: string) => void (text += s) }, text: () => text };
}

describe('the CLI’s progress display', () => {
  it('draws a redrawn bar on a terminal (cursor escapes, percentage, sizes)', () => {
    const s = stream(true);
    const bar = new Progress(s.out).bar('upload talk.mp4', 2 * 1024 * 1024, { bytes: true });
    bar.update(1024 * 1024);
    bar.done();
    expect(s.text()).toMatch(/\u001b\[/);
    expect(s.text()).toContain('upload talk.mp4 [');
    expect(s.text()).toContain('100% | 2.0 MB/2.0 MB');
  });

  it('writes plain lines elsewhere: the start, each quarter once, the end', () => {
    const s = stream(false);
    const bar = new Progress(s.out).bar('render rnd_1', 100);
    for (const v of [3, 10, 26, 27, 49, 51, 80, 99]) bar.update(v);
    bar.done();
    bar.done();
    expect(s.text()).toBe(['render rnd_1: 0%', 'render rnd_1: 26%', 'render rnd_1: 51%', 'render rnd_1: 80%', 'render rnd_1: 100%', ''].join('\n'));
  });

  it('formats sizes and aligns table columns', () => {
    expect([0, 1023, 1024, 5 * 1024 * 1024 + 1, 3 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KB', '5.0 MB', '3.0 GB']);
    expect(
      table(
        ['#', 'title'],
        [
          ['1', 'Why start'],
          ['10', 'Now'],
        ],
      ),
    ).toBe('#   title\n1   Why start\n10  Now\n');
  });
});

import cliProgress from 'cli-progress';

/** Where the CLI writes: a stream, and whether it is a terminal. */
export interface OutStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** One bar: `update` with the amount done so far, `done` at the end. */
export interface Bar {
  update(value: number): void;
  done(): void;
}

/**
 * Progress on stderr: a redrawn bar (cli-progress) on a terminal; on anything else (a pipe, a file,
 * CI logs) plain lines, one per quarter of the way and one at the end, so logs stay short and readable.
 */
export class Progress {
  constructor(
    private readonly out: OutStream,
    private readonly tty = out.isTTY === true,
  ) {}

  /** A status line (`submission sub_…: transcribing`). */
  line(text: string): void {
    this.out.write(`${text}\n`);
  }

  /** A bar of `total` (bytes when `bytes`, else percent points) labelled `label`. */
  bar(label: string, total: number, opts: { bytes?: boolean } = {}): Bar {
    const show = (v: number) => (opts.bytes ? formatBytes(v) : `${Math.round(v)}`);
    if (this.tty) {
      const bar = new cliProgress.SingleBar(
        {
          stream: this.out as unknown as NodeJS.WritableStream,
          format: `${label} [{bar}] {percentage}% | {shown}/{totalShown}`,
          hideCursor: true,
          clearOnComplete: false,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { shown: show(0), totalShown: show(total) });
      return {
        update: (v) => bar.update(v, { shown: show(v), totalShown: show(total) }),
        done: () => {
          bar.update(total, { shown: show(total), totalShown: show(total) });
          bar.stop();
        },
      };
    }
    let lastQuarter = 0;
    let ended = false;
    const say = (v: number) => {
      const pct = total > 0 ? Math.min(100, Math.floor((100 * v) / total)) : 100;
      this.line(opts.bytes ? `${label}: ${pct}% (${show(v)} of ${show(total)})` : `${label}: ${pct}%`);
    };
    say(0);
    return {
      update: (v) => {
        const quarter = total > 0 ? Math.floor((4 * v) / total) : 4;
        if (quarter > lastQuarter && quarter < 4) {
          lastQuarter = quarter;
          say(v);
        }
      },
      done: () => {
        if (ended) return;
        ended = true;
        say(total);
      },
    };
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

/** Rows as aligned columns under a header (no borders: readable in logs and pipes). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

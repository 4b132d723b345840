/** Human-readable output of `cutroom admin` (the `--json` output is the API's answer as is). */
import type { PlanView } from '../../domain/plans/plans.service.js';
import type { workspaceView } from '../../domain/workspaces/workspaces.service.js';

/** The admin API's plan object. */
export type PlanAnswer = PlanView;

/** The admin API's workspace object. */
export type WorkspaceAnswer = ReturnType<typeof workspaceView>;

export interface LedgerAnswer {
  id: string;
  kind: string;
  reason: string;
  amount: number;
  balance_after: number;
}

export interface KeyAnswer {
  id: string;
  key: string;
  workspace_ids: string[];
  expires_at: string | null;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

/** `  label:  value` lines with the values aligned. */
export function keyValues(rows: Array<[string, string | number]>, indent = '  '): string {
  const width = Math.max(...rows.map(([k]) => k.length)) + 1;
  return rows.map(([k, v]) => `${indent}${`${k}:`.padEnd(width)}  ${v}`).join('\n') + '\n';
}

/** Columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function bytes(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let unit = 'B';
  for (const u of units) {
    if (v < 1024) break;
    v /= 1024;
    unit = u;
  }
  return unit === 'B' ? `${n} B` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${unit}`;
}

export function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h ? `${h}h` : '', m ? `${m}m` : '', s || (!h && !m) ? `${s}s` : ''].filter(Boolean);
  return parts.join(' ');
}

export function planDetails(p: PlanAnswer): string {
  return (
    `Plan ${p.name}\n` +
    keyValues([
      ['free plan', yesNo(p.is_free)],
      ['max video duration', `${duration(p.max_video_duration)} (${p.max_video_duration} s)`],
      ['max upload size', `${bytes(p.max_upload_size)} (${p.max_upload_size} bytes)`],
      ['render expiry', `${p.render_expiry_hours} h`],
      ['submission retention', `${p.submission_retention_hours} h`],
      ['max concurrent renders', p.max_concurrent_renders],
      ['daily post limit', p.daily_post_limit],
      ['max monitors', p.max_monitors],
      ['force watermark', yesNo(p.force_watermark)],
      ['rate limit', `${p.rate_limit_per_minute} requests/min`],
      ['analysis rate limit', `${p.analysis_rate_limit_per_minute} requests/min`],
      ['discount', `${p.discount_percent} %`],
      ['transcription', `${p.transcription_credits_per_minute ?? 1} credits/min (+${p.speaker_labels_credits_per_minute ?? 1} with speaker labels)`],
      ['created', p.created_at],
      ['updated', p.updated_at],
    ])
  );
}

export function planTable(plans: PlanAnswer[]): string {
  if (plans.length === 0) return 'No plans.\n';
  return table(
    ['NAME', 'FREE', 'MAX DURATION', 'MAX UPLOAD', 'EXPIRY', 'RENDERS', 'POSTS/DAY', 'WATERMARK', 'RATE/MIN', 'ANALYSIS/MIN', 'DISCOUNT'],
    plans.map((p) => [
      p.name,
      yesNo(p.is_free),
      duration(p.max_video_duration),
      bytes(p.max_upload_size),
      `${p.render_expiry_hours}h`,
      String(p.max_concurrent_renders),
      String(p.daily_post_limit),
      yesNo(p.force_watermark),
      String(p.rate_limit_per_minute),
      String(p.analysis_rate_limit_per_minute),
      `${p.discount_percent}%`,
    ]),
  );
}

export function freeUsage(w: WorkspaceAnswer): string {
  if (!w.credits_unlimited) return 'off';
  return w.credits_unlimited_until ? `on until ${w.credits_unlimited_until}` : 'on, no end date';
}

export function workspaceDetails(w: WorkspaceAnswer): string {
  return (
    `Workspace ${w.id}\n` +
    keyValues([
      ['name', w.name],
      ['plan', `${w.plan_name}${w.plan_is_free ? ' (free plan)' : ''}`],
      ['credits', w.credits],
      ['free usage', freeUsage(w)],
      ['personal', yesNo(w.is_personal)],
      ['members', w.member_count],
    ])
  );
}

/** The error's `extra` as indented lines: validation errors as `field: rule`, anything else as JSON. */
export function errorExtra(extra: Record<string, unknown> | undefined): string {
  if (!extra) return '';
  const lines: string[] = [];
  for (const [k, v] of Object.entries(extra)) {
    if (k === 'errors' && Array.isArray(v)) {
      for (const e of v as Array<{ field?: unknown; rule?: unknown }>) lines.push(`  ${String(e.field)}: ${String(e.rule)}`);
    } else {
      lines.push(`  ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

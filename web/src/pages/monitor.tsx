import { useEffect, useState } from 'preact/hooks';
import type { Answer, Clip, operations } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { clock, credits, when } from '../format';
import { Pager } from '../components/pager';
import { ClipCard } from '../components/clip-card';
import { SubmissionItem } from '../components/submission-item';
import { MONITOR_POLL_MS, kindName, monitorBadge, monitorStatusName, platformName, type Monitor } from './monitors';

type Broadcast = Answer<operations['listBroadcasts']>['broadcasts'][number];
type BroadcastClip = Answer<operations['listBroadcastClips']>['clips'][number];

const BROADCASTS_PER_PAGE = 10;

/** Why a monitor stopped, in words (docs/monitors.md, `stop_reason`). */
const STOP_REASONS: Record<string, string> = {
  USER: 'Stopped by you.',
  INSUFFICIENT_CREDITS: 'The service stopped it: a batch or an upload could not be paid. Add credits, then start it again.',
  SOURCE_GONE: 'The service stopped it: the channel or feed is gone.',
  STREAM_DURATION_MISMATCH: 'The service stopped it: the stream’s pieces lasted longer than its playlist said (batches are charged by measured time).',
  LIVE_BATCH_TOO_LARGE: 'The service stopped it: a batch of the stream would have gone over its length or size.',
};

/** How each kind is charged: the spec's credit rule 5 for a live monitor; a video monitor's uploads are ordinary submissions. */
function billingRule(m: Monitor): string {
  return m.type === 'live'
    ? 'A live monitor is charged per batch of a broadcast (10 minutes by default; 1 credit per started minute), only for batches that produced clips, and only while it is on: between Start and Stop.'
    : 'Each new upload after Start is clipped as an ordinary submission and charged like one (1 credit per minute of video); uploads already there when it starts are not.';
}

const BROADCAST_STATUS: Record<Broadcast['status'], string> = { live: 'On air', processing: 'Ended, last batch being clipped', ended: 'Ended' };

function Controls({ monitor, onChange }: { monitor: Monitor; onChange: (m: Monitor) => void }) {
  const { cutroom } = useStudio();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = monitor.status !== 'stopped';
  const act = async (what: 'start' | 'stop') => {
    setBusy(true);
    setError(null);
    try {
      onChange(what === 'start' ? await cutroom.monitors.start(monitor.id) : await cutroom.monitors.stop(monitor.id));
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="monitor-state">
      <h2 id="monitor-state">
        <span class={monitorBadge(monitor)}>{monitorStatusName(monitor)}</span>
      </h2>
      <p class="muted small" aria-live="polite">
        {monitor.status === 'stopped'
          ? monitor.stop_reason
            ? (STOP_REASONS[monitor.stop_reason] ?? monitor.stop_reason)
            : 'Never started.'
          : `On since ${monitor.started_at ? when(monitor.started_at) : 'now'}.`}
        {monitor.last_checked_at ? ` Last checked ${when(monitor.last_checked_at)}.` : ''}
      </p>
      <div class="actions start-stop">
        <button type="button" class="primary" disabled={busy || on} aria-describedby="billing-rule" onClick={() => void act('start')}>
          Start
        </button>
        <button type="button" disabled={busy || !on} aria-describedby="billing-rule" onClick={() => void act('stop')}>
          Stop
        </button>
      </div>
      <p id="billing-rule" class="hint">
        {billingRule(monitor)}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** A broadcast: its counts, then its clips by batch (each clip the same card as a submission's, its batch being a submission). */
function BroadcastCard({ monitorId, broadcast }: { monitorId: string; broadcast: Broadcast }) {
  const b = broadcast;
  // Read again when the broadcast's counts or status change (the page polls the broadcasts).
  const list = useLoad(
    (c, signal) => c.monitors.listBroadcastClips(monitorId, b.id, { sort: 'start_time', order: 'asc', limit: 100 }, { signal }),
    [monitorId, b.id, b.clips_count, b.batches_count, b.status],
  );
  const [clips, setClips] = useState<BroadcastClip[]>([]);
  useEffect(() => setClips(list.data?.clips ?? []), [list.data]);
  const onReview = (next: Clip) => setClips((all) => all.map((c) => (c.id === next.id ? { ...c, ...next } : c)));
  const headingId = `broadcast-${b.id}`;
  const batches = Array.from({ length: b.batches_count }, (_, i) => i);
  return (
    <section class="card broadcast" aria-labelledby={headingId}>
      <h2 id={headingId}>{b.title || 'Broadcast'}</h2>
      <p class="broadcast-meta">
        <span class={b.status === 'ended' ? 'badge' : 'badge completed'}>{BROADCAST_STATUS[b.status]}</span>
        <span>
          Started {when(b.started_at)}
          {b.ended_at ? `, ended ${when(b.ended_at)}` : ''}
        </span>
      </p>
      <p class="muted small">
        {b.batches_count} batch{b.batches_count === 1 ? '' : 'es'} · {b.clips_count} clip{b.clips_count === 1 ? '' : 's'} · {credits(b.credits_charged)} charged
      </p>
      {list.error != null && (
        <p class="error" role="alert">
          {describe(list.error)}
        </p>
      )}
      {batches.map((i) => {
        const own = clips.filter((c) => c.batch_index === i);
        return (
          <section key={i} class="batch" aria-labelledby={`${headingId}-batch-${i}`}>
            <h3 id={`${headingId}-batch-${i}`}>Batch {i + 1}</h3>
            {own.length === 0 ? (
              <p class="muted small">
                {b.status !== 'ended' || !list.data ? 'No clips yet: being recorded or clipped.' : 'No clips: nothing was charged for it.'}
              </p>
            ) : (
              <div class="clips">
                {own.map((clip) => (
                  <ClipCard key={clip.id} clip={clip} videoId={clip.video_id} submissionId={clip.submission_id} onReview={onReview} level={4}>
                    <p class="muted small">At {clock(clip.broadcast_offset)} of the broadcast</p>
                  </ClipCard>
                ))}
              </div>
            )}
          </section>
        );
      })}
    </section>
  );
}

function Broadcasts({ monitor, page }: { monitor: Monitor; page: number }) {
  const list = useLoad(
    (c, signal) => c.monitors.listBroadcasts(monitor.id, { page, limit: BROADCASTS_PER_PAGE }, { signal }),
    [monitor.id, page, monitor.status],
    (d) => (monitor.status !== 'stopped' || d.broadcasts.some((b) => b.status !== 'ended') ? MONITOR_POLL_MS : null),
  );
  const items = list.data?.broadcasts;
  return (
    <section aria-labelledby="broadcasts">
      <h2 id="broadcasts">Broadcasts</h2>
      {list.error != null && (
        <p class="error" role="alert">
          {describe(list.error)}
        </p>
      )}
      {items && items.length === 0 && (
        <p class="empty card">
          {monitor.status === 'stopped' ? 'No broadcast yet. Start the monitor to record the next one.' : 'No broadcast yet: the channel is not on air.'}
        </p>
      )}
      {items?.map((b) => (
        <BroadcastCard key={b.id} monitorId={monitor.id} broadcast={b} />
      ))}
      <Pager
        label="Pages of the broadcasts"
        page={page}
        pagination={list.data?.pagination}
        hrefOf={(n) => href('monitor', { monitorId: monitor.id }, n > 1 ? { page: n } : undefined)}
      />
    </section>
  );
}

/** A video monitor's uploads: each one became an ordinary submission (GET /clips?monitor_id=). */
function Uploads({ monitor, page }: { monitor: Monitor; page: number }) {
  const list = useLoad(
    (c, signal) => c.submissions.list({ monitor_id: monitor.id, page, limit: 20 }, { signal }),
    [monitor.id, page, monitor.status],
    (d) => (monitor.status !== 'stopped' || d.submissions.some((s) => s.status !== 'completed' && s.status !== 'failed') ? MONITOR_POLL_MS : null),
  );
  const items = list.data?.submissions;
  return (
    <section aria-labelledby="uploads">
      <h2 id="uploads">Uploads clipped</h2>
      {list.error != null && (
        <p class="error" role="alert">
          {describe(list.error)}
        </p>
      )}
      {items && items.length === 0 && (
        <p class="empty card">No upload clipped yet: each upload after Start becomes a submission here (the ones already there when it starts are skipped).</p>
      )}
      <ul class="subs" aria-live="polite">
        {items?.map((s) => (
          <SubmissionItem key={s.id} s={s} label={`Upload clipped ${when(s.created_at)}`} />
        ))}
      </ul>
      <Pager
        label="Pages of the uploads"
        page={page}
        pagination={list.data?.pagination}
        hrefOf={(n) => href('monitor', { monitorId: monitor.id }, n > 1 ? { page: n } : undefined)}
      />
    </section>
  );
}

export function MonitorPage({ monitorId, page }: { monitorId: string; page: number }) {
  const load = useLoad(
    (c, signal) => c.monitors.get(monitorId, { signal }),
    [monitorId],
    (m) => (m.status === 'stopped' ? null : MONITOR_POLL_MS),
  );
  const [monitor, setMonitor] = useState<Monitor | null>(null);
  useEffect(() => setMonitor(load.data ?? null), [load.data]);
  usePageTitle(monitor ? `Monitor: ${monitor.name}` : 'Monitor');
  const m = monitor;
  return (
    <>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={href('monitors')}>Monitors</Link> / Monitor
          </p>
          <h1 tabIndex={-1}>{m ? m.name : 'Monitor'}</h1>
          {m && (
            <p class="lead">
              {kindName(m)} · {platformName(m.platform)} · <span class="url">{m.url}</span>
            </p>
          )}
        </div>
      </div>
      {load.error != null && (
        <p class="error" role="alert">
          {describe(load.error)}
        </p>
      )}
      {m && (
        <>
          <Controls
            monitor={m}
            onChange={(next) => {
              setMonitor(next);
              // Polling follows the new state.
              load.reload();
            }}
          />
          {m.type === 'live' ? <Broadcasts monitor={m} page={page} /> : <Uploads monitor={m} page={page} />}
        </>
      )}
    </>
  );
}

import { useState } from 'preact/hooks';
import { type Answer, type operations } from '@cutroom/sdk/browser';
import { Link, href, navigate } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { when } from '../format';
import { Pager } from '../components/pager';
import { ClipChoiceFields, useClipChoices, type ClipLanguage } from '../components/clip-choices';

const PAGE_SIZE = 20;

export type Monitor = Answer<operations['getMonitor']>;

/** A running monitor and its broadcasts are read again every 5 s (docs/monitors.md: poll every 5 to 10 s). */
export const MONITOR_POLL_MS = 5_000;

/** A monitor's kind as a person reads it. */
export function kindName(m: Pick<Monitor, 'type'>): string {
  return m.type === 'live' ? 'Live broadcasts' : 'New uploads';
}

/** Where the link was found to point. */
export function platformName(p: Monitor['platform']): string {
  return { youtube: 'YouTube channel', twitch: 'Twitch channel', feed: 'Feed of uploads', hls: 'Live HLS playlist' }[p] ?? p;
}

/** The monitor's state in words. */
export function monitorStatusName(m: Pick<Monitor, 'status' | 'type'>): string {
  if (m.status === 'live') return 'Recording';
  if (m.status === 'watching') return m.type === 'live' ? 'Watching for a broadcast' : 'Watching for uploads';
  return 'Stopped';
}

/** Green while it is on. */
export const monitorBadge = (m: Pick<Monitor, 'status'>) => (m.status === 'stopped' ? 'badge' : 'badge completed');

function NewMonitor() {
  const { cutroom } = useStudio();
  const choices = useClipChoices();
  const [type, setType] = useState<'live' | 'video'>('live');
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [strategyId, setStrategyId] = useState('');
  const [language, setLanguage] = useState<ClipLanguage>('auto');
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    if (!url.trim()) return setError('Paste the link of the channel to watch.');
    setCreating(true);
    setError(null);
    try {
      const m = await cutroom.monitors.create({
        type,
        url: url.trim(),
        name: name.trim() || undefined,
        template_id: templateId || undefined,
        strategy_id: strategyId || undefined,
        source_language: language,
      });
      navigate(href('monitor', { monitorId: m.id }));
    } catch (err) {
      setError(describe(err));
      setCreating(false);
    }
  };

  return (
    <section class="card" aria-labelledby="new-monitor">
      <h2 id="new-monitor">New monitor</h2>
      <form onSubmit={create} noValidate>
        <fieldset class="field">
          <legend>What to clip</legend>
          <label class="check">
            <input type="radio" name="monitor-type" value="live" checked={type === 'live'} onChange={() => setType('live')} />
            Live broadcasts, while they air
          </label>
          <label class="check">
            <input type="radio" name="monitor-type" value="video" checked={type === 'video'} onChange={() => setType('video')} />
            New uploads of the channel
          </label>
        </fieldset>
        <div class="field">
          <label for="monitor-url">Channel link</label>
          <input
            id="monitor-url"
            type="url"
            inputMode="url"
            autoComplete="off"
            value={url}
            aria-describedby="monitor-url-hint"
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
          <p id="monitor-url-hint" class="hint">
            {type === 'live'
              ? 'A YouTube channel (youtube.com/@name), a Twitch channel, or a live HLS playlist (.m3u8).'
              : 'A YouTube channel (youtube.com/@name), a Twitch channel, or an RSS or Atom feed of uploads.'}
          </p>
        </div>
        <div class="field">
          <label for="monitor-name">Name (optional)</label>
          <input id="monitor-name" type="text" maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <ClipChoiceFields
          idPrefix="monitor-"
          choices={choices}
          templateId={templateId}
          strategyId={strategyId}
          language={language}
          onTemplate={setTemplateId}
          onStrategy={setStrategyId}
          onLanguage={setLanguage}
        />
        {choices.error != null && (
          <p class="error" role="alert">
            {describe(choices.error)}
          </p>
        )}
        <p class="hint">A new monitor is stopped: nothing is watched or charged until you start it on its page.</p>
        <button type="submit" class="primary" disabled={creating} aria-describedby={error ? 'create-monitor-error' : undefined}>
          {creating ? 'Creating…' : 'Create monitor'}
        </button>
        {error && (
          <p id="create-monitor-error" class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}

export function Monitors({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Monitors, page ${page}` : 'Monitors');
  const list = useLoad(
    (c, signal) => c.monitors.list({ page, limit: PAGE_SIZE }, { signal }),
    [page],
    (d) => (d.monitors.some((m) => m.status !== 'stopped') ? MONITOR_POLL_MS : null),
  );
  const items = list.data?.monitors;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Monitors</h1>
          <p class="lead">Watch a channel: clips of each live broadcast while it airs, or clips of each new upload.</p>
        </div>
      </div>
      {page === 1 && <NewMonitor />}
      <section class="card" aria-labelledby="your-monitors">
        <h2 id="your-monitors">Your monitors</h2>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {items && items.length === 0 && <p class="empty">No monitor yet.</p>}
        {items && items.length > 0 && (
          <ul class="subs" aria-label="Monitors, newest first">
            {items.map((m) => (
              <li key={m.id} class="sub">
                <div class="sub-title">
                  <Link class="sub-link" href={href('monitor', { monitorId: m.id })}>
                    {m.name}
                  </Link>
                  <span class={monitorBadge(m)}>{monitorStatusName(m)}</span>
                </div>
                <p class="muted small">
                  {kindName(m)} · {platformName(m.platform)} · created {when(m.created_at)}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Pager
          label="Pages of the monitors"
          page={page}
          pagination={list.data?.pagination}
          hrefOf={(n) => href('monitors', {}, n > 1 ? { page: n } : undefined)}
        />
      </section>
    </>
  );
}

import { useRef, useState } from 'preact/hooks';
import { WEBHOOK_EVENT_TYPES, type Answer, type operations } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { when } from '../format';
import { Pager } from '../components/pager';

type Endpoint = Answer<operations['listWebhooks']>['webhooks'][number];
type Created = Answer<operations['createWebhook']>;
type Delivery = Answer<operations['listWebhookDeliveries']>['deliveries'][number];

/** Every event, those the service adds later included. */
const ALL_EVENTS = '*';
const DELIVERIES_PER_PAGE = 20;
/** Deliveries still pending are read again every 5 s. */
const DELIVERY_POLL_MS = 5_000;

const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  pending: 'Waiting to retry',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed, no more retries',
};

const LAST_ERROR: Record<string, string> = {
  http_status: 'answered with an error status',
  timeout: 'did not answer in time',
  address_not_allowed: 'its address is not allowed',
  connection_failed: 'could not be reached',
};

function eventsInWords(events: string[]): string {
  return events.includes(ALL_EVENTS) ? 'Every event' : events.join(', ');
}

/** The signing secret, shown once right after the endpoint is added, with a Copy button. */
function SecretOnce({ created, onDone }: { created: Created; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('Copied.');
    } catch {
      // No clipboard (an insecure page, a refused permission): the secret is selected to copy by hand.
      field.current?.select();
      setCopied('Selected: copy it with Ctrl+C or ⌘C.');
    }
  };
  return (
    <section class="card secret" aria-labelledby="secret-title">
      <h3 id="secret-title">Signing secret of {created.url}</h3>
      <p>
        <strong>Keep it now: it will not be shown again.</strong> It checks that each delivery comes from this service (the SDK’s <code>verifyWebhook</code>).
      </p>
      <div class="secret-row">
        <label for="webhook-secret" class="sr-only">
          Signing secret
        </label>
        <input id="webhook-secret" ref={field} type="text" readOnly value={created.secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy secret
        </button>
      </div>
      <p class="muted small" role="status">
        {copied ?? '\u00a0'}
      </p>
      <button type="button" class="quiet" onClick={onDone}>
        I have kept it
      </button>
    </section>
  );
}

function NewEndpoint({ onCreated }: { onCreated: (c: Created) => void }) {
  const { cutroom } = useStudio();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const all = events.includes(ALL_EVENTS);
  const toggle = (name: string, on: boolean) => setEvents((e) => (on ? [...e.filter((x) => x !== name), name] : e.filter((x) => x !== name)));

  const add = async (e: Event) => {
    e.preventDefault();
    if (!url.trim()) return setError('Enter the endpoint’s address (https://…).');
    if (events.length === 0) return setError('Choose at least one event to send to it.');
    setAdding(true);
    setError(null);
    try {
      const created = await cutroom.webhooks.create({ url: url.trim(), events: all ? [ALL_EVENTS] : events });
      setUrl('');
      setEvents([]);
      onCreated(created);
    } catch (err) {
      setError(describe(err));
    } finally {
      setAdding(false);
    }
  };

  return (
    <form onSubmit={add} noValidate aria-labelledby="add-endpoint">
      <h3 id="add-endpoint">Add an endpoint</h3>
      <div class="field">
        <label for="endpoint-url">Endpoint URL</label>
        <input
          id="endpoint-url"
          type="url"
          inputMode="url"
          autoComplete="off"
          value={url}
          aria-describedby="endpoint-url-hint"
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <p id="endpoint-url-hint" class="hint">
          Where each event is POSTed, signed. Use https outside a private network.
        </p>
      </div>
      <fieldset class="field">
        <legend>Events</legend>
        <label class="check">
          <input type="checkbox" checked={all} onChange={(e) => toggle(ALL_EVENTS, e.currentTarget.checked)} />
          Every event, those added later too
        </label>
        <div class="event-list">
          {WEBHOOK_EVENT_TYPES.map((name) => (
            <label key={name} class="check">
              <input type="checkbox" checked={all || events.includes(name)} disabled={all} onChange={(e) => toggle(name, e.currentTarget.checked)} />
              <code>{name}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" class="primary" disabled={adding} aria-describedby={error ? 'add-endpoint-error' : undefined}>
        {adding ? 'Adding…' : 'Add endpoint'}
      </button>
      {error && (
        <p id="add-endpoint-error" class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function DeliveryLog({ endpoint, page }: { endpoint: Endpoint; page: number }) {
  const log = useLoad(
    (c, signal) => c.webhooks.listDeliveries(endpoint.id, { page, limit: DELIVERIES_PER_PAGE }, { signal }),
    [endpoint.id, page],
    (d) => (d.deliveries.some((x) => x.status === 'pending' || x.status === 'sending') || d.deliveries.length === 0 ? DELIVERY_POLL_MS : null),
  );
  const items = log.data?.deliveries;
  return (
    <section class="card table-card" aria-labelledby="delivery-log">
      <h2 id="delivery-log">Delivery log of {endpoint.url}</h2>
      {log.error != null && (
        <p class="error" role="alert">
          {describe(log.error)}
        </p>
      )}
      {items && items.length === 0 ? (
        <p class="empty">Nothing was sent to it yet. This log updates by itself.</p>
      ) : (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Delivery log table">
          {/* Explicit roles: on a phone the rows are laid out as cards, and CSS display must not drop table semantics. */}
          <table class="deliveries" role="table">
            <caption class="sr-only">Deliveries to {endpoint.url}, newest first</caption>
            <thead role="rowgroup">
              <tr role="row">
                <th scope="col" role="columnheader">
                  Event
                </th>
                <th scope="col" role="columnheader">
                  Status
                </th>
                <th scope="col" role="columnheader" class="num">
                  Attempts
                </th>
                <th scope="col" role="columnheader">
                  Last answer
                </th>
                <th scope="col" role="columnheader">
                  When
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup">
              {items?.map((d) => (
                <tr key={d.id} role="row">
                  <td role="cell" class="event">
                    <code>{d.event_type}</code>
                  </td>
                  <td role="cell" class="status">
                    <span class={d.status === 'delivered' ? 'badge completed' : d.status === 'failed' ? 'badge failed' : 'badge'}>
                      {DELIVERY_STATUS[d.status]}
                    </span>
                  </td>
                  <td role="cell" class="num attempts" data-label="Attempts">
                    {d.attempts}
                  </td>
                  <td role="cell" class="answer">
                    {d.last_status_code != null ? `HTTP ${d.last_status_code}` : d.attempts > 0 ? 'No answer' : '—'}
                    {d.last_error ? `: ${LAST_ERROR[d.last_error] ?? d.last_error}` : ''}
                    {d.last_response_excerpt && <span class="muted small excerpt">{d.last_response_excerpt}</span>}
                  </td>
                  <td role="cell" class="time">
                    {d.delivered_at
                      ? `Delivered ${when(d.delivered_at)}`
                      : d.next_attempt_at
                        ? `Next try ${when(d.next_attempt_at)}`
                        : d.last_attempt_at
                          ? `Last tried ${when(d.last_attempt_at)}`
                          : when(d.created_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Pages of the delivery log"
        page={page}
        pagination={log.data?.pagination}
        hrefOf={(n) => href('settings', {}, n > 1 ? { log: endpoint.id, page: n } : { log: endpoint.id })}
      />
    </section>
  );
}

function EndpointItem({ endpoint, shown, onDeleted }: { endpoint: Endpoint; shown: boolean; onDeleted: () => void }) {
  const { cutroom } = useStudio();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await cutroom.webhooks.delete(endpoint.id);
      onDeleted();
    } catch (err) {
      setError(describe(err));
      setBusy(false);
    }
  };
  return (
    <li class="sub endpoint">
      <div class="sub-title">
        <span class="sub-link url">{endpoint.url}</span>
      </div>
      <p class="muted small">
        {eventsInWords(endpoint.events)} · added {when(endpoint.created_at)}
      </p>
      <div class="actions">
        <Link
          class="button"
          href={href('settings', {}, { log: endpoint.id })}
          aria-current={shown ? 'true' : undefined}
          aria-label={`Delivery log of ${endpoint.url}`}
        >
          Delivery log
        </Link>
        {!confirming && (
          <button type="button" class="quiet" onClick={() => setConfirming(true)} aria-label={`Delete ${endpoint.url}`}>
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div class="confirm" role="group" aria-label={`Delete ${endpoint.url}?`}>
          <p>Delete this endpoint? Nothing more is sent to it, and its delivery log goes with it.</p>
          <div class="actions">
            <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
              Delete endpoint
            </button>
            <button type="button" class="quiet" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function Settings({ log, page }: { log: string | null; page: number }) {
  usePageTitle('Settings');
  const list = useLoad((c, signal) => c.webhooks.list({ limit: 100 }, { signal }), []);
  const [created, setCreated] = useState<Created | null>(null);
  const items = list.data?.webhooks;
  const logged = log ? items?.find((w) => w.id === log) : undefined;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Settings</h1>
          <p class="lead">
            Webhooks for this workspace, and the <a href="/api/v1/docs">API reference</a>.
          </p>
        </div>
      </div>
      <section class="card webhooks" aria-labelledby="webhooks">
        <h2 id="webhooks">Webhooks</h2>
        <p class="muted">
          Instead of asking again and again, your server can be told when work finishes: each event you choose is POSTed to the endpoint, signed, and sent again
          until it answers 2xx (for about a day). The events and their contents are in the <a href="/api/v1/docs">API reference</a>.
        </p>
        {created && <SecretOnce created={created} onDone={() => setCreated(null)} />}
        <NewEndpoint
          onCreated={(c) => {
            setCreated(c);
            list.reload();
          }}
        />
        <h3 id="endpoints">Endpoints</h3>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {items && items.length === 0 && <p class="empty">No endpoint yet.</p>}
        {items && items.length > 0 && (
          <ul class="subs" aria-labelledby="endpoints">
            {items.map((w) => (
              <EndpointItem key={w.id} endpoint={w} shown={w.id === log} onDeleted={list.reload} />
            ))}
          </ul>
        )}
      </section>
      {logged && <DeliveryLog key={logged.id} endpoint={logged} page={page} />}
      {log && items && !logged && <p class="empty card">That endpoint is not in this workspace any more.</p>}
    </>
  );
}

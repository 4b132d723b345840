import type { Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { CutroomError } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, useStudio } from '../hooks';
import { describe } from '../errors';
import { when } from '../format';
import { isPublishPlatform, type PublishPlatform } from '../../../src/shared/publish-limits.js';
import {
  NETWORK_NAMES,
  PUBLISH_FIELDS,
  fieldName,
  isRequired,
  leftText,
  networkFields,
  scheduleRefusal,
  startingValues,
  timeZoneName,
  type PublishField,
} from '../publishing';

type Done = { count: number; scheduledAt: string | null };

function FieldInput({
  platform,
  field,
  value,
  invalid,
  onChange,
}: {
  platform: PublishPlatform;
  field: PublishField;
  value: string;
  invalid: boolean;
  onChange(v: string): void;
}) {
  const id = `publish-${platform}-${field.key}`;
  const required = isRequired(platform, field.key);
  const label = (
    <label for={id}>
      {field.label}
      {required ? '' : ' (optional)'}
    </label>
  );
  const errorRef = invalid ? ' publish-error' : '';
  if (field.kind === 'choice')
    return (
      <div class="field">
        {label}
        <select
          id={id}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={errorRef.trim() || undefined}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          {required && <option value="">Choose…</option>}
          {field.values.map((v) => (
            <option key={v} value={v}>
              {field.names[v] ?? v}
            </option>
          ))}
        </select>
      </div>
    );
  const left = leftText(field, value);
  const common = {
    id,
    value,
    'aria-invalid': invalid || left.over || undefined,
    'aria-describedby': `${id}-left${errorRef}`,
    onInput: (e: Event) => onChange((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <div class="field">
      {label}
      {field.multiline ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
      <p id={`${id}-left`} class={left.over ? 'hint over' : 'hint'}>
        {left.text}
      </p>
    </div>
  );
}

/**
 * Publish one edit (POST /posts): the workspace's accounts (GET /connections) as choices, each chosen
 * network's own fields with what is left of its limits as the person types, **Schedule for** (empty:
 * now). Every refusal of the API is shown in words; an INVALID_METADATA field is marked on its input.
 */
export function PublishForm({ editId, clipTitle, headingRef }: { editId: string; clipTitle: string; headingRef?: Ref<HTMLHeadingElement> }) {
  const { cutroom } = useStudio();
  const connections = useLoad((c, signal) => c.connections.list({ limit: 100 }, { signal }), []);
  const usable = (connections.data?.connections ?? []).filter((c) => c.status === 'active' && c.can_publish_video);
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState<Partial<Record<PublishPlatform, Record<string, string>>>>({});
  const [schedule, setSchedule] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => doneRef.current?.focus(), [done]);

  const platforms = [...new Set(usable.filter((c) => chosen.includes(c.id)).map((c) => c.platform))].filter(isPublishPlatform);
  const valuesOf = (p: PublishPlatform) => values[p] ?? startingValues(p, clipTitle);

  const toggle = (id: string, on: boolean) => {
    setDone(null);
    setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setDone(null);
    const targets = usable.filter((c) => chosen.includes(c.id) && isPublishPlatform(c.platform));
    if (targets.length === 0) return setError({ text: 'Choose at least one account to publish to.' });
    let scheduledAt: string | undefined;
    if (schedule) {
      const d = new Date(schedule);
      if (Number.isNaN(d.getTime())) return setError({ text: 'The schedule is not a date and time: pick one, or leave it empty to publish now.' });
      scheduledAt = d.toISOString();
    }
    setBusy(true);
    setError(null);
    try {
      const post = await cutroom.posts.create({
        videos: [
          {
            edit_id: editId,
            targets: targets.map((c) => {
              const p = c.platform as PublishPlatform;
              return { connection_id: c.id, metadata: { [p]: networkFields(p, valuesOf(p)) } };
            }),
          },
        ],
        ...(scheduledAt ? { scheduled_at: scheduledAt } : {}),
      });
      setDone({ count: post.item_count, scheduledAt: post.scheduled_at });
    } catch (err) {
      const field = err instanceof CutroomError && err.code === 'INVALID_METADATA' && typeof err.extra?.field === 'string' ? err.extra.field : undefined;
      const past = scheduleRefusal(err, 'Schedule for');
      if (past) setError({ text: past, field: 'scheduled_at' });
      else setError({ text: field ? `${describe(err)} ${fieldName(field)} is not accepted as it is.` : describe(err), field });
    } finally {
      setBusy(false);
    }
  };

  const accounts = (n: number) => `${n} account${n === 1 ? '' : 's'}`;
  return (
    <section class="card publish" aria-labelledby="publish-h">
      <h2 id="publish-h" ref={headingRef} tabIndex={-1}>
        Publish
      </h2>
      {connections.error != null && (
        <p class="error" role="alert">
          {describe(connections.error)}
        </p>
      )}
      {connections.data && usable.length === 0 && (
        <div class="notice" role="status">
          <p>
            <strong>No account is connected to this workspace yet</strong>
            {connections.data.connections.length > 0 ? ' that can take videos (the ones connected were disconnected or cannot post video)' : ''}, so there is
            nowhere to publish.
          </p>
          <p class="small">
            Accounts (YouTube, TikTok, Instagram, or a folder on this service) are connected by the service’s operator through its admin API, with the account’s
            OAuth tokens: <code>POST /admin/v1/workspaces/&lt;workspace&gt;/connections</code> (docs/publishing.md, “Connecting accounts”). Your API key cannot
            connect one. Once connected, it appears here.
          </p>
        </div>
      )}
      {usable.length > 0 && (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>Accounts</legend>
            {usable.map((c) => (
              <label key={c.id} class="check account">
                <input type="checkbox" checked={chosen.includes(c.id)} onChange={(e) => toggle(c.id, e.currentTarget.checked)} />
                {isPublishPlatform(c.platform) ? NETWORK_NAMES[c.platform] : c.platform}: {c.account_name}
              </label>
            ))}
          </fieldset>
          {platforms.map((p) => (
            <fieldset key={p}>
              <legend>{NETWORK_NAMES[p]}</legend>
              {PUBLISH_FIELDS[p].map((f) => (
                <FieldInput
                  key={f.key}
                  platform={p}
                  field={f}
                  value={valuesOf(p)[f.key] ?? ''}
                  invalid={error?.field === `${p}.${f.key}`}
                  onChange={(v) => {
                    setDone(null);
                    setValues((all) => ({ ...all, [p]: { ...valuesOf(p), [f.key]: v } }));
                  }}
                />
              ))}
            </fieldset>
          ))}
          <div class="field">
            <label for="publish-when">Schedule for (optional)</label>
            <input
              id="publish-when"
              type="datetime-local"
              value={schedule}
              aria-invalid={error?.field === 'scheduled_at' || undefined}
              aria-describedby={error?.field === 'scheduled_at' ? 'publish-when-hint publish-error' : 'publish-when-hint'}
              onInput={(e) => setSchedule(e.currentTarget.value)}
            />
            <p id="publish-when-hint" class="hint">
              Empty: publish now. Your time zone: {timeZoneName()}.
            </p>
          </div>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Publishing…' : 'Publish'}
          </button>
          {error && (
            <p id="publish-error" class="error" role="alert">
              {error.text}
            </p>
          )}
          {done && (
            <p class="success" role="status" tabIndex={-1} ref={doneRef}>
              {done.scheduledAt ? `Scheduled for ${when(done.scheduledAt)} to ${accounts(done.count)}.` : `Publishing now to ${accounts(done.count)}.`}{' '}
              <Link href={href('posts')}>See it on Posts</Link>
            </p>
          )}
        </form>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import type { Post } from '@cutroom/sdk/browser';
import { href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { when } from '../format';
import { Pager } from '../components/pager';
import { pollMs } from '../session';
import {
  publishedLinkText,
  scheduleRefusal,
  badgeOf,
  itemStatusName,
  itemTitle,
  localInputValue,
  networkName,
  postDate,
  postStatusName,
  timeZoneName,
} from '../publishing';

const PAGE_SIZE = 10;
/** The calendar reads the posts this many at a time, at most CALENDAR_PAGES pages (newest first). */
const CALENDAR_LIMIT = 100;
const CALENDAR_PAGES = 10;

type Item = Post['items'][number];

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const monthName = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });
const dayName = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', year: 'numeric' });
const timeOnly = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Reload while something is on its way: a post being published, or one due now. */
function refreshMs(posts: Post[]): number | null {
  const now = Date.now();
  const busy = posts.some((p) => p.status === 'processing' || (p.status === 'pending' && (!p.scheduled_at || Date.parse(p.scheduled_at) <= now)));
  return busy ? pollMs('post') : null;
}

/** Same day in the person's own time zone. */
function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** The weeks of a month, Monday first; days of the other months are null. */
function weeksOf(year: number, month: number): Array<Array<Date | null>> {
  const first = new Date(year, month, 1);
  const days = new Date(year, month + 1, 0).getDate();
  const cells: Array<Date | null> = Array.from({ length: (first.getDay() + 6) % 7 }, () => null);
  for (let d = 1; d <= days; d++) cells.push(new Date(year, month, d));
  while (cells.length % 7) cells.push(null);
  const weeks: Array<Array<Date | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

function Calendar({ posts, error, more }: { posts: Post[] | undefined; error: unknown; more: boolean }) {
  const [shown, setShown] = useState(() => {
    const d = new Date();
    return { year: d.getFullYear(), month: d.getMonth() };
  });
  const move = (by: number) =>
    setShown((s) => ({ year: new Date(s.year, s.month + by, 1).getFullYear(), month: new Date(s.year, s.month + by, 1).getMonth() }));
  const title = monthName.format(new Date(shown.year, shown.month, 1));
  const today = new Date();
  return (
    <section class="card calendar" aria-labelledby="calendar-h">
      <div class="calendar-head">
        <h2 id="calendar-h">Calendar</h2>
        <div class="calendar-nav">
          <button type="button" onClick={() => move(-1)}>
            Previous month
          </button>
          <p class="calendar-month" aria-live="polite">
            {title}
          </p>
          <button type="button" onClick={() => move(1)}>
            Next month
          </button>
        </div>
      </div>
      {error != null && (
        <p class="error" role="alert">
          {describe(error)}
        </p>
      )}
      <table class="month">
        <caption class="sr-only">{title}, posts on the day they are scheduled for or went out</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d} scope="col" abbr={d}>
                <span aria-hidden="true">{d.slice(0, 3)}</span>
                <span class="sr-only">{d}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(shown.year, shown.month).map((week, w) => (
            <tr key={w}>
              {week.map((day, i) => {
                if (!day) return <td key={i} class="other" />;
                const onDay = (posts ?? []).filter((p) => sameDay(postDate(p), day)).sort((a, b) => postDate(a).getTime() - postDate(b).getTime());
                return (
                  <td key={i} class={sameDay(day, today) ? 'today' : undefined} aria-current={sameDay(day, today) ? 'date' : undefined}>
                    <span class="cal-day">{day.getDate()}</span>
                    {onDay.length > 0 && (
                      <ul class="cal-posts" aria-label={`Posts on ${dayName.format(day)}`}>
                        {onDay.map((p) => (
                          <li key={p.id} class={badgeOf(p.status).replace('badge', 'cal-post')}>
                            {timeOnly.format(postDate(p))}
                            <span class="cal-more">
                              {' '}
                              {postStatusName(p)}: {p.items[0] ? itemTitle(p.items[0]) : 'no items'}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {more && <p class="hint">Only the newest {CALENDAR_LIMIT * CALENDAR_PAGES} posts are on the calendar; older ones are in the list below.</p>}
    </section>
  );
}

function ItemRow({ post, item, account, onChanged }: { post: Post; item: Item; account: string; onChanged(): void }) {
  const { cutroom } = useStudio();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const where = `${networkName(item.platform)}: ${account}`;
  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
      onChanged();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="post-item">
      <div class="sub-title">
        <span>
          <strong>{where}</strong> · “{itemTitle(item)}”
        </span>
        <span class={badgeOf(item.status)}>{itemStatusName(item.status)}</span>
      </div>
      {item.published_url && (
        <p class="small">
          <a href={item.published_url} target="_blank" rel="noopener noreferrer">
            {publishedLinkText(item.platform)}
          </a>
          {item.published_at ? ` · published ${when(item.published_at)}` : ''}
        </p>
      )}
      {item.error_code && (
        <p class="item-error small">
          {codeInWords(item.error_code)} ({item.error_code})
        </p>
      )}
      <div class="row-actions">
        {item.status === 'failed' && (
          <button type="button" disabled={busy} aria-label={`Retry ${where}`} onClick={() => void act(() => cutroom.posts.retryItem(post.id, item.id))}>
            Retry
          </button>
        )}
        <button
          type="button"
          class="quiet"
          disabled={busy}
          aria-label={`Remove ${where}`}
          onClick={() => {
            const note = item.status === 'published' ? ' What is already published stays on the network.' : '';
            if (confirm(`Remove ${where} from this post?${note}`)) void act(() => cutroom.posts.deleteItem(post.id, item.id));
          }}
        >
          Remove
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

function postHeading(p: Post): string {
  if (p.status === 'pending' && p.scheduled_at) return `Scheduled for ${when(p.scheduled_at)}`;
  const published = p.items
    .map((i) => i.published_at)
    .filter((x): x is string => !!x)
    .sort()[0];
  return published ? `Published ${when(published)}` : `Created ${when(p.created_at)}`;
}

function PostCard({ post, accounts, onChanged }: { post: Post; accounts: Map<string, string>; onChanged(): void }) {
  const { cutroom } = useStudio();
  const [rescheduling, setRescheduling] = useState(false);
  const [time, setTime] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = `post-${post.id}`;
  const heading = postHeading(post);
  // Only a post no worker has started can be changed (PATCH answers 409 POST_ALREADY_PROCESSING after).
  const notOut = post.status === 'pending';
  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
      setRescheduling(false);
      onChanged();
    } catch (err) {
      setError(scheduleRefusal(err, 'New time') ?? describe(err));
    } finally {
      setBusy(false);
    }
  };
  const saveTime = (e: Event) => {
    e.preventDefault();
    const d = new Date(time);
    if (!time || Number.isNaN(d.getTime())) return setError('Pick the new date and time first.');
    void act(() => cutroom.posts.update(post.id, { scheduled_at: d.toISOString() }));
  };
  return (
    <li class="card post" aria-labelledby={headingId}>
      <div class="sub-title">
        <h3 id={headingId}>{heading}</h3>
        <span class={badgeOf(post.status)}>{postStatusName(post)}</span>
      </div>
      <ul class="post-items" aria-label={`Items of the post ${heading.toLowerCase()}`}>
        {post.items.map((i) => (
          <ItemRow key={i.id} post={post} item={i} account={accounts.get(i.connection_id) ?? i.connection_id} onChanged={onChanged} />
        ))}
      </ul>
      {notOut && (
        <div class="row-actions">
          <button
            type="button"
            aria-expanded={rescheduling}
            onClick={() => {
              setError(null);
              setTime(localInputValue(post.scheduled_at ? new Date(post.scheduled_at) : new Date(Date.now() + 3_600_000)));
              setRescheduling((r) => !r);
            }}
          >
            Reschedule
          </button>
          <button
            type="button"
            class="quiet"
            disabled={busy}
            onClick={() => {
              if (confirm('Delete this post? Nothing of it will be published.')) void act(() => cutroom.posts.delete(post.id));
            }}
          >
            Delete post
          </button>
        </div>
      )}
      {notOut && rescheduling && (
        <form class="reschedule" onSubmit={saveTime} noValidate>
          <div class="field">
            <label for={`${headingId}-time`}>New time</label>
            <input
              id={`${headingId}-time`}
              type="datetime-local"
              value={time}
              aria-describedby={`${headingId}-time-hint`}
              onInput={(e) => setTime(e.currentTarget.value)}
            />
            <p id={`${headingId}-time-hint`} class="hint">
              Your time zone: {timeZoneName()}.
            </p>
          </div>
          <div class="row-actions">
            <button type="submit" class="primary" disabled={busy}>
              Save new time
            </button>
            <button type="button" disabled={busy} onClick={() => void act(() => cutroom.posts.update(post.id, { scheduled_at: null }))}>
              Publish now
            </button>
          </div>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

/** The workspace's posts: a month calendar of them, and the list with each item's state and what can still be done. */
export function Posts({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Posts, page ${page}` : 'Posts');
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  const list = useLoad(
    (c, signal) => c.posts.list({ page, limit: PAGE_SIZE }, { signal }),
    [page, version],
    (d) => refreshMs(d.posts),
  );
  const calendar = useLoad(
    async (c, signal) => {
      const posts: Post[] = [];
      for (let n = 1; n <= CALENDAR_PAGES; n++) {
        const one = await c.posts.list({ page: n, limit: CALENDAR_LIMIT }, { signal });
        posts.push(...one.posts);
        if (!one.pagination.has_next_page) return { posts, more: false };
      }
      return { posts, more: true };
    },
    [version],
    (d) => refreshMs(d.posts),
  );
  const connections = useLoad((c, signal) => c.connections.list({ limit: 100 }, { signal }), []);
  const accounts = new Map((connections.data?.connections ?? []).map((c) => [c.id, c.account_name]));
  const posts = list.data?.posts;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Posts</h1>
          <p class="lead">Clips published, on their way, or scheduled for later. Publish a clip from its editor.</p>
        </div>
      </div>
      <Calendar posts={calendar.data?.posts} error={calendar.error} more={calendar.data?.more ?? false} />
      <section class="card" aria-labelledby="posts-h">
        <h2 id="posts-h">All posts</h2>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {posts && posts.length === 0 && <p class="empty">Nothing published or scheduled yet.</p>}
        {posts && posts.length > 0 && (
          <ul class="posts" aria-label="Posts, newest first">
            {posts.map((p) => (
              <PostCard key={p.id} post={p} accounts={accounts} onChanged={reload} />
            ))}
          </ul>
        )}
        <Pager label="Pages of the posts" page={page} pagination={list.data?.pagination} hrefOf={(n) => href('posts', {}, n > 1 ? { page: n } : undefined)} />
      </section>
    </>
  );
}

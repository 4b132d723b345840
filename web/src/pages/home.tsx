import { ok } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle } from '../hooks';
import { describe } from '../errors';
import { credits, day, when } from '../format';
import { pollMs } from '../session';
import { SubmissionItem, running } from '../components/submission-item';

export function Home() {
  usePageTitle('Home');
  const account = useLoad(async (c, signal) => {
    const [workspace, balance] = await Promise.all([ok(c.api.GET('/api/v1/workspace', { signal })), ok(c.api.GET('/api/v1/balance', { signal }))]);
    return { workspace, balance };
  }, []);
  // The latest submissions, refreshed while one of them runs (the API asks for 10 to 15 s between polls).
  const subs = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/clips', { params: { query: { limit: 10 } }, signal })),
    [],
    (list) => (list.submissions.some(running) ? pollMs('submission') : null),
  );

  const ws = account.data?.workspace;
  const bal = account.data?.balance;
  return (
    <>
      <div class="page-head">
        <div>
          <p class="eyebrow">Workspace</p>
          <h1 tabIndex={-1}>{ws ? ws.name : 'Home'}</h1>
        </div>
        <Link href={href('newClips')} class="button primary">
          New clips
        </Link>
      </div>
      {account.error != null && (
        <p class="error" role="alert">
          {describe(account.error)}
        </p>
      )}
      <section class="stats" aria-label="Credits">
        <div class="stat card">
          <h2 class="stat-label">Balance</h2>
          {bal ? (
            bal.unlimited ? (
              <p class="stat-value">
                Unlimited
                <span class="stat-note">{bal.unlimited_until ? `free usage until ${day(bal.unlimited_until)}` : 'free usage, no end date'}</span>
              </p>
            ) : (
              <p class="stat-value">
                {credits(bal.balance)}
                <span class="stat-note">1 credit is 1 minute of video</span>
              </p>
            )
          ) : (
            <p class="stat-value muted">…</p>
          )}
        </div>
        {ws && (
          <div class="stat card">
            <h2 class="stat-label">Plan</h2>
            <p class="stat-value">
              {ws.plan_name}
              <span class="stat-note">
                {ws.member_count} member{ws.member_count === 1 ? '' : 's'}
              </span>
            </p>
          </div>
        )}
      </section>

      <section aria-labelledby="latest">
        <h2 id="latest">Latest submissions</h2>
        {subs.error != null && (
          <p class="error" role="alert">
            {describe(subs.error)}
          </p>
        )}
        {subs.data && subs.data.submissions.length === 0 && (
          <p class="empty card">
            No clips yet. <Link href={href('newClips')}>Get your first clips</Link> from a video file or a link.
          </p>
        )}
        <ul class="subs" aria-live="polite">
          {subs.data?.submissions.map((s) => (
            <SubmissionItem key={s.id} s={s} label={`Submission of ${when(s.created_at)}`} />
          ))}
        </ul>
      </section>
    </>
  );
}

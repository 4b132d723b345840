import { ok } from '@cutroom/sdk/browser';
import { Pager } from '../components/pager';
import { href } from '../router';
import { useLoad, usePageTitle } from '../hooks';
import { describe } from '../errors';
import { credits, day, when } from '../format';

const PAGE_SIZE = 20;

const KIND: Record<string, string> = { grant: 'Added', debit: 'Taken', charge: 'Charged', refund: 'Refunded' };

/** What a ledger row was for, in words. */
function what(e: { kind: string; reason: string; job_type: string | null }): string {
  const reason = e.reason.replace(/_/g, ' ');
  const job = e.job_type ? e.job_type.replace(/[._]/g, ' ') : null;
  return [KIND[e.kind] ?? e.kind, job ?? (reason && reason !== e.kind ? reason : null)].filter(Boolean).join(': ');
}

export function Credits({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Credits, page ${page}` : 'Credits');
  const balance = useLoad((c, signal) => ok(c.api.GET('/api/v1/balance', { signal })), []);
  const ledger = useLoad((c, signal) => ok(c.api.GET('/api/v1/balance/history', { params: { query: { page, limit: PAGE_SIZE } }, signal })), [page]);
  const p = ledger.data?.pagination;
  const b = balance.data;

  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Credits</h1>
          <p class="lead">
            {b
              ? b.unlimited
                ? `Unlimited: free usage ${b.unlimited_until ? `until ${day(b.unlimited_until)}` : 'with no end date'}. Jobs are listed at what they would cost, marked waived.`
                : `Balance: ${credits(b.balance)}. 1 credit is 1 processed minute of video.`
              : '\u00a0'}
          </p>
        </div>
      </div>
      {(ledger.error ?? balance.error) != null && (
        <p class="error" role="alert">
          {describe(ledger.error ?? balance.error)}
        </p>
      )}
      <section class="card table-card" aria-labelledby="ledger">
        <h2 id="ledger">History</h2>
        {ledger.data && ledger.data.entries.length === 0 ? (
          <p class="empty">No credits were added or used yet.</p>
        ) : (
          <div class="table-scroll" tabIndex={0} role="region" aria-label="History table">
            {/* Explicit roles: on a phone the rows are laid out as cards, and CSS display must not drop table semantics. */}
            <table class="ledger" role="table">
              <caption class="sr-only">Credits added and used, newest first{p ? `, page ${p.current_page} of ${Math.max(1, p.total_pages)}` : ''}</caption>
              <thead role="rowgroup">
                <tr role="row">
                  <th scope="col" role="columnheader">
                    Date
                  </th>
                  <th scope="col" role="columnheader">
                    What
                  </th>
                  <th scope="col" role="columnheader" class="num">
                    Amount
                  </th>
                  <th scope="col" role="columnheader" class="num">
                    Balance after
                  </th>
                </tr>
              </thead>
              <tbody role="rowgroup">
                {ledger.data?.entries.map((e) => (
                  <tr key={e.id} role="row" class={e.waived ? 'waived' : undefined}>
                    <td role="cell" class="date">
                      {when(e.created_at)}
                    </td>
                    <td role="cell" class="what">
                      {what(e)}
                      {e.waived && <span class="badge waived-badge">Waived</span>}
                    </td>
                    <td role="cell" class="num amount">
                      {e.waived ? (
                        <s aria-label={`${e.amount} credits, waived`}>{e.amount > 0 ? `+${e.amount}` : e.amount}</s>
                      ) : e.amount > 0 ? (
                        `+${e.amount}`
                      ) : (
                        e.amount
                      )}
                    </td>
                    <td role="cell" class="num after" data-label="Balance after">
                      {e.balance_after}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager label="Pages of the history" page={page} pagination={p} hrefOf={(n) => href('credits', {}, n > 1 ? { page: n } : undefined)} />
      </section>
    </>
  );
}

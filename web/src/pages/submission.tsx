import { useEffect, useState } from 'preact/hooks';
import { ok, type Clip, type Submission } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle } from '../hooks';
import { codeInWords, describe } from '../errors';
import { credits, length, stageName, when } from '../format';
import { pollMs } from '../session';
import { StageBar } from '../components/stage-bar';
import { ClipCard } from '../components/clip-card';

function Progress({ sub }: { sub: Submission }) {
  return (
    <section class="card" aria-labelledby="progress">
      <h2 id="progress">{stageName(sub.status)}</h2>
      <StageBar status={sub.status} />
      <p class="muted small" aria-live="polite">
        {sub.waiting_reason ? `Waiting for the source. ${codeInWords(sub.waiting_reason)} ` : ''}
        {sub.queue_position != null && sub.queue_position > 0 ? `Number ${sub.queue_position} in line. ` : ''}
        {sub.estimated_time != null ? `About ${length(sub.estimated_time)} left. ` : ''}
        This page updates by itself.
      </p>
    </section>
  );
}

export function SubmissionPage({ videoId, submissionId }: { videoId: string; submissionId: string }) {
  usePageTitle('Clips');
  const sub = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}', { params: { path: { videoId, submissionId } }, signal })),
    [videoId, submissionId],
    (s) => (s.status === 'completed' || s.status === 'failed' ? null : pollMs('submission')),
  );
  const completed = sub.data?.status === 'completed';
  const list = useLoad(
    async (c, signal) =>
      completed
        ? ok(
            c.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
              params: { path: { videoId, submissionId }, query: { sort: 'rating', order: 'desc', limit: 100 } },
              signal,
            }),
          )
        : null,
    [videoId, submissionId, completed],
  );
  const [clips, setClips] = useState<Clip[]>([]);
  useEffect(() => setClips(list.data?.clips ?? []), [list.data]);
  const [keptOnly, setKeptOnly] = useState(false);

  const s = sub.data;
  const shown = keptOnly ? clips.filter((c) => c.review === 'kept') : clips;
  const kept = clips.filter((c) => c.review === 'kept').length;
  return (
    <>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={href('home')}>Home</Link> / Submission
          </p>
          <h1 tabIndex={-1}>
            {completed
              ? list.data
                ? `${clips.length} clip${clips.length === 1 ? '' : 's'}`
                : 'Your clips'
              : s?.status === 'failed'
                ? 'Clipping failed'
                : 'Getting your clips'}
          </h1>
          {s && (
            <p class="lead">
              Started {when(s.created_at)}
              {s.credits_charged > 0 ? ` · ${credits(s.credits_charged)}` : ''}
            </p>
          )}
        </div>
      </div>
      {(sub.error ?? list.error) != null && (
        <p class="error" role="alert">
          {describe(sub.error ?? list.error)}
        </p>
      )}
      {s && !completed && s.status !== 'failed' && <Progress sub={s} />}
      {s?.status === 'failed' && (
        <p class="error" role="alert">
          {s.error_code ? codeInWords(s.error_code) : 'Clipping failed.'} Any credits charged were refunded.
        </p>
      )}
      {completed && (
        <>
          <div class="toolbar">
            <label class="check">
              <input type="checkbox" checked={keptOnly} onChange={(e) => setKeptOnly(e.currentTarget.checked)} />
              Kept clips only
            </label>
            <span class="muted" aria-live="polite">
              {kept} kept of {clips.length}
            </span>
          </div>
          {shown.length === 0 && <p class="empty">{keptOnly ? 'No clip is kept yet: press Keep on the ones you like.' : 'This video gave no clips.'}</p>}
          <div class="clips">
            {shown.map((clip) => (
              <ClipCard
                key={clip.id}
                clip={clip}
                videoId={videoId}
                submissionId={submissionId}
                onReview={(next) => setClips((all) => all.map((c) => (c.id === next.id ? next : c)))}
              />
            ))}
          </div>
        </>
      )}
    </>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ok, type Clip, type Submission } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { credits, length, stageName, when } from '../format';
import { pollMs } from '../session';
import { StageBar } from '../components/stage-bar';
import { ClipPlayer } from '../components/player';
import { RenderControl } from '../components/render';

type Review = Clip['review'];

/** The sub-scores a clip's rating is made of, as a card names them. */
const SCORES: ReadonlyArray<[keyof NonNullable<Clip['score_details']>, string]> = [
  ['hook', 'Hook'],
  ['coherence', 'Stands alone'],
  ['value', 'Value'],
  ['delivery', 'Delivery'],
];

function ClipCard({ clip, videoId, submissionId, onReview }: { clip: Clip; videoId: string; submissionId: string; onReview: (c: Clip) => void }) {
  const { cutroom } = useStudio();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = `clip-${clip.id}`;

  const review = async (want: Review) => {
    const next = clip.review === want ? null : want;
    setBusy(true);
    setError(null);
    try {
      onReview(await cutroom.setClipReview(videoId, submissionId, clip.id, next));
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class="card clip" aria-labelledby={headingId}>
      <h2 id={headingId}>{clip.title}</h2>
      <p class="clip-meta">
        <span class="rating">Rating {clip.rating.toFixed(1)} / 10</span>
        <span>Length {length(clip.end_time - clip.start_time)}</span>
      </p>
      {clip.reason && <p class="reason">{clip.reason}</p>}
      {clip.score_details && (
        <dl class="scores" aria-label={`Scores of ${clip.title}`}>
          {SCORES.map(([key, name]) => (
            <div key={key}>
              <dt>{name}</dt>
              <dd>{clip.score_details![key].toFixed(1)}</dd>
            </div>
          ))}
        </dl>
      )}
      {clip.matched.length > 0 && <p class="muted small">Matched: {clip.matched.join(', ')}</p>}
      <ClipPlayer editId={clip.edit_id ?? null} fallbackUrl={clip.play_url} label={clip.title} />
      <div class="actions" role="group" aria-label={`Review ${clip.title}`}>
        <button type="button" class="keep" aria-pressed={clip.review === 'kept'} disabled={busy} onClick={() => void review('kept')}>
          Keep
        </button>
        <button type="button" class="skip-btn" aria-pressed={clip.review === 'skipped'} disabled={busy} onClick={() => void review('skipped')}>
          Skip
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <Link class="button" href={href('editor', { videoId, submissionId, clipId: clip.id })} aria-label={`Edit ${clip.title}`}>
          Edit
        </Link>
      </div>
      {clip.edit_id && <RenderControl editId={clip.edit_id} label={clip.title} />}
    </article>
  );
}

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

import { useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { Clip } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useStudio } from '../hooks';
import { describe } from '../errors';
import { length } from '../format';
import { ClipPlayer } from './player';
import { RenderControl } from './render';

type Review = Clip['review'];

/** The sub-scores a clip's rating is made of, as a card names them. */
const SCORES: ReadonlyArray<[keyof NonNullable<Clip['score_details']>, string]> = [
  ['hook', 'Hook'],
  ['coherence', 'Stands alone'],
  ['value', 'Value'],
  ['delivery', 'Delivery'],
];

/**
 * One clip of a submission (a live broadcast's clip is its batch submission's clip): title, rating and
 * its sub-scores, the player, Keep / Skip, Edit (the editor page) and Render. `level` is its heading's
 * level under the page's headings; `children` adds lines under the rating (where in a broadcast).
 */
export function ClipCard({
  clip,
  videoId,
  submissionId,
  onReview,
  level = 2,
  children,
}: {
  clip: Clip;
  videoId: string;
  submissionId: string;
  onReview: (c: Clip) => void;
  level?: 2 | 3 | 4;
  children?: ComponentChildren;
}) {
  const { cutroom } = useStudio();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = `clip-${clip.id}`;
  const Heading = `h${level}` as 'h2';

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
      <Heading id={headingId} class="clip-title">
        {clip.title}
      </Heading>
      <p class="clip-meta">
        <span class="rating">Rating {clip.rating.toFixed(1)} / 10</span>
        <span>Length {length(clip.end_time - clip.start_time)}</span>
      </p>
      {children}
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

import type { Submission } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { codeInWords } from '../errors';
import { credits, length, stageName } from '../format';
import { StageBar } from './stage-bar';

export const running = (s: Submission) => s.status !== 'completed' && s.status !== 'failed';

/** One submission in a list (Home's latest, a video monitor's uploads): a link to its page, its stage or its outcome. */
export function SubmissionItem({ s, label }: { s: Submission; label: string }) {
  return (
    <li class="sub card">
      <div class="sub-main">
        <Link href={href('submission', { videoId: s.video_id, submissionId: s.id })} class="sub-link">
          {label}
        </Link>
        <span class={`badge ${s.status}`}>{stageName(s.status)}</span>
      </div>
      {running(s) ? (
        <>
          <StageBar status={s.status} />
          <p class="muted small">
            {s.queue_position != null && s.queue_position > 0 ? `Number ${s.queue_position} in line. ` : ''}
            {s.estimated_time != null ? `About ${length(s.estimated_time)} left.` : ''}
          </p>
        </>
      ) : (
        <p class="muted small">
          {s.status === 'completed'
            ? `${s.clips_count} clip${s.clips_count === 1 ? '' : 's'}`
            : `Failed${s.error_code ? `: ${codeInWords(s.error_code)}` : ''}`}
          {s.credits_charged > 0 ? ` · ${credits(s.credits_charged)}` : ''}
        </p>
      )}
    </li>
  );
}

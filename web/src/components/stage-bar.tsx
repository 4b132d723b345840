import { STAGES, stageName, stageNumber } from '../format';

/** Where a submission is among its stages: a progress bar and the stage's name. */
export function StageBar({ status }: { status: string }) {
  const n = stageNumber(status);
  const total = STAGES.length - 1;
  return (
    <div class="stage">
      <progress max={total} value={Math.max(0, n)} aria-label={`Stage ${Math.max(0, n) + 1} of ${STAGES.length}: ${stageName(status)}`} />
    </div>
  );
}

import { percent } from '../format';

/** A file going up to a signed URL: its name, bytes sent of the total, and how to cancel it. */
export type Upload = { name: string; sent: number; total: number; ctrl: AbortController };

/** "Uploading <name>: 42 %", a labelled progress bar and **Cancel upload**, announced as a status. */
export function UploadProgress({ id, upload }: { id: string; upload: Upload }) {
  const pct = percent(upload.sent, upload.total);
  return (
    <div class="upload" role="status">
      <label for={id}>
        Uploading {upload.name}: {pct} %
      </label>
      <progress id={id} max={100} value={pct} />
      <button type="button" class="quiet" onClick={() => upload.ctrl.abort()}>
        Cancel upload
      </button>
    </div>
  );
}

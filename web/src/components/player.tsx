import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ok, type Cutroom } from '@cutroom/sdk/browser';
import { useStudio } from '../hooks';
import { describe } from '../errors';

/**
 * Preview renders are asked for one at a time per page (a plan allows only a few renders at once; the
 * rest stay free for the final ones), the first asked first.
 */
let chain: Promise<unknown> = Promise.resolve();
function queued<T>(task: () => Promise<T>): Promise<T> {
  const run = chain.then(task, task);
  chain = run.catch(() => undefined);
  return run;
}

/** The signed URL of an edit's preview render (360 px, POST /renders quality "preview"): cached by the service, else made now. */
export async function previewUrl(cutroom: Cutroom, editId: string, signal: AbortSignal): Promise<string> {
  let render = await ok(cutroom.api.POST('/api/v1/renders', { body: { edit_id: editId, quality: 'preview' }, signal }));
  if (render.status !== 'completed') render = await cutroom.waitForRender(render.id, { signal });
  if (render.download_url) return render.download_url;
  const file = await ok(cutroom.api.GET('/api/v1/renders/{renderId}/download', { params: { path: { renderId: render.id } }, signal }));
  return file.url;
}

export interface PlayerProps {
  /** The edit whose preview plays; null: only `fallbackUrl`. */
  editId: string | null;
  /** What plays until the preview is ready (the clip's play_url). */
  fallbackUrl: string;
  /** Names the player: "Clip: <title>". */
  label: string;
  videoRef?: Ref<HTMLVideoElement>;
  /** Sees the media time as it plays, and which media it is. */
  onTime?: (seconds: number, media: 'preview' | 'original') => void;
  /** What the caption says once the preview plays (default: "Preview of the current edit"). */
  previewNote?: string;
}

/** A phone-shaped player of a clip as it will look: its edit's preview, with the original cut shown until that is made. */
export function ClipPlayer({ editId, fallbackUrl, label, videoRef, onTime, previewNote = 'Preview of the current edit' }: PlayerProps) {
  const { cutroom } = useStudio();
  const [preview, setPreview] = useState<{ editId: string; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!editId) return;
    const ctrl = new AbortController();
    setError(null);
    queued(() => (ctrl.signal.aborted ? Promise.reject(ctrl.signal.reason) : previewUrl(cutroom, editId, ctrl.signal))).then(
      (url) => !ctrl.signal.aborted && setPreview({ editId, url }),
      (err: unknown) => !ctrl.signal.aborted && setError(describe(err)),
    );
    return () => ctrl.abort();
  }, [cutroom, editId]);

  const ready = preview !== null && preview.editId === editId;
  const media = ready ? 'preview' : 'original';
  return (
    <figure class="player">
      <div class="phone">
        <video
          ref={videoRef}
          key={ready ? preview.url : fallbackUrl}
          src={ready ? preview.url : fallbackUrl}
          controls
          playsInline
          preload="metadata"
          aria-label={`Clip: ${label}`}
          onTimeUpdate={(e) => onTime?.(e.currentTarget.currentTime, media)}
          onSeeked={(e) => onTime?.(e.currentTarget.currentTime, media)}
          onLoadedMetadata={(e) => onTime?.(e.currentTarget.currentTime, media)}
        />
      </div>
      <figcaption class="phone-note" aria-live="polite">
        {error ? `Preview not available: ${error}` : ready ? previewNote : editId ? 'Original cut; the preview is being made…' : 'Original cut'}
      </figcaption>
    </figure>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { ok, type Render } from '@cutroom/sdk/browser';
import { useStudio } from '../hooks';
import { describe } from '../errors';

type State =
  | { step: 'idle' }
  | { step: 'working'; render?: Render }
  | { step: 'done'; url: string; filename: string; fromCache: boolean }
  | { step: 'failed'; error: string };

/** Render (final quality) of an edit, its progress, then a Download link to the MP4; a render from the cache says so. */
export function RenderControl({ editId, label }: { editId: string; label?: string }) {
  const { cutroom } = useStudio();
  const [state, setState] = useState<State>({ step: 'idle' });
  const ctrl = useRef<AbortController | null>(null);

  // Another edit (a new version) needs its own render; leaving the page stops watching.
  useEffect(() => {
    setState({ step: 'idle' });
    return () => ctrl.current?.abort();
  }, [editId]);

  const start = async () => {
    const c = new AbortController();
    ctrl.current = c;
    setState({ step: 'working' });
    try {
      let render = await ok(cutroom.api.POST('/api/v1/renders', { body: { edit_id: editId }, signal: c.signal }));
      const fromCache = render.from_cache;
      if (render.status !== 'completed') {
        setState({ step: 'working', render });
        render = await cutroom.waitForRender(render.id, { signal: c.signal, onPoll: (r) => setState({ step: 'working', render: r }) });
      }
      const file = await ok(cutroom.api.GET('/api/v1/renders/{renderId}/download', { params: { path: { renderId: render.id } }, signal: c.signal }));
      setState({ step: 'done', url: file.url, filename: file.filename, fromCache });
    } catch (err) {
      if (!c.signal.aborted) setState({ step: 'failed', error: describe(err) });
    }
  };

  const progress = state.step === 'working' ? (state.render?.progress ?? 0) : 0;
  return (
    <div class="render">
      {state.step !== 'done' && (
        <button type="button" onClick={() => void start()} disabled={state.step === 'working'} aria-label={label ? `Render ${label}` : undefined}>
          {state.step === 'working' ? 'Rendering…' : 'Render'}
        </button>
      )}
      <div aria-live="polite">
        {state.step === 'working' && (
          <>
            <label class="small">
              {state.render?.status === 'queued' ? 'Waiting for a free renderer' : `Rendering: ${progress} %`}
              <progress max={100} value={progress} />
            </label>
          </>
        )}
        {state.step === 'done' && (
          <>
            <a class="button primary" href={state.url} download={state.filename}>
              Download
            </a>
            <p class="small muted">{state.fromCache ? 'Served from the cache: this exact file was already rendered.' : 'Rendered now, in full quality.'}</p>
          </>
        )}
        {state.step === 'failed' && (
          <p class="error" role="alert">
            {state.error}
          </p>
        )}
      </div>
    </div>
  );
}

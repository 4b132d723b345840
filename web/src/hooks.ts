import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { CutroomError, type Cutroom } from '@cutroom/sdk/browser';

export interface Studio {
  cutroom: Cutroom;
  /** Forgets the key (Sign out, or a key the service stopped accepting). */
  signOut(reason?: string): void;
}

export const StudioContext = createContext<Studio | null>(null);

export function useStudio(): Studio {
  const s = useContext(StudioContext);
  if (!s) throw new Error('useStudio outside a signed-in page');
  return s;
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/**
 * Loads with the client when `deps` change; `refreshMs(data)` (a number) reloads in the background
 * after that long, so running jobs update without a reload. A key the service no longer accepts signs out.
 */
export function useLoad<T>(load: (c: Cutroom, signal: AbortSignal) => Promise<T>, deps: unknown[], refreshMs?: (data: T) => number | null): Loaded<T> {
  const { cutroom, signOut } = useStudio();
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const refreshRef = useRef(refreshMs);
  refreshRef.current = refreshMs;

  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      try {
        const data = await loadRef.current(cutroom, ctrl.signal);
        if (ctrl.signal.aborted) return;
        setState({ data, loading: false });
        const next = refreshRef.current?.(data);
        if (next != null) timer = setTimeout(() => void run(), next);
      } catch (error) {
        if (ctrl.signal.aborted) return;
        if (error instanceof CutroomError && error.status === 401) return signOut('Your API key is no longer accepted: sign in again.');
        setState((s) => ({ data: s.data, error, loading: false }));
      }
    };
    setState((s) => ({ data: s.data, loading: true }));
    void run();
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [cutroom, tick, ...deps]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Names the tab after the page. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Cutroom Studio`;
  }, [title]);
}

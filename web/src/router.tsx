import type { AnchorHTMLAttributes, ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { STUDIO_PAGES, type StudioPage } from '../../src/shared/studio-pages.js';

/** The page an address names, with its `:params`; the service serves index.html at exactly these addresses. */
export type Route =
  { page: StudioPage; params: Record<string, string>; query: URLSearchParams } | { page: 'notFound'; params: Record<string, string>; query: URLSearchParams };

export function match(pathname: string, search = ''): Route {
  const query = new URLSearchParams(search);
  const parts = pathname.split('/').filter(Boolean);
  for (const [page, pattern] of Object.entries(STUDIO_PAGES) as [StudioPage, string][]) {
    const want = pattern.split('/').filter(Boolean);
    if (want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((seg, i) => {
      if (seg.startsWith(':')) {
        params[seg.slice(1)] = decodeURIComponent(parts[i]);
        return true;
      }
      return seg === parts[i];
    });
    if (ok) return { page, params, query };
  }
  return { page: 'notFound', params: {}, query };
}

/** The address of a page: `href('submission', { videoId, submissionId })`. */
export function href(page: StudioPage, params: Record<string, string> = {}, query?: Record<string, string | number>): string {
  const path = STUDIO_PAGES[page].replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const q = query ? new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString() : '';
  return q ? `${path}?${q}` : path;
}

const CHANGED = 'studio:navigate';

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGED));
}

/** The current route, following links, navigate() and the browser's back and forward. */
export function useRoute(): Route {
  const read = () => match(location.pathname, location.search);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}

type AnchorProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

/** A link inside the Studio: a real `<a href>` (opens in a new tab, copies), navigated in place on a plain click. */
export function Link(props: AnchorProps) {
  const { href: to, onClick, ...rest } = props;
  return (
    <a
      {...rest}
      href={to}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    />
  );
}

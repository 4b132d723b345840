import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { clearSession, clientFor, loadSession, type Session } from './session';
import { StudioContext, type Studio } from './hooks';
import { Link, href, useRoute, type Route } from './router';
import { SignIn } from './pages/sign-in';
import { Home } from './pages/home';
import { NewClips } from './pages/new-clips';
import { Credits } from './pages/credits';
import { SubmissionPage } from './pages/submission';
import { Editor } from './pages/editor';
import { NotFound } from './pages/not-found';

const NAV = [
  ['home', 'Home'],
  ['newClips', 'New clips'],
  ['credits', 'Credits'],
] as const;

function Page({ route }: { route: Route }) {
  const p = route.params;
  switch (route.page) {
    case 'home':
      return <Home />;
    case 'newClips':
      return <NewClips />;
    case 'credits':
      return <Credits page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'submission':
      return <SubmissionPage videoId={p.videoId} submissionId={p.submissionId} />;
    case 'editor':
      return <Editor key={p.clipId} videoId={p.videoId} submissionId={p.submissionId} clipId={p.clipId} />;
    default:
      return <NotFound />;
  }
}

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(loadSession);
  const [notice, setNotice] = useState<string | null>(null);
  const studio = useMemo<Studio | null>(
    () =>
      session && {
        cutroom: clientFor(session),
        signOut(reason?: string) {
          clearSession();
          setNotice(reason ?? null);
          setSession(null);
        },
      },
    [session],
  );

  // After a move to another page, focus goes to its heading, so a keyboard or screen reader starts there.
  const first = useRef(true);
  const address = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route.page, address]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="top-inner">
          <Link href={href('home')} class="brand" aria-label="Cutroom Studio, home">
            <span class="brand-mark" aria-hidden="true" />
            Cutroom <span class="brand-sub">Studio</span>
          </Link>
          {studio && (
            <nav aria-label="Main">
              <ul>
                {NAV.map(([page, label]) => (
                  <li key={page}>
                    <Link href={href(page)} aria-current={route.page === page ? 'page' : undefined}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {studio && (
            <button type="button" class="quiet sign-out" onClick={() => studio.signOut()}>
              Sign out
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {studio ? (
          <StudioContext.Provider value={studio}>
            <Page route={route} />
          </StudioContext.Provider>
        ) : (
          <SignIn
            notice={notice}
            onSignedIn={(s) => {
              setNotice(null);
              setSession(s);
            }}
          />
        )}
      </main>
    </>
  );
}

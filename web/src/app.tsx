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
import { Transcriptions } from './pages/transcriptions';
import { TranscriptionPage } from './pages/transcription';
import { Generations } from './pages/generations';
import { Monitors } from './pages/monitors';
import { MonitorPage } from './pages/monitor';
import { Settings } from './pages/settings';
import { Personas } from './pages/personas';
import { PersonaPage } from './pages/personas-one';
import { Posts } from './pages/posts';
import type { StudioPage } from '../../src/shared/studio-pages.js';

/** The header's links, and the pages under each (a transcription is under Transcriptions). */
const NAV: ReadonlyArray<readonly [StudioPage, string, readonly StudioPage[]]> = [
  ['home', 'Home', ['submission', 'editor']],
  ['newClips', 'New clips', []],
  ['posts', 'Posts', []],
  ['transcriptions', 'Transcriptions', ['transcription']],
  ['monitors', 'Monitors', ['monitor']],
  ['personas', 'Personas', ['persona']],
  ['generations', 'Generations', []],
  ['credits', 'Credits', []],
  ['settings', 'Settings', []],
];

function Page({ route }: { route: Route }) {
  const p = route.params;
  switch (route.page) {
    case 'home':
      return <Home />;
    case 'newClips':
      return <NewClips />;
    case 'posts':
      return <Posts page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'credits':
      return <Credits page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'submission':
      return <SubmissionPage videoId={p.videoId} submissionId={p.submissionId} />;
    case 'editor':
      return <Editor key={p.clipId} videoId={p.videoId} submissionId={p.submissionId} clipId={p.clipId} />;
    case 'transcriptions':
      return <Transcriptions page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'transcription':
      return <TranscriptionPage key={p.transcriptionId} transcriptionId={p.transcriptionId} />;
    case 'generations':
      return <Generations page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'monitors':
      return <Monitors page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'monitor':
      return <MonitorPage key={p.monitorId} monitorId={p.monitorId} page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'settings':
      return <Settings log={route.query.get('log')} page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'personas':
      return <Personas page={Math.max(1, Number(route.query.get('page')) || 1)} />;
    case 'persona':
      return <PersonaPage key={p.personaId} personaId={p.personaId} />;
    default:
      return <NotFound />;
  }
}

/**
 * The header's links. On a phone (the CSS's narrow layout) they sit behind a **Menu** button
 * (`aria-expanded`): Escape closes it and gives the focus back to the button, and so does choosing a link.
 */
function MainNav({ route }: { route: Route }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const address = `${location.pathname}${location.search}`;
  useEffect(() => setOpen(false), [address]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    // A click outside the open menu closes it too.
    const onClick = (e: MouseEvent) => {
      if (!(e.target instanceof Node) || !button.current?.parentElement?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);
  return (
    <nav aria-label="Main" class={open ? 'main-nav open' : 'main-nav'}>
      <button ref={button} type="button" class="menu-button" aria-expanded={open} aria-controls="main-links" onClick={() => setOpen((o) => !o)}>
        <span class="menu-icon" aria-hidden="true" />
        Menu
      </button>
      <ul id="main-links">
        {NAV.map(([page, label, under]) => (
          <li key={page}>
            <Link href={href(page)} aria-current={route.page === page ? 'page' : under.includes(route.page as StudioPage) ? 'true' : undefined}>
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
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
          {studio && <MainNav route={route} />}
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

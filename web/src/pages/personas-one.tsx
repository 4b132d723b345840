import { useEffect, useMemo, useState } from 'preact/hooks';
import { acceptedExtensions, type Persona, type PersonaSource, type PersonaVideo, type Schemas } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { credits, when } from '../format';
import { UploadProgress, type Upload } from '../components/upload-progress';
import { VoteButtons } from '../components/vote-buttons';
import { pollMs } from '../session';
import { optionName, portraitPrice, portraitState, traitName, type PersonaCatalog } from './personas';

type Quote = Schemas['PersonaSwapQuote'];
type Quality = 'standard' | 'high';
type Replace = 'person' | 'head';
/** The swap's source: an uploaded file (measured), or a video of the workspace's library. */
type Source = { kind: 'upload'; name: string; media: PersonaSource } | { kind: 'library'; videoId: string };

const VIDEO_EXTENSIONS = acceptedExtensions('video');
/** GET /personas/{id}/videos/{videoId}: "poll every 10 seconds". */
const VIDEO_POLL_MS = 10_000;

function Portrait({ p }: { p: Persona }) {
  const name = p.name ?? 'the unsaved persona';
  return (
    <figure class="portrait card">
      {p.image_url ? (
        <img src={p.image_url} alt={`Portrait of ${name}, the current version`} width={768} height={768} />
      ) : (
        <div class="portrait-empty" aria-hidden="true" />
      )}
      <figcaption>
        {p.image_status === 'processing' ? (
          <span role="status" class="making">
            <progress aria-label="Making the portrait" />
            Making {p.image_url ? 'a new portrait' : 'the portrait'}… (looked at every 5 s)
          </span>
        ) : p.image_status === 'failed' ? (
          <span class="error" role="alert">
            The portrait failed. {p.error_code ? `${codeInWords(p.error_code)} (${p.error_code})` : ''} The credits were refunded.
          </span>
        ) : (
          <span role="status">
            {p.image_kind === 'photo' ? 'A photo portrait' : 'An illustrated portrait'}, version{' '}
            {Math.max(1, p.versions.findIndex((v) => v.id === p.current_version_id) + 1)} of {p.versions.length}.
          </span>
        )}
      </figcaption>
    </figure>
  );
}

/** The name the persona is saved under (POST /personas/{id}/save, free). */
function SaveForm({ p, onSaved }: { p: Persona; onSaved(p: Persona): void }) {
  const { cutroom } = useStudio();
  const [name, setName] = useState(p.name ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return setError('Give the persona a name first.');
    setBusy(true);
    setError(null);
    try {
      const saved = await cutroom.personas.save(p.id, { name: name.trim() });
      setDone(`Saved as “${saved.name ?? name.trim()}”.`);
      onSaved(saved);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline-form" onSubmit={save} noValidate>
      <div class="field">
        <label for="persona-name">Name</label>
        <input id="persona-name" type="text" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <button type="submit" disabled={busy}>
        Save
      </button>
      {done && !error && (
        <p class="success" role="status">
          {done}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A new portrait from a one-line note (POST /personas/{id}/regenerate), at the catalog's price. */
function NoteForm({
  p,
  catalog,
  balance,
  onStarted,
}: {
  p: Persona;
  catalog: PersonaCatalog | undefined;
  balance: { balance: number; unlimited: boolean } | undefined;
  onStarted(p: Persona): void;
}) {
  const { cutroom } = useStudio();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const engine = p.face_ids.length > 0 ? catalog?.engines.portrait.face_photos : catalog?.engines.portrait.chips;
  const send = async (e: Event) => {
    e.preventDefault();
    if (!note.trim()) return setError('Write a note first, such as “red hair, no glasses”.');
    setBusy(true);
    setError(null);
    try {
      onStarted(await cutroom.personas.regenerate(p.id, { note: note.trim() }));
      setNote('');
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={send} noValidate>
      <div class="field">
        <label for="persona-note">Note</label>
        <input
          id="persona-note"
          type="text"
          maxLength={200}
          value={note}
          aria-describedby="persona-note-hint"
          onInput={(e) => setNote(e.currentTarget.value.replace(/[\r\n]+/g, ' '))}
        />
        <p id="persona-note-hint" class="hint">
          {p.face_ids.length > 0
            ? 'One line about the expression, such as “smiling” or “more serious”.'
            : 'One line of changes, such as “older, red hair, no glasses”.'}
          {engine && !engine.reads_notes ? ' This engine reads the traits a note names; other words are refused before anything is charged.' : ''}
        </p>
      </div>
      <p class="price" id="note-price" aria-live="polite">
        {portraitPrice(catalog, balance)}
      </p>
      <button type="submit" disabled={busy || p.image_status === 'processing'} aria-describedby={error ? 'note-error' : 'note-price'}>
        {busy ? 'Starting…' : 'Regenerate'}
      </button>
      {error && (
        <p id="note-error" class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function Versions({ p, onChanged }: { p: Persona; onChanged(p?: Persona): void }) {
  const { cutroom } = useStudio();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ id: string; text: string } | null>(null);
  const restore = async (versionId: string) => {
    setBusy(versionId);
    setError(null);
    try {
      onChanged(await cutroom.personas.restoreVersion(p.id, versionId));
    } catch (err) {
      setError({ id: versionId, text: describe(err) });
    } finally {
      setBusy(null);
    }
  };
  if (p.versions.length === 0) return <p class="empty">No portrait yet.</p>;
  return (
    <ol class="persona-versions">
      {p.versions.map((v, i) => {
        const current = v.id === p.current_version_id;
        const head = `version-${v.id}`;
        return (
          <li key={v.id}>
            <article class={current ? 'version card current-version' : 'version card'} aria-labelledby={head}>
              <img src={v.image_url} alt={`Version ${i + 1}`} width={160} height={160} />
              <div class="version-body">
                <h3 id={head}>
                  Version {i + 1}
                  {current && <span class="badge completed">Current</span>}
                </h3>
                <p class="muted small">
                  {v.note ? `“${v.note}”` : 'From the traits'} · {when(v.created_at)}
                </p>
                <div class="actions">
                  {!current && (
                    <button
                      type="button"
                      aria-describedby={head}
                      disabled={busy === v.id || p.image_status === 'processing'}
                      onClick={() => void restore(v.id)}
                    >
                      Restore
                    </button>
                  )}
                </div>
                <VoteButtons
                  vote={v.feedback?.vote}
                  describedBy={head}
                  send={async (vote, reason) => {
                    await cutroom.personas.sendVersionFeedback(p.id, v.id, vote === 'up' ? { vote } : { vote, reason });
                    onChanged();
                  }}
                />
                {error?.id === v.id && (
                  <p class="error" role="alert">
                    {error.text}
                  </p>
                )}
              </div>
            </article>
          </li>
        );
      })}
    </ol>
  );
}

/** The workspace's library videos: those its submissions were made from (GET /clips), newest first, once each. */
function useLibrary() {
  return useLoad(async (c, signal) => {
    const list = await c.submissions.list({ limit: 100 }, { signal });
    const seen = new Set<string>();
    return list.submissions.filter((s) => !seen.has(s.video_id) && seen.add(s.video_id));
  }, []);
}

function Swap({
  p,
  catalog,
  balance,
  onStarted,
}: {
  p: Persona;
  catalog: PersonaCatalog;
  balance: { balance: number; unlimited: boolean } | undefined;
  onStarted(): void;
}) {
  const { cutroom } = useStudio();
  const library = useLibrary();
  const modes = (['head', 'person'] as const).filter((m) => catalog.engines.swap.replace[m].available);
  const [from, setFrom] = useState<'upload' | 'library'>('upload');
  const [source, setSource] = useState<Source | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [quality, setQuality] = useState<Quality>('standard');
  const [replace, setReplace] = useState<Replace>(modes[0] ?? 'head');
  const [quote, setQuote] = useState<Quote | null>(null);
  const [quoteError, setQuoteError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const mediaId = source ? (source.kind === 'upload' ? source.media.media_id : source.videoId) : null;

  // The exact quote of the service (it measures the source) whenever the source or the options change.
  useEffect(() => {
    setQuote(null);
    setQuoteError(null);
    if (!mediaId) return;
    const ctrl = new AbortController();
    cutroom.personas.quoteSwap({ media_id: mediaId, quality, replace }, { signal: ctrl.signal }).then(
      (q) => !ctrl.signal.aborted && setQuote(q),
      (err: unknown) => !ctrl.signal.aborted && setQuoteError(describe(err)),
    );
    return () => ctrl.abort();
  }, [cutroom, mediaId, quality, replace]);

  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    upload?.ctrl.abort();
    setSource(null);
    setUploadError(null);
    setStartError(null);
    setNotice(null);
    const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : '';
    if (!VIDEO_EXTENSIONS.includes(ext)) return setUploadError(`${file.name}: a source video must be ${VIDEO_EXTENSIONS.join(' ')}.`);
    const ctrl = new AbortController();
    setUpload({ name: file.name, sent: 0, total: file.size, ctrl });
    try {
      const media = await cutroom.uploadPersonaSource(file, {
        signal: ctrl.signal,
        onProgress: (pr) => setUpload((u) => (u && u.ctrl === ctrl ? { ...u, sent: pr.sentBytes, total: pr.totalBytes } : u)),
      });
      if (!ctrl.signal.aborted) setSource({ kind: 'upload', name: file.name, media });
    } catch (err) {
      if (!ctrl.signal.aborted) setUploadError(describe(err));
    } finally {
      setUpload((u) => (u && u.ctrl === ctrl ? null : u));
    }
  };

  const start = async (e: Event) => {
    e.preventDefault();
    if (!mediaId) return setStartError(from === 'upload' ? 'Choose a Source video first.' : 'Choose a Library video first.');
    if (!quote) return setStartError(quoteError ?? 'Wait for the price first.');
    setStarting(true);
    setStartError(null);
    setNotice(null);
    try {
      await cutroom.personas.createVideo(p.id, { type: 'swap', media_id: mediaId, quality, replace, credits: quote.credits });
      setNotice(`Started for ${credits(quote.credits)}: the video shows below when it is ready.`);
      onStarted();
    } catch (err) {
      setStartError(describe(err));
      // PRICE_CHANGED: quote again, so the new price is the one confirmed next.
      const q = await cutroom.personas.quoteSwap({ media_id: mediaId, quality, replace }).catch(() => null);
      if (q) setQuote(q);
    } finally {
      setStarting(false);
    }
  };

  const limit = catalog.source_limits[quality].max_seconds;
  const videos = library.data ?? [];
  return (
    <form onSubmit={start} noValidate>
      <fieldset class="field">
        <legend>Source</legend>
        <label class="check">
          <input
            type="radio"
            name="swap-from"
            checked={from === 'upload'}
            onChange={() => {
              setFrom('upload');
              setSource(null);
            }}
          />
          Upload a video
        </label>
        <label class="check">
          <input
            type="radio"
            name="swap-from"
            checked={from === 'library'}
            onChange={() => {
              setFrom('library');
              setSource(null);
            }}
          />
          A library video
        </label>
      </fieldset>
      {from === 'upload' ? (
        <div class="field">
          <label for="source-video">Source video</label>
          <input
            id="source-video"
            type="file"
            accept={`${VIDEO_EXTENSIONS.join(',')},video/mp4,video/quicktime,video/webm,video/x-matroska`}
            aria-describedby="source-video-hint"
            onChange={(e) => void pickFile(e.currentTarget.files?.[0])}
          />
          <p id="source-video-hint" class="hint">
            MP4, MOV, WebM or MKV with one person, up to {catalog.source_limits.standard.max_seconds} s ({catalog.source_limits.high.max_seconds} s at high
            quality). Uploading is free.
          </p>
        </div>
      ) : (
        <div class="field">
          <label for="library-video">Library video</label>
          <select
            id="library-video"
            value={source?.kind === 'library' ? source.videoId : ''}
            aria-describedby="library-video-hint"
            onChange={(e) => setSource(e.currentTarget.value ? { kind: 'library', videoId: e.currentTarget.value } : null)}
          >
            <option value="">{videos.length ? 'Choose a video' : 'No library videos yet'}</option>
            {videos.map((s) => (
              <option key={s.video_id} value={s.video_id}>
                Video of {when(s.created_at)}
                {s.status === 'completed' ? ` (${s.clips_count} clip${s.clips_count === 1 ? '' : 's'})` : ''}
              </option>
            ))}
          </select>
          <p id="library-video-hint" class="hint">
            The videos this workspace got clips from. Clipping takes videos of a minute or more, so only a short one can be swapped.
          </p>
          {library.error != null && (
            <p class="error" role="alert">
              {describe(library.error)}
            </p>
          )}
        </div>
      )}
      {upload && <UploadProgress id="source-progress" upload={upload} />}
      {source?.kind === 'upload' && (
        <p class="success" role="status">
          {source.name} is uploaded ({source.media.duration.toFixed(1)} s).
        </p>
      )}
      {uploadError && (
        <p class="error" role="alert">
          {uploadError}
        </p>
      )}
      <div class="row">
        <div class="field">
          <label for="swap-quality">Quality</label>
          <select id="swap-quality" value={quality} onChange={(e) => setQuality(e.currentTarget.value as Quality)}>
            {catalog.engines.swap.qualities.map((q) => (
              <option key={q} value={q}>
                {q === 'high' ? 'High' : 'Standard'}, {credits(catalog.prices.swap[q as Quality].per_second)} a second
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="swap-replace">Replace</label>
          <select id="swap-replace" value={replace} onChange={(e) => setReplace(e.currentTarget.value as Replace)}>
            {(['head', 'person'] as const).map((m) => (
              <option key={m} value={m} disabled={!catalog.engines.swap.replace[m].available}>
                {m === 'head' ? 'The head and hair' : 'The whole person'}
                {catalog.engines.swap.replace[m].available ? '' : ' (not with this engine)'}
              </option>
            ))}
          </select>
        </div>
      </div>
      {catalog.engines.swap.label === 'preview' && (
        <p class="hint">
          This service’s swap engine makes a preview: the {p.image_kind === 'photo' ? 'face' : 'drawn head'} placed over the source’s, frame by frame, with its
          sound.
        </p>
      )}
      <p class="price" id="swap-price" aria-live="polite">
        {quote
          ? `Price: ${credits(quote.credits)} for ${quote.seconds.toFixed(1)} s at ${quote.quality} quality.${balance ? ` Balance: ${credits(balance.balance)}.` : ''}`
          : quoteError
            ? 'No price: the service refused this source.'
            : mediaId
              ? 'Measuring the source…'
              : `Choose a source: up to ${limit} s at ${quality} quality.`}
      </p>
      {quoteError && (
        <p class="error" role="alert">
          {quoteError}
        </p>
      )}
      <button
        type="submit"
        class="primary"
        disabled={starting || !quote || p.image_status !== 'ready'}
        aria-describedby={startError ? 'swap-error' : 'swap-price'}
      >
        {starting ? 'Starting…' : quote ? `Make the video for ${credits(quote.credits)}` : 'Make the video'}
      </button>
      {notice && !startError && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {startError && (
        <p id="swap-error" class="error" role="alert">
          {startError}
        </p>
      )}
    </form>
  );
}

function VideoCard({ v, p, onChanged }: { v: PersonaVideo; p: Persona; onChanged(): void }) {
  const { cutroom } = useStudio();
  const n = p.versions.findIndex((x) => x.id === v.version_id) + 1;
  const head = `video-${v.id}`;
  return (
    <article class="gen card" aria-labelledby={head}>
      <div class="gen-media">
        {v.status === 'ready' && v.download_url ? (
          <video src={v.download_url} controls preload="metadata" aria-label={`The swapped video, ${v.seconds.toFixed(1)} s`} />
        ) : (
          <p class={v.status === 'failed' ? 'gen-state failed' : 'gen-state'} role={v.status === 'processing' ? 'status' : undefined}>
            {v.status === 'failed' ? 'Failed' : 'Making the video…'}
          </p>
        )}
      </div>
      <h3 id={head}>Video of {when(v.created_at)}</h3>
      <p class="muted small">
        {v.seconds.toFixed(1)} s · {v.quality} · {v.replace === 'head' ? 'head' : 'whole person'} · {n > 0 ? `version ${n}` : 'an earlier version'} ·{' '}
        {credits(v.credits_charged)}
      </p>
      {v.status === 'failed' && (
        <p class="error">
          {v.error_code ? `${codeInWords(v.error_code)} ` : ''}The credits were refunded.{v.error_code ? ` (${v.error_code})` : ''}
        </p>
      )}
      {v.status === 'ready' && (
        <>
          {v.download_url && (
            <p class="small">
              <a href={v.download_url} download>
                Download the MP4
              </a>
            </p>
          )}
          <VoteButtons
            vote={v.feedback?.vote}
            describedBy={head}
            send={async (vote, reason) => {
              await cutroom.personas.sendVideoFeedback(p.id, v.id, vote === 'up' ? { vote } : { vote, reason });
              onChanged();
            }}
          />
        </>
      )}
    </article>
  );
}

export function PersonaPage({ personaId }: { personaId: string }) {
  const catalog = useLoad((c, signal) => c.personas.getCatalog({ signal }), []);
  const balance = useLoad((c, signal) => c.balance.get({ signal }), []);
  const one = useLoad(
    (c, signal) => c.personas.get(personaId, { signal }),
    [personaId],
    (d) => (d.image_status === 'processing' ? pollMs('persona') : null),
  );
  const videos = useLoad(
    (c, signal) => c.personas.listVideos(personaId, { limit: 50 }, { signal }),
    [personaId],
    (d) => (d.videos.some((v) => v.status === 'processing') ? VIDEO_POLL_MS : null),
  );
  const p = one.data;
  usePageTitle(p?.name ?? 'Persona');
  // The persona's traits in the catalog's order.
  const chips = useMemo(() => {
    const all = p?.chips ?? {};
    const order = Object.keys(catalog.data?.traits ?? {});
    return Object.entries(all).sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  }, [p, catalog.data]);
  const changed = () => {
    one.reload();
    balance.reload();
  };

  return (
    <>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={href('personas')}>All personas</Link>
          </p>
          <h1 tabIndex={-1}>{p ? (p.name ?? 'Unsaved persona') : 'Persona'}</h1>
        </div>
        {p && <span class={`badge ${p.image_status === 'ready' ? 'completed' : p.image_status}`}>{portraitState(p)}</span>}
      </div>
      {one.error != null && (
        <p class="error" role="alert">
          {describe(one.error)}
        </p>
      )}
      {p && (
        <>
          <div class="persona-top">
            <Portrait p={p} />
            <div class="persona-side">
              <section class="card" aria-labelledby="persona-keep">
                <h2 id="persona-keep">Keep it</h2>
                <SaveForm p={p} onSaved={changed} />
              </section>
              <section class="card" aria-labelledby="persona-change">
                <h2 id="persona-change">Another look</h2>
                <NoteForm p={p} catalog={catalog.data} balance={balance.data} onStarted={changed} />
              </section>
              {chips.length > 0 && (
                <section class="card" aria-labelledby="persona-traits">
                  <h2 id="persona-traits">{p.face_ids.length > 0 ? 'Made from a face photo' : 'Traits'}</h2>
                  <ul class="trait-list">
                    {chips.map(([k, v]) => (
                      <li key={k}>
                        <span class="muted">{traitName(k)}:</span> {optionName(catalog.data, k, v)}
                      </li>
                    ))}
                  </ul>
                </section>
              )}
            </div>
          </div>
          <section aria-labelledby="persona-versions">
            <h2 id="persona-versions">Versions</h2>
            <p class="muted small">Every finished portrait is a version. Restoring one and rating one are free.</p>
            <Versions p={p} onChanged={(next) => (next ? changed() : one.reload())} />
          </section>
          <section class="card" aria-labelledby="persona-swap">
            <h2 id="persona-swap">Put {p.name ?? 'this persona'} in a video</h2>
            {catalog.data && (
              <Swap
                p={p}
                catalog={catalog.data}
                balance={balance.data}
                onStarted={() => {
                  videos.reload();
                  balance.reload();
                }}
              />
            )}
          </section>
          <section aria-labelledby="persona-videos">
            <h2 id="persona-videos">Videos</h2>
            {videos.error != null && (
              <p class="error" role="alert">
                {describe(videos.error)}
              </p>
            )}
            {videos.data && videos.data.videos.length === 0 && <p class="empty card">No videos of this persona yet.</p>}
            {videos.data && videos.data.videos.length > 0 && (
              <div class="gallery">
                {videos.data.videos.map((v) => (
                  <VideoCard key={v.id} v={v} p={p} onChanged={videos.reload} />
                ))}
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { acceptedExtensions, ok, type Transcription } from '@cutroom/sdk/browser';
import { Link, href, navigate } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { clock, credits, length, when } from '../format';
import { localMedia, rememberMedia } from '../local-media';
import { badgeClass, languageName, statusName, stepName } from '../transcribing';
import { pollMs } from '../session';

type Format = 'srt' | 'vtt' | 'txt';
const FORMATS: readonly Format[] = ['srt', 'vtt', 'txt'];

/** The file name of a download: the one the service gives (Content-Disposition), else the transcription's. */
function fileNameOf(res: Response, t: Transcription, format: Format): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]+)"/i.exec(header);
  return plain ? plain[1] : `${t.file_name.replace(/\.[^.]+$/, '')}.${format}`;
}

function Progress({ t }: { t: Transcription }) {
  const pct = Math.round((t.progress ?? 0) * 100);
  return (
    <div class="card" role="status" aria-live="polite">
      <h2>{stepName(t.stage)}</h2>
      <progress max={100} value={pct} aria-label={`Transcribing: ${pct} %`} />
      <p class="muted small">
        {pct} %{t.estimated_time != null ? ` · about ${length(t.estimated_time)} left` : ''}. This page updates by itself.
      </p>
    </div>
  );
}

function Downloads({ t }: { t: Transcription }) {
  const { cutroom } = useStudio();
  const [speakers, setSpeakers] = useState(true);
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (format: Format) => {
    setBusy(format);
    setError(null);
    try {
      // The download needs the key, which a plain link cannot send: fetched, then saved from memory.
      const { data, response } = await cutroom.api.GET('/api/v1/transcriptions/{transcriptionId}/download', {
        params: { path: { transcriptionId: t.id }, query: { format, ...(t.speaker_labels && !speakers ? { speakers: false } : {}) } },
        parseAs: 'blob',
      });
      const url = URL.createObjectURL(data as Blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(response, t, format);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="card" aria-labelledby="downloads">
      <h2 id="downloads">Download</h2>
      {t.speaker_labels && (
        <label class="check">
          <input type="checkbox" checked={speakers} onChange={(e) => setSpeakers(e.currentTarget.checked)} />
          With speaker names
        </label>
      )}
      <div class="downloads">
        {FORMATS.map((f) => (
          <button key={f} type="button" disabled={busy !== null} onClick={() => void download(f)}>
            {busy === f ? 'Preparing…' : `Download ${f.toUpperCase()}`}
          </button>
        ))}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The person's own copy of the media, played in this tab (the API does not serve it back). */
function useLocalMedia(mediaId: string | undefined): [File | undefined, (f: File) => void] {
  const [file, setFile] = useState<File | undefined>(() => (mediaId ? localMedia(mediaId) : undefined));
  useEffect(() => setFile(mediaId ? localMedia(mediaId) : undefined), [mediaId]);
  return [
    file,
    (f) => {
      if (mediaId) rememberMedia(mediaId, f);
      setFile(f);
    },
  ];
}

function Transcript({ t }: { t: Transcription }) {
  const transcript = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/transcriptions/{transcriptionId}/transcript', { params: { path: { transcriptionId: t.id } }, signal })),
    [t.id],
  );
  const [file, setFile] = useLocalMedia(t.media_id);
  const [src, setSrc] = useState<string | null>(null);
  const [now, setNow] = useState(-1);
  const media = useRef<HTMLMediaElement | null>(null);
  useEffect(() => {
    if (!file) return setSrc(null);
    const url = URL.createObjectURL(file);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const cues = transcript.data?.cues ?? [];
  const playFrom = (start: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = start;
    void el.play().catch(() => undefined);
  };
  const isVideo = file?.type.startsWith('video/');
  const mediaProps = {
    ref: (el: HTMLMediaElement | null) => {
      media.current = el;
    },
    src: src ?? undefined,
    controls: true,
    preload: 'metadata' as const,
    onTimeUpdate: (e: Event) => setNow((e.currentTarget as HTMLMediaElement).currentTime),
    'aria-label': `${t.file_name}, your copy`,
  };

  return (
    <>
      <section class="card" aria-labelledby="media">
        <h2 id="media">Play along</h2>
        {src ? (
          isVideo ? (
            <video class="media" {...mediaProps} />
          ) : (
            <audio class="media" {...mediaProps} />
          )
        ) : (
          <div class="field">
            <label for="local-copy">Your copy of {t.file_name}</label>
            <input
              id="local-copy"
              type="file"
              accept={acceptedExtensions('media').join(',')}
              aria-describedby="local-copy-hint"
              onChange={(e) => {
                const f = e.currentTarget.files?.[0];
                if (f) setFile(f);
              }}
            />
            <p id="local-copy-hint" class="hint">
              The service keeps the file for transcribing only. Choose your copy to play it here: clicking a line plays it from there.
            </p>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="transcript">
        <h2 id="transcript">Transcript</h2>
        {transcript.error != null && (
          <p class="error" role="alert">
            {describe(transcript.error)}
          </p>
        )}
        {transcript.data && cues.length === 0 && <p class="empty">Nobody speaks in this file.</p>}
        {cues.length > 0 && (
          <ol class="cues" aria-label={src ? 'Lines of the transcript: each plays the media from its start' : 'Lines of the transcript'}>
            {cues.map((c, i) => {
              const current = now >= c.start && now < c.end;
              const body = (
                <>
                  <span class="cue-time">{clock(c.start)}</span>
                  {c.speaker && <span class="cue-speaker">Speaker {c.speaker}</span>}
                  <span class="cue-text">{c.text.replace(/\n/g, ' ')}</span>
                </>
              );
              return (
                <li key={i}>
                  {src ? (
                    <button type="button" class={current ? 'cue current' : 'cue'} aria-current={current ? 'time' : undefined} onClick={() => playFrom(c.start)}>
                      {body}
                    </button>
                  ) : (
                    <div class="cue">{body}</div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </>
  );
}

/**
 * Delete (DELETE /transcriptions/{id}), asked once more: the job leaves the listings; the uploaded media
 * stays, so transcribing it again is a cache hit, not a second charge.
 */
function DeleteTranscription({ t }: { t: Transcription }) {
  const { cutroom } = useStudio();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await cutroom.transcriptions.delete(t.id);
      navigate(href('transcriptions'));
    } catch (err) {
      setError(describe(err));
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="delete-transcription">
      <h2 id="delete-transcription">Delete</h2>
      {confirming ? (
        <div class="confirm" role="group" aria-label={`Delete ${t.file_name}?`}>
          <p>Delete this transcription? It leaves your list; transcribing the same file again later costs nothing.</p>
          <div class="actions">
            <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
              Delete transcription
            </button>
            <button type="button" class="quiet" disabled={busy} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Delete…
        </button>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function TranscriptionPage({ transcriptionId }: { transcriptionId: string }) {
  const one = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/transcriptions/{transcriptionId}', { params: { path: { transcriptionId } }, signal })),
    [transcriptionId],
    (t) => (t.status === 'processing' ? pollMs('transcription') : null),
  );
  const t = one.data;
  usePageTitle(t ? t.file_name : 'Transcription');
  return (
    <>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={href('transcriptions')}>All transcriptions</Link>
          </p>
          <h1 tabIndex={-1}>{t ? t.file_name : 'Transcription'}</h1>
        </div>
        {t && <span class={badgeClass(t)}>{statusName(t)}</span>}
      </div>
      {one.error != null && (
        <p class="error" role="alert">
          {describe(one.error)}
        </p>
      )}
      {t && (
        <dl class="facts card" aria-label="The transcription">
          <div>
            <dt>Language</dt>
            <dd>{languageName(t.language ?? t.source_language)}</dd>
          </div>
          <div>
            <dt>Speaker labels</dt>
            <dd>{t.speaker_labels ? (t.speakers_expected ? `Yes, ${t.speakers_expected} speakers` : 'Yes') : 'No'}</dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{t.from_cache ? `${credits(t.credits_charged)} (already transcribed)` : credits(t.credits_charged)}</dd>
          </div>
          <div>
            <dt>Started</dt>
            <dd>{when(t.created_at)}</dd>
          </div>
        </dl>
      )}
      {t?.status === 'processing' && <Progress t={t} />}
      {t?.status === 'failed' && (
        <p class="error" role="alert">
          {t.error_code
            ? `The transcription failed. ${codeInWords(t.error_code)} (${t.error_code}) Its credits were refunded.`
            : 'The transcription failed. Its credits were refunded.'}
        </p>
      )}
      {t && (t.status === 'ready' || t.status === 'no_speech') && (
        <>
          <Transcript t={t} />
          <Downloads t={t} />
        </>
      )}
      {t && t.status !== 'processing' && <DeleteTranscription t={t} />}
    </>
  );
}

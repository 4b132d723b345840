import { useState } from 'preact/hooks';
import { acceptedExtensions, ok, type MediaUpload } from '@cutroom/sdk/browser';
import { Link, href, navigate } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { clock, credits, when } from '../format';
import { UploadProgress, type Upload } from '../components/upload-progress';
import { Pager } from '../components/pager';
import { localMedia, measureDuration, rememberMedia } from '../local-media';
import { LANGUAGES, badgeClass, languageName, statusName, transcriptionPrice } from '../transcribing';
import { pollMs } from '../session';
import { Refusal } from '../components/refusal';

const PAGE_SIZE = 20;
const ACCEPT = acceptedExtensions('media').join(',');

type Chosen = { file: File; media: MediaUpload; seconds: number | null };

function NewTranscription() {
  const { cutroom } = useStudio();
  const prices = useLoad((c, signal) => ok(c.api.GET('/api/v1/transcriptions/prices', { signal })), []);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [language, setLanguage] = useState('auto');
  const [labels, setLabels] = useState(false);
  const [speakers, setSpeakers] = useState('');
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);

  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    upload?.ctrl.abort();
    const ctrl = new AbortController();
    setChosen(null);
    setUploadError(null);
    setStartError(null);
    setUpload({ name: file.name, sent: 0, total: file.size, ctrl });
    try {
      const [media, seconds] = await Promise.all([
        cutroom.uploadMedia(file, {
          signal: ctrl.signal,
          onProgress: (p) => setUpload((u) => (u && u.ctrl === ctrl ? { ...u, sent: p.sentBytes, total: p.totalBytes } : u)),
        }),
        measureDuration(file),
      ]);
      if (ctrl.signal.aborted) return;
      rememberMedia(media.media_id, file);
      setChosen({ file, media, seconds });
    } catch (err) {
      if (ctrl.signal.aborted) return;
      // The SDK refuses an extension the service does not take before sending anything.
      setUploadError(
        err instanceof TypeError && /takes/.test(err.message) ? `Choose an audio or video file: ${acceptedExtensions('media').join(' ')}.` : describe(err),
      );
    } finally {
      setUpload((u) => (u && u.ctrl === ctrl ? null : u));
    }
  };

  const start = async (e: Event) => {
    e.preventDefault();
    if (!chosen) return setStartError('Choose a Media file first.');
    const count = labels && speakers.trim() ? Number(speakers) : undefined;
    if (count !== undefined && !(Number.isInteger(count) && count >= 1 && count <= 10)) {
      return setStartError('Number of speakers: a whole number from 1 to 10, or empty to let the service count them.');
    }
    setStarting(true);
    setStartError(null);
    try {
      const t = await ok(
        cutroom.api.POST('/api/v1/transcriptions', {
          body: {
            media_id: chosen.media.media_id,
            file_name: chosen.file.name,
            speaker_labels: labels,
            source_language: language,
            ...(count !== undefined ? { speakers_expected: count } : {}),
          },
        }),
      );
      navigate(href('transcription', { transcriptionId: t.id }));
    } catch (err) {
      setStartError(err);
      setStarting(false);
    }
  };

  const p = prices.data;
  const price = (withLabels: boolean) => (p && chosen?.seconds != null ? transcriptionPrice(chosen.seconds, p, withLabels) : null);
  const quote = (() => {
    if (!p) return prices.error ? describe(prices.error) : '\u00a0';
    const perMinute = p.per_minute + (labels ? p.speaker_labels_per_minute : 0);
    const rate = `${credits(perMinute)} per started minute${labels ? `, speaker labels included (+${p.speaker_labels_per_minute})` : ''}`;
    const estimate = price(labels);
    const head = estimate == null ? rate : `Estimate: ${credits(estimate)} for ${clock(chosen!.seconds!)} (${rate})`;
    return p.free_usage ? `${head}. Free usage: nothing is charged.` : `${head}. The service measures the file when it starts.`;
  })();

  return (
    <section class="card" aria-labelledby="new-transcription">
      <h2 id="new-transcription">New transcription</h2>
      <form onSubmit={start} noValidate>
        <div class="field">
          <label for="media-file">Media file</label>
          <input
            id="media-file"
            type="file"
            accept={`${ACCEPT},audio/*,video/mp4,video/quicktime,video/webm,video/x-matroska`}
            aria-describedby="media-file-hint"
            onChange={(e) => void pickFile(e.currentTarget.files?.[0])}
          />
          <p id="media-file-hint" class="hint">
            Audio (MP3, WAV, M4A, AAC, OGG, Opus, FLAC) or video (MP4, MOV, WebM, MKV). It goes up as soon as it is chosen.
          </p>
        </div>
        {upload && <UploadProgress id="media-progress" upload={upload} />}
        {chosen && (
          <p class="success" role="status">
            {chosen.file.name} is uploaded{chosen.seconds != null ? ` (${clock(chosen.seconds)})` : ''}.
          </p>
        )}
        {uploadError && (
          <p class="error" role="alert">
            {uploadError}
          </p>
        )}
        <div class="row">
          <div class="field">
            <label for="transcription-language">Language</label>
            <select id="transcription-language" value={language} onChange={(e) => setLanguage(e.currentTarget.value)}>
              <option value="auto">Detect it</option>
              {LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {languageName(code)}
                </option>
              ))}
            </select>
          </div>
          <div class="field check-field">
            <label class="check">
              <input type="checkbox" checked={labels} onChange={(e) => setLabels(e.currentTarget.checked)} aria-describedby="labels-hint" />
              Speaker labels
            </label>
            <p id="labels-hint" class="hint">
              Names each speaker A, B, … in the transcript.
            </p>
          </div>
          {labels && (
            <div class="field">
              <label for="speakers-expected">Number of speakers</label>
              <input
                id="speakers-expected"
                type="number"
                inputMode="numeric"
                min={1}
                max={10}
                step={1}
                value={speakers}
                aria-describedby="speakers-expected-hint"
                onInput={(e) => setSpeakers(e.currentTarget.value)}
              />
              <p id="speakers-expected-hint" class="hint">
                Optional, 1 to 10: when you know how many people speak, the labels use exactly that many.
              </p>
            </div>
          )}
        </div>
        <p class="price" id="transcription-price" aria-live="polite">
          {quote}
        </p>
        <button type="submit" class="primary" disabled={starting || !chosen} aria-describedby={startError ? 'transcribe-error' : 'transcription-price'}>
          {starting ? 'Starting…' : 'Transcribe'}
        </button>
        {startError != null && <Refusal id="transcribe-error" error={startError} />}
      </form>
    </section>
  );
}

export function Transcriptions({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Transcriptions, page ${page}` : 'Transcriptions');
  const list = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/transcriptions', { params: { query: { page, limit: PAGE_SIZE } }, signal })),
    [page],
    (d) => (d.transcriptions.some((t) => t.status === 'processing') ? pollMs('transcription') : null),
  );
  const items = list.data?.transcriptions;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Transcriptions</h1>
          <p class="lead">A transcript with speakers and timestamps from an audio or video file, as SRT, WebVTT or text.</p>
        </div>
      </div>
      {page === 1 && <NewTranscription />}
      <section class="card" aria-labelledby="past-transcriptions">
        <h2 id="past-transcriptions">Past transcriptions</h2>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {items && items.length === 0 && <p class="empty">Nothing transcribed yet.</p>}
        {items && items.length > 0 && (
          <ul class="subs" aria-label="Transcriptions, newest first">
            {items.map((t) => (
              <li key={t.id} class="sub">
                <div class="sub-title">
                  <Link class="sub-link" href={href('transcription', { transcriptionId: t.id })}>
                    {t.file_name}
                  </Link>
                  <span class={badgeClass(t)}>{statusName(t)}</span>
                </div>
                <p class="muted small">
                  {when(t.created_at)} · {languageName(t.language ?? t.source_language)}
                  {t.speaker_labels ? ' · speaker labels' : ''} · {credits(t.credits_charged)}
                  {localMedia(t.media_id) ? ' · file at hand' : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Pager
          label="Pages of the transcriptions"
          page={page}
          pagination={list.data?.pagination}
          hrefOf={(n) => href('transcriptions', {}, n > 1 ? { page: n } : undefined)}
        />
      </section>
    </>
  );
}

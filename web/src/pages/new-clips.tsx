import { useRef, useState } from 'preact/hooks';
import { ok, type VideoAnalysis } from '@cutroom/sdk/browser';
import { navigate, href } from '../router';
import { usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { clock, credits } from '../format';
import { UploadProgress, type Upload } from '../components/upload-progress';
import { ClipChoiceFields, useClipChoices, type ClipLanguage } from '../components/clip-choices';

/** "1:30", "90" or "1:02:03" → seconds; null when empty; NaN when unreadable. */
/** The Keywords field as the API takes it: trimmed, empty ones dropped; undefined when there are none. */
function keywordList(raw: string): string[] | undefined {
  const list = raw
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  return list.length ? list : undefined;
}

export function parseTime(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+(:\d{1,2}){0,2}(\.\d+)?$/.test(t)) return NaN;
  return t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

function Analysis({ video }: { video: VideoAnalysis }) {
  const after = video.current_balance - video.credits_cost;
  return (
    <dl class="facts" aria-label="The video">
      <div>
        <dt>Title</dt>
        <dd>{video.title || 'Untitled'}</dd>
      </div>
      <div>
        <dt>Duration</dt>
        <dd>{clock(video.duration)}</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd>{video.credits_unlimited ? `${credits(video.credits_cost)}, waived (free usage)` : credits(video.credits_cost)}</dd>
      </div>
      <div>
        <dt>Balance after</dt>
        <dd>{video.credits_unlimited ? 'Unchanged (free usage)' : after >= 0 ? credits(after) : `Short by ${credits(-after)}`}</dd>
      </div>
    </dl>
  );
}

export function NewClips() {
  usePageTitle('New clips');
  const { cutroom } = useStudio();
  const [video, setVideo] = useState<VideoAnalysis | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [link, setLink] = useState('');
  const [analysing, setAnalysing] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [strategyId, setStrategyId] = useState('');
  const [language, setLanguage] = useState<ClipLanguage>('auto');
  const [prompt, setPrompt] = useState('');
  const [keywords, setKeywords] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const choices = useClipChoices();

  const pickFile = async (file: File | undefined) => {
    if (!file) return;
    upload?.ctrl.abort();
    const ctrl = new AbortController();
    setVideo(null);
    setUploadError(null);
    setLinkError(null);
    setUpload({ name: file.name, sent: 0, total: file.size, ctrl });
    try {
      const done = await cutroom.uploadVideo(file, {
        signal: ctrl.signal,
        onProgress: (p) => setUpload((u) => (u && u.ctrl === ctrl ? { ...u, sent: p.sentBytes, total: p.totalBytes } : u)),
      });
      if (!ctrl.signal.aborted) setVideo(done);
    } catch (err) {
      if (!ctrl.signal.aborted)
        setUploadError(err instanceof TypeError && /takes/.test(err.message) ? 'Choose an .mp4, .mov, .webm or .mkv file.' : describe(err));
    } finally {
      setUpload((u) => (u && u.ctrl === ctrl ? null : u));
    }
  };

  const analyse = async (e: Event) => {
    e.preventDefault();
    if (!link.trim()) return setLinkError('Paste the link of a video first.');
    setAnalysing(true);
    setLinkError(null);
    setUploadError(null);
    setVideo(null);
    try {
      setVideo(await ok(cutroom.api.POST('/api/v1/clips/info', { body: { url: link.trim() } })));
    } catch (err) {
      setLinkError(describe(err));
    } finally {
      setAnalysing(false);
    }
  };

  const getClips = async (e: Event) => {
    e.preventDefault();
    if (!video) return;
    const start = parseTime(from);
    const end = parseTime(to);
    if (Number.isNaN(start) || Number.isNaN(end)) return setSubmitError('Write From and To as seconds or minutes:seconds (1:30).');
    if (start !== null && end !== null && end <= start) return setSubmitError('To must come after From.');
    setSubmitting(true);
    setSubmitError(null);
    try {
      const timeframe = start !== null || end !== null ? { ...(start !== null ? { start } : {}), ...(end !== null ? { end } : {}) } : undefined;
      const sub = await ok(
        cutroom.api.POST('/api/v1/clips', {
          body: {
            video_id: video.id,
            timeframe,
            template_id: templateId || undefined,
            strategy_id: strategyId || undefined,
            source_language: language,
            prompt: prompt.trim() || undefined,
            keywords: keywordList(keywords),
          },
        }),
      );
      navigate(href('submission', { videoId: sub.video_id, submissionId: sub.id }));
    } catch (err) {
      setSubmitError(describe(err));
      setSubmitting(false);
    }
  };

  return (
    <>
      <div class="page-head">
        <h1 tabIndex={-1}>New clips</h1>
      </div>
      <div class="two">
        <section class="card" aria-labelledby="from-file">
          <h2 id="from-file">From a file</h2>
          <div class="field">
            <label for="video-file">Video file</label>
            <input
              id="video-file"
              ref={fileInput}
              type="file"
              accept=".mp4,.mov,.webm,.mkv,video/mp4,video/quicktime,video/webm,video/x-matroska"
              aria-describedby="video-file-hint"
              onChange={(e) => void pickFile(e.currentTarget.files?.[0])}
            />
            <p id="video-file-hint" class="hint">
              MP4, MOV, WebM or MKV, at least 1 minute long. Large files go up in parts.
            </p>
          </div>
          {upload && <UploadProgress id="upload-progress" upload={upload} />}
          {uploadError && (
            <p class="error" role="alert">
              {uploadError}
            </p>
          )}
        </section>
        <section class="card" aria-labelledby="from-link">
          <h2 id="from-link">From a link</h2>
          <form onSubmit={analyse} noValidate>
            <div class="field">
              <label for="video-link">Video link</label>
              <input
                id="video-link"
                type="url"
                inputMode="url"
                placeholder="https://…"
                value={link}
                onInput={(e) => setLink(e.currentTarget.value)}
                aria-describedby={linkError ? 'video-link-error' : undefined}
                aria-invalid={linkError ? true : undefined}
              />
            </div>
            <button type="submit" disabled={analysing}>
              {analysing ? 'Analysing…' : 'Analyse'}
            </button>
            {linkError && (
              <p id="video-link-error" class="error" role="alert">
                {linkError}
              </p>
            )}
          </form>
        </section>
      </div>

      {video && (
        <section class="card" aria-labelledby="options">
          <h2 id="options">Ready to clip</h2>
          <Analysis video={video} />
          <form onSubmit={getClips} noValidate>
            <fieldset>
              <legend>Timeframe (optional)</legend>
              <div class="row">
                <div class="field">
                  <label for="tf-from">From</label>
                  <input id="tf-from" inputMode="numeric" placeholder="0:00" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
                </div>
                <div class="field">
                  <label for="tf-to">To</label>
                  <input id="tf-to" inputMode="numeric" placeholder={clock(video.duration)} value={to} onInput={(e) => setTo(e.currentTarget.value)} />
                </div>
              </div>
              <p class="hint">Only this stretch is clipped and charged.</p>
            </fieldset>
            <div class="field">
              <label for="prompt">What to look for (optional)</label>
              <input
                id="prompt"
                maxLength={500}
                placeholder="the moments about pricing"
                aria-describedby="prompt-hint"
                value={prompt}
                onInput={(e) => setPrompt(e.currentTarget.value)}
              />
              <p id="prompt-hint" class="hint">
                In the video’s language. Clips about it are rated above the rest, and each clip says what it matched.
              </p>
            </div>
            <div class="field">
              <label for="keywords">Keywords (optional)</label>
              <input
                id="keywords"
                placeholder="pricing, free plan"
                aria-describedby="keywords-hint"
                value={keywords}
                onInput={(e) => setKeywords(e.currentTarget.value)}
              />
              <p id="keywords-hint" class="hint">
                Separated by commas, up to 20: every clip says one of them (a few others may fill up to three clips).
              </p>
            </div>
            <ClipChoiceFields
              choices={choices}
              templateId={templateId}
              strategyId={strategyId}
              language={language}
              onTemplate={setTemplateId}
              onStrategy={setStrategyId}
              onLanguage={setLanguage}
            />
            <button type="submit" class="primary" disabled={submitting} aria-describedby={submitError ? 'get-clips-error' : undefined}>
              {submitting ? 'Starting…' : 'Get clips'}
            </button>
            {submitError && (
              <p id="get-clips-error" class="error" role="alert">
                {submitError}
              </p>
            )}
          </form>
        </section>
      )}
    </>
  );
}

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ok, type DeriveEditRequest, type Edit } from '@cutroom/sdk/browser';
import { Link, href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { describe } from '../errors';
import { clock, length, when } from '../format';
import { ClipPlayer } from '../components/player';
import { RenderControl } from '../components/render';
import { PublishForm } from '../components/publish-form';
import {
  cutWords,
  deriveBody,
  fixWord,
  hasChanges,
  mediaToSource,
  newHistory,
  push,
  selectRange,
  setLayout,
  setSwitch,
  shownText,
  sourceToMedia,
  trimEndAt,
  trimStartAt,
  undo,
  wordAt,
  wordState,
  type AspectRatio,
  type Reframe,
  type Draft,
  type History,
  type Segment,
} from '../editor/word-ops';

/** The framings an edit can ask for (`reframe`), as the editor names them. */
const LAYOUTS: Array<[Reframe, string]> = [
  ['auto', 'Automatic, shot by shot'],
  ['speaker', 'Follow the speaker'],
  ['split', 'Two faces, stacked'],
  ['screen', 'Screen with the face below'],
  ['center', 'Centre of the picture'],
  ['fit', 'Whole picture on a blurred fill'],
];

const ASPECTS: Array<[AspectRatio, string]> = [
  ['9:16', 'Vertical 9:16'],
  ['1:1', 'Square 1:1'],
  ['16:9', 'Wide 16:9'],
];

export function Editor({ videoId, submissionId, clipId }: { videoId: string; submissionId: string; clipId: string }) {
  const { cutroom } = useStudio();
  const clipLoad = useLoad(
    async (c, signal) => {
      const list = await ok(
        c.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
          params: { path: { videoId, submissionId }, query: { limit: 100, sort: 'rating', order: 'desc' } },
          signal,
        }),
      );
      const clip = list.clips.find((x) => x.id === clipId);
      if (!clip) throw new Error('There is no such clip in this submission.');
      const edit = clip.edit_id ? await cutroom.getEdit(clip.edit_id, { signal }) : null;
      return { clip, edit };
    },
    [videoId, submissionId, clipId],
  );
  const templates = useLoad((c, signal) => ok(c.api.GET('/api/v1/templates', { params: { query: { kind: 'template', limit: 100 } }, signal })), []);

  const clip = clipLoad.data?.clip;
  usePageTitle(clip ? `Edit: ${clip.title}` : 'Edit');
  const [base, setBase] = useState<Edit | null>(null);
  useEffect(() => setBase(clipLoad.data?.edit ?? null), [clipLoad.data]);

  // The publish form opens beside the transcript; its heading takes the focus.
  const [publishing, setPublishing] = useState(false);
  const publishHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (publishing) publishHeading.current?.focus();
  }, [publishing]);

  const [history, setHistory] = useState<History>(newHistory);
  const draft = history.present;
  const change = (next: Draft) => setHistory((h) => push(h, next));

  const [selection, setSelection] = useState<number[]>([]);
  const [anchor, setAnchor] = useState<number | null>(null);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ index: number; text: string } | null>(null);
  const [playing, setPlaying] = useState<{ editId: string; segments: readonly Segment[]; n: number } | null>(null);
  const [sourceTime, setSourceTime] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [versionsTick, setVersionsTick] = useState(0);
  const video = useRef<HTMLVideoElement>(null);
  const wordEls = useRef(new Map<number, HTMLElement>());
  const wordBox = useRef<HTMLInputElement>(null);

  const words = base?.words ?? [];
  const shownEdit = playing?.editId ?? base?.id ?? null;
  // What the player shows, on the source's timeline: the shown edit's stretches, or the clip's own for its play_url.
  const originalSegments = useMemo(() => (clip ? [{ start: clip.start_time, end: clip.end_time }] : []), [clip]);

  const versions = useLoad((_c, signal) => (base ? cutroom.listEditVersions(base.id, { limit: 50, signal }) : Promise.resolve(null)), [base?.id, versionsTick]);

  const current = sourceTime === null ? null : wordAt(words, sourceTime);
  const selected = new Set(selection);
  const focused = focusIndex ?? words[0]?.index ?? null;
  const wordOf = (index: number) => words.find((w) => w.index === index);

  // The Word box takes the focus as soon as it opens.
  useLayoutEffect(() => {
    if (editing) wordBox.current?.focus();
  }, [editing?.index]);

  // The stretches of the source the player's media plays: the shown edit's for its preview, the clip's for its play_url.
  const media = useRef<'preview' | 'original'>('original');
  const mediaSegments = (): readonly Segment[] =>
    media.current === 'original' ? originalSegments : shownEdit === base?.id ? (base?.segments ?? []) : (playing?.segments ?? []);

  const onTime = (t: number, m: 'preview' | 'original') => {
    media.current = m;
    const segs = mediaSegments();
    setSourceTime(segs.length > 0 ? mediaToSource(segs, t) : null);
  };

  const seek = (index: number) => {
    const w = wordOf(index);
    const v = video.current;
    if (!w || !v) return;
    const at = sourceToMedia(mediaSegments(), w.start);
    if (at !== null) v.currentTime = at + 0.01;
  };

  const focusWord = (index: number) => {
    setFocusIndex(index);
    wordEls.current.get(index)?.focus();
  };

  const clickWord = (e: MouseEvent, index: number) => {
    if (e.shiftKey && anchor !== null) setSelection(selectRange(words, anchor, index));
    else if (e.ctrlKey || e.metaKey) setSelection((s) => (s.includes(index) ? s.filter((i) => i !== index) : [...s, index]));
    else {
      setSelection([index]);
      setAnchor(index);
    }
    setFocusIndex(index);
    seek(index);
  };

  const openWordBox = (index: number) => {
    const w = wordOf(index);
    if (w) setEditing({ index, text: shownText(draft, w) });
  };

  const saveWord = () => {
    if (!editing || !base) return;
    change(fixWord(draft, base, editing.index, editing.text));
    const at = editing.index;
    setEditing(null);
    requestAnimationFrame(() => focusWord(at));
  };

  const keyOnWord = (e: KeyboardEvent, index: number) => {
    const pos = words.findIndex((w) => w.index === index);
    const move = (to: number) => {
      const w = words[Math.max(0, Math.min(words.length - 1, to))];
      if (!w) return;
      if (e.shiftKey) setSelection(selectRange(words, anchor ?? index, w.index));
      focusWord(w.index);
    };
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        e.preventDefault();
        move(pos + 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        e.preventDefault();
        move(pos - 1);
        break;
      case 'Home':
        e.preventDefault();
        move(0);
        break;
      case 'End':
        e.preventDefault();
        move(words.length - 1);
        break;
      case ' ':
        e.preventDefault();
        setAnchor(index);
        setSelection((s) => (s.includes(index) ? s.filter((i) => i !== index) : [...s, index]));
        seek(index);
        break;
      case 'Enter':
        e.preventDefault();
        openWordBox(index);
        break;
    }
  };

  // Trims act on the selection's first (start) or last (end) word, else the focused word.
  const ordered = words.filter((w) => selected.has(w.index));
  const startWord = ordered[0] ?? (focused !== null ? wordOf(focused) : undefined);
  const endWord = ordered[ordered.length - 1] ?? (focused !== null ? wordOf(focused) : undefined);

  const save = async () => {
    if (!base) return;
    setSaving(true);
    setSaveError(null);
    setSaved(null);
    try {
      // `remove_silences` is sent only when switched on; a service that does not take it yet refuses in words.
      const next = await cutroom.deriveEdit(deriveBody(base, draft) as DeriveEditRequest);
      setBase(next);
      setHistory(newHistory());
      setSelection([]);
      setPlaying(null);
      setVersionsTick((t) => t + 1);
      setSaved(`Saved: version of ${when(next.created_at)}, ${length(next.duration)}. Its preview plays once it is made.`);
    } catch (err) {
      setSaveError(describe(err));
    } finally {
      setSaving(false);
    }
  };

  const restore = async (editId: string, n: number) => {
    setSaveError(null);
    setSaved(null);
    try {
      const next = await cutroom.deriveEdit({ base_edit_id: editId });
      setBase(next);
      setHistory(newHistory());
      setSelection([]);
      setPlaying(null);
      setVersionsTick((t) => t + 1);
      setSaved(`Restored version ${n}: a copy of it is now the clip’s current version.`);
    } catch (err) {
      setSaveError(describe(err));
    }
  };

  if (clipLoad.error != null) {
    return (
      <>
        <h1 tabIndex={-1}>Edit</h1>
        <p class="error" role="alert">
          {describe(clipLoad.error)}
        </p>
      </>
    );
  }
  if (!clip) return <h1 tabIndex={-1}>Edit</h1>;

  const dirty = base ? hasChanges(draft, base) : false;
  const templateList = templates.data?.templates ?? [];
  return (
    <>
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={href('submission', { videoId, submissionId })}>All clips</Link> / Editor
          </p>
          <h1 tabIndex={-1}>{clip.title}</h1>
          {base && (
            <p class="lead">
              {length(base.duration)} · {base.aspect_ratio} · rating {clip.rating.toFixed(1)}
            </p>
          )}
        </div>
      </div>
      <div class="editor">
        <div class="editor-side">
          <ClipPlayer
            editId={shownEdit}
            fallbackUrl={clip.play_url}
            label={clip.title}
            videoRef={video}
            onTime={onTime}
            previewNote={playing && playing.editId !== base?.id ? `Preview of version ${playing.n}` : 'Preview of the current edit'}
          />
          {playing && playing.editId !== base?.id && (
            <button type="button" class="quiet" onClick={() => setPlaying(null)}>
              Back to the current version
            </button>
          )}
          {base && <RenderControl editId={base.id} />}
          {base && (
            <button type="button" aria-expanded={publishing} aria-controls="publish-panel" onClick={() => setPublishing((o) => !o)}>
              Publish
            </button>
          )}
        </div>
        <div>
          <div id="publish-panel">{base && publishing && <PublishForm editId={base.id} clipTitle={clip.title} headingRef={publishHeading} />}</div>
          <section class="card" aria-labelledby="words-h">
            <h2 id="words-h">Transcript</h2>
            <p class="hint" id="words-help">
              Click a word to play from it; Shift+click selects up to it. By keyboard: arrows move, Shift+arrows select, Space selects, Enter corrects the word.
              Double-click a word to correct it.
            </p>
            {base && words.length === 0 && <p class="empty">This clip has no recognised words.</p>}
            <div class="transcript" role="listbox" aria-label="Transcript" aria-multiselectable="true" aria-describedby="words-help">
              {words.map((w) => {
                const state = wordState(draft, w);
                const fixed = draft.fixes[w.index] !== undefined;
                const cls = ['word', state !== 'kept' ? state : '', fixed ? 'fixed' : '', current?.index === w.index ? 'current' : '']
                  .filter(Boolean)
                  .join(' ');
                const text = shownText(draft, w);
                // A space after each word: the line breaks between words.
                return [
                  <span
                    key={w.index}
                    ref={(el) => {
                      if (el) wordEls.current.set(w.index, el);
                      else wordEls.current.delete(w.index);
                    }}
                    role="option"
                    id={`word-${w.index}`}
                    class={cls}
                    tabIndex={w.index === focused ? 0 : -1}
                    aria-selected={selected.has(w.index)}
                    aria-current={current?.index === w.index ? 'true' : undefined}
                    title={`${clock(w.start)}${state === 'cut' ? ', cut' : state === 'outside' ? ', trimmed away' : ''}${fixed ? `, was “${w.text}”` : ''}`}
                    onClick={(e) => clickWord(e, w.index)}
                    onDblClick={() => openWordBox(w.index)}
                    onKeyDown={(e) => keyOnWord(e, w.index)}
                    onFocus={() => setFocusIndex(w.index)}
                  >
                    {text === '' ? '∅' : text}
                  </span>,
                  ' ',
                ];
              })}
            </div>
            {editing && (
              <form
                class="tools"
                onSubmit={(e) => {
                  e.preventDefault();
                  saveWord();
                }}
              >
                <label for="word-box" class="sr-only">
                  Word
                </label>
                <input
                  id="word-box"
                  ref={wordBox}
                  class="word-box"
                  value={editing.text}
                  onInput={(e) => setEditing({ index: editing.index, text: e.currentTarget.value })}
                  onKeyDown={(e) => {
                    if (e.key === 'Escape') {
                      e.preventDefault();
                      const at = editing.index;
                      setEditing(null);
                      requestAnimationFrame(() => focusWord(at));
                    }
                  }}
                />
                <span class="hint">Enter saves, Escape cancels; empty hides it from the captions.</span>
              </form>
            )}
            <div class="tools" role="toolbar" aria-label="Transcript tools">
              <button type="button" disabled={selection.length === 0} onClick={() => change(cutWords(draft, selection))}>
                Cut
              </button>
              <button type="button" disabled={!startWord} onClick={() => startWord && change(trimStartAt(draft, startWord))}>
                Trim start here
              </button>
              <button type="button" disabled={!endWord} onClick={() => endWord && change(trimEndAt(draft, endWord))}>
                Trim end here
              </button>
              <button type="button" disabled={history.past.length === 0} onClick={() => setHistory(undo)}>
                Undo
              </button>
            </div>
          </section>

          <section class="card" aria-labelledby="look-h">
            <h2 id="look-h">Cuts and look</h2>
            <label class="switch">
              <input
                type="checkbox"
                role="switch"
                checked={draft.removeSilences}
                onChange={(e) => change(setSwitch(draft, 'removeSilences', e.currentTarget.checked))}
              />
              Remove silences
            </label>
            <label class="switch">
              <input
                type="checkbox"
                role="switch"
                checked={draft.removeFillers}
                onChange={(e) => change(setSwitch(draft, 'removeFillers', e.currentTarget.checked))}
              />
              Remove fillers
            </label>
            <div class="row">
              <div class="field">
                <label for="tpl">Template</label>
                <select
                  id="tpl"
                  value={draft.templateId ?? base?.template_id ?? ''}
                  onChange={(e) => change(setLayout(draft, { templateId: e.currentTarget.value || null }))}
                >
                  {!(base?.template_id && templateList.some((t) => t.id === base.template_id)) && <option value="">{base?.template_id ?? 'None'}</option>}
                  {templateList.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="reframe">Layout</label>
                <select
                  id="reframe"
                  value={draft.reframe ?? base?.reframe ?? 'speaker'}
                  onChange={(e) => change(setLayout(draft, { reframe: e.currentTarget.value as Reframe }))}
                >
                  {LAYOUTS.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </div>
              <fieldset class="field">
                <legend>Aspect ratio</legend>
                {ASPECTS.map(([value, label]) => (
                  <label key={value} class="check">
                    <input
                      type="radio"
                      name="aspect"
                      value={value}
                      checked={(draft.aspectRatio ?? base?.aspect_ratio) === value}
                      onChange={() => change(setLayout(draft, { aspectRatio: value }))}
                    />
                    {label}
                  </label>
                ))}
              </fieldset>
            </div>
            <div class="tools">
              <button type="button" class="primary" disabled={!dirty || saving} onClick={() => void save()}>
                {saving ? 'Saving…' : 'Save version'}
              </button>
              {dirty && (
                <span class="hint">
                  Unsaved changes: {history.past.length} step{history.past.length === 1 ? '' : 's'} to undo.
                </span>
              )}
            </div>
            <div aria-live="polite">
              {saveError && (
                <p class="error" role="alert">
                  {saveError}
                </p>
              )}
              {saved && <p class="success">{saved}</p>}
            </div>
          </section>

          <section class="card" aria-labelledby="versions-h">
            <h2 id="versions-h">Versions</h2>
            <ol class="versions">
              {versions.data?.edits.map((v, i, all) => {
                const n = all.length - i;
                const isCurrent = v.id === base?.id;
                return (
                  <li key={v.id} class={isCurrent ? 'current-version' : undefined}>
                    <span>
                      <strong>Version {n}</strong> · {when(v.created_at)} · {length(v.duration)}
                      {isCurrent ? ' · current' : ''}
                      {playing?.editId === v.id || (!playing && isCurrent) ? ' · playing' : ''}
                    </span>
                    <span class="actions">
                      <button type="button" aria-label={`Preview version ${n}`} onClick={() => setPlaying({ editId: v.id, segments: v.segments, n })}>
                        Preview
                      </button>
                      {!isCurrent && (
                        <button type="button" aria-label={`Restore version ${n}`} onClick={() => void restore(v.id, n)}>
                          Restore
                        </button>
                      )}
                    </span>
                  </li>
                );
              })}
            </ol>
          </section>
        </div>
      </div>
    </>
  );
}

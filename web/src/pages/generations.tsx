import { useEffect, useRef, useState } from 'preact/hooks';
import { CutroomError, ok, type Generation, type Schemas } from '@cutroom/sdk/browser';
import { href } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { credits, when } from '../format';
import { Pager } from '../components/pager';
import { pollMs } from '../session';
import { Refusal } from '../components/refusal';

type Model = Schemas['GenerationModel'];
type Option = Model['options'][string];
type Value = string | number | boolean;
/** A reference image: uploaded here, or a generation's output (Animate). */
type Reference = { id: string; url: string; label: string };

const PAGE_SIZE = 12;

/** `aspect_ratio` → "Aspect ratio". */
function optionLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function priceText(m: Model): string {
  return 'per_image' in m.price ? `${credits(m.price.per_image)} an image` : `${credits(m.price.per_second)} a second`;
}

/** The service's price (docs/generations.md): units × unit price, the plan's discount, rounded up, at least 1 when not free. */
export function generationPrice(m: Model, options: Record<string, Value>, discountPercent: number): number {
  const unit = 'per_image' in m.price ? m.price.per_image : m.price.per_second;
  const units = 'per_image' in m.price ? 1 : Number(options.duration);
  if (!(unit > 0) || !(units > 0)) return 0;
  const discount = Math.min(Math.max(discountPercent, 0), 100);
  if (discount >= 100) return 0;
  return Math.max(1, Math.ceil(Math.round(unit * units * (1 - discount / 100) * 1e6) / 1e6));
}

function defaults(m: Model): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, o] of Object.entries(m.options)) {
    if (o.default !== undefined) out[name] = o.default;
    else if (o.type === 'string' && o.values?.length) out[name] = o.values[0];
    else if (o.type === 'boolean') out[name] = false;
    else if (o.type !== 'string' && name === 'duration') out[name] = o.minimum ?? 1;
  }
  return out;
}

/** The options as the API takes them: numbers as numbers, empty text left out. */
function optionsBody(m: Model, values: Record<string, Value>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, o] of Object.entries(m.options)) {
    const v = values[name];
    if (v === undefined || v === '') continue;
    out[name] = o.type === 'number' || o.type === 'integer' ? Number(v) : v;
  }
  return out;
}

function OptionField({ name, option, value, onChange }: { name: string; option: Option; value: Value | undefined; onChange(v: Value): void }) {
  const id = `option-${name}`;
  const hint = option.description ? (
    <p id={`${id}-hint`} class="hint">
      {option.description}
    </p>
  ) : null;
  const described = option.description ? `${id}-hint` : undefined;
  if (option.type === 'boolean')
    return (
      <div class="field check-field">
        <label class="check">
          <input type="checkbox" checked={value === true} aria-describedby={described} onChange={(e) => onChange(e.currentTarget.checked)} />
          {optionLabel(name)}
        </label>
        {hint}
      </div>
    );
  if (option.type === 'string' && option.values?.length)
    return (
      <div class="field">
        <label for={id}>{optionLabel(name)}</label>
        <select id={id} value={String(value ?? '')} aria-describedby={described} onChange={(e) => onChange(e.currentTarget.value)}>
          {option.values.map((v) => (
            <option key={v} value={v}>
              {v.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
        {hint}
      </div>
    );
  const numeric = option.type === 'number' || option.type === 'integer';
  return (
    <div class="field">
      <label for={id}>
        {optionLabel(name)}
        {name === 'duration' ? ' (seconds)' : ''}
      </label>
      {numeric ? (
        <input
          id={id}
          type="number"
          inputMode={option.type === 'integer' ? 'numeric' : 'decimal'}
          min={'minimum' in option ? option.minimum : undefined}
          max={'maximum' in option ? option.maximum : undefined}
          step={option.type === 'integer' ? 1 : 'any'}
          value={value === undefined ? '' : String(value)}
          aria-describedby={described}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : (
        <input
          id={id}
          type="text"
          value={value === undefined ? '' : String(value)}
          aria-describedby={described}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      )}
      {hint}
    </div>
  );
}

function ResultCard({ g, model, onAnimate, canAnimate }: { g: Generation; model: Model | undefined; onAnimate(g: Generation): void; canAnimate: boolean }) {
  const name = model?.name ?? g.model_id;
  const what = g.prompt
    ? `“${g.prompt}”`
    : g.image_ids.length
      ? `from ${g.image_ids.length === 1 ? 'a reference image' : `${g.image_ids.length} reference images`}`
      : '';
  return (
    <article class="gen card" aria-labelledby={`gen-${g.id}`}>
      <div class="gen-media">
        {g.status === 'ready' && g.output ? (
          g.kind === 'video' ? (
            <video src={g.output.url} controls preload="metadata" aria-label={`${name}, the video`} />
          ) : (
            <img src={g.output.url} alt={`${name} result ${what}`.trim()} width={g.output.width} height={g.output.height} />
          )
        ) : (
          <p class={g.status === 'failed' ? 'gen-state failed' : 'gen-state'}>
            {g.status === 'failed' ? 'Failed' : g.status === 'queued' ? 'Waiting in line…' : 'Making it…'}
          </p>
        )}
      </div>
      <h3 id={`gen-${g.id}`}>{name}</h3>
      <p class="muted small">
        {what && `${what} · `}
        {g.output ? `${g.output.width}×${g.output.height}${g.output.seconds ? `, ${g.output.seconds} s` : ''} · ` : ''}
        {credits(g.credits_charged)} · {when(g.created_at)}
      </p>
      {g.status === 'failed' && g.error_code && (
        <p class="error">
          {codeInWords(g.error_code)} The credits were refunded. ({g.error_code})
        </p>
      )}
      {g.status === 'ready' && g.output?.image_id && canAnimate && (
        <div class="actions">
          <button type="button" aria-describedby={`gen-${g.id}`} onClick={() => onAnimate(g)}>
            Animate
          </button>
        </div>
      )}
    </article>
  );
}

export function Generations({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Generations, page ${page}` : 'Generations');
  const { cutroom } = useStudio();
  const catalog = useLoad((c, signal) => ok(c.api.GET('/api/v1/generations/models', { params: { query: { limit: 100 } }, signal })), []);
  // The plan's discount, which generation prices take (the personas catalog carries it).
  const plan = useLoad((c, signal) => ok(c.api.GET('/api/v1/personas/catalog', { signal })).catch(() => ({ discount_percent: 0 })), []);
  const balance = useLoad((c, signal) => ok(c.api.GET('/api/v1/balance', { signal })), []);
  const list = useLoad(
    (c, signal) => ok(c.api.GET('/api/v1/generations', { params: { query: { page, limit: PAGE_SIZE } }, signal })),
    [page],
    (d) => (d.generations.some((g) => g.status === 'queued' || g.status === 'processing') ? pollMs('generation') : null),
  );
  const models = catalog.data?.models ?? [];
  const [modelId, setModelId] = useState<string | null>(null);
  const model = models.find((m) => m.id === modelId) ?? models[0];
  const [values, setValues] = useState<Record<string, Value>>({});
  const [prompt, setPrompt] = useState('');
  const [refs, setRefs] = useState<Reference[]>([]);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  /** The price the service measured (409 PRICE_CHANGED) for this model and these options: the next Generate agrees to it. */
  const [measured, setMeasured] = useState<{ key: string; credits: number } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useRef<HTMLElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // A new model starts from its own defaults, with as many of the references as it takes.
  useEffect(() => {
    if (!model) return;
    setValues(defaults(model));
    setRefs((r) => r.slice(0, model.inputs.image_ids.max));
  }, [model?.id]);

  const chooseModel = (id: string) => {
    setModelId(id);
    setStartError(null);
    setNotice(null);
  };

  const addImage = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setUploadError(null);
    try {
      const img = await cutroom.generations.uploadImage(file);
      setRefs((r) => [...r, { id: img.id, url: img.url, label: file.name }].slice(-(model?.inputs.image_ids.max ?? 1)));
    } catch (err) {
      setUploadError(describe(err));
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const animate = (g: Generation) => {
    const video = models.find((m) => m.kind === 'video' && m.inputs.image_ids.max >= 1);
    if (!video || !g.output?.image_id) return;
    setModelId(video.id);
    setRefs([{ id: g.output.image_id, url: g.output.url, label: `the ${models.find((m) => m.id === g.model_id)?.name ?? g.model_id} result` }]);
    setStartError(null);
    setNotice(`Animating that image with ${video.name}: choose the options, then Generate.`);
    form.current?.scrollIntoView({ block: 'start' });
    form.current?.querySelector<HTMLElement>('h2')?.focus();
  };

  const discount = plan.data?.discount_percent ?? 0;
  const asked = model ? JSON.stringify([model.id, optionsBody(model, values)]) : '';
  const price = measured?.key === asked ? measured.credits : model ? generationPrice(model, values, discount) : 0;
  const b = balance.data;

  const generate = async (e: Event) => {
    e.preventDefault();
    if (!model) return;
    if (model.inputs.prompt === 'required' && !prompt.trim()) return setStartError('Write a prompt first.');
    if (refs.length < model.inputs.image_ids.min)
      return setStartError(
        `${model.name} needs ${model.inputs.image_ids.min === 1 ? 'a reference image' : `${model.inputs.image_ids.min} reference images`}: add one first.`,
      );
    setStarting(true);
    setStartError(null);
    try {
      const g = await ok(
        cutroom.api.POST('/api/v1/generations', {
          body: {
            model_id: model.id,
            ...(model.inputs.prompt !== 'none' && prompt.trim() ? { prompt: prompt.trim() } : {}),
            ...(refs.length ? { image_ids: refs.map((r) => r.id) } : {}),
            options: optionsBody(model, values),
            credits: price,
          },
        }),
      );
      setNotice(`Started: ${model.name} for ${credits(g.credits_charged)}. The result shows below when it is ready.`);
      setRefs([]);
      setPrompt('');
      setMeasured(null);
      list.reload();
      balance.reload();
    } catch (err) {
      setStartError(err);
      // PRICE_CHANGED: the catalog or the plan changed since the page loaded; the measured price is shown and agreed to next.
      const measuredNow = err instanceof CutroomError && err.code === 'PRICE_CHANGED' ? err.extra?.credits : undefined;
      if (typeof measuredNow === 'number') {
        setMeasured({ key: asked, credits: measuredNow });
        catalog.reload();
        plan.reload();
      }
      balance.reload();
    } finally {
      setStarting(false);
    }
  };

  const gens = list.data?.generations;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Generations</h1>
          <p class="lead">Images and videos made by the models of this service’s catalog, charged by the catalog’s price.</p>
        </div>
      </div>
      {catalog.error != null && (
        <p class="error" role="alert">
          {describe(catalog.error)}
        </p>
      )}
      {page === 1 && model && (
        <section class="card" aria-labelledby="new-generation" ref={form}>
          <h2 id="new-generation" tabIndex={-1}>
            New generation
          </h2>
          <form onSubmit={generate} noValidate>
            <fieldset class="models">
              <legend>Model</legend>
              {models.map((m) => (
                <label key={m.id} class={m.id === model.id ? 'model chosen' : 'model'}>
                  <input
                    type="radio"
                    name="model"
                    value={m.id}
                    checked={m.id === model.id}
                    onChange={() => chooseModel(m.id)}
                    aria-describedby={`model-${m.id}`}
                  />
                  <span class="model-head">
                    <span class="model-name">{m.name}</span>
                    <span class="badge">{m.kind === 'video' ? 'Video' : 'Image'}</span>
                    <span class="model-price">{priceText(m)}</span>
                  </span>
                  <span id={`model-${m.id}`} class="model-desc">
                    {m.description}
                  </span>
                </label>
              ))}
            </fieldset>
            {model.inputs.prompt !== 'none' && (
              <div class="field">
                <label for="gen-prompt">Prompt{model.inputs.prompt === 'optional' ? ' (optional)' : ''}</label>
                <textarea id="gen-prompt" rows={3} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
              </div>
            )}
            {model.inputs.image_ids.max > 0 && (
              <div class="field">
                <label for="reference-image">Reference image</label>
                <input
                  id="reference-image"
                  ref={fileInput}
                  type="file"
                  accept=".png,.jpg,.jpeg,.webp,image/png,image/jpeg,image/webp"
                  aria-describedby="reference-hint"
                  disabled={uploading}
                  onChange={(e) => void addImage(e.currentTarget.files?.[0])}
                />
                <p id="reference-hint" class="hint">
                  PNG, JPEG or WebP.{' '}
                  {model.inputs.image_ids.max === 1 ? `${model.name} takes one image` : `${model.name} takes up to ${model.inputs.image_ids.max} images`}
                  {model.inputs.image_ids.min > 0 ? ' (required).' : ' (optional).'}
                </p>
                {uploading && <p role="status">Uploading the image…</p>}
                {uploadError && (
                  <p class="error" role="alert">
                    {uploadError}
                  </p>
                )}
                {refs.length > 0 && (
                  <ul class="refs" aria-label="Reference images">
                    {refs.map((r) => (
                      <li key={r.id}>
                        <img src={r.url} alt={`Reference: ${r.label}`} />
                        <button type="button" class="quiet" onClick={() => setRefs((all) => all.filter((x) => x.id !== r.id))} aria-label={`Remove ${r.label}`}>
                          Remove
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            {Object.keys(model.options).length > 0 && (
              <div class="row">
                {Object.entries(model.options).map(([name, o]) => (
                  <OptionField
                    key={`${model.id}-${name}`}
                    name={name}
                    option={
                      name === 'duration' && model.max_seconds && o.type !== 'string' && o.type !== 'boolean'
                        ? { ...o, maximum: o.maximum ?? model.max_seconds }
                        : o
                    }
                    value={values[name]}
                    onChange={(v) => setValues((all) => ({ ...all, [name]: v }))}
                  />
                ))}
              </div>
            )}
            <p class="price" id="generation-price" aria-live="polite">
              Price: {credits(price)}
              {discount > 0 ? ` (the plan’s ${discount} % discount applied)` : ''}
              {b ? `. Balance: ${credits(b.balance)}.${b.unlimited ? ' Generations are charged under free usage too.' : ''}` : '.'}
            </p>
            <button type="submit" class="primary" disabled={starting || uploading} aria-describedby={startError ? 'generate-error' : 'generation-price'}>
              {starting ? 'Starting…' : 'Generate'}
            </button>
            {notice && !startError && (
              <p class="notice" role="status">
                {notice}
              </p>
            )}
            {startError != null && <Refusal id="generate-error" error={startError} />}
          </form>
        </section>
      )}
      <section aria-labelledby="results">
        <h2 id="results">Results</h2>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {gens && gens.length === 0 && <p class="empty card">Nothing generated yet.</p>}
        {gens && gens.length > 0 && (
          <div class="gallery">
            {gens.map((g) => (
              <ResultCard
                key={g.id}
                g={g}
                model={models.find((m) => m.id === g.model_id)}
                canAnimate={models.some((m) => m.kind === 'video' && m.inputs.image_ids.max >= 1)}
                onAnimate={animate}
              />
            ))}
          </div>
        )}
        <Pager
          label="Pages of the results"
          page={page}
          pagination={list.data?.pagination}
          hrefOf={(n) => href('generations', {}, n > 1 ? { page: n } : undefined)}
        />
      </section>
    </>
  );
}

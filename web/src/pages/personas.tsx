import { useRef, useState } from 'preact/hooks';
import type { Persona, Schemas } from '@cutroom/sdk/browser';
import { Link, href, navigate } from '../router';
import { useLoad, usePageTitle, useStudio } from '../hooks';
import { codeInWords, describe } from '../errors';
import { credits, when } from '../format';
import { Pager } from '../components/pager';
import { pollMs } from '../session';

export type PersonaCatalog = Schemas['PersonaCatalog'];
type TraitKey = keyof PersonaCatalog['traits'];
type Face = { id: string; name: string; score: number };

const PAGE_SIZE = 12;
const PHOTO_ACCEPT = '.png,.jpg,.jpeg,.webp,image/png,image/jpeg,image/webp';

/** `hair_color` → "Hair color". */
export function traitName(key: string): string {
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** An option's label from the catalog ("Young adult (18-25)"), else its id in words. */
export function optionName(catalog: PersonaCatalog | undefined, trait: string, id: string): string {
  const t = catalog?.traits[trait as TraitKey];
  return t?.options.find((o) => o.id === id)?.label ?? id.replace(/_/g, ' ');
}

/** What a portrait costs and what the balance is, in one sentence (portraits are charged under free usage too). */
export function portraitPrice(catalog: PersonaCatalog | undefined, balance: { balance: number; unlimited: boolean } | undefined): string {
  if (!catalog) return '\u00a0';
  const discount = catalog.discount_percent > 0 ? ` (the plan’s ${catalog.discount_percent} % discount applied)` : '';
  const b = balance ? ` Balance: ${credits(balance.balance)}.${balance.unlimited ? ' Personas are charged under free usage too.' : ''}` : '';
  return `Price: ${credits(catalog.prices.image)} for the portrait${discount}.${b}`;
}

/** A persona's state in words. */
export function portraitState(p: Persona): string {
  if (p.image_status === 'processing') return 'Making the portrait…';
  if (p.image_status === 'failed') return 'Failed';
  return p.saved ? 'Saved' : 'Ready';
}

function NewPersona({ catalog, onCreated }: { catalog: PersonaCatalog; onCreated(p: Persona): void }) {
  const { cutroom } = useStudio();
  const balance = useLoad((c, signal) => c.balance.get({ signal }), []);
  const [chips, setChips] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(catalog.traits).map(([k, t]) => [k, t.default] as [string, string])),
  );
  const [faces, setFaces] = useState<Face[]>([]);
  const [adult, setAdult] = useState(false);
  const [photoBusy, setPhotoBusy] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const photo = useRef<HTMLInputElement>(null);
  const withFaces = faces.length > 0;
  const applies = (trait: string) => !withFaces || catalog.face_photo_groups.includes(trait);

  const addFace = async (e: Event) => {
    e.preventDefault();
    const file = photo.current?.files?.[0];
    setPhotoError(null);
    if (!file) return setPhotoError('Choose a Face photo first.');
    if (!adult)
      return setPhotoError(
        'Tick “This is my own face and I am 18 or older” first: the service takes only a photo of your own face, from an adult. Nothing was uploaded.',
      );
    setPhotoBusy(true);
    try {
      const face = await cutroom.personas.uploadFace(file, { own_face_adult: true });
      setFaces((all) => [...all, { id: face.id, name: file.name, score: face.face.score }]);
      if (photo.current) photo.current.value = '';
    } catch (err) {
      setPhotoError(describe(err));
    } finally {
      setPhotoBusy(false);
    }
  };

  const create = async (e: Event) => {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const sent = Object.fromEntries(Object.entries(chips).filter(([k]) => applies(k)));
      const p = await cutroom.personas.create({ chips: sent, ...(withFaces ? { face_ids: faces.map((f) => f.id) } : {}) });
      onCreated(p);
    } catch (err) {
      setCreateError(describe(err));
      setCreating(false);
      balance.reload();
    }
  };

  const engine = withFaces ? catalog.engines.portrait.face_photos : catalog.engines.portrait.chips;
  return (
    <section class="card" aria-labelledby="new-persona">
      <h2 id="new-persona">New persona</h2>
      <p class="muted small">
        {withFaces
          ? `The portrait is made from your face photo (engine “${engine.name}”).`
          : `Choose one option per trait: the portrait is ${engine.kind === 'illustration' ? 'an illustration drawn' : 'a photo made'} from them (engine “${engine.name}”).`}
      </p>
      <form class="face-form" onSubmit={addFace} noValidate aria-labelledby="face-photos">
        <h3 id="face-photos">From your own face (optional)</h3>
        <div class="field">
          <label for="face-photo">Face photo</label>
          <input id="face-photo" ref={photo} type="file" accept={PHOTO_ACCEPT} aria-describedby="face-photo-hint" disabled={photoBusy} />
          <p id="face-photo-hint" class="hint">
            PNG, JPEG or WebP with exactly one face: yours. With a photo only {catalog.face_photo_groups.map(traitName).join(', ')} still applies; the portrait
            is your own photo, framed and graded.
          </p>
        </div>
        <div class="field check-field">
          <label class="check">
            <input type="checkbox" checked={adult} onChange={(e) => setAdult(e.currentTarget.checked)} />
            This is my own face and I am 18 or older
          </label>
        </div>
        <button type="submit" disabled={photoBusy}>
          {photoBusy ? 'Checking the photo…' : 'Add face photo'}
        </button>
        {photoError && (
          <p class="error" role="alert">
            {photoError}
          </p>
        )}
        {withFaces && (
          <ul class="faces" aria-label="Face photos added">
            {faces.map((f) => (
              <li key={f.id}>
                <span>
                  {f.name}: one face found ({Math.round(f.score * 100)} % sure)
                </span>
                <button type="button" class="quiet" aria-label={`Remove ${f.name}`} onClick={() => setFaces((all) => all.filter((x) => x.id !== f.id))}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </form>
      <form onSubmit={create} noValidate>
        <h3>Traits</h3>
        {withFaces && (
          <p class="notice">
            With a face photo only {catalog.face_photo_groups.map(traitName).join(', ')} applies; the rest is your own face, hair and clothes.
          </p>
        )}
        <div class="traits">
          {Object.entries(catalog.traits).map(([key, trait]) => (
            <fieldset key={key} class="chips" disabled={!applies(key)}>
              <legend>{traitName(key)}</legend>
              {trait.options.map((o) => (
                <label key={o.id} class={chips[key] === o.id ? 'chip chosen' : 'chip'}>
                  <input
                    type="radio"
                    name={`trait-${key}`}
                    value={o.id}
                    checked={chips[key] === o.id}
                    onChange={() => setChips((c) => ({ ...c, [key]: o.id }))}
                  />
                  {o.label}
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <p class="price" id="persona-price" aria-live="polite">
          {portraitPrice(catalog, balance.data)}
        </p>
        <button type="submit" class="primary" disabled={creating} aria-describedby={createError ? 'create-error' : 'persona-price'}>
          {creating ? 'Starting…' : `Create persona for ${credits(catalog.prices.image)}`}
        </button>
        {createError && (
          <p id="create-error" class="error" role="alert">
            {createError}
          </p>
        )}
      </form>
    </section>
  );
}

function Presets({ onCreated }: { onCreated(p: Persona): void }) {
  const { cutroom } = useStudio();
  const presets = useLoad((c, signal) => c.personas.listPresets({ signal }), []);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ id: string; text: string } | null>(null);
  const [favorites, setFavorites] = useState<Record<string, boolean>>({});

  const favorite = async (id: string, on: boolean) => {
    setBusy(id);
    setError(null);
    try {
      await cutroom.personas.setPresetFavorite(id, { favorite: on });
      setFavorites((f) => ({ ...f, [id]: on }));
    } catch (err) {
      setError({ id, text: describe(err) });
    } finally {
      setBusy(null);
    }
  };

  const use = async (id: string) => {
    setBusy(id);
    setError(null);
    try {
      onCreated(await cutroom.personas.createFromPreset(id));
    } catch (err) {
      setError({ id, text: describe(err) });
      setBusy(null);
    }
  };

  const list = presets.data?.presets ?? [];
  return (
    <section class="presets-section" aria-labelledby="presets">
      <h2 id="presets">Presets</h2>
      <p class="muted small">Ready-made characters: a persona from one of them is free.</p>
      {presets.error != null && (
        <p class="error" role="alert">
          {describe(presets.error)}
        </p>
      )}
      <div class="gallery presets">
        {list.map((p) => {
          const fav = favorites[p.id] ?? p.favorite;
          return (
            <article key={p.id} class="gen card preset" aria-labelledby={`preset-${p.id}`}>
              <div class="gen-media">
                <img src={p.preview_url} alt={`${p.name}, the preset’s portrait`} width={384} height={384} />
              </div>
              <h3 id={`preset-${p.id}`}>
                {p.name}
                {fav && <span class="badge fav">Favourite</span>}
              </h3>
              <div class="actions">
                <button
                  type="button"
                  class="vote"
                  aria-pressed={fav}
                  aria-describedby={`preset-${p.id}`}
                  disabled={busy === p.id}
                  onClick={() => void favorite(p.id, !fav)}
                >
                  <span aria-hidden="true">{fav ? '★' : '☆'}</span> Favourite
                </button>
                <button type="button" class="primary" aria-describedby={`preset-${p.id}`} disabled={busy === p.id} onClick={() => void use(p.id)}>
                  Use this preset
                </button>
              </div>
              {error?.id === p.id && (
                <p class="error" role="alert">
                  {error.text}
                </p>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}

export function Personas({ page }: { page: number }) {
  usePageTitle(page > 1 ? `Personas, page ${page}` : 'Personas');
  const catalog = useLoad((c, signal) => c.personas.getCatalog({ signal }), []);
  const list = useLoad(
    (c, signal) => c.personas.list({ page, limit: PAGE_SIZE }, { signal }),
    [page],
    (d) => (d.personas.some((p) => p.image_status === 'processing') ? pollMs('persona') : null),
  );
  const opened = (p: Persona) => navigate(href('persona', { personaId: p.id }));
  const items = list.data?.personas;
  return (
    <>
      <div class="page-head">
        <div>
          <h1 tabIndex={-1}>Personas</h1>
          <p class="lead">Made-up characters with a portrait, from trait chips or your own face, that can take the place of the person in a short video.</p>
        </div>
      </div>
      {catalog.error != null && (
        <p class="error" role="alert">
          {describe(catalog.error)}
        </p>
      )}
      {page === 1 && catalog.data && <NewPersona catalog={catalog.data} onCreated={opened} />}
      <section aria-labelledby="your-personas">
        <h2 id="your-personas">Your personas</h2>
        {list.error != null && (
          <p class="error" role="alert">
            {describe(list.error)}
          </p>
        )}
        {items && items.length === 0 && <p class="empty card">No personas yet: create one above, or start from a preset.</p>}
        {items && items.length > 0 && (
          <div class="gallery">
            {items.map((p) => (
              <article key={p.id} class="gen card" aria-labelledby={`persona-${p.id}`}>
                <div class="gen-media">
                  {p.image_url ? (
                    <img src={p.image_url} alt={`Portrait of ${p.name ?? 'an unsaved persona'}`} width={384} height={384} />
                  ) : (
                    <p class={p.image_status === 'failed' ? 'gen-state failed' : 'gen-state'}>{portraitState(p)}</p>
                  )}
                </div>
                <h3 id={`persona-${p.id}`}>
                  <Link href={href('persona', { personaId: p.id })}>{p.name ?? 'Unsaved persona'}</Link>
                </h3>
                <p class="muted small">
                  {portraitState(p)} · {p.versions.length} version{p.versions.length === 1 ? '' : 's'} · {when(p.created_at)}
                </p>
                {p.image_status === 'failed' && p.error_code && <p class="error">{codeInWords(p.error_code)}</p>}
              </article>
            ))}
          </div>
        )}
        <Pager
          label="Pages of the personas"
          page={page}
          pagination={list.data?.pagination}
          hrefOf={(n) => href('personas', {}, n > 1 ? { page: n } : undefined)}
        />
      </section>
      {page === 1 && <Presets onCreated={opened} />}
    </>
  );
}

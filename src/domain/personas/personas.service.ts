import { newId } from '../../shared/ids.js';
import { DomainError, validationError } from '../errors.js';
import { enqueueAfterCommit } from '../jobs/enqueue.js';
import type { EventPublisher } from '../webhooks/events.js';
import type { PageRequest } from '../pagination.js';
import type { WorkspaceWithPlan } from '../workspaces/workspaces.service.js';
import type { JobQueue } from '../../ports/queue.js';
import type { Storage } from '../../ports/storage.js';
import type { TransactionRunner, Tx } from '../../ports/transactions.js';
import type { DetectedFace, FacePhoto, ImageKind, PortraitEngine } from '../../ports/persona-engines.js';
import {
  QUALITIES,
  SOURCE_LIMITS,
  TRAITS,
  TRAIT_KEYS,
  checkNote,
  defaultChips,
  isCompleteChips,
  resolveChips,
  type Chips,
  type TraitKey,
} from './persona-catalog.js';
import { PRESETS, findPreset, type Preset } from './persona-presets.js';
import { noteExamples, readNote } from './persona-notes.js';
import type { PersonaPrices } from './persona-prices.js';
import { measuredPrice } from '../credits/priced-charge.js';
import type { FaceRow, PersonaRow, PersonasRepository, PersonaVideoRow, VersionRow } from './personas.records.js';
import { checkFeedback, feedbackView, perSecond, presetImageKey, versionImageKey, type FeedbackView, type PersonaCharges } from './persona.rules.js';
import { CHARGE_TYPE } from '../credits/charge-types.js';

const URL_SECONDS = 3600;

/** What an own-face photo reads as: its sniffed type and size and the faces found (null: not an image). */
export interface PhotoReading {
  contentType: string;
  extension: string;
  width: number;
  height: number;
  faces: DetectedFace[];
}

/** Engines and their catalog view. */
export interface PersonaEngines {
  /** Portraits from chips. */
  chips: PortraitEngine;
  /** The presets' drawings (always embedded: presets are free). */
  presets: PortraitEngine;
  /** Portraits from own-face photos. */
  faces: PortraitEngine;
  /** The swap engine's name, label and the replace modes it can do. */
  swap: { name: string; label: string; replaceModes: readonly string[] };
}

export interface PersonasDeps {
  repo: PersonasRepository;
  transactions: TransactionRunner;
  storage: Pick<Storage, 'presignGet' | 'head' | 'delete'>;
  queue: JobQueue;
  charges: PersonaCharges;
  engines: PersonaEngines;
  prices(): Promise<PersonaPrices>;
  /** Stores PNG bytes under a key. */
  putImage(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Reads an own-face photo: `rejected` when the bytes are not a PNG, JPEG or WebP image the service decodes. */
  readPhoto(bytes: Uint8Array): Promise<PhotoReading | { rejected: string; maxPixels?: number }>;
  /** Largest own-face photo in bytes. */
  maxPhotoBytes: number;
  /** Webhook events `persona.ready` / `persona.failed` (published with the state change). */
  events: EventPublisher;
}

export interface VersionView {
  id: string;
  image_url: string;
  image_kind: ImageKind;
  engine: string;
  chips: Record<string, string>;
  note: string | null;
  face_ids: string[];
  feedback: FeedbackView | null;
  created_at: string;
}

export interface PersonaView {
  id: string;
  name: string | null;
  saved: boolean;
  image_status: string;
  image_url: string | null;
  image_kind: ImageKind | null;
  error_code: string | null;
  chips: Record<string, string>;
  face_ids: string[];
  preset_id: string | null;
  current_version_id: string | null;
  versions: VersionView[];
  created_at: string;
  updated_at: string;
}

/**
 * Personas: the catalog, own-face photos, portraits (charged per image, even under free usage,
 * refunded when they fail), versions, presets and feedback. The portrait work is done by
 * PersonaProcessor (job `persona.portrait`); persona videos by PersonaVideosService.
 */
export class PersonasService {
  constructor(private readonly d: PersonasDeps) {}

  /** Largest own-face photo in bytes (the upload route reads at most this much). */
  get maxPhotoBytes(): number {
    return this.d.maxPhotoBytes;
  }

  /** GET /personas/catalog. */
  async catalog(ctx: WorkspaceWithPlan) {
    const base = await this.d.prices();
    const discount = ctx.plan.discountPercent;
    const { engines } = this.d;
    return {
      traits: Object.fromEntries(TRAIT_KEYS.map((k) => [k, { options: TRAITS[k].options, default: TRAITS[k].default }])),
      face_photo_groups: [...(engines.faces.appliedTraits ?? [])],
      prices: {
        image: measuredPrice(base.image, 1, discount),
        swap: {
          standard: { per_second: perSecond(base.swap_standard_per_second, discount) },
          high: { per_second: perSecond(base.swap_high_per_second, discount) },
        },
      },
      discount_percent: discount,
      source_limits: SOURCE_LIMITS,
      engines: {
        portrait: {
          chips: { name: engines.chips.name, kind: engines.chips.kind, reads_notes: engines.chips.readsNotes },
          face_photos: { name: engines.faces.name, kind: engines.faces.kind, reads_notes: engines.faces.readsNotes },
        },
        swap: {
          name: engines.swap.name,
          label: engines.swap.label,
          qualities: [...QUALITIES],
          replace: {
            person: { available: engines.swap.replaceModes.includes('person') },
            head: { available: engines.swap.replaceModes.includes('head') },
          },
        },
      },
    };
  }

  // ------------------------------------------------------------------------------------------
  // Own-face photos

  /** POST /personas/faces: exactly one face, else 422 NO_FACE_FOUND / MULTIPLE_FACES; not an image: 400 UNSUPPORTED_IMAGE. */
  async addFace(ctx: WorkspaceWithPlan, input: { bytes: Uint8Array; ownFaceAdult: boolean }) {
    if (!input.ownFaceAdult) throw validationError([{ field: 'own_face_adult', rule: 'must_be_true' }]);
    if (input.bytes.length > this.d.maxPhotoBytes) throw new DomainError('FILE_TOO_LARGE', { max_size: this.d.maxPhotoBytes });
    const reading = await this.d.readPhoto(input.bytes);
    if ('rejected' in reading) {
      throw new DomainError('UNSUPPORTED_IMAGE', { reason: reading.rejected, ...(reading.maxPixels ? { max_pixels: reading.maxPixels } : {}) });
    }
    if (reading.faces.length === 0) throw new DomainError('NO_FACE_FOUND');
    if (reading.faces.length > 1) throw new DomainError('MULTIPLE_FACES', { faces: reading.faces.length });
    const id = newId('face');
    const key = `personas/${ctx.workspace.id}/faces/${id}${reading.extension}`;
    await this.d.putImage(key, input.bytes, reading.contentType);
    const row = await this.d.repo.insertFace({
      id,
      workspaceId: ctx.workspace.id,
      photoKey: key,
      contentType: reading.contentType,
      width: reading.width,
      height: reading.height,
      face: reading.faces[0],
    });
    return this.faceView(row);
  }

  private faceView(r: FaceRow) {
    const f = r.face as DetectedFace;
    return {
      id: r.id,
      width: r.width,
      height: r.height,
      face: { box: f.box, score: f.score, landmarks: f.mesh.length },
      created_at: r.createdAt.toISOString(),
    };
  }

  /** The workspace's faces of those ids, in order; 404 FACE_NOT_FOUND naming the others. */
  private async faces(workspaceId: string, ids: readonly string[]): Promise<FaceRow[]> {
    const unique = [...new Set(ids)];
    const rows = await this.d.repo.findFaces(workspaceId, unique);
    const missing = unique.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw new DomainError('FACE_NOT_FOUND', { invalid_face_ids: missing });
    return unique.map((id) => rows.find((r) => r.id === id)!);
  }

  // ------------------------------------------------------------------------------------------
  // Personas and portraits

  /** POST /personas: a persona whose portrait generates in the background, charged `prices.image`. */
  async create(ctx: WorkspaceWithPlan, input: { chips?: Record<string, unknown>; face_ids?: string[] }): Promise<PersonaView> {
    const chips = resolveChips(input.chips);
    const faceIds = input.face_ids ?? [];
    if (faceIds.length) await this.faces(ctx.workspace.id, faceIds);
    const price = measuredPrice((await this.d.prices()).image, 1, ctx.plan.discountPercent);
    const id = newId('prs');
    const portraitId = newId('prt');
    const engine = faceIds.length ? this.d.engines.faces : this.d.engines.chips;
    const row = await this.d.transactions.run(async (tx) => {
      const persona = await this.d.repo.insertPersona(tx, { id, workspaceId: ctx.workspace.id, imageStatus: 'processing', chips, faceIds, portraitId });
      await this.startPortrait(tx, ctx, persona, { id: portraitId, chips, note: null, faceIds, engine: engine.name, price });
      return persona;
    });
    await this.enqueuePortrait(row, portraitId);
    return this.view(row);
  }

  private async startPortrait(
    tx: Tx,
    ctx: WorkspaceWithPlan,
    persona: PersonaRow,
    p: { id: string; chips: Chips; note: string | null; faceIds: string[]; engine: string; price: number },
  ): Promise<void> {
    const charge = await this.d.charges.charge(
      {
        workspaceId: ctx.workspace.id,
        quoted: p.price,
        measured: p.price,
        reason: `persona portrait of ${persona.id}`,
        jobType: CHARGE_TYPE.personaPortrait,
        jobId: p.id,
      },
      tx,
    );
    await this.d.repo.insertPortrait(tx, {
      id: p.id,
      workspaceId: ctx.workspace.id,
      personaId: persona.id,
      chips: p.chips,
      note: p.note,
      faceIds: p.faceIds,
      status: 'processing',
      engine: p.engine,
      creditsCharged: charge.charged,
    });
  }

  private async enqueuePortrait(persona: PersonaRow, portraitId: string): Promise<void> {
    await enqueueAfterCommit(this.d.queue, { name: 'persona.portrait', payload: { portraitId } }, (code) =>
      this.finishPortraitFailed({ id: portraitId, personaId: persona.id, workspaceId: persona.workspaceId }, code),
    );
  }

  /**
   * POST /personas/{id}/regenerate: `{ chips }` (merged into the current chips) or `{ note }` (one line):
   * charged like a new portrait. 409 PERSONA_IMAGE_PROCESSING while a portrait is being made.
   */
  async regenerate(ctx: WorkspaceWithPlan, id: string, input: { chips?: Record<string, unknown>; note?: string }): Promise<PersonaView> {
    if ((input.chips === undefined) === (input.note === undefined)) throw validationError([{ field: 'body', rule: 'chips_or_note' }]);
    const current = await this.get(ctx.workspace.id, id);
    const base = isCompleteChips(current.chips) ? current.chips : defaultChips();
    const engine = current.faceIds.length ? this.d.engines.faces : this.d.engines.chips;
    let chips: Chips;
    let note: string | null = null;
    if (input.chips !== undefined) chips = resolveChips(input.chips, base);
    else {
      note = checkNote(input.note!);
      chips = base;
      if (!engine.readsNotes) {
        // The embedded engines read trait words out of the note; a note naming none is refused before any charge.
        const only = current.faceIds.length ? ((engine.appliedTraits ?? []) as TraitKey[]) : undefined;
        const read = readNote(base, note, only);
        if (read.named.length === 0)
          throw new DomainError('NOTE_NOT_UNDERSTOOD', { engine: engine.name, traits: only ?? [...TRAIT_KEYS], examples: noteExamples(only) });
        chips = read.chips;
      }
    }
    const price = measuredPrice((await this.d.prices()).image, 1, ctx.plan.discountPercent);
    const portraitId = newId('prt');
    const row = await this.d.transactions.run(async (tx) => {
      const locked = await this.d.repo.lockPersona(tx, current.id);
      if (!locked) throw new DomainError('PERSONA_NOT_FOUND');
      if (locked.imageStatus === 'processing') throw new DomainError('PERSONA_IMAGE_PROCESSING');
      await this.startPortrait(tx, ctx, locked, { id: portraitId, chips, note, faceIds: locked.faceIds, engine: engine.name, price });
      return this.d.repo.updatePersona(tx, locked.id, { imageStatus: 'processing', chips, portraitId, errorCode: null });
    });
    await this.enqueuePortrait(row, portraitId);
    return this.view(row);
  }

  /** A finished portrait: a new version that becomes current; the persona is `ready`. */
  async finishPortraitReady(portraitId: string, image: { key: string; kind: ImageKind }): Promise<void> {
    const p = await this.d.repo.getPortrait(portraitId);
    if (!p) return;
    await this.d.transactions.run(async (tx) => {
      const persona = await this.d.repo.lockPersona(tx, p.personaId);
      if (!persona) return;
      const versionId = newId('ver');
      if (!(await this.d.repo.finishPortrait(tx, p.id, { status: 'ready', errorCode: null, versionId }))) return;
      await this.d.repo.insertVersion(tx, {
        id: versionId,
        workspaceId: p.workspaceId,
        personaId: p.personaId,
        imageKey: image.key,
        imageKind: image.kind,
        engine: p.engine,
        chips: p.chips,
        note: p.note,
        faceIds: p.faceIds,
      });
      const fields = persona.portraitId === p.id ? { imageStatus: 'ready', errorCode: null } : {};
      await this.d.repo.updatePersona(tx, persona.id, { ...fields, currentVersionId: versionId });
      await this.d.events.publish(p.workspaceId, 'persona.ready', { id: persona.id, version_id: versionId, image_status: 'ready' }, tx);
    });
  }

  /** A failed portrait: refunded once; the persona is `failed` (its current version, if any, stays). */
  async finishPortraitFailed(p: { id: string; personaId: string; workspaceId: string }, code: string): Promise<void> {
    await this.d.transactions.run(async (tx) => {
      if (!(await this.d.repo.finishPortrait(tx, p.id, { status: 'failed', errorCode: code, versionId: null, creditsCharged: 0 }))) return;
      await this.d.charges.refund(
        { workspaceId: p.workspaceId, jobType: CHARGE_TYPE.personaPortrait, jobId: p.id, reason: `persona portrait failed: ${code}` },
        tx,
      );
      const persona = await this.d.repo.lockPersona(tx, p.personaId);
      if (persona?.portraitId === p.id) await this.d.repo.updatePersona(tx, persona.id, { imageStatus: 'failed', errorCode: code });
      await this.d.events.publish(p.workspaceId, 'persona.failed', { id: p.personaId, image_status: 'failed', error_code: code }, tx);
    });
  }

  /** The own-face photos of a portrait, with their bytes (the job's input). */
  async facePhotos(workspaceId: string, ids: readonly string[], read: (key: string) => Promise<Uint8Array>): Promise<FacePhoto[]> {
    const rows = await this.faces(workspaceId, ids);
    return Promise.all(rows.map(async (r) => ({ id: r.id, bytes: await read(r.photoKey), face: r.face as DetectedFace })));
  }

  /** POST /personas/{id}/save. */
  async save(ctx: WorkspaceWithPlan, id: string, name: string): Promise<PersonaView> {
    const n = name.trim();
    if (!n || n.length > 100) throw validationError([{ field: 'name', rule: '1_to_100_chars' }]);
    const row = await this.get(ctx.workspace.id, id);
    return this.view(await this.d.repo.updatePersona(undefined, row.id, { name: n, saved: true }));
  }

  /** POST /personas/{id}/versions/{versionId}/restore: free; the version becomes current (and its chips). */
  async restore(ctx: WorkspaceWithPlan, id: string, versionId: string): Promise<PersonaView> {
    const row = await this.get(ctx.workspace.id, id);
    const out = await this.d.transactions.run(async (tx) => {
      const locked = await this.d.repo.lockPersona(tx, row.id);
      const v = await this.d.repo.findVersion(row.id, versionId, tx);
      if (!locked || !v) throw new DomainError('VERSION_NOT_FOUND');
      if (locked.imageStatus === 'processing') throw new DomainError('PERSONA_IMAGE_PROCESSING');
      return this.d.repo.updatePersona(tx, row.id, { currentVersionId: v.id, chips: v.chips, faceIds: v.faceIds, imageStatus: 'ready', errorCode: null });
    });
    return this.view(out);
  }

  /** POST …/versions/{versionId}/feedback. */
  async versionFeedback(ctx: WorkspaceWithPlan, id: string, versionId: string, input: { vote: string; reason?: string | null }): Promise<VersionView> {
    const fb = checkFeedback(input);
    const row = await this.get(ctx.workspace.id, id);
    const v = await this.d.repo.findVersion(row.id, versionId);
    if (!v) throw new DomainError('VERSION_NOT_FOUND');
    return this.versionView(await this.d.repo.setVersionFeedback(v.id, { ...fb, at: new Date() }));
  }

  /** The workspace's persona; 404 PERSONA_NOT_FOUND otherwise. */
  async get(workspaceId: string, id: string): Promise<PersonaRow> {
    const row = await this.d.repo.findPersona(workspaceId, id);
    if (!row) throw new DomainError('PERSONA_NOT_FOUND');
    return row;
  }

  async version(personaId: string, versionId: string): Promise<VersionRow | undefined> {
    return this.d.repo.findVersion(personaId, versionId);
  }

  async getView(workspaceId: string, id: string): Promise<PersonaView> {
    return this.view(await this.get(workspaceId, id));
  }

  /** GET /personas: newest first; filters `saved`, `image_status`, `preset_id`, `q` (part of the name). */
  async list(workspaceId: string, filter: { saved?: boolean; image_status?: string; preset_id?: string; q?: string }, page: PageRequest) {
    const { rows, total } = await this.d.repo.listPersonas(
      workspaceId,
      { saved: filter.saved, imageStatus: filter.image_status, presetId: filter.preset_id, q: filter.q },
      page,
    );
    const versions = await this.d.repo.versionsOf(rows.map((r) => r.id));
    return {
      items: await Promise.all(
        rows.map((r) =>
          this.view(
            r,
            versions.filter((v) => v.personaId === r.id),
          ),
        ),
      ),
      total,
    };
  }

  async view(r: PersonaRow, versions?: VersionRow[]): Promise<PersonaView> {
    const vs = versions ?? (await this.d.repo.versionsOf([r.id]));
    const views = await Promise.all(vs.map((v) => this.versionView(v)));
    const current = views.find((v) => v.id === r.currentVersionId) ?? null;
    return {
      id: r.id,
      name: r.name,
      saved: r.saved,
      image_status: r.imageStatus,
      image_url: current?.image_url ?? null,
      image_kind: current?.image_kind ?? null,
      error_code: r.errorCode,
      chips: r.chips,
      face_ids: r.faceIds,
      preset_id: r.presetId,
      current_version_id: r.currentVersionId,
      versions: views,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  }

  async versionView(v: VersionRow): Promise<VersionView> {
    return {
      id: v.id,
      image_url: await this.d.storage.presignGet(v.imageKey, { expiresInSeconds: URL_SECONDS, contentType: 'image/png' }),
      image_kind: v.imageKind as ImageKind,
      engine: v.engine,
      chips: v.chips,
      note: v.note,
      face_ids: v.faceIds,
      feedback: feedbackView(v.feedbackVote, v.feedbackReason, v.feedbackAt),
      created_at: v.createdAt.toISOString(),
    };
  }

  videoFeedbackView(r: PersonaVideoRow): FeedbackView | null {
    return feedbackView(r.feedbackVote, r.feedbackReason, r.feedbackAt);
  }

  // ------------------------------------------------------------------------------------------
  // Presets

  /** A preset's image in storage, drawn by the chips engine the first time it is needed. */
  private async presetImage(p: Preset): Promise<string> {
    const key = presetImageKey(p.id);
    if (!(await this.d.storage.head(key))) {
      const img = await this.d.engines.presets.render({ chips: p.chips, note: null, faces: [], seed: p.id });
      await this.d.putImage(key, img.png, 'image/png');
    }
    return key;
  }

  /** GET /personas/presets. */
  async presets(ctx: WorkspaceWithPlan) {
    const favorites = new Set(await this.d.repo.favoritePresets(ctx.workspace.id));
    const presets = [];
    for (const p of PRESETS) {
      const key = await this.presetImage(p);
      presets.push({
        id: p.id,
        name: p.name,
        chips: p.chips,
        preview_url: await this.d.storage.presignGet(key, { expiresInSeconds: URL_SECONDS, contentType: 'image/png' }),
        image_kind: this.d.engines.presets.kind,
        favorite: favorites.has(p.id),
      });
    }
    return { presets };
  }

  private preset(id: string): Preset {
    const p = findPreset(id);
    if (!p) throw new DomainError('PRESET_NOT_FOUND');
    return p;
  }

  /** PUT /personas/presets/{presetId}/favorite. */
  async setFavorite(ctx: WorkspaceWithPlan, presetId: string, favorite: boolean) {
    const p = this.preset(presetId);
    await this.d.repo.setPresetFavorite(ctx.workspace.id, p.id, favorite);
    return { id: p.id, favorite };
  }

  /** POST /personas/presets/{presetId}: a new persona with the preset's image as its first version, free, `ready`. */
  async fromPreset(ctx: WorkspaceWithPlan, presetId: string): Promise<PersonaView> {
    const p = this.preset(presetId);
    const id = newId('prs');
    const versionId = newId('ver');
    // The version gets its own file (drawn again: the engine is deterministic), so the persona never depends on the preset's.
    const key = versionImageKey(ctx.workspace.id, id, versionId);
    const img = await this.d.engines.presets.render({ chips: p.chips, note: null, faces: [], seed: p.id });
    await this.d.putImage(key, img.png, 'image/png');
    const row = await this.d.transactions.run(async (tx) => {
      await this.d.repo.insertPersona(tx, {
        id,
        workspaceId: ctx.workspace.id,
        imageStatus: 'ready',
        chips: p.chips,
        faceIds: [],
        presetId: p.id,
        name: p.name,
      });
      await this.d.repo.insertVersion(tx, {
        id: versionId,
        workspaceId: ctx.workspace.id,
        personaId: id,
        imageKey: key,
        imageKind: img.kind,
        engine: this.d.engines.presets.name,
        chips: p.chips,
        note: null,
        faceIds: [],
      });
      return this.d.repo.updatePersona(tx, id, { currentVersionId: versionId });
    });
    return this.view(row);
  }
}

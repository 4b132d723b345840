import { newId } from '../../shared/ids.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import type { ClipsRepository, EditWithVideo } from '../clips/clips.records.js';
import { DomainError, validationError } from '../errors.js';
import { listResponse, type PageRequest } from '../pagination.js';
import { STRATEGY_LIMITS } from '../templates/templates.rules.js';
import { askedWindow, withTranscriptWords } from './lineage-words.js';
import { deriveEdit, keptStretches, SNAP_MAX_SECONDS, type DeriveTemplate, type EditChange } from './edit-changes.js';
import { editHash, type Edit } from './edit.js';
import type { Segment } from './edit-timeline.js';
import { documentDuration, editDocument, wordsOfSpec, type EditDocument, type EditWord } from './edit-words.js';
import { noEvents, type EventPublisher } from '../webhooks/events.js';

export interface EditsDeps {
  repo: ClipsRepository;
  tx: TransactionRunner;
  /** A template's styles and layout (TemplatesService.templateOrDefault): the default for null; 404 TEMPLATE_NOT_FOUND for an id the workspace cannot use. */
  getTemplate(workspaceId: string, id: string | null): Promise<DeriveTemplate & { id: string }>;
  /** Announces `edit.created` for a derived edit, in its transaction (webhooks). */
  events?: EventPublisher;
  /**
   * Where the voice detector hears speech (source seconds, ascending) in these stretches of the source
   * stored under `sourceKey`; empty when nobody talks or there is no sound (`remove_silences`).
   */
  speechIn(sourceKey: string, stretches: readonly Segment[]): Promise<Segment[]>;
}

/** POST /edits: the base and the changes (src/http/schemas/edit.schemas.ts). */
export interface DeriveEditInput extends EditChange {
  base_edit_id: string;
  template_id?: string;
}

/** The longest derived edit: the longest clip a strategy may ask for (plans set no clip length of their own). */
export const MAX_CLIP_SECONDS = STRATEGY_LIMITS.maxSeconds;

/**
 * Edits as documents (GET /edits/{id}), their versions (GET /edits/{id}/versions) and derived edits
 * (POST /edits). Edits never change: deriving makes a new one.
 */
export class EditsService {
  constructor(private readonly d: EditsDeps) {}

  /** The workspace's edit; 404 EDITS_NOT_FOUND (`extra.invalid_edits`) otherwise. */
  private async find(workspaceId: string, editId: string): Promise<EditWithVideo> {
    const row = await this.d.repo.findEditWithVideo(workspaceId, editId);
    if (!row) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: [editId] });
    return row;
  }

  /** GET /edits/{id}. */
  async get(workspaceId: string, editId: string): Promise<EditDocument> {
    return editDocument(await this.find(workspaceId, editId));
  }

  /**
   * GET /edits/{id}/versions: every edit of the same clip, or of the same root for an edit of no clip,
   * newest first (the edit the service made is the oldest, so last).
   */
  async versions(workspaceId: string, editId: string, page: PageRequest) {
    const row = await this.find(workspaceId, editId);
    const of = row.clipId ? { clipId: row.clipId } : { rootEditId: row.rootEditId ?? row.id };
    const { rows, total } = await this.d.repo.listVersions(workspaceId, of, page);
    return listResponse('edits', rows.map(editDocument), total, page);
  }

  /** The speech in the stretches; 400 naming `remove_silences` when the source is no longer stored (submission retention). */
  private async speechOf(spec: Edit, stretches: readonly Segment[]): Promise<Segment[]> {
    try {
      return await this.d.speechIn(spec.source.key, stretches);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'FILE_NOT_FOUND') {
        throw validationError([{ field: 'remove_silences', rule: 'a stored source: it was deleted with its submission (retention)' }]);
      }
      throw err;
    }
  }

  /**
   * POST /edits: a new edit derived from the base (which never changes), its parent the base. Derived from a
   * clip's edit (any version), it becomes the clip's `edit_id`. 400 VALIDATION_ERROR naming the field
   * (deriveEdit); 404 EDITS_NOT_FOUND, TEMPLATE_NOT_FOUND. With `remove_silences` the voice detector
   * listens to the kept stretches first (speechIn), in the request.
   */
  async derive(workspaceId: string, input: DeriveEditInput): Promise<EditDocument> {
    const { base_edit_id: baseId, template_id: templateId, ...change } = input;
    const base = await this.find(workspaceId, baseId);
    const spec = base.spec as Edit;
    const template =
      templateId !== undefined
        ? await this.d.getTemplate(workspaceId, templateId)
        : // The base's template may be gone since; its styles are only a fallback here.
          await this.d.getTemplate(workspaceId, base.templateId).catch((err: unknown) => {
            if (err instanceof DomainError && err.code === 'TEMPLATE_NOT_FOUND') return this.d.getTemplate(workspaceId, null);
            throw err;
          });
    const lineage = base.words ? (base.words as EditWord[]) : wordsOfSpec(spec);
    // A clip's lineage knows the words of the clip's own stretch: stretches asked past it take the
    // transcript's words there, numbered after the others.
    const source = base.clipId ? await this.d.repo.clipSource(base.clipId) : undefined;
    const asked = askedWindow(change, SNAP_MAX_SECONDS);
    const words = source && asked ? withTranscriptWords(lineage, source.words, asked) : lineage;
    const derive = {
      base: spec,
      words,
      change,
      template,
      applyTemplate: templateId !== undefined,
      maxSeconds: MAX_CLIP_SECONDS,
      sourceCropPath: source?.cropPath9x16,
      sourceFaces: source?.faces,
      sourceLoudness: source?.loudness,
      sourcePitch: source?.pitch,
    };
    // remove_silences listens to the stretches every other change keeps (a bad request is refused first, without reading audio).
    const speech = change.remove_silences ? await this.speechOf(spec, keptStretches(derive).segments) : undefined;
    const next = deriveEdit({ ...derive, speech });
    const id = newId('edit');
    await this.d.tx.run(async (tx) => {
      // One change of a submission's clip edits at a time (apply_template takes the same lock), so
      // the clip ends pointing at the edit made last.
      if (source) await this.d.repo.lockSubmission(tx, source.submissionId);
      await this.d.repo.insertEdit(tx, {
        id,
        workspaceId,
        clipId: base.clipId,
        hash: editHash(next.spec),
        spec: next.spec,
        templateId: templateId !== undefined ? template.id : base.templateId,
        parentEditId: base.id,
        rootEditId: base.rootEditId ?? base.id,
        words: next.words,
      });
      if (base.clipId) await this.d.repo.setEdit(tx, base.clipId, { editId: id });
      await (this.d.events ?? noEvents).publish(
        workspaceId,
        'edit.created',
        { id, parent_edit_id: base.id, clip_id: base.clipId, video_id: base.videoId, duration: documentDuration(next.spec) },
        tx,
      );
    });
    return this.get(workspaceId, id);
  }
}

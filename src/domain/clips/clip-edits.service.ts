import { newId } from '../../shared/ids.js';
import type { TransactionRunner } from '../../ports/transactions.js';
import { DomainError } from '../errors.js';
import type { Keyframe } from '../reframe/crop-keyframes.js';
import { PUNCH_IN_CLEAR } from '../reframe/punch-in.js';
import { buildClipEdit, sourceFaces, sourceTimeCropPath, templatePunchIn, type EditTemplate, type SourceFaces } from '../edits/clip-edit.js';
import { editHash, makeEdit, type Edit } from '../edits/edit.js';
import type { SubmissionRow } from '../submissions/submissions.records.js';
import type { ClipsRepository, EditRow } from './clips.records.js';

export type { EditRow } from './clips.records.js';

export interface ClipEditsDeps {
  repo: ClipsRepository;
  tx: TransactionRunner;
  /** The submission (SubmissionsService.get): 404 SUBMISSION_NOT_FOUND outside the workspace or for another video. */
  getSubmission(workspaceId: string, videoId: string, id: string): Promise<SubmissionRow>;
  /** The template (TemplatesService.getTemplate): 404 TEMPLATE_NOT_FOUND for an id the workspace cannot use. */
  getTemplate(workspaceId: string, id: string): Promise<EditTemplate & { id: string }>;
}

export interface AppliedTemplate {
  submission_id: string;
  template_id: string;
  clips: Array<{ id: string; edit_id: string }>;
}

/**
 * The edits of clips: a clip's current edit (for POST …/clips/{clipId}/render) and applying a
 * template to every clip of a submission. Edits never change; applying a template makes new ones
 * and points the clips at them.
 */
export class ClipEditsService {
  constructor(private readonly d: ClipEditsDeps) {}

  /**
   * The current edit of a clip. 404 SUBMISSION_NOT_FOUND / CLIP_NOT_FOUND; a clip without an edit
   * yet (the submission is still finalizing) is 409 SUBMISSION_NOT_COMPLETED.
   */
  async currentEdit(workspaceId: string, videoId: string, submissionId: string, clipId: string): Promise<EditRow> {
    const sub = await this.d.getSubmission(workspaceId, videoId, submissionId);
    const clip = await this.d.repo.findInSubmission(workspaceId, sub.id, clipId);
    if (!clip) throw new DomainError('CLIP_NOT_FOUND');
    if (!clip.editId) throw new DomainError('SUBMISSION_NOT_COMPLETED', { status: sub.status });
    const edit = await this.d.repo.findEdit(workspaceId, clip.editId);
    if (!edit) throw new DomainError('EDITS_NOT_FOUND', { invalid_edits: [clip.editId] });
    return edit;
  }

  /**
   * Applies a template to every clip of a completed submission: a new edit per clip (same source,
   * times, crop path, words and watermark; the template's captions style and layout), the clip points
   * at it and `has_template_applied` becomes true. A clip whose current edit already is exactly that
   * edit keeps it. 404 SUBMISSION_NOT_FOUND / TEMPLATE_NOT_FOUND; 409 SUBMISSION_NOT_COMPLETED.
   */
  async applyTemplate(workspaceId: string, videoId: string, submissionId: string, templateId: string): Promise<AppliedTemplate> {
    const sub = await this.d.getSubmission(workspaceId, videoId, submissionId);
    const template = await this.d.getTemplate(workspaceId, templateId);
    if (sub.status !== 'completed') throw new DomainError('SUBMISSION_NOT_COMPLETED', { status: sub.status });
    const sourcePath = (sub.analysis as { cropPath9x16?: Keyframe[] } | null)?.cropPath9x16;
    const faces = sourceFaces(sub.analysis);
    const { loudness, pitch } = (sub.analysis as { loudness?: number[]; pitch?: number[] } | null) ?? {};
    const audio = { loudness: loudness ?? [], pitch };

    return this.d.tx.run(async (tx) => {
      // One application at a time per submission.
      await this.d.repo.lockSubmission(tx, sub.id);
      const rows = await this.d.repo.ofSubmission(sub.id, tx);
      const editIds = rows.map((r) => r.editId).filter((id): id is string => id !== null);
      const prevEdits = await this.d.repo.editsByIds(tx, editIds);
      const byId = new Map(prevEdits.map((e) => [e.id, e]));
      const out: AppliedTemplate['clips'] = [];
      for (const clip of rows) {
        const prevRow = clip.editId ? byId.get(clip.editId) : undefined;
        if (!prevRow) throw new DomainError('SUBMISSION_NOT_COMPLETED', { status: sub.status });
        const next = rebuildEdit(prevRow.spec as Edit, template, sourcePath, faces, audio);
        const hash = editHash(next);
        let editId = prevRow.id;
        if (hash !== prevRow.hash || prevRow.templateId !== template.id) {
          editId = newId('edit');
          // The lineage's word list goes along, so word indices keep naming the same words (and hidden
          // words stay hidden) in the versions after this one.
          await this.d.repo.insertEdit(tx, {
            id: editId,
            workspaceId,
            clipId: clip.id,
            hash,
            spec: next,
            templateId: template.id,
            words: prevRow.words ?? null,
          });
        }
        await this.d.repo.setEdit(tx, clip.id, { editId, hasTemplateApplied: true });
        out.push({ id: clip.id, edit_id: editId });
      }
      return { submission_id: sub.id, template_id: template.id, clips: out };
    });
  }
}

/**
 * The edit of the same stretches with another template (pure): the kept stretches (cuts), caption words
 * (with their corrections), title and punch-in of the previous edit stay; the template's captions style
 * and layout replace the previous ones. The crop path comes from the source's analysis when the
 * submission kept it, else from the previous edit (an older clip-time path shifted back to source time);
 * a `split` template's halves from the analysis' face samples (`faces`), when kept.
 */
export function rebuildEdit(
  prev: Edit,
  template: EditTemplate,
  sourceCropPath?: readonly Keyframe[],
  faces?: SourceFaces,
  audio?: { loudness: readonly number[]; pitch?: readonly number[] },
): Edit {
  const cropPath = sourceCropPath && sourceCropPath.length > 0 ? sourceCropPath : sourceTimeCropPath(prev);
  const edit = buildClipEdit({
    source: { ...prev.source },
    start: prev.in,
    end: prev.out,
    words: prev.captions?.words ?? [],
    cropPath9x16: cropPath,
    faces,
    // The punch-in is decided below, over the kept stretches.
    template: { ...template, layout: { ...template.layout, zoom: 'none' } },
    watermark: prev.watermark,
  });
  const zoom = prev.layout.zoom;
  const changes = (edit.layout.shots ?? []).slice(1).map((s) => s.start);
  let punch: { punchIn?: 'subtle'; punchIns?: Edit['layout']['punchIns'] } = {};
  if (prev.layout.punchIn) {
    // The edit's punch-ins stay, but none within PUNCH_IN_CLEAR of a shot change the new layout brings.
    const kept = (prev.layout.punchIns ?? []).filter((p) => !changes.some((c) => c > p.start - PUNCH_IN_CLEAR && c < p.end + PUNCH_IN_CLEAR));
    punch = { punchIn: prev.layout.punchIn, ...(kept.length ? { punchIns: kept } : {}) };
  } else if (template.layout.zoom === 'subtle') {
    punch = templatePunchIn(prev.captions?.words ?? [], audio ?? { loudness: [] }, prev.segments ?? { start: prev.in, end: prev.out }, edit.layout.shots);
  }
  if (!prev.title && !prev.segments && zoom === undefined && !punch.punchIn) return edit;
  const layout = {
    ...edit.layout,
    ...(zoom !== undefined ? { zoom } : {}),
    ...punch,
  };
  return makeEdit({
    ...edit,
    ...(prev.segments ? { segments: prev.segments } : {}),
    ...(prev.title ? { title: prev.title } : {}),
    layout,
  });
}

import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';

/** A persona (table `personas`). */
export interface PersonaRow {
  id: string;
  workspaceId: string;
  name: string | null;
  saved: boolean;
  /** `processing`, `ready` or `failed`: the last portrait asked for. */
  imageStatus: string;
  chips: Record<string, string>;
  faceIds: string[];
  currentVersionId: string | null;
  presetId: string | null;
  /** The portrait job under way or last run. */
  portraitId: string | null;
  errorCode: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPersona = Pick<PersonaRow, 'id' | 'workspaceId' | 'imageStatus' | 'chips' | 'faceIds'> &
  Partial<Pick<PersonaRow, 'name' | 'saved' | 'currentVersionId' | 'presetId' | 'portraitId'>>;

/** One portrait request (table `persona_portraits`): the unit that is charged and refunded. */
export interface PortraitRow {
  id: string;
  workspaceId: string;
  personaId: string;
  chips: Record<string, string>;
  note: string | null;
  faceIds: string[];
  status: string;
  engine: string;
  creditsCharged: number;
  errorCode: string | null;
  versionId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export type NewPortrait = Pick<PortraitRow, 'id' | 'workspaceId' | 'personaId' | 'chips' | 'note' | 'faceIds' | 'status' | 'engine' | 'creditsCharged'>;

/** A finished portrait (table `persona_versions`). */
export interface VersionRow {
  id: string;
  workspaceId: string;
  personaId: string;
  imageKey: string;
  imageKind: string;
  engine: string;
  chips: Record<string, string>;
  note: string | null;
  faceIds: string[];
  feedbackVote: string | null;
  feedbackReason: string | null;
  feedbackAt: Date | null;
  createdAt: Date;
}

export type NewVersion = Pick<VersionRow, 'id' | 'workspaceId' | 'personaId' | 'imageKey' | 'imageKind' | 'engine' | 'chips' | 'note' | 'faceIds'>;

/** An own-face photo (table `persona_faces`). */
export interface FaceRow {
  id: string;
  workspaceId: string;
  photoKey: string;
  contentType: string;
  width: number;
  height: number;
  face: unknown;
  createdAt: Date;
}

export type NewFace = Omit<FaceRow, 'createdAt'>;

/** A persona video (table `persona_videos`). */
export interface PersonaVideoRow {
  id: string;
  workspaceId: string;
  personaId: string;
  versionId: string;
  mediaId: string;
  type: string;
  quality: string;
  replace: string;
  engine: string;
  seconds: number;
  credits: number;
  creditsCharged: number;
  status: string;
  errorCode: string | null;
  outputKey: string | null;
  editId: string | null;
  feedbackVote: string | null;
  feedbackReason: string | null;
  feedbackAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export type NewPersonaVideo = Pick<
  PersonaVideoRow,
  'id' | 'workspaceId' | 'personaId' | 'versionId' | 'mediaId' | 'type' | 'quality' | 'replace' | 'engine' | 'seconds' | 'credits' | 'creditsCharged' | 'status'
>;

export interface Feedback {
  vote: string;
  reason: string | null;
  at: Date;
}

export interface PersonaListFilter {
  saved?: boolean;
  imageStatus?: string;
  presetId?: string;
  /** Case-insensitive part of the name. */
  q?: string;
}

/** The personas storage (src/adapters/db/repositories/personas.repository.ts). */
export interface PersonasRepository {
  insertPersona(tx: Tx, row: NewPersona): Promise<PersonaRow>;
  /** The persona when it belongs to the workspace. */
  findPersona(workspaceId: string, id: string, tx?: Tx): Promise<PersonaRow | undefined>;
  getPersona(id: string, tx?: Tx): Promise<PersonaRow | undefined>;
  /** Locks the persona's row until `tx` ends. */
  lockPersona(tx: Tx, id: string): Promise<PersonaRow | undefined>;
  updatePersona(
    tx: Tx | undefined,
    id: string,
    fields: Partial<Pick<PersonaRow, 'name' | 'saved' | 'imageStatus' | 'chips' | 'faceIds' | 'currentVersionId' | 'portraitId' | 'errorCode'>>,
  ): Promise<PersonaRow>;
  listPersonas(workspaceId: string, filter: PersonaListFilter, page: PageRequest): Promise<{ rows: PersonaRow[]; total: number }>;

  insertPortrait(tx: Tx, row: NewPortrait): Promise<PortraitRow>;
  getPortrait(id: string): Promise<PortraitRow | undefined>;
  /** `processing` → `end.status`; false when it already left `processing`. */
  finishPortrait(
    tx: Tx,
    id: string,
    end: Pick<PortraitRow, 'status' | 'errorCode' | 'versionId'> & Partial<Pick<PortraitRow, 'creditsCharged'>>,
  ): Promise<boolean>;

  insertVersion(tx: Tx, row: NewVersion): Promise<VersionRow>;
  findVersion(personaId: string, id: string, tx?: Tx): Promise<VersionRow | undefined>;
  /** The persona's versions, oldest first. */
  versionsOf(personaIds: readonly string[]): Promise<VersionRow[]>;
  setVersionFeedback(id: string, fb: Feedback): Promise<VersionRow>;

  insertFace(row: NewFace): Promise<FaceRow>;
  /** The faces of those ids that belong to the workspace. */
  findFaces(workspaceId: string, ids: readonly string[]): Promise<FaceRow[]>;

  insertVideo(tx: Tx, row: NewPersonaVideo): Promise<PersonaVideoRow>;
  findVideo(personaId: string, id: string): Promise<PersonaVideoRow | undefined>;
  getVideo(id: string): Promise<PersonaVideoRow | undefined>;
  listVideos(personaId: string, filter: { versionId?: string }, page: PageRequest): Promise<{ rows: PersonaVideoRow[]; total: number }>;
  /** `processing` → `end.status`; false when it already left `processing`. */
  finishVideo(
    tx: Tx,
    id: string,
    end: Pick<PersonaVideoRow, 'status' | 'errorCode'> & Partial<Pick<PersonaVideoRow, 'outputKey' | 'editId' | 'creditsCharged'>>,
  ): Promise<boolean>;
  setVideoFeedback(id: string, fb: Feedback): Promise<PersonaVideoRow>;

  favoritePresets(workspaceId: string): Promise<string[]>;
  setPresetFavorite(workspaceId: string, presetId: string, favorite: boolean): Promise<void>;
}

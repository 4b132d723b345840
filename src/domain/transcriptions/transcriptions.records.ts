import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';

/** A file uploaded for standalone transcription (table `media`). */
export interface MediaRow {
  id: string;
  workspaceId: string;
  /** `audio` or `video`, from the declared file name. */
  kind: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  storageKey: string;
  /** Hex SHA-256 of the bytes (the cache key); null until the upload is completed. */
  contentHash: string | null;
  duration: number | null;
  hasAudio: boolean | null;
  /** `awaiting_upload` until first used with its bytes in storage, then `ready`. */
  status: string;
  createdAt: Date;
}

export type NewMedia = Pick<MediaRow, 'id' | 'workspaceId' | 'kind' | 'fileName' | 'fileSize' | 'contentType' | 'storageKey' | 'status'>;

/** What completing an upload measured of the file, moved to `storageKey`. */
export type MediaMeasurement = Pick<MediaRow, 'storageKey' | 'duration' | 'hasAudio' | 'contentHash' | 'fileSize'>;

/** A standalone transcription (table `transcriptions`). A cache hit is its own row (`cachedFrom`). */
export interface TranscriptionRow {
  id: string;
  workspaceId: string;
  mediaId: string;
  /** The media's content hash when created. */
  contentHash: string;
  /** Base name for downloads. */
  fileName: string;
  speakerLabels: boolean;
  /** As asked: `auto` or an ISO 639-1 code. */
  sourceLanguage: string;
  /** The language transcribed; null until known. */
  language: string | null;
  /** `processing`, `ready`, `no_speech` or `failed`. */
  status: string;
  creditsCharged: number;
  errorCode: string | null;
  cachedFrom: string | null;
  /** The cues as stored (Cue[] of src/domain/transcripts/cues.ts once ready, [] for no_speech). */
  cues: unknown;
  /** The words as stored (TranscriptWord[] of src/domain/transcripts/cues.ts once ready); null on rows made before words were kept. */
  words: unknown;
  /** While processing: the step under way and when it began (null before the job starts). */
  stage: string | null;
  /** `speakers_expected` as asked (with labels); null: estimated. */
  speakersExpected: number | null;
  stageStartedAt: Date | null;
  /** The media's measured seconds at creation; null on older rows. */
  mediaSeconds: number | null;
  deletedAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export type NewTranscription = Pick<
  TranscriptionRow,
  'id' | 'workspaceId' | 'mediaId' | 'contentHash' | 'fileName' | 'speakerLabels' | 'sourceLanguage' | 'status'
> &
  Partial<Pick<TranscriptionRow, 'language' | 'cues' | 'words' | 'cachedFrom' | 'creditsCharged' | 'finishedAt' | 'mediaSeconds' | 'speakersExpected'>>;

/** What a transcription records when it leaves `processing`. */
export type TranscriptionEnd = Pick<TranscriptionRow, 'status' | 'language' | 'cues' | 'errorCode' | 'finishedAt'> &
  Partial<Pick<TranscriptionRow, 'creditsCharged' | 'words'>>;

/** What the cache rules read of an earlier transcription of the same bytes (cues not loaded). */
export type CacheCandidateRow = Pick<
  TranscriptionRow,
  'id' | 'status' | 'speakerLabels' | 'speakersExpected' | 'sourceLanguage' | 'language' | 'cachedFrom' | 'deletedAt' | 'createdAt'
>;

/** The media and transcriptions storage (src/adapters/db/repositories/transcriptions.repository.ts). */
export interface TranscriptionsRepository {
  insertMedia(media: NewMedia): Promise<void>;
  getMedia(id: string): Promise<MediaRow | undefined>;
  /** The media when it belongs to the workspace. */
  findMedia(workspaceId: string, id: string): Promise<MediaRow | undefined>;
  /**
   * Records a completed upload: the media, still at `uploadKey` and not ready, becomes `ready` with what
   * was measured. Undefined when another request recorded its own completion first.
   */
  markMediaReady(id: string, uploadKey: string, measured: MediaMeasurement): Promise<MediaRow | undefined>;
  /** Locks the workspace's row until `tx` ends: a workspace's creations run one at a time. */
  lockWorkspace(tx: Tx, workspaceId: string): Promise<void>;
  /** The workspace's transcriptions of the bytes with `contentHash` that did not fail, deleted ones included. */
  cacheCandidates(workspaceId: string, contentHash: string, tx?: Tx): Promise<CacheCandidateRow[]>;
  /** The cues and words of a transcription (undefined when there is none). */
  resultOf(tx: Tx, id: string): Promise<{ cues: unknown; words: unknown } | undefined>;
  insert(tx: Tx, row: NewTranscription): Promise<TranscriptionRow>;
  /** Records the step a processing transcription is on (nothing once it left `processing`). */
  setStage(id: string, stage: string, at: Date): Promise<void>;
  /** Brings a deleted transcription back into the listings. */
  undelete(tx: Tx, id: string): Promise<TranscriptionRow>;
  get(id: string): Promise<TranscriptionRow | undefined>;
  /** The transcription when it belongs to the workspace and was not deleted. */
  findInWorkspace(workspaceId: string, id: string): Promise<TranscriptionRow | undefined>;
  /** The workspace's transcriptions that were not deleted, newest first. */
  list(workspaceId: string, filter: { status?: string; mediaId?: string }, page: PageRequest): Promise<{ rows: TranscriptionRow[]; total: number }>;
  /** Marks the workspace's transcription deleted; false when there is none (or it already was). */
  markDeleted(workspaceId: string, id: string, at: Date): Promise<boolean>;
  /** `processing` → `end.status` with its fields; false when the transcription had already left `processing`. */
  finish(id: string, end: TranscriptionEnd, tx?: Tx): Promise<boolean>;
}

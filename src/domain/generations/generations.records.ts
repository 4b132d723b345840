import type { PageRequest } from '../pagination.js';
import type { Tx } from '../../ports/transactions.js';

/** A catalog entry (table `generation_models`). */
export interface GenerationModelRow {
  id: string;
  name: string;
  /** `image` or `video`. */
  kind: string;
  /** `embedded`, `fal`, `replicate` or `openai`. */
  provider: string;
  providerModel: string;
  baseUrl: string | null;
  /** The provider key, sealed; never answered. */
  apiKeySealed: string | null;
  description: string;
  /** ModelInputs (generations.rules.ts). */
  inputs: unknown;
  /** ModelOptions (generations.rules.ts). */
  options: unknown;
  pricePerImage: number | null;
  pricePerSecond: number | null;
  maxSeconds: number | null;
  imageField: string | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type GenerationModelWrite = Omit<GenerationModelRow, 'createdAt' | 'updatedAt'>;

/** An image usable in `image_ids` (table `generation_images`). */
export interface GenerationImageRow {
  id: string;
  workspaceId: string;
  storageKey: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
  generationId: string | null;
  createdAt: Date;
}

export type NewGenerationImage = Omit<GenerationImageRow, 'createdAt'>;

/** What a ready generation made (the `output` column). */
export interface GenerationOutput {
  key: string;
  content_type: string;
  width: number;
  height: number;
  seconds?: number;
  image_id?: string;
}

/** A generation (table `generations`). */
export interface GenerationRow {
  id: string;
  workspaceId: string;
  modelId: string;
  kind: string;
  /** `queued`, `processing`, `ready` or `failed`. */
  status: string;
  prompt: string | null;
  imageIds: string[];
  options: Record<string, unknown>;
  seconds: number | null;
  creditsCharged: number;
  errorCode: string | null;
  providerJobId: string | null;
  output: unknown;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export type NewGeneration = Pick<
  GenerationRow,
  'id' | 'workspaceId' | 'modelId' | 'kind' | 'status' | 'prompt' | 'imageIds' | 'options' | 'seconds' | 'creditsCharged'
>;

/** The generations storage (src/adapters/db/repositories/generations.repository.ts). */
export interface GenerationsRepository {
  listModels(opts: { enabledOnly: boolean }, page: PageRequest): Promise<{ rows: GenerationModelRow[]; total: number }>;
  getModel(id: string, tx?: Tx): Promise<GenerationModelRow | undefined>;
  /** Inserts or replaces the whole entry; answers it and whether it was new. */
  upsertModel(row: GenerationModelWrite): Promise<{ row: GenerationModelRow; created: boolean }>;
  /** False when there was no such model. */
  deleteModel(id: string): Promise<boolean>;

  insertImage(row: NewGenerationImage, tx?: Tx): Promise<GenerationImageRow>;
  /** The images of the workspace among `ids` (others and unknown ones left out). */
  findImages(workspaceId: string, ids: string[], tx?: Tx): Promise<GenerationImageRow[]>;
  getImage(id: string): Promise<GenerationImageRow | undefined>;

  insert(tx: Tx, row: NewGeneration): Promise<GenerationRow>;
  get(id: string): Promise<GenerationRow | undefined>;
  findInWorkspace(workspaceId: string, id: string): Promise<GenerationRow | undefined>;
  /** The workspace's generations, newest first. */
  list(workspaceId: string, page: PageRequest): Promise<{ rows: GenerationRow[]; total: number }>;
  /** queued → processing (started_at set); false when it was not queued. */
  markProcessing(id: string): Promise<boolean>;
  setProviderJob(id: string, providerJobId: string): Promise<void>;
  /** processing/queued → ready with the output; false when it had already finished. */
  finishReady(id: string, output: GenerationOutput, tx?: Tx): Promise<boolean>;
  /** queued/processing → failed with the code, credits_charged 0; false when it had already finished. */
  finishFailed(id: string, errorCode: string, tx?: Tx): Promise<boolean>;
}

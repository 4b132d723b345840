import type { MeshFace } from './face-detector.js';

/**
 * The persona engines (docs/personas.md): one port for portraits, one for swaps. Embedded defaults
 * live in src/adapters/personas, hosted ones go through the shared hosted-generation clients.
 */

/** The 14 traits (src/domain/personas/persona-catalog.ts), one option id each. */
export type PortraitChips = Record<string, string>;

/** What an image is: an `illustration` (drawn), or a `photo` (photographic: own-face or generative). */
export type ImageKind = 'illustration' | 'photo';

/** An own-face photo as stored, with the face the detector found on it. */
export interface FacePhoto {
  id: string;
  /** The photo's bytes (PNG, JPEG or WebP). */
  bytes: Uint8Array;
  /** The detected face: box in pixels and, when found, the 468 mesh points ([x, y] in pixels). */
  face: DetectedFace;
}

/** The detected face: box and 468 mesh points in pixels (empty when the mesh was not found). */
export type DetectedFace = MeshFace;

export interface PortraitRequest {
  chips: PortraitChips;
  /** The one-line instruction of a regeneration (already applied to `chips` by the domain when the engine reads traits only). */
  note: string | null;
  /** Own-face photos (empty: a portrait from the chips). */
  faces: FacePhoto[];
  /** Distinguishes two portraits of the same request (a regeneration with the same chips). */
  seed: string;
  signal?: AbortSignal;
}

export interface PortraitResult {
  /** PNG bytes. */
  png: Uint8Array;
  width: number;
  height: number;
  kind: ImageKind;
}

export interface PortraitEngine {
  /** Engine name for records and the catalog (`dicebear-personas`, `face-photo`, `fal:<model>`, …). */
  readonly name: string;
  /** What it produces. */
  readonly kind: ImageKind;
  /** True when it reads free-text notes itself (a hosted prompt); false: the domain reads trait words out of the note. */
  readonly readsNotes: boolean;
  /** For own-face engines: the traits it really applies to a photo. */
  readonly appliedTraits?: readonly string[];
  render(req: PortraitRequest): Promise<PortraitResult>;
}

export type SwapReplace = 'person' | 'head';

export interface SwapRequest {
  /** Local path of the source video (its container already sniffed). */
  source: string;
  /** Seconds of the source to use (the measured, charged duration). */
  seconds: number;
  /** The persona's portrait (PNG) and what it is. */
  portrait: { png: Uint8Array; kind: ImageKind };
  quality: 'standard' | 'high';
  replace: SwapReplace;
  /** Where to write the MP4 (H.264 + AAC, the source's audio kept). */
  output: string;
  signal?: AbortSignal;
}

export interface SwapResult {
  frames: number;
  /** Frames where a face was tracked. */
  facesTracked: number;
  width: number;
  height: number;
}

export interface SwapEngine {
  readonly name: string;
  /** How the catalog labels it (`preview` for the embedded head swap). */
  readonly label: string;
  readonly replaceModes: readonly SwapReplace[];
  swap(req: SwapRequest): Promise<SwapResult>;
}

/** An engine's failure with a stable uppercase code recorded as the record's `error_code`. */
export class PersonaEngineError extends Error {
  constructor(
    readonly code: string,
    message?: string,
    readonly retryable = false,
  ) {
    super(message ?? code);
    this.name = 'PersonaEngineError';
  }
}

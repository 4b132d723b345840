import { int, type Env } from './parse.js';

/** Personas (docs/personas.md): size ceilings and the embedded swap's output width. */
export interface PersonasConfig {
  /** Largest own-face photo (POST /personas/faces), bytes. */
  photoMaxBytes: number;
  /** Largest persona source upload, bytes (also capped by the plan's upload size). */
  sourceMaxBytes: number;
  /** Width cap of the embedded head swap's output (pixels; the source's aspect kept). */
  swapMaxWidth: number;
}

export function loadPersonasConfig(env: Env): PersonasConfig {
  return {
    photoMaxBytes: int(env, 'CUTROOM_PERSONA_PHOTO_MAX_BYTES', { fallback: 10 * 1024 * 1024, min: 1024, max: 100 * 1024 * 1024 }),
    sourceMaxBytes: int(env, 'CUTROOM_PERSONA_SOURCE_MAX_BYTES', { fallback: 512 * 1024 * 1024, min: 1024, max: 5 * 1024 * 1024 * 1024 }),
    swapMaxWidth: int(env, 'CUTROOM_PERSONA_SWAP_MAX_WIDTH', { fallback: 720, min: 128, max: 1920 }),
  };
}

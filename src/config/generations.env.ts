import { durationMs, int, type Env } from './parse.js';

/** Settings of generations (docs/generations.md). */
export interface GenerationsConfig {
  /** Largest reference image accepted by POST /generations/images (CUTROOM_GENERATION_IMAGE_MAX_BYTES). */
  imageMaxBytes: number;
  /** Largest output downloaded from a hosted provider (CUTROOM_GENERATION_OUTPUT_MAX_BYTES). */
  outputMaxBytes: number;
  /** Pause between status calls to a hosted provider (CUTROOM_GENERATION_POLL_MS). */
  pollMs: number;
  /** A generation without a result after this long fails with GENERATION_TIMEOUT (CUTROOM_GENERATION_TIMEOUT_MS). */
  timeoutMs: number;
}

const MIB = 1024 * 1024;

/** Reads CUTROOM_GENERATION_*. Throws ConfigError on bad values. */
export function loadGenerationsConfig(env: Env): GenerationsConfig {
  return {
    imageMaxBytes: int(env, 'CUTROOM_GENERATION_IMAGE_MAX_BYTES', { fallback: 20 * MIB, min: 1024, max: 200 * MIB }),
    outputMaxBytes: int(env, 'CUTROOM_GENERATION_OUTPUT_MAX_BYTES', { fallback: 500 * MIB, min: 1024, max: 10 * 1024 * MIB }),
    pollMs: durationMs(env, 'CUTROOM_GENERATION_POLL_MS', { fallback: 2000, min: 10, max: 60_000 }),
    timeoutMs: durationMs(env, 'CUTROOM_GENERATION_TIMEOUT_MS', { fallback: 15 * 60_000, min: 1000, max: 6 * 3600_000 }),
  };
}

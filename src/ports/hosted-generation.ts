/**
 * Hosted image and video generation engines (fal's queue, Replicate's predictions, OpenAI-compatible
 * Images), shared by generations and personas. Implementations: src/adapters/generation/*.client.ts,
 * built per model from the operator's catalog entry (provider, base URL, sealed key). A client speaks
 * its provider's protocol only: it never downloads outputs (the worker does, with the safe fetcher,
 * into the service's storage) and never decides prices.
 */

export type HostedProvider = 'fal' | 'replicate' | 'openai';

/** A reference image sent to the provider. */
export interface ReferenceImage {
  /** The image's bytes (PNG, JPEG or WebP), sent inline (data URI or multipart) so the provider needs no access to the service. */
  bytes: Buffer;
  contentType: string;
  /** A file name for multipart uploads (`image.png`). */
  fileName: string;
}

export interface HostedJobRequest {
  /** The provider's model: `fal-ai/flux/dev`, `owner/name` or `owner/name:version`, `gpt-image-1`. */
  providerModel: string;
  /** What the job produces: image outputs are read from image fields, video outputs from video fields. */
  kind: 'image' | 'video';
  prompt?: string;
  images: ReferenceImage[];
  /** The model's options as the caller set them (already checked against the catalog), forwarded as input fields. */
  options: Record<string, unknown>;
  /**
   * The provider model's input field for the reference images, when it is not the protocol's usual one
   * (fal `image_url`/`image_urls`, Replicate `image`/`images`); one image is sent as a value, several as an array.
   */
  imageField?: string;
}

/** An output of a finished job: a URL to download (size-capped, by the worker) or bytes the provider answered inline. */
export type HostedOutput = { url: string } | { bytes: Buffer; contentType?: string };

/**
 * A job's state. `refused`: the provider's content-policy refusal (its own wording in `detail`, for
 * logs; callers record CONTENT_POLICY_REFUSED). `failed`: any other provider failure; `retryable`
 * when another attempt may succeed (a 5xx or a rate limit before the job was accepted); `timedOut` when a
 * synchronous provider gave no answer within the request's deadline (the job's limit).
 */
export type HostedJobState =
  | { state: 'queued'; position?: number }
  | { state: 'running' }
  | { state: 'succeeded'; outputs: HostedOutput[] }
  | { state: 'refused'; detail: string }
  | { state: 'failed'; detail: string; retryable: boolean; timedOut?: boolean }
  | { state: 'canceled' };

export interface HostedSubmitted {
  /** The provider's job id (fal `request_id`, Replicate prediction id); synchronous providers answer a local one. */
  jobId: string;
  /** The state known right after submitting (a synchronous provider answers the final one). */
  state: HostedJobState;
}

export interface HostedGenerationClient {
  readonly provider: HostedProvider;
  /** Starts a job. Transport failures and refusals to start come back as a `failed`/`refused` state, not as an exception. */
  submit(req: HostedJobRequest, signal?: AbortSignal): Promise<HostedSubmitted>;
  /** The job's state now; a succeeded job carries its outputs (the result is fetched here when the protocol keeps it apart). */
  status(jobId: string, signal?: AbortSignal): Promise<HostedJobState>;
  /** Asks the provider to stop the job (best effort; a finished job stays finished). */
  cancel(jobId: string): Promise<void>;
}

/** What a catalog entry gives to build a client. */
export interface HostedClientConfig {
  provider: HostedProvider;
  /** Overrides the provider's public address (a self-hosted compatible server, a local test server). */
  baseUrl?: string;
  apiKey?: string;
  /** Ceiling of one HTTP request (a synchronous OpenAI-compatible generation is one request). */
  requestTimeoutMs?: number;
}

/** Builds the client of a catalog entry. */
export type HostedClientFactory = (cfg: HostedClientConfig) => HostedGenerationClient;

/** The final states. */
export function isFinal(s: HostedJobState): s is Extract<HostedJobState, { state: 'succeeded' | 'refused' | 'failed' | 'canceled' }> {
  return s.state === 'succeeded' || s.state === 'refused' || s.state === 'failed' || s.state === 'canceled';
}

/**
 * Brings a job's output into a local file: a URL is downloaded with the safe fetcher (every hop's address
 * checked, streamed, at most `maxBytes`: FILE_TOO_LARGE beyond), inline bytes are written. The provider's
 * own origin (`trustedOrigin`, the model's base URL) may be a private address: an operator's self-hosted
 * server, or a test server.
 */
export interface HostedOutputFetcher {
  fetch(output: HostedOutput, file: string, opts: { maxBytes: number; trustedOrigin?: string; signal?: AbortSignal }): Promise<{ size: number }>;
}

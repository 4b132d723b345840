import { randomUUID } from 'node:crypto';
import type {
  HostedClientConfig,
  HostedGenerationClient,
  HostedJobRequest,
  HostedJobState,
  HostedOutput,
  HostedSubmitted,
} from '../../ports/hosted-generation.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  HostedTransportError,
  describeAnswer,
  failureOf,
  hostedRequest,
  transportFailure,
  trimBase,
  type HostedAnswer,
} from './hosted-http.js';

export const OPENAI_API_BASE = 'https://api.openai.com';

/** Error codes of the Images API that mean its safety system refused the prompt or the image. */
const REFUSAL_CODES = new Set(['content_policy_violation', 'moderation_blocked']);

/**
 * OpenAI-compatible Images API (OpenAI itself, or a self-hosted server speaking it):
 * - without reference images `POST {base}/v1/images/generations` `{ model, prompt, n: 1, …options }`;
 * - with them `POST {base}/v1/images/edits` as multipart (`image`, or `image[]` for several, plus the
 *   same fields);
 * - the answer's `data[]` holds `b64_json` (bytes inline) or `url`; an error body
 *   `{ error: { code, message } }` with `content_policy_violation` or `moderation_blocked` is a refusal.
 * The API is synchronous: `submit` holds the request open (the job's timeout, `requestTimeoutMs`) and
 * answers the final state (no answer by then: `failed` with `timedOut`, not retryable); `status` answers it again for this client's job ids, and nothing is cancellable.
 */
export class OpenAiImagesClient implements HostedGenerationClient {
  readonly provider = 'openai' as const;
  private readonly base: string;
  private readonly timeoutMs: number;
  /** Final states of the jobs this client ran (a synchronous job has no state at the provider). */
  private readonly done = new Map<string, HostedJobState>();

  constructor(private readonly cfg: HostedClientConfig) {
    this.base = trimBase(cfg.baseUrl ?? OPENAI_API_BASE);
    this.timeoutMs = cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  async submit(req: HostedJobRequest, signal?: AbortSignal): Promise<HostedSubmitted> {
    const jobId = `sync-${randomUUID()}`;
    const auth: Record<string, string> = this.cfg.apiKey ? { authorization: `Bearer ${this.cfg.apiKey}` } : {};
    const fields: Record<string, unknown> = { model: req.providerModel, n: 1, ...req.options, ...(req.prompt !== undefined ? { prompt: req.prompt } : {}) };
    let a: HostedAnswer;
    try {
      if (req.images.length === 0) {
        a = await hostedRequest(
          `${this.base}/v1/images/generations`,
          { method: 'POST', headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(fields) },
          this.timeoutMs,
          signal,
        );
      } else {
        const form = new FormData();
        for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
        const field = req.imageField ?? (req.images.length > 1 ? 'image[]' : 'image');
        for (const img of req.images) form.append(field, new Blob([new Uint8Array(img.bytes)], { type: img.contentType }), img.fileName);
        a = await hostedRequest(
          `${this.base}/v1/images/edits`,
          { method: 'POST', headers: { ...auth, accept: 'application/json' }, body: form },
          this.timeoutMs,
          signal,
        );
      }
    } catch (err) {
      // The synchronous request outlived the job's limit: the provider may still be drawing (and charging),
      // so it is not sent again; the generation fails with GENERATION_TIMEOUT like a queue job cancelled at its deadline.
      const state: HostedJobState =
        err instanceof HostedTransportError && err.timedOut
          ? { state: 'failed', detail: err.message, retryable: false, timedOut: true }
          : transportFailure(err);
      this.done.set(jobId, state);
      return { jobId, state };
    }
    const state = a.status >= 200 && a.status < 300 ? openAiOutputs(a) : failureOf(a, REFUSAL_CODES.has(String(a.json?.error?.code ?? '')));
    this.done.set(jobId, state);
    return { jobId, state };
  }

  async status(jobId: string): Promise<HostedJobState> {
    return this.done.get(jobId) ?? { state: 'failed', detail: `unknown synchronous job ${jobId} (the process that ran it is gone)`, retryable: false };
  }

  async cancel(jobId: string): Promise<void> {
    this.done.delete(jobId);
  }
}

/** The images of a successful answer (pure). */
export function openAiOutputs(a: HostedAnswer): HostedJobState {
  const data = Array.isArray(a.json?.data) ? a.json.data : [];
  const outputs: HostedOutput[] = [];
  for (const d of data) {
    if (typeof d?.b64_json === 'string' && d.b64_json.length > 0) outputs.push({ bytes: Buffer.from(d.b64_json, 'base64') });
    else if (typeof d?.url === 'string' && d.url.length > 0) outputs.push({ url: d.url });
  }
  if (outputs.length === 0) return { state: 'failed', detail: `no image in ${describeAnswer(a)}`, retryable: false };
  return { state: 'succeeded', outputs };
}

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
  describeAnswer,
  failureOf,
  hostedRequest,
  looksLikeRefusal,
  transportFailure,
  trimBase,
  withImages,
  type HostedAnswer,
} from './hosted-http.js';
import type { ParsedJson } from '../../shared/json.js';

export const FAL_QUEUE_BASE = 'https://queue.fal.run';

/**
 * fal's queue protocol:
 * - `POST {base}/{model}` with `Authorization: Key …` and the model's input as JSON → `{ request_id }`;
 * - `GET {base}/{app}/requests/{id}/status` → `IN_QUEUE` (`queue_position`), `IN_PROGRESS`, `COMPLETED`;
 * - `GET {base}/{app}/requests/{id}` → the output (`images[].url`, `video.url`), or the error
 *   (`detail`; a `content_policy_violation` is a refusal, so is `has_nsfw_concepts: [true]`);
 * - `PUT {base}/{app}/requests/{id}/cancel`.
 * `{app}` is the model id's first two segments (`fal-ai/flux/dev` → `fal-ai/flux`), as fal's clients do.
 * The job id this client answers is `{app}/requests/{id}`. Reference images go inline as data URIs
 * (`image_url`, or `image_urls` for several; `imageField` renames it).
 */
export class FalClient implements HostedGenerationClient {
  readonly provider = 'fal' as const;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly cfg: HostedClientConfig) {
    this.base = trimBase(cfg.baseUrl ?? FAL_QUEUE_BASE);
    this.timeoutMs = cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  private headers(json: boolean): Record<string, string> {
    return {
      ...(this.cfg.apiKey ? { authorization: `Key ${this.cfg.apiKey}` } : {}),
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  /** `fal-ai/flux/dev` → `fal-ai/flux`. */
  static appOf(model: string): string {
    return model.split('/').filter(Boolean).slice(0, 2).join('/');
  }

  async submit(req: HostedJobRequest, signal?: AbortSignal): Promise<HostedSubmitted> {
    const model = req.providerModel.split('/').filter(Boolean).map(encodeURIComponent).join('/');
    const single = req.imageField ?? 'image_url';
    let input: Record<string, unknown> = { ...req.options, ...(req.prompt !== undefined ? { prompt: req.prompt } : {}) };
    input = withImages(input, req.images, single, req.imageField ? req.imageField : 'image_urls');
    let a: HostedAnswer;
    try {
      a = await hostedRequest(`${this.base}/${model}`, { method: 'POST', headers: this.headers(true), body: JSON.stringify(input) }, this.timeoutMs, signal);
    } catch (err) {
      return { jobId: '', state: transportFailure(err) };
    }
    if (a.status < 200 || a.status >= 300) return { jobId: '', state: this.errorState(a) };
    const id = a.json?.request_id;
    if (typeof id !== 'string' || !/^[A-Za-z0-9._-]{1,200}$/.test(id))
      return { jobId: '', state: { state: 'failed', detail: `no request_id in ${describeAnswer(a)}`, retryable: false } };
    const jobId = `${FalClient.appOf(req.providerModel)}/requests/${id}`;
    return { jobId, state: { state: 'queued', ...(typeof a.json?.queue_position === 'number' ? { position: a.json.queue_position } : {}) } };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<HostedJobState> {
    let a: HostedAnswer;
    try {
      a = await hostedRequest(`${this.base}/${jobId}/status`, { method: 'GET', headers: this.headers(false) }, this.timeoutMs, signal);
    } catch (err) {
      return transportFailure(err);
    }
    if (a.status < 200 || a.status >= 300) return this.errorState(a);
    switch (a.json?.status) {
      case 'IN_QUEUE':
        return { state: 'queued', ...(typeof a.json.queue_position === 'number' ? { position: a.json.queue_position } : {}) };
      case 'IN_PROGRESS':
        return { state: 'running' };
      case 'COMPLETED':
        return this.result(jobId, signal);
      default:
        return { state: 'failed', detail: `unknown status in ${describeAnswer(a)}`, retryable: false };
    }
  }

  private async result(jobId: string, signal?: AbortSignal): Promise<HostedJobState> {
    let a: HostedAnswer;
    try {
      a = await hostedRequest(`${this.base}/${jobId}`, { method: 'GET', headers: this.headers(false) }, this.timeoutMs, signal);
    } catch (err) {
      return transportFailure(err);
    }
    if (a.status < 200 || a.status >= 300) return this.errorState(a);
    return falOutputs(a.json);
  }

  async cancel(jobId: string): Promise<void> {
    if (!jobId) return;
    await hostedRequest(`${this.base}/${jobId}/cancel`, { method: 'PUT', headers: this.headers(false) }, this.timeoutMs).catch(() => undefined);
  }

  private errorState(a: HostedAnswer): HostedJobState {
    const detail = a.json?.detail;
    const types = Array.isArray(detail) ? detail.map((d: ParsedJson) => String(d?.type ?? '')) : [];
    return failureOf(a, types.includes('content_policy_violation'));
  }
}

/** The outputs of a fal result body: `images[].url`, `image.url`, `video.url` (pure). */
export function falOutputs(body: ParsedJson): HostedJobState {
  const nsfw = Array.isArray(body?.has_nsfw_concepts) && body.has_nsfw_concepts.some((v: unknown) => v === true);
  if (nsfw) return { state: 'refused', detail: 'has_nsfw_concepts' };
  const outputs: HostedOutput[] = [];
  const add = (f: ParsedJson) => {
    if (f && typeof f.url === 'string') outputs.push({ url: f.url });
  };
  if (Array.isArray(body?.images)) body.images.forEach(add);
  add(body?.image);
  add(body?.video);
  if (outputs.length === 0) {
    const detail = `no output in ${JSON.stringify(body ?? null).slice(0, 500)}`;
    return looksLikeRefusal(detail) ? { state: 'refused', detail } : { state: 'failed', detail, retryable: false };
  }
  return { state: 'succeeded', outputs };
}

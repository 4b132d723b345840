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

export const REPLICATE_API_BASE = 'https://api.replicate.com';

const PREDICTION_ID = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Replicate's predictions protocol:
 * - `POST {base}/v1/models/{owner}/{name}/predictions` `{ input }` (an official model), or
 *   `POST {base}/v1/predictions` `{ version, input }` when the model is `owner/name:version`, with
 *   `Authorization: Bearer …` → the prediction (`id`, `status`);
 * - `GET {base}/v1/predictions/{id}` → `starting`, `processing`, `succeeded` (`output`: a URL or an
 *   array of URLs), `failed` (`error`; a safety refusal such as "NSFW content detected" or E005 is a
 *   refusal), `canceled`;
 * - `POST {base}/v1/predictions/{id}/cancel`.
 * Reference images go inline as data URIs (`image`, or `images` for several; `imageField` renames it).
 */
export class ReplicateClient implements HostedGenerationClient {
  readonly provider = 'replicate' as const;
  private readonly base: string;
  private readonly timeoutMs: number;

  constructor(private readonly cfg: HostedClientConfig) {
    this.base = trimBase(cfg.baseUrl ?? REPLICATE_API_BASE);
    this.timeoutMs = cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  private headers(json: boolean): Record<string, string> {
    return {
      ...(this.cfg.apiKey ? { authorization: `Bearer ${this.cfg.apiKey}` } : {}),
      accept: 'application/json',
      ...(json ? { 'content-type': 'application/json' } : {}),
    };
  }

  async submit(req: HostedJobRequest, signal?: AbortSignal): Promise<HostedSubmitted> {
    let input: Record<string, unknown> = { ...req.options, ...(req.prompt !== undefined ? { prompt: req.prompt } : {}) };
    input = withImages(input, req.images, req.imageField ?? 'image', req.imageField ?? 'images');
    const [model, version] = req.providerModel.split(':');
    const [owner, name] = model.split('/');
    const url = version ? `${this.base}/v1/predictions` : `${this.base}/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name ?? '')}/predictions`;
    const body = version ? { version, input } : { input };
    let a: HostedAnswer;
    try {
      a = await hostedRequest(url, { method: 'POST', headers: this.headers(true), body: JSON.stringify(body) }, this.timeoutMs, signal);
    } catch (err) {
      return { jobId: '', state: transportFailure(err) };
    }
    if (a.status < 200 || a.status >= 300) return { jobId: '', state: failureOf(a) };
    const id = a.json?.id;
    if (typeof id !== 'string' || !PREDICTION_ID.test(id))
      return { jobId: '', state: { state: 'failed', detail: `no prediction id in ${describeAnswer(a)}`, retryable: false } };
    return { jobId: id, state: replicateState(a.json) };
  }

  async status(jobId: string, signal?: AbortSignal): Promise<HostedJobState> {
    if (!PREDICTION_ID.test(jobId)) return { state: 'failed', detail: `bad prediction id ${jobId}`, retryable: false };
    let a: HostedAnswer;
    try {
      a = await hostedRequest(`${this.base}/v1/predictions/${jobId}`, { method: 'GET', headers: this.headers(false) }, this.timeoutMs, signal);
    } catch (err) {
      return transportFailure(err);
    }
    if (a.status < 200 || a.status >= 300) return failureOf(a);
    return replicateState(a.json);
  }

  async cancel(jobId: string): Promise<void> {
    if (!PREDICTION_ID.test(jobId)) return;
    await hostedRequest(`${this.base}/v1/predictions/${jobId}/cancel`, { method: 'POST', headers: this.headers(false) }, this.timeoutMs).catch(() => undefined);
  }
}

/** A prediction body as a state (pure). */
export function replicateState(p: ParsedJson): HostedJobState {
  switch (p?.status) {
    case 'starting':
      return { state: 'queued' };
    case 'processing':
      return { state: 'running' };
    case 'canceled':
      return { state: 'canceled' };
    case 'failed': {
      const detail = typeof p.error === 'string' ? p.error : JSON.stringify(p.error ?? null);
      return looksLikeRefusal(detail) ? { state: 'refused', detail } : { state: 'failed', detail, retryable: false };
    }
    case 'succeeded': {
      const list = Array.isArray(p.output) ? p.output : [p.output];
      const outputs: HostedOutput[] = list.filter((u: unknown): u is string => typeof u === 'string' && u.length > 0).map((url: string) => ({ url }));
      if (outputs.length === 0) return { state: 'failed', detail: `no output URL in ${JSON.stringify(p.output ?? null).slice(0, 300)}`, retryable: false };
      return { state: 'succeeded', outputs };
    }
    default:
      return { state: 'failed', detail: `unknown prediction status ${JSON.stringify(p?.status ?? null)}`, retryable: false };
  }
}

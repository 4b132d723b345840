import type { HostedJobState, ReferenceImage } from '../../ports/hosted-generation.js';
import type { ParsedJson } from '../../shared/json.js';

/** Plumbing shared by the hosted generation clients: one request with a deadline, error bodies, refusals. */

export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface HostedAnswer {
  status: number;
  /** The parsed JSON body, or undefined. */
  json: ParsedJson;
  text: string;
}

/** A transport failure (no answer) as a retryable `failed` state. */
export class HostedTransportError extends Error {
  constructor(
    message: string,
    options?: { cause?: unknown },
    /** No answer within the request's deadline (rather than no connection at all). */
    readonly timedOut = false,
  ) {
    super(message, options);
    this.name = 'HostedTransportError';
  }
}

/** fetch with a deadline, without redirects (a provider answering one is treated as a failure); the body read whole. */
export async function hostedRequest(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal): Promise<HostedAnswer> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const all = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual', signal: all });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    const what = timeout.aborted ? `timed out after ${timeoutMs} ms` : (err as Error).message;
    throw new HostedTransportError(`${init.method ?? 'GET'} ${new URL(url).origin}${new URL(url).pathname}: ${what}`, { cause: err }, timeout.aborted);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new HostedTransportError(`reading the answer of ${new URL(url).pathname}: ${(err as Error).message}`, { cause: err }, timeout.aborted);
  }
  let json: ParsedJson;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

/** Words providers use when their safety system refuses a prompt, an input image or an output. */
const REFUSAL = /content[ _-]?policy|moderation|nsfw|safety (system|checker|filter)|flagged as sensitive|\(E005\)|sensitive content/i;

export function looksLikeRefusal(detail: string): boolean {
  return REFUSAL.test(detail);
}

/** A short, log-safe description of an error answer. */
export function describeAnswer(a: HostedAnswer): string {
  const detail = a.json !== undefined ? JSON.stringify(a.json) : a.text;
  return `HTTP ${a.status}${detail ? ` ${detail.slice(0, 500)}` : ''}`;
}

/**
 * The state of an error answer when the provider's body says nothing more precise: a refusal when its
 * words say so, else a failure, retryable for 408, 429 and 5xx.
 */
export function failureOf(a: HostedAnswer, refused = false): HostedJobState {
  const detail = describeAnswer(a);
  if (refused || looksLikeRefusal(detail)) return { state: 'refused', detail };
  return { state: 'failed', detail, retryable: a.status === 408 || a.status === 429 || a.status >= 500 };
}

/** A transport error as a state: the provider may not have seen the request, so it is retryable. */
export function transportFailure(err: unknown): HostedJobState {
  if (err instanceof HostedTransportError) return { state: 'failed', detail: err.message, retryable: true };
  throw err;
}

export function dataUri(image: ReferenceImage): string {
  return `data:${image.contentType};base64,${image.bytes.toString('base64')}`;
}

/** `base` without trailing slashes. */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/** Puts the reference images into a provider's input object: one image under `field`, several under `field` + `s` (or the array field named). */
export function withImages(input: Record<string, unknown>, images: ReferenceImage[], single: string, many: string): Record<string, unknown> {
  if (images.length === 0) return input;
  if (images.length === 1) return { ...input, [single]: dataUri(images[0]) };
  return { ...input, [many]: images.map(dataUri) };
}

import { retryAfterSeconds, sleep } from '../../shared/timing.js';
import fs from 'node:fs';
import path from 'node:path';
import { AsrError, type AsrEngine, type AsrResult, type AsrSegment, type AsrTranscribeOptions, type AsrWord } from '../../ports/asr.js';
import { groupWords, joinWords, spreadWords, tidyWords } from './asr-result.js';
import { languageCode, normalizeLanguage, WHISPER_LANGUAGES } from './languages.js';

/**
 * Any OpenAI-compatible transcription server (OpenAI, Groq, speaches, whisper.cpp server, ...):
 * `POST <url>` (…/v1/audio/transcriptions) as multipart/form-data with the WAV, the model,
 * `response_format=verbose_json` and word + segment timestamp granularities.
 */

export interface OpenAiAsrOptions {
  /** The transcriptions endpoint, e.g. http://localhost:8000/v1/audio/transcriptions (see transcriptionsUrl). */
  url: string;
  apiKey?: string;
  model: string;
  /** Retries after 429, 5xx, timeouts and connection errors. Default 3. */
  maxRetries?: number;
  /** First backoff delay, doubled each retry (a Retry-After answer wins when longer). Default 1000 ms. */
  retryBaseMs?: number;
  /** Cap of one backoff delay, Retry-After included. Default 30 s. */
  maxRetryDelayMs?: number;
  /** One request's time limit. Default 10 minutes. */
  timeoutMs?: number;
  /** Languages the server's model knows (ISO 639-1). Default: Whisper's. */
  languages?: string[];
  fetch?: typeof fetch;
}

type Json = Record<string, unknown>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseWord(w: unknown): AsrWord | undefined {
  if (!isObj(w)) return undefined;
  const text = (typeof w.word === 'string' ? w.word : typeof w.text === 'string' ? w.text : '').trim();
  const start = num(w.start);
  const end = num(w.end);
  if (!text || start === undefined || end === undefined) return undefined;
  const word: AsrWord = { start, end: Math.max(start, end), text };
  const p = num(w.probability) ?? num(w.confidence) ?? num(w.p);
  if (p !== undefined) word.confidence = Math.min(1, Math.max(0, p));
  return word;
}

/**
 * Turns a verbose_json answer into an AsrResult (pure). Word timestamps come from `words` (OpenAI,
 * Groq, speaches) or `segments[].words` (whisper.cpp, faster-whisper); without any, each segment's
 * time is spread over its words. Language names ("english") become codes; `fallbackLanguage`
 * (the one asked) is used when the answer has none, else `und`.
 */
export function parseVerboseJson(body: unknown, fallbackLanguage?: string): AsrResult {
  if (!isObj(body)) throw new AsrError('ASR_BAD_RESPONSE', 'transcription answer is not a JSON object');
  const language = languageCode(body.language) ?? fallbackLanguage ?? 'und';
  const rawSegments = Array.isArray(body.segments) ? body.segments.filter(isObj) : [];
  let words = Array.isArray(body.words) ? body.words.map(parseWord).filter((w): w is AsrWord => !!w) : [];
  if (!words.length) words = rawSegments.flatMap((s) => (Array.isArray(s.words) ? s.words.map(parseWord).filter((w): w is AsrWord => !!w) : []));
  words = tidyWords(words);

  const segs = rawSegments
    .map((s) => ({
      start: num(s.start),
      end: num(s.end),
      text: typeof s.text === 'string' ? s.text.trim() : '',
      speaker: typeof s.speaker === 'string' ? s.speaker : undefined,
    }))
    .filter((s): s is { start: number; end: number; text: string; speaker: string | undefined } => s.start !== undefined && s.end !== undefined)
    .sort((a, b) => a.start - b.start);

  let segments: AsrSegment[];
  if (segs.length && words.length) {
    // Each word goes to the segment holding its midpoint, or the nearest one.
    const buckets: AsrWord[][] = segs.map(() => []);
    for (const w of words) {
      const mid = (w.start + w.end) / 2;
      let best = 0;
      let bestDist = Infinity;
      segs.forEach((s, i) => {
        const d = mid < s.start ? s.start - mid : mid > s.end ? mid - s.end : 0;
        if (d < bestDist) {
          bestDist = d;
          best = i;
        }
      });
      buckets[best].push(w);
    }
    segments = segs.flatMap((s, i): AsrSegment[] => {
      const ws = buckets[i].length ? buckets[i] : spreadWords(s.text, s.start, s.end);
      if (!ws.length) return [];
      return [
        {
          start: Math.min(s.start, ws[0].start),
          end: Math.max(s.end, ws[ws.length - 1].end),
          text: s.text || joinWords(ws),
          words: ws,
          ...(s.speaker ? { speaker: s.speaker } : {}),
        },
      ];
    });
  } else if (segs.length) {
    segments = segs.flatMap((s): AsrSegment[] => {
      const ws = spreadWords(s.text, s.start, Math.max(s.start, s.end));
      return ws.length ? [{ start: s.start, end: Math.max(s.start, s.end), text: s.text, words: ws, ...(s.speaker ? { speaker: s.speaker } : {}) }] : [];
    });
  } else if (words.length) {
    segments = groupWords(words);
  } else {
    const text = typeof body.text === 'string' ? body.text.trim() : '';
    const duration = num(body.duration);
    if (typeof body.text !== 'string') throw new AsrError('ASR_BAD_RESPONSE', 'transcription answer has neither segments, words nor text');
    const ws = text && duration ? spreadWords(text, 0, duration) : [];
    segments = ws.length ? [{ start: 0, end: duration!, text, words: ws }] : [];
  }
  return { language, segments, words: segments.flatMap((s) => s.words) };
}

/** Seconds or an HTTP date -> milliseconds from now (pure). */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const s = retryAfterSeconds(header, now);
  return s === undefined ? undefined : s * 1000;
}

function serverMessage(text: string): string {
  let msg = text;
  try {
    const j = JSON.parse(text) as unknown;
    if (isObj(j)) {
      const e = j.error;
      msg =
        isObj(e) && typeof e.message === 'string'
          ? e.message
          : typeof e === 'string'
            ? e
            : typeof j.detail === 'string'
              ? j.detail
              : typeof j.message === 'string'
                ? j.message
                : text;
    }
  } catch {
    // not JSON: keep the text
  }
  return msg.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export class OpenAiAsrEngine implements AsrEngine {
  readonly name = 'openai';
  private readonly languages: Set<string>;

  constructor(private readonly opts: OpenAiAsrOptions) {
    this.languages = new Set((opts.languages ?? Object.keys(WHISPER_LANGUAGES)).map((l) => l.toLowerCase()));
  }

  supportsLanguage(lang: string): boolean {
    const l = normalizeLanguage(lang);
    return l === undefined || this.languages.has(l);
  }

  async transcribe(wavPath: string, opts: AsrTranscribeOptions = {}): Promise<AsrResult> {
    const language = normalizeLanguage(opts.language);
    if (language !== undefined && !this.languages.has(language)) {
      throw new AsrError('ASR_LANGUAGE_UNSUPPORTED', `the ASR server's model does not list language ${opts.language}`);
    }
    const blob = await fs.openAsBlob(wavPath, { type: 'audio/wav' });
    const fileName = /\.wav$/i.test(wavPath) ? path.basename(wavPath) : 'audio.wav';
    const maxRetries = this.opts.maxRetries ?? 3;
    const doFetch = this.opts.fetch ?? fetch;
    let last: AsrError | undefined;

    for (let attempt = 0; ; attempt++) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const form = new FormData();
      form.append('file', blob, fileName);
      form.append('model', this.opts.model);
      form.append('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'word');
      form.append('timestamp_granularities[]', 'segment');
      if (language) form.append('language', language);
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 600_000);
      const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
      let waitMs: number | undefined;
      try {
        const res = await doFetch(this.opts.url, {
          method: 'POST',
          body: form,
          headers: { accept: 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
          signal,
        });
        const text = await res.text();
        if (res.ok) {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            throw new AsrError('ASR_BAD_RESPONSE', `ASR server answered ${res.status} with non-JSON: ${text.slice(0, 120)}`);
          }
          return parseVerboseJson(body, language);
        }
        const msg = `ASR server answered ${res.status}: ${serverMessage(text) || res.statusText}`;
        if (res.status === 401 || res.status === 403) throw new AsrError('ASR_AUTH_FAILED', msg, false, res.status);
        if (res.status === 429) last = new AsrError('ASR_RATE_LIMITED', msg, true, res.status);
        else if (res.status >= 500 || res.status === 408) last = new AsrError('ASR_UNAVAILABLE', msg, true, res.status);
        else throw new AsrError('ASR_REQUEST_REJECTED', msg, false, res.status);
        waitMs = retryAfterMs(res.headers.get('retry-after'));
      } catch (err) {
        if (err instanceof AsrError) throw err;
        if (opts.signal?.aborted) throw opts.signal.reason;
        const why = timeout.aborted
          ? `timed out after ${this.opts.timeoutMs ?? 600_000} ms`
          : `failed: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`;
        last = new AsrError('ASR_UNAVAILABLE', `ASR request to ${new URL(this.opts.url).host} ${why}`, true);
      }
      if (attempt >= maxRetries) throw last;
      const backoff = (this.opts.retryBaseMs ?? 1000) * 2 ** attempt * (0.8 + Math.random() * 0.4);
      await sleep(Math.min(Math.max(backoff, waitMs ?? 0), this.opts.maxRetryDelayMs ?? 30_000), opts.signal);
    }
  }
}

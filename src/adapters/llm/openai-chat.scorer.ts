import type { LlmConfig } from '../../config/llm.env.js';
import { roundRating, truncateWords } from '../../domain/highlights/scoring.js';
import type { HighlightClip, HighlightScoreContext, HighlightScorer, ScoreDetails } from '../../ports/highlights.js';

/**
 * Highlight scoring by an LLM behind any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI,
 * Ollama's /v1, vLLM, llama.cpp server, ...). The engine's best candidates are sent numbered; the model
 * answers JSON `{ "clips": [{ "index", "rating" (0-10), "title" }] }` (a bare array is accepted too). Its
 * rating is blended with the embedded one and its titles replace the extractive ones. Any failure
 * (timeout, HTTP error, unusable JSON) logs a warning and returns the candidates unchanged.
 */

/** pino-compatible. */
export interface ScorerLogger {
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

export interface OpenAiChatScorerOptions extends LlmConfig {
  logger?: ScorerLogger;
  /** Characters of transcript sent per candidate (longer texts are cut). Default 1500. */
  maxCharsPerCandidate?: number;
  /** Ask for `response_format: { type: "json_object" }` (dropped for good after a 400 that names it). Default true. */
  jsonMode?: boolean;
  /** Largest answer body read (bytes). Default 1 MiB. */
  maxResponseBytes?: number;
}

export interface LlmRating {
  /** 1-based, as numbered in the prompt. */
  index: number;
  rating: number;
  title?: string;
  /** Present only when all four are numbers in 0..10. */
  score_details?: ScoreDetails;
  /** Present only when a non-empty single line of at most 300 characters. */
  reason?: string;
  /** Strings only; whether the clip says them is checked by the scorer. */
  matched?: string[];
}

const DETAIL_KEYS = ['hook', 'coherence', 'value', 'delivery'] as const;

/** A model's sub-scores when valid (an object with the four keys, each a number in 0..10), else undefined. */
export function parseScoreDetails(value: unknown): ScoreDetails | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const out = {} as ScoreDetails;
  for (const k of DETAIL_KEYS) {
    const v = typeof o[k] === 'string' && o[k] !== '' ? Number(o[k]) : o[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 10) return undefined;
    out[k] = Math.round(v * 10) / 10;
  }
  return out;
}

/** A model's reason when usable: one line (newlines folded), not empty, at most 300 characters. */
export function parseReason(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const r = value.replace(/\s+/g, ' ').trim();
  return r && r.length <= 300 ? r : undefined;
}

/** The words a model says the clip matched, kept only when the clip's text says them (case and punctuation ignored). */
export function saidIn(text: string, words: readonly string[]): string[] {
  const norm = (s: string) =>
    ` ${s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}']+/gu, ' ')
      .trim()} `;
  const hay = norm(text);
  const out: string[] = [];
  for (const w of words) {
    const n = norm(w);
    if (n.trim() && hay.includes(n) && !out.includes(n.trim())) out.push(n.trim());
  }
  return out;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Finds the JSON in a model's answer: drops `<think>` blocks and code fences, then tries each `{`/`[`. */
export function extractJson(text: string): unknown {
  const stripped = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const attempts: string[] = [stripped];
  for (const m of stripped.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) attempts.push(m[1].trim());
  for (const a of attempts) {
    try {
      return JSON.parse(a);
    } catch {
      /* keep looking */
    }
  }
  for (let i = 0; i < stripped.length; i++) {
    const ch = stripped[i];
    if (ch !== '{' && ch !== '[') continue;
    const end = matchingBracket(stripped, i);
    if (end < 0) continue;
    try {
      return JSON.parse(stripped.slice(i, end + 1));
    } catch {
      /* try the next opening bracket */
    }
  }
  throw new Error('no JSON found in the answer');
}

function matchingBracket(s: string, from: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = from; i < s.length; i++) {
    const ch = s[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

function entriesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (!value || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  if ('rating' in obj || 'score' in obj) return [obj];
  for (const key of ['clips', 'ratings', 'results', 'candidates', 'items', 'data', 'excerpts']) {
    if (Array.isArray(obj[key])) return obj[key] as unknown[];
  }
  const firstArray = Object.values(obj).find(Array.isArray);
  if (firstArray) return firstArray;
  // { "1": { rating, title }, "2": ... }
  return Object.entries(obj)
    .filter(([k, v]) => /^\d+$/.test(k) && v && typeof v === 'object')
    .map(([k, v]) => ({ index: Number(k), ...(v as object) }));
}

/** Valid ratings for candidates 1..count (0-based answers are shifted; first answer per index wins). */
export function parseRatings(value: unknown, count: number): LlmRating[] {
  const raw: LlmRating[] = [];
  for (const e of entriesOf(value)) {
    if (!e || typeof e !== 'object') continue;
    const o = e as Record<string, unknown>;
    const index = Number(o.index ?? o.id ?? o.number ?? o.candidate);
    const rating = Number(o.rating ?? o.score);
    if (!Number.isInteger(index) || !Number.isFinite(rating) || rating < 0 || rating > 10) continue;
    const title = typeof o.title === 'string' ? o.title : undefined;
    const entry: LlmRating = { index, rating, title };
    const details = parseScoreDetails(o.score_details ?? o.scores ?? o.sub_scores);
    if (details) entry.score_details = details;
    const reason = parseReason(o.reason);
    if (reason) entry.reason = reason;
    if (Array.isArray(o.matched)) entry.matched = o.matched.filter((m): m is string => typeof m === 'string');
    raw.push(entry);
  }
  const zeroBased = raw.some((r) => r.index === 0) && !raw.some((r) => r.index === count);
  const seen = new Set<number>();
  const out: LlmRating[] = [];
  for (const r of raw) {
    const index = zeroBased ? r.index + 1 : r.index;
    if (index < 1 || index > count || seen.has(index)) continue;
    seen.add(index);
    out.push({ ...r, index });
  }
  return out;
}

/** A model's title, cleaned: one line, no wrapping quotes or markdown, ≤ 60 characters. */
export function cleanLlmTitle(title: string): string {
  const t = title
    .replace(/[\r\n]+/g, ' ')
    .replace(/[*_#`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim();
  return truncateWords(t, 60);
}

function blendDetails(a: ScoreDetails, b: ScoreDetails, w: number): ScoreDetails {
  const out = {} as ScoreDetails;
  for (const k of DETAIL_KEYS) out[k] = Math.round(((1 - w) * a[k] + w * b[k]) * 10) / 10;
  return out;
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/** The chat messages sent for a set of candidates (numbered from 1). */
export function buildMessages(candidates: readonly HighlightClip[], ctx: HighlightScoreContext, maxChars = 1500): ChatMessage[] {
  const language = ctx.language || 'en';
  const asked: string[] = [];
  if (ctx.prompt) asked.push(`The viewer is looking for: "${ctx.prompt.replace(/"/g, "'")}".`);
  if (ctx.keywords?.length) asked.push(`Clips must say one of these keywords: ${ctx.keywords.map((k) => `"${k.replace(/"/g, "'")}"`).join(', ')}.`);
  if (asked.length > 0) asked.push('An excerpt that fits this request rates above one that does not; list in "matched" the words of the excerpt that fit it.');
  const system = [
    'You are a video editor choosing short-form clips (TikTok, Reels, Shorts) from a transcript.',
    'Rate each numbered excerpt from 0 to 10 as a stand-alone clip: 10 = a strong hook in the first seconds,',
    'a clear payoff, emotion or surprise, understandable without context; 0 = dull or confusing.',
    ...asked,
    'Also give four sub-scores from 0 to 10: hook (the first seconds make a viewer stay), coherence (it stands alone, starts and ends',
    'on a complete thought), value (information, emotion or humour density), delivery (pace and energy of the speech);',
    `a one-sentence reason naming what the excerpt is about and why it scored so; and a catchy title of at most 60 characters, different for every excerpt;`,
    `all in the transcript's language (${language}).`,
    'Reply with JSON only, no prose: {"clips":[{"index":1,"rating":7.5,"title":"...","score_details":{"hook":8,"coherence":7,"value":6,"delivery":7},',
    '"reason":"...","matched":[]}]} with one entry per excerpt.',
  ].join(' ');
  const parts = candidates.map((c, i) => {
    const text = c.text.length > maxChars ? `${c.text.slice(0, maxChars)}…` : c.text;
    return `[${i + 1}] (${clock(c.start)}–${clock(c.end)}, ${Math.round(c.end - c.start)} s)\n${text}`;
  });
  const user = `Transcript language: ${language}. ${candidates.length} excerpts:\n\n${parts.join('\n\n')}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export class OpenAiChatHighlightScorer implements HighlightScorer {
  readonly name = 'openai-chat';
  readonly maxCandidates: number;
  private jsonMode: boolean;

  constructor(private readonly opts: OpenAiChatScorerOptions) {
    this.maxCandidates = opts.maxCandidates;
    this.jsonMode = opts.jsonMode ?? true;
  }

  async rescore(candidates: HighlightClip[], ctx: HighlightScoreContext): Promise<HighlightClip[]> {
    if (candidates.length === 0) return candidates;
    const subset = candidates.slice(0, this.maxCandidates);
    const started = Date.now();
    try {
      const content = await this.complete(buildMessages(subset, ctx, this.opts.maxCharsPerCandidate));
      const ratings = parseRatings(extractJson(content), subset.length);
      if (ratings.length === 0) throw new Error('the answer holds no usable ratings');
      const w = this.opts.weight;
      const out = candidates.map((c) => ({ ...c, signals: { ...c.signals } }));
      for (const r of ratings) {
        const c = out[r.index - 1];
        c.signals.llm = Math.round(r.rating * 100) / 1000;
        c.rating = roundRating((1 - w) * c.rating + w * r.rating);
        const title = r.title ? cleanLlmTitle(r.title) : '';
        if (title) c.title = title;
        // Sub-scores blend like the rating (so the rating stays their combination); a malformed set keeps the engine's.
        if (r.score_details) {
          const e = c.score_details;
          c.score_details = e ? blendDetails(e, r.score_details, w) : r.score_details;
        }
        if (r.reason) c.reason = r.reason;
        if (r.matched) {
          const said = saidIn(c.text, r.matched);
          if (said.length > 0) c.matched = [...new Set([...(c.matched ?? []), ...said])];
        }
      }
      this.opts.logger?.debug?.(
        { model: this.opts.model, rated: ratings.length, sent: subset.length, ms: Date.now() - started },
        'LLM rated highlight candidates',
      );
      return out;
    } catch (err) {
      const reason = err instanceof Error ? (err.name === 'TimeoutError' ? `timed out after ${this.opts.timeoutMs} ms` : err.message) : String(err);
      this.opts.logger?.warn({ model: this.opts.model, url: this.opts.url, reason }, 'LLM highlight scoring failed; keeping the embedded ratings and titles');
      return candidates;
    }
  }

  /** One chat completion; the text of the first choice. One deadline covers a possible retry without JSON mode. */
  private async complete(messages: ChatMessage[]): Promise<string> {
    const signal = AbortSignal.timeout(this.opts.timeoutMs);
    for (let attempt = 0; attempt < 2; attempt++) {
      const body: Record<string, unknown> = { model: this.opts.model, messages, temperature: 0.2, stream: false };
      if (this.jsonMode) body.response_format = { type: 'json_object' };
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
      const res = await fetch(this.opts.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      const text = await this.readBody(res);
      if (res.status === 400 && this.jsonMode && /response_format|json_object|json mode/i.test(text)) {
        this.jsonMode = false; // this server does not do JSON mode: ask in the prompt only, from now on
        continue;
      }
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      let json: { choices?: Array<{ message?: { content?: unknown } }> };
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error('the answer is not a chat completion (not JSON)');
      }
      const content = json.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '') throw new Error('the answer has no message content');
      return content;
    }
    throw new Error('the server refused the request with and without JSON mode');
  }

  private async readBody(res: Response): Promise<string> {
    const max = this.opts.maxResponseBytes ?? 1024 * 1024;
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > max) {
      await res.body?.cancel();
      throw new Error(`answer too large (${declared} bytes)`);
    }
    const text = await res.text();
    if (text.length > max) throw new Error(`answer too large (${text.length} characters)`);
    return text;
  }
}

/** The scorer for a configuration, or undefined when no LLM is configured. */
export function createLlmScorer(config: LlmConfig | undefined, logger?: ScorerLogger): OpenAiChatHighlightScorer | undefined {
  return config ? new OpenAiChatHighlightScorer({ ...config, logger }) : undefined;
}

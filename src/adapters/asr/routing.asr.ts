import type { AsrEngine, AsrResult, AsrTranscribeOptions } from '../../ports/asr.js';
import { normalizeLanguage } from './languages.js';

/**
 * Several engines side by side, chosen by the language asked (CUTROOM_ASR_ROUTES, docs/asr.md): a
 * language a route names goes to that route's engine, any other to `rest`. `auto` goes to the
 * `detector` (an engine that finds the spoken language itself, the hosted one) when there is one, and
 * is read as English otherwise; the result's `language` is the one the chosen engine reports.
 */
export interface AsrRouting {
  /** Language code (`en`, `pt`) -> engine. */
  routes: ReadonlyMap<string, AsrEngine>;
  rest: AsrEngine;
  detector?: AsrEngine;
}

export class RoutingAsrEngine implements AsrEngine {
  readonly name: string;

  constructor(private readonly routing: AsrRouting) {
    const named = [...routing.routes].map(([lang, e]) => `${lang}=${e.name}`);
    this.name = `routes(${[...named, `*=${routing.rest.name}`].join(',')})`;
  }

  /** The engine for `lang` and the language to ask it for (undefined: let it detect). */
  route(lang: string | undefined): { engine: AsrEngine; language: string | undefined } {
    const l = normalizeLanguage(lang);
    if (l === undefined) {
      if (this.routing.detector) return { engine: this.routing.detector, language: undefined };
      return { engine: this.routing.routes.get('en') ?? this.routing.rest, language: 'en' };
    }
    return { engine: this.routing.routes.get(l) ?? this.routing.rest, language: lang };
  }

  supportsLanguage(lang: string): boolean {
    const { engine, language } = this.route(lang);
    return engine.supportsLanguage(language ?? 'auto');
  }

  transcribe(wavPath: string, opts: AsrTranscribeOptions = {}): Promise<AsrResult> {
    const { engine, language } = this.route(opts.language);
    return engine.transcribe(wavPath, { ...opts, language });
  }
}

import { describe, expect, it } from 'vitest';
import type { TimedWord } from '../../src/ports/highlights.js';
import { clipReason, distinctTitles, keyPhrases, stemStats } from '../../src/domain/highlights/explain.js';
import { pickHighlights } from '../../src/domain/highlights/highlight-engine.js';
import { REASON_FRAMES, REASON_LANGUAGES, reasonLanguage, stopwordsOf } from '../../src/domain/highlights/languages.js';
import { contentStems, tokenize } from '../../src/domain/highlights/lexicon.js';
import { speak } from './highlights-fixture.js';

/** A few sentences per language about baking bread, and the words a key phrase must never be made of. */
const TALKS: Record<'es' | 'fr' | 'de' | 'pt' | 'it', { sentences: string[]; never: string[] }> = {
  es: {
    sentences: [
      'El pan casero de la abuela necesita un horno muy caliente.',
      'La masa de harina descansa una hora en la mesa de la cocina.',
      'Después el pan casero se hornea durante cuarenta minutos.',
      'El olor del pan recién hecho llena toda la casa.',
    ],
    never: ['de', 'la', 'el', 'en', 'una', 'del', 'se'],
  },
  fr: {
    sentences: [
      'Le pain de campagne de ma grand-mère cuit dans un four très chaud.',
      'La pâte à pain repose une heure sur la table de la cuisine.',
      'Ensuite le pain de campagne cuit pendant quarante minutes.',
      'Le parfum du pain chaud remplit toute la maison.',
    ],
    never: ['de', 'la', 'le', 'un', 'une', 'du', 'dans', 'sur'],
  },
  de: {
    sentences: [
      'Das Brot meiner Großmutter braucht einen sehr heißen Ofen.',
      'Der Teig aus Mehl ruht eine Stunde auf dem Küchentisch.',
      'Dann backt das Brot vierzig Minuten im heißen Ofen.',
      'Der Duft von frischem Brot füllt das ganze Haus.',
    ],
    never: ['das', 'der', 'die', 'dem', 'einen', 'eine', 'auf', 'im', 'von'],
  },
  pt: {
    sentences: [
      'O pão caseiro da avó precisa de um forno muito quente.',
      'A massa de farinha descansa uma hora na mesa da cozinha.',
      'Depois o pão caseiro assa durante quarenta minutos.',
      'O cheiro do pão quente enche a casa toda.',
    ],
    never: ['o', 'a', 'da', 'de', 'do', 'um', 'uma', 'na'],
  },
  it: {
    sentences: [
      'Il pane fatto in casa della nonna vuole un forno molto caldo.',
      'La pasta di farina riposa un’ora sul tavolo della cucina.',
      'Poi il pane fatto in casa cuoce per quaranta minuti.',
      'Il profumo del pane caldo riempie tutta la casa.',
    ],
    never: ['il', 'la', 'di', 'della', 'del', 'un', 'in', 'sul', 'per'],
  },
};

/** The words of sentences as the recogniser would give them (timed, one list per sentence). */
function timed(sentences: string[]): TimedWord[][] {
  let start = 0;
  return sentences.map((s) => {
    const { words, end } = speak([s], { start });
    start = end;
    return words;
  });
}

describe('reason language', () => {
  it('is the language code without its region, English for every other language', () => {
    expect(reasonLanguage('es')).toBe('es');
    expect(reasonLanguage('es-MX')).toBe('es');
    expect(reasonLanguage('pt_BR')).toBe('pt');
    expect(reasonLanguage('FR')).toBe('fr');
    expect(reasonLanguage('ja')).toBe('en');
    expect(reasonLanguage('auto')).toBe('en');
    expect(reasonLanguage(undefined)).toBe('en');
    expect(reasonLanguage('')).toBe('en');
  });

  it('has stopwords for every language it writes', () => {
    for (const lang of REASON_LANGUAGES) expect(stopwordsOf(lang).size).toBeGreaterThan(80);
    expect(stopwordsOf('es').has('de')).toBe(true);
    expect(stopwordsOf('ja')).toBe(stopwordsOf('en'));
  });
});

describe.each(Object.entries(TALKS))('key phrases and reasons in %s', (lang, talk) => {
  const sentences = timed(talk.sentences);
  const stats = stemStats(talk.sentences.map((s) => contentStems(tokenize(s))));
  const phrases = keyPhrases(sentences, stats, 5, lang);

  it('key phrases are content words of the transcript, never its articles and prepositions', () => {
    expect(phrases.length).toBeGreaterThanOrEqual(3);
    const said = new Set(talk.sentences.flatMap((s) => tokenize(s)));
    for (const p of phrases) {
      for (const w of tokenize(p)) {
        expect(said.has(w), `${p} in the transcript`).toBe(true);
        expect(talk.never, `${p} has a stopword`).not.toContain(w);
      }
    }
  });

  it('the reason is written in the language around the transcript’s words', () => {
    const f = REASON_FRAMES[lang as keyof typeof REASON_FRAMES];
    const text = talk.sentences.join(' ');
    const matched = [tokenize(talk.sentences[0])[1]];
    const reason = clipReason({
      phrases,
      text,
      details: { hook: 7, coherence: 8, value: 5, delivery: 2 },
      signals: { hook: 0.7, question: 0, numbers: 0, emotion: 0 },
      matched,
      language: lang,
    });
    expect(reason).toBe(
      f.sentence(
        `${phrases[0]} ${f.and} ${phrases[1]}`,
        `${f.says(f.quote(matched[0]))}, ${f.opens(f.quote(text.split(' ').slice(0, 6).join(' ') + '…'))}, ${f.complete}, ${f.though} ${f.slow}`,
      ),
    );
    // Nothing of the English frames is left.
    for (const english of ['About', 'it says', 'opens strongly', 'complete thought', 'though', 'delivery']) expect(reason).not.toContain(english);
    // Weak points only, and nothing at all.
    const weak = clipReason({ phrases, text, details: { hook: 1, coherence: 5, value: 5, delivery: 2 }, signals: {}, language: lang });
    expect(weak).toBe(f.sentence(`${phrases[0]} ${f.and} ${phrases[1]}`, `${f.slow} ${f.and} ${f.weakOpening}`));
    expect(clipReason({ phrases: [], text: '', details: { hook: 5, coherence: 5, value: 5, delivery: 5 }, signals: {}, language: lang })).toBe(
      f.sentence(f.thisStretch, f.nothing),
    );
  });

  it('titles made of two phrases join them with the language’s “and”', () => {
    const f = REASON_FRAMES[lang as keyof typeof REASON_FRAMES];
    const clip = (phrases: string[]) => ({ phrases, text: 'x', start: 0 });
    const titles = distinctTitles([clip(['pan']), clip(['horno']), clip(['pan', 'horno'])], 60, lang);
    expect(titles).toEqual(['Pan', 'Horno', `Pan ${f.and} horno`]);
  });
});

describe('what the reason quotes in another language', () => {
  it('quotes only digits as figures and no English feeling word (the word lists are English)', () => {
    const details = { hook: 5, coherence: 5, value: 5, delivery: 5 };
    const signals = { numbers: 0.6, emotion: 0.6 };
    // French "four" (oven) and "pain" (bread) are English number and feeling words.
    const text = 'Le pain cuit dans un four très chaud.';
    expect(clipReason({ phrases: ['pain'], text, details, signals, language: 'fr' })).toBe('À propos de pain : rien ne ressort.');
    expect(clipReason({ phrases: ['pain'], text: 'Le pain cuit 40 minutes.', details, signals, language: 'fr' })).toBe(
      'À propos de pain : il donne des chiffres (« 40 minutes »).',
    );
    expect(clipReason({ phrases: ['pain'], text, details, signals, language: 'en' })).toBe(
      'About pain: it gives figures (“four très”), it carries feeling (“pain”).',
    );
  });

  it('German key phrases keep the capitals of its nouns', () => {
    const sentences = timed(TALKS.de.sentences);
    const stats = stemStats(TALKS.de.sentences.map((s) => contentStems(tokenize(s))));
    const phrases = keyPhrases(sentences, stats, 5, 'de');
    expect(phrases.some((p) => /\bBrot\b/.test(p))).toBe(true);
    expect(phrases.join(' ')).not.toMatch(/\bbrot\b/);
  });
});

describe('reasons through the engine', () => {
  const sentences = [...TALKS.es.sentences, ...TALKS.es.sentences.slice(1), ...TALKS.es.sentences.slice(0, 2)];
  const { words, end } = speak(sentences);

  it('are written in the submission’s language, English for a language without frames', () => {
    const strategy = { min_seconds: 10, max_seconds: 20, max_clips: 3 };
    const es = pickHighlights({ words, duration: end + 1, strategy, language: 'es' });
    expect(es.length).toBeGreaterThan(0);
    for (const c of es) {
      expect(c.reason).toMatch(/^Sobre /);
      for (const w of TALKS.es.never) expect(c.title.toLowerCase().split(' ')).not.toContain(w);
    }
    const other = pickHighlights({ words, duration: end + 1, strategy, language: 'sv' });
    for (const c of other) expect(c.reason).toMatch(/^About /);
    const english = pickHighlights({ words, duration: end + 1, strategy });
    expect(english.map((c) => c.reason)).toEqual(other.map((c) => c.reason));
  });
});

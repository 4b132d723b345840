import { STOPWORDS } from './lexicon.js';

/**
 * What the engine writes in the clip's language (docs/highlights.md, "Reasons in the clip's
 * language"): the stopwords that keep key phrases to content words, and the frames of a clip's reason
 * sentence (the connecting words around its key phrases and the words that say why it scored as it
 * did). English, Spanish, French, German, Portuguese and Italian; any other language gets English frames
 * and English stopwords. Pure data.
 */

export const REASON_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it'] as const;
export type ReasonLanguage = (typeof REASON_LANGUAGES)[number];

/** The language whose frames a submission's language code gets: `es`, `es-MX`, `ES` → `es`; unknown or missing → `en`. */
export function reasonLanguage(code?: string | null): ReasonLanguage {
  const base = String(code ?? '')
    .trim()
    .toLowerCase()
    .split(/[-_]/)[0];
  return (REASON_LANGUAGES as readonly string[]).includes(base) ? (base as ReasonLanguage) : 'en';
}

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Function words (articles, prepositions, pronouns, auxiliaries, common adverbs) and spoken fillers, lowercase. */
const OTHER_STOPWORDS: Readonly<Record<Exclude<ReasonLanguage, 'en'>, ReadonlySet<string>>> = {
  es: set(`
    a al algo algunas algunos ante antes aquel aquella aquello aquí así aunque bien cada como con contra cual cuando
    de del desde donde dos e el él ella ellas ellos en entre era eran es esa esas ese eso esos esta está están estaba
    estas este esto estos estoy fue fueron ha había han has hasta hay he la las le les lo los más me mi mis mucho muy
    nada ni no nos nosotros o otra otras otro otros para pero poco por porque que qué quien se sea ser si sí sido sin
    sobre son su sus también tan tanto te tengo tiene tienen todo todos tu tus un una unas uno unos usted ustedes y ya yo
    durante después luego toda todas hacia según tras cuando mientras siempre nunca ahora
    eh este pues bueno vale o sea entonces digamos
  `),
  fr: set(`
    à a ai aie au aux avec avoir avait ce ceci cela celle celui ces cet cette c'est d' dans de des donc du elle elles
    en est et étaient était être eu eux il ils j' je l' la le les leur leurs lui m' ma mais me même mes moi mon n' ne
    ni nos notre nous on ont ou où par pas peu plus pour qu' quand que quel quelle qui s' sa sans se ses si son sont
    sur ta te tes toi ton tous tout toute très tu un une vos votre vous y c est qu alors aussi bien comme ça déjà
    pendant après avant depuis chez vers contre sous entre toutes ensuite puis toujours jamais maintenant
    euh ben bah hein voilà quoi bon enfin genre
  `),
  de: set(`
    aber als also am an auch auf aus bei bin bis bist da damit dann das dass dem den denn der des die dies diese dieser
    dieses doch dort du durch ein eine einem einen einer eines er es etwas für hab habe haben hat hatte hier ich ihr
    ihm ihn ihre im in ist ja jetzt kann kein keine mal man mich mir mit muss nach nicht nichts noch nur ob oder ohne
    schon sehr sein seine sich sie sind so über um und uns unser unter viel vom von vor war waren was weil wenn wer
    wie wir wird wo zu zum zur zwei
    während seit gegen ganz ganze ganzen ganzes mein meine meiner meinem meinen dein deine ihrem ihren seiner seinem seinen immer nie
    äh ähm eh naja halt eben genau okay
  `),
  pt: set(`
    a ao aos as às até com como da das de dela dele deles do dos e é ela elas ele eles em entre era eram essa essas
    esse esses esta está estão estava este estes eu foi foram há isso isto já la lhe lhes mais mas me meu meus minha
    muito na não nas nem no nos nós num numa o os ou para pela pelas pelo pelos por porque quando que quem se sem ser
    seu seus sua suas são também te tem têm tinha tu um uma umas uns você vocês vai vou
    durante depois após toda todo todos todas sempre nunca agora minha meu
    né tipo então assim bem aí pois ahn hum
  `),
  it: set(`
    a ad al alla alle agli ai anche che chi ci come con da dal dalla dei del della delle di dove e è ed era erano gli
    ha hanno ho i il in io la le lei lo loro lui ma mi mia mio molto ne nei nel nella noi non o per perché più quale
    quando quella quello questa questo se sei si sia siamo sono su sua sue suo suoi sul sulla ti tra tu tutto tutti
    un una uno vi voi c'è l' un' d' dell' all' nell'
    durante dopo poi tutta tutte sempre mai già ora mentre
    ehm beh cioè allora insomma ecco tipo dunque
  `),
};

/** The stopwords of a language code (English's for languages without a list). */
export function stopwordsOf(code?: string | null): ReadonlySet<string> {
  const lang = reasonLanguage(code);
  return lang === 'en' ? STOPWORDS : OTHER_STOPWORDS[lang];
}

/** The words of a reason sentence around what comes from the transcript (`q`: a quote, `w`: words said). */
export interface ReasonFrames {
  /** The whole sentence: what the clip is about, then why. */
  sentence: (about: string, why: string) => string;
  /** Joins two key phrases (also in titles made of two phrases). */
  and: string;
  /** Introduces the weak point after the strengths. */
  though: string;
  quote: (q: string) => string;
  says: (quoted: string) => string;
  opens: (quoted: string) => string;
  figures: (quoted: string) => string;
  feeling: (quoted: string) => string;
  question: string;
  complete: string;
  midThought: string;
  lively: string;
  slow: string;
  weakOpening: string;
  nothing: string;
  /** Stands for the key phrases when the clip has none. */
  thisStretch: string;
}

export const REASON_FRAMES: Readonly<Record<ReasonLanguage, ReasonFrames>> = {
  en: {
    sentence: (about, why) => `About ${about}: ${why}.`,
    and: 'and',
    though: 'though',
    quote: (q) => `“${q}”`,
    says: (q) => `it says ${q}`,
    opens: (q) => `it opens strongly (${q})`,
    figures: (q) => `it gives figures (${q})`,
    feeling: (q) => `it carries feeling (${q})`,
    question: 'it asks a question and answers it',
    complete: 'it is a complete thought',
    midThought: 'it starts or ends mid-thought',
    lively: 'the delivery is lively',
    slow: 'the delivery is slow',
    weakOpening: 'the opening is weak',
    nothing: 'nothing stands out',
    thisStretch: 'this stretch',
  },
  es: {
    sentence: (about, why) => `Sobre ${about}: ${why}.`,
    and: 'y',
    though: 'aunque',
    quote: (q) => `«${q}»`,
    says: (q) => `dice ${q}`,
    opens: (q) => `empieza con fuerza (${q})`,
    figures: (q) => `da cifras (${q})`,
    feeling: (q) => `transmite emoción (${q})`,
    question: 'plantea una pregunta y la responde',
    complete: 'es una idea completa',
    midThought: 'empieza o termina a mitad de una idea',
    lively: 'el tono es animado',
    slow: 'el ritmo es lento',
    weakOpening: 'el comienzo es flojo',
    nothing: 'nada destaca',
    thisStretch: 'este fragmento',
  },
  fr: {
    sentence: (about, why) => `À propos de ${about} : ${why}.`,
    and: 'et',
    though: 'même si',
    quote: (q) => `« ${q} »`,
    says: (q) => `il dit ${q}`,
    opens: (q) => `il commence fort (${q})`,
    figures: (q) => `il donne des chiffres (${q})`,
    feeling: (q) => `il transmet de l’émotion (${q})`,
    question: 'il pose une question et y répond',
    complete: 'c’est une idée complète',
    midThought: 'il commence ou finit au milieu d’une idée',
    lively: 'le débit est vivant',
    slow: 'le débit est lent',
    weakOpening: 'le début est faible',
    nothing: 'rien ne ressort',
    thisStretch: 'ce passage',
  },
  de: {
    sentence: (about, why) => `Über ${about}: ${why}.`,
    and: 'und',
    though: 'aber',
    quote: (q) => `„${q}“`,
    says: (q) => `er sagt ${q}`,
    opens: (q) => `er beginnt stark (${q})`,
    figures: (q) => `er nennt Zahlen (${q})`,
    feeling: (q) => `er zeigt Gefühl (${q})`,
    question: 'er stellt eine Frage und beantwortet sie',
    complete: 'er ist ein abgeschlossener Gedanke',
    midThought: 'er beginnt oder endet mitten im Gedanken',
    lively: 'der Vortrag ist lebendig',
    slow: 'der Vortrag ist langsam',
    weakOpening: 'der Einstieg ist schwach',
    nothing: 'nichts sticht hervor',
    thisStretch: 'diesen Abschnitt',
  },
  pt: {
    sentence: (about, why) => `Sobre ${about}: ${why}.`,
    and: 'e',
    though: 'mas',
    quote: (q) => `“${q}”`,
    says: (q) => `diz ${q}`,
    opens: (q) => `começa forte (${q})`,
    figures: (q) => `dá números (${q})`,
    feeling: (q) => `transmite emoção (${q})`,
    question: 'faz uma pergunta e responde',
    complete: 'é uma ideia completa',
    midThought: 'começa ou termina no meio de uma ideia',
    lively: 'o ritmo é animado',
    slow: 'o ritmo é lento',
    weakOpening: 'o início é fraco',
    nothing: 'nada se destaca',
    thisStretch: 'este trecho',
  },
  it: {
    sentence: (about, why) => `Parla di ${about}: ${why}.`,
    and: 'e',
    though: 'anche se',
    quote: (q) => `«${q}»`,
    says: (q) => `dice ${q}`,
    opens: (q) => `inizia con forza (${q})`,
    figures: (q) => `dà cifre (${q})`,
    feeling: (q) => `trasmette emozione (${q})`,
    question: 'pone una domanda e risponde',
    complete: 'è un’idea completa',
    midThought: 'inizia o finisce a metà di un’idea',
    lively: 'il ritmo è vivace',
    slow: 'il ritmo è lento',
    weakOpening: 'l’inizio è debole',
    nothing: 'niente spicca',
    thisStretch: 'questo passaggio',
  },
};

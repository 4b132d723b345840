/**
 * Compact built-in English word lists and text helpers for the highlight signals (docs/highlights.md).
 * Everything here is lowercase; tokens come from `tokenize`.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** Function words left out of topic cohesion and title scoring. */
export const STOPWORDS = set(`
  a about above after again against all am an and any are aren't as at be because been before being below
  between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each
  few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself
  him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't
  my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd
  she'll she's should shouldn't so some such than that that's the their theirs them themselves then there
  there's these they they'd they'll they're they've this those through to too under until up very was wasn't we
  we'd we'll we're we've were weren't what what's when when's where where's which while who who's whom why why's
  with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
  um uh uhm er ah oh hmm yeah yes okay ok well like just really actually basically literally gonna wanna gotta
  kind sort thing things stuff got get gets getting go goes going went know mean say said says see right also
  one lot lots maybe even still much many way
`);

/** Fillers dropped from titles and ignored at the start of an opener. */
export const FILLERS = set('um uh uhm er ah oh hmm mm erm yeah okay ok well basically');

/** Words that, opening a clip, show it continues something said before. */
export const DANGLING_OPENERS = set('and but so or because then also plus anyway which nor yet though although whereas cause');

/** Interrogatives that open a question (with or without a question mark). */
export const WH_WORDS = set('what why how who whom whose where when which');
/** Auxiliaries that open a yes/no question when followed by a pronoun ("do you", "is it"). */
export const AUX_WORDS = set("do does did is are was were can could would should will have has had isn't aren't don't doesn't didn't can't won't");
export const QUESTION_SUBJECTS = set('you i we they he she it this that there your people anyone anybody someone everyone');

/** Verbs that open a sentence in the imperative ("Imagine ...", "Stop ..."). */
export const IMPERATIVES = set(`
  imagine look listen stop think picture consider remember forget try watch check meet guess notice start
  take make give let let's here's don't never ask pay learn avoid quit use keep tell show follow join
`);

/** Surprising, contrarian or curiosity words that make an opening line a hook. */
export const HOOK_WORDS = set(`
  never always secret secrets mistake mistakes wrong truth nobody everyone everybody everything nothing myth myths lie lies hidden
  surprising surprisingly shocking crazy insane biggest worst best only actually stop warning
  nobody's unbelievable unexpected weird strange counterintuitive forbidden rule rules trick hack tricks hacks
  problem reason reasons real ultimate simple simplest fastest easiest hardest first last
`);

/** Strongly emotional words (positive and negative). */
export const EMOTION_WORDS = set(`
  love loved loving hate hated hating amazing incredible awesome wonderful fantastic beautiful brilliant perfect
  terrible horrible awful disaster disastrous nightmare painful pain hurt hurts scared scary fear afraid terrified
  angry furious mad rage sad cried cry crying tears happy happiest joy excited exciting thrilled proud ashamed
  embarrassed embarrassing shocked shocking stunned surprised surprising unbelievable insane crazy wild epic
  devastated devastating heartbreaking broke broken lose losing lost died death dead kill killed killing win won winning
  fail failed failing failure success successful dream dreams worst best favorite favourite hero disgusting
  stupid ridiculous genius magic miracle panic stress stressed anxious lonely desperate grateful thankful
  obsessed addicted dangerous risk risky massive huge
`);

/** Intensifiers and emphasis. */
export const INTENSIFIERS = set(`
  very really absolutely totally completely extremely super incredibly literally seriously truly deeply
  highly utterly insanely ridiculously crazy massive huge enormous tremendous every single entire whole
  most least ever biggest
`);

export const NUMBER_WORDS = set(`
  zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
  seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand
  thousands million millions billion billions trillion half double triple twice dozen dozens
`);
/** Words that turn a number into a statistic. */
export const STAT_WORDS = set('percent percentage % per cent times x dollars dollar euros euro pounds $ € £ years months days hours minutes seconds average');

/** Lowercase word tokens; apostrophes inside words are kept, `%`, `$`, `€`, `£` are tokens of their own. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /[\p{L}\p{N}]+(?:['’.,][\p{L}\p{N}]+)*|[%$€£]/gu;
  for (const m of text.toLowerCase().matchAll(re)) out.push(m[0].replace(/’/g, "'"));
  return out;
}

export function isNumberToken(token: string): boolean {
  return /\d/.test(token) || NUMBER_WORDS.has(token);
}

/** A small suffix-stripping stemmer (Porter-like steps 1a/1b plus -ly/-ness/-ment), enough for lexical cohesion. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, '').replace(/'/g, '');
  if (w.length <= 3) return w;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ingly', 'edly', 'ness', 'ment', 'ing', 'ly', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && /[aeiouy]/.test(w.slice(0, -suffix.length))) {
      w = w.slice(0, -suffix.length);
      // "running" -> "runn" -> "run"; "stopped" -> "stopp" -> "stop"
      if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  return w;
}

/** Content stems of a token list: stopwords, numbers and one-letter tokens removed. */
export function contentStems(tokens: string[]): string[] {
  const out: string[] = [];
  for (const t of tokens) {
    if (t.length < 2 || STOPWORDS.has(t) || /^\d/.test(t)) continue;
    out.push(stem(t));
  }
  return out;
}

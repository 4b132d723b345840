/**
 * Language codes for ASR (pure). Whisper-style servers answer `language` as an English name
 * ("english") while others answer a code ("en"); both are turned into ISO 639-1 codes here.
 */

/** Whisper's languages: ISO 639-1 (or 639-2 where Whisper uses it) code -> English name. */
export const WHISPER_LANGUAGES: Record<string, string> = {
  en: 'english',
  zh: 'chinese',
  de: 'german',
  es: 'spanish',
  ru: 'russian',
  ko: 'korean',
  fr: 'french',
  ja: 'japanese',
  pt: 'portuguese',
  tr: 'turkish',
  pl: 'polish',
  ca: 'catalan',
  nl: 'dutch',
  ar: 'arabic',
  sv: 'swedish',
  it: 'italian',
  id: 'indonesian',
  hi: 'hindi',
  fi: 'finnish',
  vi: 'vietnamese',
  he: 'hebrew',
  uk: 'ukrainian',
  el: 'greek',
  ms: 'malay',
  cs: 'czech',
  ro: 'romanian',
  da: 'danish',
  hu: 'hungarian',
  ta: 'tamil',
  no: 'norwegian',
  th: 'thai',
  ur: 'urdu',
  hr: 'croatian',
  bg: 'bulgarian',
  lt: 'lithuanian',
  la: 'latin',
  mi: 'maori',
  ml: 'malayalam',
  cy: 'welsh',
  sk: 'slovak',
  te: 'telugu',
  fa: 'persian',
  lv: 'latvian',
  bn: 'bengali',
  sr: 'serbian',
  az: 'azerbaijani',
  sl: 'slovenian',
  kn: 'kannada',
  et: 'estonian',
  mk: 'macedonian',
  br: 'breton',
  eu: 'basque',
  is: 'icelandic',
  hy: 'armenian',
  ne: 'nepali',
  mn: 'mongolian',
  bs: 'bosnian',
  kk: 'kazakh',
  sq: 'albanian',
  sw: 'swahili',
  gl: 'galician',
  mr: 'marathi',
  pa: 'punjabi',
  si: 'sinhala',
  km: 'khmer',
  sn: 'shona',
  yo: 'yoruba',
  so: 'somali',
  af: 'afrikaans',
  oc: 'occitan',
  ka: 'georgian',
  be: 'belarusian',
  tg: 'tajik',
  sd: 'sindhi',
  gu: 'gujarati',
  am: 'amharic',
  yi: 'yiddish',
  lo: 'lao',
  uz: 'uzbek',
  fo: 'faroese',
  ht: 'haitian creole',
  ps: 'pashto',
  tk: 'turkmen',
  nn: 'nynorsk',
  mt: 'maltese',
  sa: 'sanskrit',
  lb: 'luxembourgish',
  my: 'myanmar',
  bo: 'tibetan',
  tl: 'tagalog',
  mg: 'malagasy',
  as: 'assamese',
  tt: 'tatar',
  haw: 'hawaiian',
  ln: 'lingala',
  ha: 'hausa',
  ba: 'bashkir',
  jw: 'javanese',
  su: 'sundanese',
  yue: 'cantonese',
};

const BY_NAME = new Map(Object.entries(WHISPER_LANGUAGES).map(([code, name]) => [name, code]));
// Names some servers use besides Whisper's own.
for (const [name, code] of [
  ['burmese', 'my'],
  ['valencian', 'ca'],
  ['flemish', 'nl'],
  ['haitian', 'ht'],
  ['letzeburgesch', 'lb'],
  ['pushto', 'ps'],
  ['panjabi', 'pa'],
  ['moldavian', 'ro'],
  ['moldovan', 'ro'],
  ['sinhalese', 'si'],
  ['castilian', 'es'],
  ['mandarin', 'zh'],
] as const) {
  BY_NAME.set(name, code);
}

/**
 * `en-US`, `EN`, `en_GB` -> `en`; `auto`, empty or undefined -> undefined (let the engine detect).
 * Anything else is lower-cased and kept (`haw`, `yue`).
 */
export function normalizeLanguage(lang: string | undefined | null): string | undefined {
  if (lang === undefined || lang === null) return undefined;
  const l = lang.trim().toLowerCase();
  if (l === '' || l === 'auto') return undefined;
  return l.split(/[-_]/)[0];
}

/** A server's `language` answer ("english", "English", "en", "en-US") as a code; undefined when unknown. */
export function languageCode(answer: unknown): string | undefined {
  if (typeof answer !== 'string') return undefined;
  const l = answer.trim().toLowerCase();
  if (l === '') return undefined;
  const byName = BY_NAME.get(l);
  if (byName) return byName;
  const code = normalizeLanguage(l);
  return code && /^[a-z]{2,3}$/.test(code) ? code : undefined;
}
